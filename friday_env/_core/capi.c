/* The compiled core's C API (friday_capi.h), exported as a capsule on the extension module. */
#include "friday_capi.h"
#include "pybind.h"

static fr_game *game_of(PyObject *obj) { return fr_pygame_check(obj) ? FR_GAME(obj) : NULL; }

static const friday_capi api = {
    .version = FRIDAY_CAPI_VERSION,
    .game_size = sizeof(fr_game),
    .game_of = game_of,
    .game_changed = fr_pygame_changed,
    .game_init = fr_game_init,
    .game_free = fr_game_free,
    .game_copy = fr_game_copy,
    .game_new = fr_game_new,
    .legal = fr_legal,
    .apply = fr_apply,
    .fight_value = fr_fight_value,
    .fight_total = fr_fight_total,
    .paid_draw_cost = fr_paid_draw_cost,
    .score = fr_score,
    .determinized = fr_determinized,
    .rng_prefetch = fr_rng_prefetch,
    .rng_use = fr_rng_use,
    .encode_flat = fr_encode_flat,
};

int fr_register_capi(PyObject *module) {
    PyObject *capsule = PyCapsule_New((void *)&api, FRIDAY_CAPI_CAPSULE, NULL);
    if (capsule == NULL) return -1;
    if (PyModule_AddObject(module, "_C_API", capsule) < 0) {
        Py_DECREF(capsule);
        return -1;
    }
    return 0;
}
