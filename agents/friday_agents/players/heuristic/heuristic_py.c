/* Python bindings of heuristic.c: the heuristic policy on a compiled game.
 *
 *   heuristic_action(game, params=None) -> int    the heuristic's action (-1: game over)
 *   heuristic_play(game, max_actions, params=None) -> int   actions played in C
 *   heuristic_default_params() -> tuple           FR_DEFAULT_PARAMS, in HeuristicParams order
 *   heuristic_compensated_sum                     True when sum() is Neumaier's (3.12+)
 *
 * `params` is None (the defaults) or a tuple of the HeuristicParams fields in their order:
 * eight numbers and hard_pirate_first (a bool or int).
 */
#include "heuristic.h"
#include "kernels.h"

#define PARAM_COUNT 9

static int parse_params(PyObject *obj, fr_heuristic_params *out) {
    *out = FR_DEFAULT_PARAMS;
    if (obj == NULL || obj == Py_None) return 0;
    if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != PARAM_COUNT) {
        PyErr_Format(PyExc_TypeError,
                     "params must be None or a tuple of the %d HeuristicParams fields, got %R",
                     PARAM_COUNT, obj);
        return -1;
    }
    double *fields[PARAM_COUNT - 1] = {
        &out->life_value, &out->low_life, &out->win_bonus, &out->destroy_weight,
        &out->last_hazard_margin, &out->exchange_margin, &out->future_weight, &out->future_mean,
    };
    for (int i = 0; i < PARAM_COUNT - 1; i++) {
        PyObject *item = PyTuple_GET_ITEM(obj, i);
        if (!PyFloat_Check(item) && !PyLong_Check(item)) {
            PyErr_Format(PyExc_TypeError, "params[%d] must be a number, got %R", i, item);
            return -1;
        }
        *fields[i] = PyFloat_AsDouble(item);
        if (*fields[i] == -1.0 && PyErr_Occurred()) return -1;
    }
    PyObject *hard = PyTuple_GET_ITEM(obj, PARAM_COUNT - 1);
    if (!PyLong_Check(hard)) { /* bool is an int; Python compares it with == */
        PyErr_Format(PyExc_TypeError, "params[8] (hard_pirate_first) must be a bool, got %R",
                     hard);
        return -1;
    }
    int overflow = 0;
    long value = PyLong_AsLongAndOverflow(hard, &overflow);
    if (value == -1 && PyErr_Occurred()) return -1;
    /* a value neither 0 nor 1 equals neither True nor False, as in Python */
    out->hard_pirate_first = overflow || value < -1 || value > 1 ? 2 : (int)value;
    return 0;
}

static PyObject *py_heuristic_action(PyObject *self, PyObject *args) {
    PyObject *game, *params_obj = Py_None;
    fr_heuristic_params params;
    if (!PyArg_ParseTuple(args, "O|O:heuristic_action", &game, &params_obj)) return NULL;
    fr_game *g = fr_kernel_game(game, "heuristic_action");
    if (g == NULL || parse_params(params_obj, &params) < 0) return NULL;
    return PyLong_FromLong(fr_heuristic_action(g, &params));
}

static PyObject *py_heuristic_play(PyObject *self, PyObject *args) {
    PyObject *game, *params_obj = Py_None;
    int max_actions;
    fr_heuristic_params params;
    if (!PyArg_ParseTuple(args, "Oi|O:heuristic_play", &game, &max_actions, &params_obj))
        return NULL;
    fr_game *g = fr_kernel_game(game, "heuristic_play");
    if (g == NULL || parse_params(params_obj, &params) < 0) return NULL;
    if (max_actions < 0) {
        PyErr_Format(PyExc_ValueError, "heuristic_play: max_actions must be >= 0, got %d",
                     max_actions);
        return NULL;
    }
    int played = fr_heuristic_play(g, &params, max_actions);
    fr_capi->game_changed(game);
    if (played == -2) return PyErr_NoMemory();
    if (played < 0) {
        PyErr_SetString(PyExc_RuntimeError,
                        "heuristic_play: the game refused the heuristic's action (a bug)");
        return NULL;
    }
    return PyLong_FromLong(played);
}

static PyObject *py_default_params(PyObject *self, PyObject *unused) {
    const fr_heuristic_params *p = &FR_DEFAULT_PARAMS;
    return Py_BuildValue("(ddddddddO)", p->life_value, p->low_life, p->win_bonus,
                         p->destroy_weight, p->last_hazard_margin, p->exchange_margin,
                         p->future_weight, p->future_mean,
                         p->hard_pirate_first ? Py_True : Py_False);
}

static PyMethodDef heuristic_methods[] = {
    {"heuristic_action", py_heuristic_action, METH_VARARGS,
     "heuristic_action(game, params=None): the heuristic's action for a compiled game "
     "(-1 when the game is over); params is None or a tuple of HeuristicParams fields."},
    {"heuristic_play", py_heuristic_play, METH_VARARGS,
     "heuristic_play(game, max_actions, params=None): play the heuristic inside C until the "
     "game ends or max_actions were played; returns the number of actions played."},
    {"heuristic_default_params", py_default_params, METH_NOARGS,
     "The C heuristic's default parameters, in HeuristicParams field order."},
    {NULL, NULL, 0, NULL},
};

int fr_register_heuristic(PyObject *module) {
    fr_heuristic_use_interpreter_sum();
    fr_heuristic_prepare(); /* before search_rollouts plays in threads without the GIL */
    if (PyModule_AddFunctions(module, heuristic_methods) < 0) return -1;
    PyObject *flag = PyBool_FromLong(fr_heuristic_compensated_sum());
    if (PyModule_AddObject(module, "heuristic_compensated_sum", flag) < 0) {
        Py_DECREF(flag);
        return -1;
    }
    return 0;
}
