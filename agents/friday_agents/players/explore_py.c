/* Python binding of explore.c:
 *
 *   explore_deal(game, budget, walk, choices, actions)
 *       -> (won, frames, walks, cells, win)
 *
 * cells: a tuple (step, beaten, fights, life_bin, value, chosen, path) per cell in the order
 * found, path the bytes of the cell state's actions from Game.new; win: the won game's
 * actions (bytes) or None. The deal is played without the GIL in pieces of PIECE frames;
 * between pieces the binding checks for signals, so Ctrl-C stops it promptly.
 */
#include "explore.h"
#include "kernels.h"

#define PIECE 200000 /* frames between signal checks: a fraction of a second */

static int play_until(void *x, int64_t until) { return fr_explore_continue(x, until); }

static PyObject *history_bytes(const fr_game *g) {
    return PyBytes_FromStringAndSize((const char *)g->history, g->history_len);
}

static PyObject *cells_tuple(const fr_explore *x) {
    PyObject *cells = PyTuple_New(x->n);
    for (int32_t i = 0; cells != NULL && i < x->n; i++) {
        const fr_explore_cell *c = &x->cells[i];
        PyObject *path = history_bytes(&c->game);
        PyObject *cell = path == NULL ? NULL
                                      : Py_BuildValue("iiiiiLN", c->step, c->beaten, c->fights,
                                                      c->life_bin, c->value, (long long)c->chosen,
                                                      path);
        if (cell == NULL) Py_CLEAR(cells);
        else PyTuple_SET_ITEM(cells, i, cell);
    }
    return cells;
}

static PyObject *result_of(const fr_explore *x) {
    PyObject *cells = cells_tuple(x);
    if (cells == NULL) return NULL;
    PyObject *win = x->won ? history_bytes(&x->walker) : Py_NewRef(Py_None);
    if (win == NULL) {
        Py_DECREF(cells);
        return NULL;
    }
    return Py_BuildValue("OLLNN", x->won ? Py_True : Py_False, (long long)x->frames,
                         (long long)x->walks, cells, win);
}

static int error_of(int rc) {
    if (rc == -1) PyErr_NoMemory();
    else if (rc == -3)
        PyErr_SetString(PyExc_ValueError, "explore_deal: a state outside the cell key's ranges");
    return -1;
}

static int parse_state(PyObject *obj, uint64_t *state) {
    *state = PyLong_AsUnsignedLongLong(obj); /* refuses < 0, >= 2**64 */
    return *state == (uint64_t)-1 && PyErr_Occurred() ? -1 : 0;
}

static PyObject *py_explore_deal(PyObject *module, PyObject *args) {
    PyObject *game_obj, *choices_obj, *actions_obj;
    long long budget;
    int walk;
    if (!PyArg_ParseTuple(args, "OLiOO:explore_deal", &game_obj, &budget, &walk, &choices_obj,
                          &actions_obj))
        return NULL;
    fr_game *start = fr_kernel_game(game_obj, "explore_deal");
    if (start == NULL) return NULL;
    if (budget < 0 || walk < 1)
        return PyErr_Format(PyExc_ValueError, "explore_deal: budget must be >= 0 and walk >= 1");
    uint64_t choices, actions;
    if (parse_state(choices_obj, &choices) < 0 || parse_state(actions_obj, &actions) < 0)
        return NULL;
    fr_explore x;
    int rc = fr_explore_begin(&x, start, walk, choices, actions);
    if (rc != 0) return error_of(rc), NULL;
    rc = fr_play_in_pieces(play_until, &x, &x.frames, budget, &x.won, PIECE);
    PyObject *result = NULL;
    if (rc == 0) result = result_of(&x);
    else if (rc != -2) error_of(rc);
    fr_explore_end(&x);
    return result;
}

static PyMethodDef explore_methods[] = {
    {"explore_deal", py_explore_deal, METH_VARARGS,
     "explore_deal(game, budget, walk, choices, actions) -> (won, frames, walks, cells, win): "
     "friday explore's archive on one deal from a compiled game, until a win or budget frames "
     "(learning/explore/archive.py plays the same in Python)."},
    {NULL, NULL, 0, NULL},
};

int fr_register_explore(PyObject *module) {
    return PyModule_AddFunctions(module, explore_methods);
}
