/* The Python side of the compiled core: the game object and each part's registration.
 *
 * module.c creates the extension module friday_env._core.compiled and calls each part's
 * fr_register_* function, so each part (game, encoder, vector env, C API) keeps
 * its bindings in a file of its own.
 */
#ifndef FRIDAY_PYBIND_H
#define FRIDAY_PYBIND_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "friday.h"

/* A game as a Python object (the base type of friday_env.core.CompiledGame). */
typedef struct {
    PyObject_HEAD
    fr_game g;
    PyObject *legal_list; /* the cached legal_actions() list, NULL when stale */
    PyObject *origin;     /* the `origin` dict (how the game was set up); NULL = empty */
} fr_pygame;

/* The game type, created by fr_register_game (game_py.c). */
extern PyTypeObject *fr_game_type;
/* 1 if `o` is a compiled game (of the type or a subclass), else 0. */
int fr_pygame_check(PyObject *o);
#define FR_GAME(o) (&((fr_pygame *)(o))->g)
/* Call after changing FR_GAME(o) by other means than fr_apply: drops cached legal lists. */
void fr_pygame_changed(PyObject *o);
/* A new game object of `type` (fr_game_type or a subclass) holding a copy of `g`; NULL with
 * an exception set on failure. The origin dict is shared with `origin_from` if not NULL. */
PyObject *fr_pygame_wrap(PyTypeObject *type, const fr_game *g, PyObject *origin_from);

/* Raises friday_env.errors.StateError (ValueError if it cannot be imported) with a message
 * formatted as PyErr_Format's; returns NULL. Every refusal of a state or seed goes here. */
PyObject *fr_state_error(const char *format, ...);
/* A seed the compiled core holds: an int (not a bool) in 0..2**64-1, else StateError naming
 * `field` and the limit; 0 ok, -1 with the error set. */
int fr_parse_seed(PyObject *value, const char *field, uint64_t *out);

int fr_register_game(PyObject *module);      /* game_py.c */
int fr_register_encode(PyObject *module);    /* encode_py.c */
int fr_register_vecenv(PyObject *module);    /* vecenv_py.c */
int fr_register_rng(PyObject *module);       /* rng_py.c, in the test hooks (test_hooks.c) */
int fr_register_capi(PyObject *module);      /* capi.c: the capsule of friday_capi.h */

#endif
