/* Python bindings of search.c: `search_rollouts`, one decision's simulations in one call.
 *
 * friday_agents.players.search.compiled is the only caller; it owns the output arrays (numpy) and
 * values the rollout ends. No numpy headers: the arrays arrive through the buffer protocol.
 * Every argument is read into C memory before the rollouts start (a sequence once, through a
 * tuple copy: an item's __index__ cannot resize what is being read); the rollouts then run
 * world by world without the GIL on a copy of the game, checking for signals in between.
 * With a learned leaf network (net: its sizes and weights, read-only while the rollouts run),
 * each end is valued in C into `values`; with a policy network (policy: likewise), it plays
 * the rollouts instead of the heuristic.
 */
#include <limits.h>

#include "kernels.h"
#include "search.h"

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
        if ((FR_KIND[c] != KIND_PIRATE && layout->deck[c] < 0) ||
            (FR_KIND[c] == KIND_PIRATE && layout->pirate[c] < 0))
            goto bad;
    return 0;
bad:
    PyErr_SetString(PyExc_ValueError, "search_rollouts: layout has a column out of range");
    return -1;
}

/* A sequence of ints, read once, as a new tuple of 1 to `cap` items; NULL with an error. */
static PyObject *int_tuple(PyObject *obj, const char *what, Py_ssize_t cap) {
    PyObject *items = PySequence_Tuple(obj); /* a snapshot: later changes to obj do not matter */
    if (items == NULL) return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(items);
    if (n < 1 || n > cap) {
        PyErr_Format(PyExc_ValueError, "search_rollouts: %s must hold 1 to %zd numbers, got %zd",
                     what, cap, n);
        Py_DECREF(items);
        return NULL;
    }
    return items;
}

/* The tuple's n items into out[0..n), each in [0, limit] (limit 0: any int64 >= 0). */
static int read_ints(PyObject *items, const char *what, int64_t limit, int64_t *out) {
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(items); i++) {
        int64_t v = PyLong_AsLongLong(PyTuple_GET_ITEM(items, i));
        if (v == -1 && PyErr_Occurred()) return -1;
        if (v < 0 || (limit > 0 && v > limit)) {
            PyErr_Format(PyExc_ValueError, "search_rollouts: %s holds %lld, out of range", what,
                         (long long)v);
            return -1;
        }
        out[i] = v;
    }
    return 0;
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
                        "search_rollouts: the rollout policy chose an illegal action");
    return -1;
}

/* A writable (or, for params, any) C-contiguous 1-D buffer of doubles of at least `min_len`
 * items (exactly, when `exact`). */
static int get_vector(PyObject *obj, Py_buffer *view, int writable, Py_ssize_t min_len, int exact,
                      const char *what) {
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) < 0) return -1;
    const char *f = view->format;
    if (f[0] == '<' || f[0] == '=' || f[0] == '@') f++;
    Py_ssize_t n = view->ndim == 1 ? view->shape[0] : -1;
    if (view->itemsize != 8 || strcmp(f, "d") != 0 || n < min_len || (exact && n != min_len)) {
        PyErr_Format(PyExc_ValueError,
                     "search_rollouts: %s must be a C-contiguous 1-D array of %zd%s float64s", what,
                     min_len, exact ? "" : " or more");
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

typedef struct {
    int64_t actions[FR_MAX_CANDIDATES];
    int32_t actions32[FR_MAX_CANDIDATES];
    Py_ssize_t n_actions, n_seeds;
    uint64_t *seeds; /* owned (PyMem) */
    fr_leaf_layout layout;
    fr_leaf_net net;
    Py_buffer params; /* the network's weights, held while the rollouts run */
    int has_params;
    fr_policy_net policy;
    Py_buffer policy_params; /* the rollout policy's weights, held likewise */
    int has_policy_params;
    fr_search_request request;
} search_args;

static int parse_actions(PyObject *obj, search_args *a) {
    PyObject *items = int_tuple(obj, "actions", FR_MAX_CANDIDATES);
    if (items == NULL) return -1;
    a->n_actions = PyTuple_GET_SIZE(items);
    int rc = read_ints(items, "actions", FR_A_NUM_ACTIONS - 1, a->actions);
    Py_DECREF(items);
    for (Py_ssize_t i = 0; rc == 0 && i < a->n_actions; i++) a->actions32[i] = (int32_t)a->actions[i];
    return rc;
}

static int parse_seeds(PyObject *obj, search_args *a) {
    PyObject *items = int_tuple(obj, "seeds", FR_MAX_WORLDS);
    if (items == NULL) return -1;
    a->n_seeds = PyTuple_GET_SIZE(items);
    a->seeds = PyMem_Malloc(sizeof(uint64_t) * (size_t)a->n_seeds); /* sized by the snapshot */
    int rc = a->seeds == NULL ? (PyErr_NoMemory(), -1)
                              : read_ints(items, "seeds", 0, (int64_t *)a->seeds);
    Py_DECREF(items);
    return rc;
}

/* One option in [low, INT_MAX] into *out; a clear error naming it otherwise. */
static int option(long long value, const char *name, int low, int *out) {
    if (value < low || value > INT_MAX) {
        PyErr_Format(PyExc_ValueError, "search_rollouts: option %s=%lld is out of range (%d to %d)",
                     name, value, low, INT_MAX);
        return -1;
    }
    *out = (int)value;
    return 0;
}

/* (horizon, finish, max_actions, max_fights_left, oracle) */
static int parse_options(PyObject *obj, fr_rollout_options *o, int *oracle) {
    long long horizon, finish, max_actions, fights_left;
    if (!PyArg_ParseTuple(obj, "LLLLp:search_rollouts options", &horizon, &finish, &max_actions,
                          &fights_left, oracle))
        return -1;
    if (option(horizon, "horizon", 1, &o->horizon) < 0 || option(finish, "finish", 0, &o->finish) < 0 ||
        option(max_actions, "max_actions", 1, &o->max_actions) < 0 ||
        option(fights_left, "max_fights_left", 0, &o->max_fights_left) < 0)
        return -1;
    return 0;
}

/* The layer sizes, inputs first: 2 to FR_LEAF_NET_MAX_LAYERS + 1 of them, each 1 to
 * FR_LEAF_NET_MAX_WIDTH, the last 1 (the logit). */
static int parse_net_sizes(PyObject *obj, fr_leaf_net *net) {
    PyObject *items = int_tuple(obj, "net sizes", FR_LEAF_NET_MAX_LAYERS + 1);
    if (items == NULL) return -1;
    int64_t sizes[FR_LEAF_NET_MAX_LAYERS + 1];
    Py_ssize_t n = PyTuple_GET_SIZE(items);
    int rc = read_ints(items, "net sizes", FR_LEAF_NET_MAX_WIDTH, sizes);
    Py_DECREF(items);
    if (rc < 0) return -1;
    for (Py_ssize_t i = 0; i < n; i++) rc |= sizes[i] < 1;
    if (n < 2 || rc || sizes[n - 1] != 1) {
        PyErr_SetString(PyExc_ValueError,
                        "search_rollouts: net sizes must be 2 or more positive widths ending in 1");
        return -1;
    }
    net->n_layers = (int)n - 1;
    for (Py_ssize_t i = 0; i < n; i++) net->sizes[i] = (int)sizes[i];
    return 0;
}

/* net: (n_levels, n_steps, sizes, params), its inputs the layout's row and the one-hots. */
static int parse_net(PyObject *obj, search_args *a) {
    int n_levels, n_steps;
    PyObject *sizes, *params;
    if (!PyArg_ParseTuple(obj, "iiOO:search_rollouts net", &n_levels, &n_steps, &sizes, &params) ||
        parse_net_sizes(sizes, &a->net) < 0)
        return -1;
    int inputs = fr_leaf_row_size(&a->layout) - 1 + n_levels + n_steps;
    if (n_levels < 0 || n_levels > 16 || n_steps < 0 || n_steps > 16 || a->net.sizes[0] != inputs) {
        PyErr_Format(PyExc_ValueError,
                     "search_rollouts: the net must read %d inputs (the row but its bias, then "
                     "the one-hot level and step)",
                     inputs);
        return -1;
    }
    a->net.n_levels = n_levels;
    a->net.n_steps = n_steps;
    if (get_vector(params, &a->params, 0, fr_leaf_net_param_count(&a->net), 1, "net params") < 0)
        return -1;
    a->has_params = 1;
    a->net.params = (const double *)a->params.buf;
    a->request.net = &a->net;
    return 0;
}

/* The rollout policy's layer sizes: FR_FLAT_SIZE inputs, hidden widths of 1 to
 * FR_POLICY_NET_MAX_WIDTH, FR_A_NUM_ACTIONS logits; 1 to FR_POLICY_NET_MAX_LAYERS layers. */
static int parse_policy_sizes(PyObject *obj, fr_policy_net *net) {
    PyObject *items = int_tuple(obj, "policy sizes", FR_POLICY_NET_MAX_LAYERS + 1);
    if (items == NULL) return -1;
    int64_t sizes[FR_POLICY_NET_MAX_LAYERS + 1];
    Py_ssize_t n = PyTuple_GET_SIZE(items);
    int rc = read_ints(items, "policy sizes", 0, sizes);
    Py_DECREF(items);
    if (rc < 0) return -1;
    for (Py_ssize_t i = 1; i < n - 1; i++)
        rc |= sizes[i] < 1 || sizes[i] > FR_POLICY_NET_MAX_WIDTH;
    if (n < 2 || rc || sizes[0] != FR_FLAT_SIZE || sizes[n - 1] != FR_A_NUM_ACTIONS) {
        PyErr_Format(PyExc_ValueError,
                     "search_rollouts: policy sizes must be %d inputs (the flat observation), "
                     "up to %d hidden widths of 1 to %d, then %d logits",
                     FR_FLAT_SIZE, FR_POLICY_NET_MAX_LAYERS - 1, FR_POLICY_NET_MAX_WIDTH,
                     FR_A_NUM_ACTIONS);
        return -1;
    }
    net->n_layers = (int)n - 1;
    for (Py_ssize_t i = 0; i < n; i++) net->sizes[i] = (int)sizes[i];
    return 0;
}

/* policy: (sizes, params), the network that plays the rollouts (policy_net.h's order). */
static int parse_policy(PyObject *obj, search_args *a) {
    PyObject *sizes, *params;
    if (!PyArg_ParseTuple(obj, "OO:search_rollouts policy", &sizes, &params) ||
        parse_policy_sizes(sizes, &a->policy) < 0)
        return -1;
    if (get_vector(params, &a->policy_params, 0, fr_policy_net_param_count(&a->policy), 1,
                   "policy params") < 0)
        return -1;
    a->has_policy_params = 1;
    a->policy.params = (const double *)a->policy_params.buf;
    a->request.policy = &a->policy;
    return 0;
}

/* args: game, actions, seeds, (horizon, finish, max_actions, max_fights_left, oracle), layout */
static int parse_request(PyObject *const *args, search_args *a) {
    if (fr_kernel_game(args[0], "search_rollouts") == NULL) return -1;
    int oracle = 0;
    if (parse_actions(args[1], a) < 0 || parse_seeds(args[2], a) < 0 ||
        parse_options(args[3], &a->request.options, &oracle) < 0 ||
        parse_layout(args[4], &a->layout) < 0)
        return -1;
    a->request.actions = a->actions32;
    a->request.n_actions = (int)a->n_actions;
    a->request.seeds = a->seeds;
    a->request.n_seeds = (int)a->n_seeds;
    a->request.oracle = oracle;
    a->request.layout = &a->layout;
    a->request.net = NULL;
    a->request.policy = NULL;
    return 0;
}

/* The rollouts of every world, without the GIL, a world at a time: between worlds the GIL
 * is taken back to check for signals (Ctrl-C raises KeyboardInterrupt at the next world).
 * `root` is the binding's own copy, so other threads may use the game meanwhile. */
static int play_worlds(const fr_game *root, const search_args *a, Py_buffer *ends,
                       Py_buffer *rows, double *values) {
    int status = FR_SEARCH_OK, bad_action = -1;
    for (int w = 0; w < a->request.n_seeds && status == FR_SEARCH_OK; w++) {
        Py_BEGIN_ALLOW_THREADS
        status = fr_search_worlds(root, &a->request, w, w + 1, (fr_rollout_end *)ends->buf,
                                  (double *)rows->buf, (int)rows->shape[1], values, &bad_action);
        Py_END_ALLOW_THREADS
        if (status == FR_SEARCH_OK && PyErr_CheckSignals() < 0) return -1;
    }
    return status == FR_SEARCH_OK ? 0 : raise_status(status, bad_action);
}

/* The ends and rows tables (and, with a net, the values vector) as buffers; -1 with an error
 * and none held. */
static int get_outputs(PyObject *const *args, const search_args *a, Py_buffer *ends,
                       Py_buffer *rows, Py_buffer *values) {
    Py_ssize_t n_ends = a->n_actions * a->n_seeds;
    if (get_table(args[5], ends, "i", 4, n_ends, 5, "ends") < 0) return -1;
    if (ends->shape[1] != 5) { /* each row must be exactly one fr_rollout_end */
        PyErr_SetString(PyExc_ValueError, "search_rollouts: ends must have 5 columns");
        PyBuffer_Release(ends);
        return -1;
    }
    if (get_table(args[6], rows, "d", 8, n_ends, fr_leaf_row_size(&a->layout), "rows") < 0) {
        PyBuffer_Release(ends);
        return -1;
    }
    if (a->request.net != NULL && get_vector(args[8], values, 1, n_ends, 0, "values") < 0) {
        PyBuffer_Release(ends);
        PyBuffer_Release(rows);
        return -1;
    }
    return 0;
}

static PyObject *run_search(PyObject *const *args, search_args *a) {
    Py_buffer ends, rows, values;
    if (get_outputs(args, a, &ends, &rows, &values) < 0) return NULL;
    int with_net = a->request.net != NULL;
    fr_game root;
    fr_game_init(&root);
    int rc = fr_game_copy(&root, fr_capi->game_of(args[0])) == 0
                 ? play_worlds(&root, a, &ends, &rows, with_net ? (double *)values.buf : NULL)
                 : (PyErr_NoMemory(), -1);
    fr_game_free(&root);
    PyBuffer_Release(&ends);
    PyBuffer_Release(&rows);
    if (with_net) PyBuffer_Release(&values);
    if (rc < 0) return NULL;
    Py_RETURN_NONE;
}

/* The optional arguments: net (None: Python values the rows; then values is not read) and
 * policy (None: the heuristic plays the rollouts). */
static int parse_networks(PyObject *const *args, Py_ssize_t nargs, search_args *a) {
    if (nargs >= 9 && args[7] != Py_None && parse_net(args[7], a) < 0) return -1;
    if (nargs == 10 && args[9] != Py_None && parse_policy(args[9], a) < 0) return -1;
    return 0;
}

static PyObject *search_rollouts(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 7 && nargs != 9 && nargs != 10) {
        PyErr_SetString(PyExc_TypeError, "search_rollouts(game, actions, seeds, options, layout, "
                                         "ends, rows[, net, values[, policy]])");
        return NULL;
    }
    search_args a;
    a.seeds = NULL;
    a.has_params = 0;
    a.has_policy_params = 0;
    PyObject *result = NULL;
    if (parse_request(args, &a) == 0 && parse_networks(args, nargs, &a) == 0)
        result = run_search(args, &a);
    if (a.has_params) PyBuffer_Release(&a.params);
    if (a.has_policy_params) PyBuffer_Release(&a.policy_params);
    PyMem_Free(a.seeds);
    return result;
}

static PyObject *leaf_features(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "leaf_features(game, layout, row)");
        return NULL;
    }
    fr_game *g = fr_kernel_game(args[0], "leaf_features");
    if (g == NULL) return NULL;
    fr_leaf_layout layout;
    if (parse_layout(args[1], &layout) < 0) return NULL;
    Py_buffer row;
    if (get_table(args[2], &row, "d", 8, 1, fr_leaf_row_size(&layout), "row") < 0) return NULL;
    fr_leaf_features(g, &layout, (double *)row.buf);
    PyBuffer_Release(&row);
    Py_RETURN_NONE;
}

/* The rollout policy's choice in one game: what policy_net.c plays at each rollout step. */
static PyObject *policy_action(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "policy_action(game, policy)");
        return NULL;
    }
    fr_game *g = fr_kernel_game(args[0], "policy_action");
    if (g == NULL) return NULL;
    search_args a;
    a.has_policy_params = 0;
    if (parse_policy(args[1], &a) < 0) return NULL;
    int n = fr_legal(g);
    PyObject *result = n > 0 ? PyLong_FromLong(fr_policy_net_action(&a.policy, g, n))
                             : PyErr_Format(PyExc_ValueError,
                                            "policy_action: the game is over (no legal action)");
    PyBuffer_Release(&a.policy_params);
    return result;
}

static PyObject *is_core_game(PyObject *module, PyObject *obj) {
    return PyBool_FromLong(fr_capi->game_of(obj) != NULL);
}

static PyMethodDef search_methods[] = {
    {"is_core_game", is_core_game, METH_O,
     "is_core_game(obj): whether obj is a compiled-core game (search_rollouts can read it)."},
    {"search_rollouts", (PyCFunction)(void (*)(void))search_rollouts, METH_FASTCALL,
     "search_rollouts(game, actions, seeds, options, layout, ends, rows[, net, values[, "
     "policy]]): one search decision's rollouts, each end valued by the leaf network net and "
     "the rollouts played by the policy network policy when given (not None) "
     "(friday_agents.players.search.compiled)."},
    {"policy_action", (PyCFunction)(void (*)(void))policy_action, METH_FASTCALL,
     "policy_action(game, policy): the legal action the policy network (sizes, params) rates "
     "highest, as search_rollouts' policy rollouts choose it."},
    {"leaf_features", (PyCFunction)(void (*)(void))leaf_features, METH_FASTCALL,
     "leaf_features(game, layout, row): the leaf value's feature row of game into row[0]."},
    {NULL, NULL, 0, NULL},
};

int fr_register_search(PyObject *module) {
    if (PyModule_AddFunctions(module, search_methods) < 0) return -1;
    /* what a rollout policy network may be (compiled.py reads them) */
    if (PyModule_AddIntConstant(module, "POLICY_NET_MAX_LAYERS", FR_POLICY_NET_MAX_LAYERS) < 0 ||
        PyModule_AddIntConstant(module, "POLICY_NET_MAX_WIDTH", FR_POLICY_NET_MAX_WIDTH) < 0)
        return -1;
    return 0;
}
