/* Python bindings of search.c: `search_rollouts`, one decision's simulations in one call.
 *
 * friday_agents.players.search.compiled is the only caller; it owns the output arrays (numpy) and
 * values the rollout ends. No numpy headers: the arrays arrive through the buffer protocol.
 */
#include "pybind.h"

#define FR_MAX_CANDIDATES FR_A_NUM_ACTIONS
#define FR_MAX_WORLDS 100000
/* layout bytes: cards, n_groups, n_deck, n_pirate, then group/deck/pirate columns per card */
#define FR_LAYOUT_BYTES (4 + 3 * FR_NUM_CARDS)
/* an ends array row (5 int32) is read as one fr_rollout_end */
_Static_assert(sizeof(fr_rollout_end) == 5 * sizeof(int32_t), "fr_rollout_end is 5 int32");

static int parse_layout(PyObject *obj, fr_leaf_layout *layout) {
    if (!PyBytes_Check(obj) || PyBytes_GET_SIZE(obj) != FR_LAYOUT_BYTES) {
        PyErr_Format(PyExc_ValueError, "search_rollouts: layout must be %d bytes",
                     FR_LAYOUT_BYTES);
        return -1;
    }
    const int8_t *b = (const int8_t *)PyBytes_AS_STRING(obj);
    layout->cards = b[0];
    layout->n_groups = b[1];
    layout->n_deck = b[2];
    layout->n_pirate = b[3];
    memcpy(layout->group, b + 4, FR_NUM_CARDS);
    memcpy(layout->deck, b + 4 + FR_NUM_CARDS, FR_NUM_CARDS);
    memcpy(layout->pirate, b + 4 + 2 * FR_NUM_CARDS, FR_NUM_CARDS);
    int columns[3] = {layout->n_groups, layout->n_deck, layout->n_pirate};
    const int8_t *maps[3] = {layout->group, layout->deck, layout->pirate};
    for (int m = 0; m < 3; m++) {
        if (columns[m] < 0 || columns[m] > FR_NUM_CARDS) goto bad;
        for (int c = 0; c < FR_NUM_CARDS; c++)
            if (maps[m][c] < -1 || maps[m][c] >= columns[m]) goto bad;
    }
    /* the cards set writes a column for every known card and every pirate: all must exist */
    for (int c = 0; layout->cards && c < FR_NUM_CARDS; c++)
        if ((FR_KIND[c] != 4 && layout->deck[c] < 0) || (FR_KIND[c] == 4 && layout->pirate[c] < 0))
            goto bad;
    return 0;
bad:
    PyErr_SetString(PyExc_ValueError, "search_rollouts: layout has a column out of range");
    return -1;
}

/* A sequence of ints into out[0..n); n must be within [1, cap]. */
static Py_ssize_t parse_ints(PyObject *obj, const char *what, Py_ssize_t cap, int64_t *out,
                             int is_seed) {
    PyObject *seq = PySequence_Fast(obj, "search_rollouts: expected a sequence");
    if (seq == NULL) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n < 1 || n > cap) {
        PyErr_Format(PyExc_ValueError, "search_rollouts: %s must hold 1 to %zd numbers, got %zd",
                     what, cap, n);
        Py_DECREF(seq);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        int64_t v = PyLong_AsLongLong(item);
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        if (v < 0 || (!is_seed && v >= FR_A_NUM_ACTIONS)) {
            PyErr_Format(PyExc_ValueError, "search_rollouts: %s holds %lld, out of range", what,
                         (long long)v);
            Py_DECREF(seq);
            return -1;
        }
        out[i] = v;
    }
    Py_DECREF(seq);
    return n;
}

/* A writable C-contiguous 2-D buffer of `format` with at least `rows` rows, `min_cols` columns. */
static int get_table(PyObject *obj, Py_buffer *view, const char *format, Py_ssize_t itemsize,
                     Py_ssize_t rows, Py_ssize_t min_cols, const char *what) {
    if (PyObject_GetBuffer(obj, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return -1;
    const char *f = view->format;
    if (f[0] == '<' || f[0] == '=' || f[0] == '@') f++;
    if (view->ndim != 2 || view->itemsize != itemsize || strcmp(f, format) != 0 ||
        view->shape[0] < rows || view->shape[1] < min_cols) {
        PyErr_Format(PyExc_ValueError,
                     "search_rollouts: %s must be a C-contiguous 2-D array of '%s' with at least "
                     "%zd rows and %zd columns",
                     what, format, rows, min_cols);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static int raise_status(int status, int bad_action) {
    if (status == FR_SEARCH_ILLEGAL)
        PyErr_Format(PyExc_ValueError, "search_rollouts: candidate action %d is not legal",
                     bad_action);
    else if (status == FR_SEARCH_NO_MEMORY)
        PyErr_NoMemory();
    else
        PyErr_SetString(PyExc_RuntimeError,
                        "search_rollouts: the heuristic chose an illegal action in a rollout");
    return -1;
}

typedef struct {
    int64_t actions[FR_MAX_CANDIDATES];
    int32_t actions32[FR_MAX_CANDIDATES];
    Py_ssize_t n_actions, n_seeds;
    uint64_t *seeds;
    fr_leaf_layout layout;
    fr_search_request request;
} search_args;

/* args: game, actions, seeds, (horizon, finish, max_actions, max_fights_left, oracle), layout */
static int parse_request(PyObject *const *args, search_args *a) {
    if (!fr_pygame_check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "search_rollouts: game must be a compiled-core game");
        return -1;
    }
    a->n_actions = parse_ints(args[1], "actions", FR_MAX_CANDIDATES, a->actions, 0);
    if (a->n_actions < 0) return -1;
    for (Py_ssize_t i = 0; i < a->n_actions; i++) a->actions32[i] = (int32_t)a->actions[i];
    Py_ssize_t n_seeds = PySequence_Size(args[2]);
    if (n_seeds < 0) return -1;
    if (n_seeds < 1 || n_seeds > FR_MAX_WORLDS) {
        PyErr_Format(PyExc_ValueError, "search_rollouts: seeds must hold 1 to %d seeds",
                     FR_MAX_WORLDS);
        return -1;
    }
    a->seeds = PyMem_Malloc(sizeof(uint64_t) * (size_t)n_seeds);
    if (a->seeds == NULL) return PyErr_NoMemory(), -1;
    a->n_seeds = parse_ints(args[2], "seeds", FR_MAX_WORLDS, (int64_t *)a->seeds, 1);
    if (a->n_seeds < 0) return -1;
    fr_rollout_options *o = &a->request.options;
    int oracle = 0;
    if (!PyArg_ParseTuple(args[3], "iiiip", &o->horizon, &o->finish, &o->max_actions,
                          &o->max_fights_left, &oracle))
        return -1;
    if (o->horizon < 1 || o->finish < 0 || o->max_actions < 1 || o->max_fights_left < 0) {
        PyErr_SetString(PyExc_ValueError, "search_rollouts: options out of range");
        return -1;
    }
    if (parse_layout(args[4], &a->layout) < 0) return -1;
    a->request.actions = a->actions32;
    a->request.n_actions = (int)a->n_actions;
    a->request.seeds = a->seeds;
    a->request.n_seeds = (int)a->n_seeds;
    a->request.oracle = oracle;
    a->request.layout = &a->layout;
    return 0;
}

static PyObject *run_search(PyObject *game, search_args *a, PyObject *ends_obj,
                            PyObject *rows_obj) {
    Py_ssize_t n_ends = a->n_actions * a->n_seeds;
    Py_buffer ends, rows;
    if (get_table(ends_obj, &ends, "i", 4, n_ends, 5, "ends") < 0) return NULL;
    if (ends.shape[1] != 5) { /* each row must be exactly one fr_rollout_end */
        PyErr_SetString(PyExc_ValueError, "search_rollouts: ends must have 5 columns");
        PyBuffer_Release(&ends);
        return NULL;
    }
    if (get_table(rows_obj, &rows, "d", 8, n_ends, fr_leaf_row_size(&a->layout), "rows") < 0) {
        PyBuffer_Release(&ends);
        return NULL;
    }
    int bad_action = -1;
    int status = fr_search_decision(FR_GAME(game), &a->request, (fr_rollout_end *)ends.buf,
                                    (double *)rows.buf, (int)rows.shape[1], &bad_action);
    PyBuffer_Release(&ends);
    PyBuffer_Release(&rows);
    if (status != FR_SEARCH_OK) return raise_status(status, bad_action), NULL;
    Py_RETURN_NONE;
}

static PyObject *search_rollouts(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError,
                        "search_rollouts(game, actions, seeds, options, layout, ends, rows)");
        return NULL;
    }
    search_args a;
    a.seeds = NULL;
    PyObject *result = NULL;
    if (parse_request(args, &a) == 0) result = run_search(args[0], &a, args[5], args[6]);
    PyMem_Free(a.seeds);
    return result;
}

static PyObject *leaf_features(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3 || !fr_pygame_check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "leaf_features(game, layout, row): a compiled game");
        return NULL;
    }
    fr_leaf_layout layout;
    if (parse_layout(args[1], &layout) < 0) return NULL;
    Py_buffer row;
    if (get_table(args[2], &row, "d", 8, 1, fr_leaf_row_size(&layout), "row") < 0) return NULL;
    fr_leaf_features(FR_GAME(args[0]), &layout, (double *)row.buf);
    PyBuffer_Release(&row);
    Py_RETURN_NONE;
}

static PyObject *is_core_game(PyObject *module, PyObject *obj) {
    return PyBool_FromLong(fr_pygame_check(obj));
}

static PyMethodDef search_methods[] = {
    {"is_core_game", is_core_game, METH_O,
     "is_core_game(obj): whether obj is a compiled-core game (search_rollouts can read it)."},
    {"search_rollouts", (PyCFunction)(void (*)(void))search_rollouts, METH_FASTCALL,
     "search_rollouts(game, actions, seeds, options, layout, ends, rows): one search "
     "decision's rollouts (friday_agents.players.search.compiled)."},
    {"leaf_features", (PyCFunction)(void (*)(void))leaf_features, METH_FASTCALL,
     "leaf_features(game, layout, row): the leaf value's feature row of game into row[0]."},
    {NULL, NULL, 0, NULL},
};

int fr_register_search(PyObject *module) { return PyModule_AddFunctions(module, search_methods); }
