/* The compiled core's C API: how another extension (the agents' kernels, friday_agents.players
 * ._kernels) plays on the env's compiled games without linking the env's C.
 *
 * The extension friday_env._core.compiled exports one friday_capi table as the capsule
 * FRIDAY_CAPI_CAPSULE; a client calls friday_capi_import() once at import and then plays on
 * the fr_game inside a CompiledGame through the table. Both sides are compiled from this
 * header and friday.h in one build: the version and the size of fr_game guard against an
 * extension built from other sources.
 */
#ifndef FRIDAY_CAPI_H
#define FRIDAY_CAPI_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "friday.h"

#define FRIDAY_CAPI_CAPSULE "friday_env._core.compiled._C_API"
/* 2: fr_rng_cache holds FR_RNG_CACHE_SIZE = 48; 3: encode_flat (the search's network rollouts) */
#define FRIDAY_CAPI_VERSION 3

typedef struct {
    int version;      /* FRIDAY_CAPI_VERSION */
    size_t game_size; /* sizeof(fr_game) */
    /* the fr_game of a compiled game (CoreGame or a subclass); NULL, no exception, for any
     * other object */
    fr_game *(*game_of)(PyObject *obj);
    /* call after changing a game's fr_game by other means than its methods: drops the
     * game's cached legal-action list */
    void (*game_changed)(PyObject *obj);
    /* the rules (friday.h, game.c) */
    void (*game_init)(fr_game *g);
    void (*game_free)(fr_game *g);
    int (*game_copy)(fr_game *dst, const fr_game *src);
    int (*game_new)(fr_game *g, int level, uint64_t seed);
    int (*legal)(fr_game *g);
    int (*apply)(fr_game *g, int action);
    int (*fight_value)(const fr_game *g);
    int (*fight_total)(const fr_game *g);
    int (*paid_draw_cost)(const fr_game *g);
    int (*score)(const fr_game *g);
    int (*determinized)(fr_game *dst, const fr_game *src, uint64_t seed);
    /* the shuffle generators' prefetch cache (rng.c): speed only, results are the same */
    void (*rng_prefetch)(fr_rng_cache *cache, const uint64_t *seeds, const int64_t *ks,
                         int32_t count);
    void (*rng_use)(fr_rng_cache *cache);
    /* the "flat" observation (encode.c), FR_FLAT_SIZE floats: what a policy network reads */
    void (*encode_flat)(const fr_game *g, float *out);
} friday_capi;

/* The env's table, checked; NULL with ImportError set when the env's extension is missing
 * or was built from other sources. */
static inline const friday_capi *friday_capi_import(void) {
    const friday_capi *api = (const friday_capi *)PyCapsule_Import(FRIDAY_CAPI_CAPSULE, 0);
    if (api == NULL) {
        PyObject *type, *value, *traceback;
        PyErr_Fetch(&type, &value, &traceback);
        PyErr_Format(PyExc_ImportError, "the compiled core's C API (%s) is not available: %S",
                     FRIDAY_CAPI_CAPSULE, value ? value : Py_None);
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(traceback);
        return NULL;
    }
    if (api->version != FRIDAY_CAPI_VERSION || api->game_size != sizeof(fr_game)) {
        PyErr_Format(PyExc_ImportError,
                     "the compiled core's C API is version %d with %zu-byte games; this "
                     "extension needs version %d with %zu-byte games (rebuild both)",
                     api->version, api->game_size, FRIDAY_CAPI_VERSION, sizeof(fr_game));
        return NULL;
    }
    return api;
}

#endif
