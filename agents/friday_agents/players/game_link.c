/* friday.h's game functions for the kernels, forwarded to the env's extension through its C
 * API (friday_capi.h): the kernels' C reads like the env's own, and the rules stay in one
 * place (friday_env/_core/game.c). */
#include "kernels.h"

const friday_capi *fr_capi = NULL;

fr_game *fr_kernel_game(PyObject *obj, const char *function) {
    fr_game *g = fr_capi->game_of(obj);
    if (g == NULL)
        PyErr_Format(PyExc_TypeError,
                     "%s: game must be a compiled game (friday_env.core.CompiledGame), got %.100s",
                     function, Py_TYPE(obj)->tp_name);
    return g;
}

void fr_game_init(fr_game *g) { fr_capi->game_init(g); }
void fr_game_free(fr_game *g) { fr_capi->game_free(g); }
int fr_game_copy(fr_game *dst, const fr_game *src) { return fr_capi->game_copy(dst, src); }
int fr_game_new(fr_game *g, int level, uint64_t seed) { return fr_capi->game_new(g, level, seed); }
int fr_legal(fr_game *g) { return fr_capi->legal(g); }
int fr_apply(fr_game *g, int action) { return fr_capi->apply(g, action); }
int fr_fight_value(const fr_game *g) { return fr_capi->fight_value(g); }
int fr_fight_total(const fr_game *g) { return fr_capi->fight_total(g); }
int fr_paid_draw_cost(const fr_game *g) { return fr_capi->paid_draw_cost(g); }
int fr_score(const fr_game *g) { return fr_capi->score(g); }
int fr_determinized(fr_game *dst, const fr_game *src, uint64_t seed) {
    return fr_capi->determinized(dst, src, seed);
}
void fr_rng_prefetch(fr_rng_cache *cache, const uint64_t *seeds, const int64_t *ks, int32_t count) {
    fr_capi->rng_prefetch(cache, seeds, ks, count);
}
void fr_rng_use(fr_rng_cache *cache) { fr_capi->rng_use(cache); }
void fr_encode_flat(const fr_game *g, float *out) { fr_capi->encode_flat(g, out); }
