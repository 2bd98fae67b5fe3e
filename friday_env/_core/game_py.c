/* Python bindings of game.c: the type friday_env._core.compiled.CoreGame.
 *
 * The public API is friday_env.engine.Game's: legal_actions(), apply(), clone(), the read-only
 * rules, and every state field as a read-only attribute of the same name and type (piles as
 * new lists, phase as a Phase member, resolving as an Ability member). legal_actions() and
 * apply() are METH_NOARGS/METH_O and touch Python only to build the cached list; the illegal
 * action message is built in Python (friday_env.actions.names) on the error path only.
 */
#include <stddef.h>
#include <string.h>

#include "pybind.h"

PyTypeObject *fr_game_type = NULL;

/* Lazily imported Python objects (enum members, numpy.integer, error helpers). */
static PyObject *phase_members[FR_GAME_OVER + 1];
static PyObject *ability_members[17];
static PyObject *numpy_integer = NULL; /* numpy.integer, or Py_None without numpy */

int fr_pygame_check(PyObject *o) { return fr_game_type != NULL && PyObject_TypeCheck(o, fr_game_type); }

void fr_pygame_changed(PyObject *o) {
    fr_pygame *self = (fr_pygame *)o;
    Py_CLEAR(self->legal_list);
    self->g.legal_valid = 0;
}

static PyObject *alloc_game(PyTypeObject *type) {
    fr_pygame *self = (fr_pygame *)type->tp_alloc(type, 0);
    if (self == NULL) return NULL;
    fr_game_init(&self->g);
    return (PyObject *)self;
}

/* A subclass instance's __dict__ (e.g. extra attributes): copied shallowly, as Game.clone. */
static int copy_instance_dict(PyObject *dst, PyObject *src) {
    if (Py_TYPE(src)->tp_dictoffset == 0) return 0;
    PyObject *d = PyObject_GenericGetDict(src, NULL);
    if (d == NULL) return -1;
    PyObject *copy = PyDict_Copy(d);
    Py_DECREF(d);
    if (copy == NULL) return -1;
    int r = PyObject_GenericSetDict(dst, copy, NULL);
    Py_DECREF(copy);
    return r;
}

PyObject *fr_pygame_wrap(PyTypeObject *type, const fr_game *g, PyObject *origin_from) {
    /* no fr_game_init: the copy overwrites every field, and tp_alloc's zeroed memory is the
     * empty history buffer fr_game_copy expects (clone() runs at every step of a rendering env) */
    PyObject *obj = type->tp_alloc(type, 0);
    if (obj == NULL) return NULL;
    fr_pygame *self = (fr_pygame *)obj;
    if (fr_game_copy(&self->g, g) < 0) {
        Py_DECREF(obj);
        return PyErr_NoMemory();
    }
    if (origin_from != NULL) self->origin = Py_NewRef(origin_from);
    return obj;
}

/* ------------------------------------------------------------------ lifetime */

/* CoreGame() makes no game: an empty state has no hazard to offer (it would fail the state
 * check); games come from new(), from_game(), clone() or determinized(). */
static PyObject *game_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    return fr_state_error("CoreGame() makes no game: use new(level, seed) or from_game(game)");
}

static int game_traverse(PyObject *o, visitproc visit, void *arg) {
    fr_pygame *self = (fr_pygame *)o;
    Py_VISIT(Py_TYPE(o));
    Py_VISIT(self->legal_list);
    Py_VISIT(self->origin);
    return 0;
}

static int game_clear(PyObject *o) {
    fr_pygame *self = (fr_pygame *)o;
    Py_CLEAR(self->legal_list);
    Py_CLEAR(self->origin);
    return 0;
}

static void game_dealloc(PyObject *o) {
    PyTypeObject *type = Py_TYPE(o);
    PyObject_GC_UnTrack(o);
    game_clear(o);
    fr_game_free(FR_GAME(o));
    type->tp_free(o);
    Py_DECREF(type);
}

/* ------------------------------------------------------------------ helpers */

static PyObject *pile_list(const fr_pile *p) {
    PyObject *out = PyList_New(p->n);
    if (out == NULL) return NULL;
    for (int i = 0; i < p->n; i++) PyList_SET_ITEM(out, i, PyLong_FromLong(p->c[i]));
    return out;
}

/* Members of an IntEnum (friday_env.actions.Phase, friday_env.cards.Ability), imported once. */
static int load_members(PyObject **members, int count, const char *module, const char *name) {
    if (members[0] != NULL) return 0;
    PyObject *enum_type = NULL, *mod = PyImport_ImportModule(module);
    if (mod != NULL) enum_type = PyObject_GetAttrString(mod, name);
    Py_XDECREF(mod);
    if (enum_type == NULL) return -1;
    for (int i = 0; i < count; i++) {
        PyObject *member = PyObject_CallFunction(enum_type, "i", i);
        if (member == NULL) {
            Py_DECREF(enum_type);
            return -1;
        }
        Py_XSETREF(members[i], member);
    }
    Py_DECREF(enum_type);
    return 0;
}

/* ------------------------------------------------------------------ attributes */

#define INT_FIELD(name) (void *)offsetof(fr_game, name)

static PyObject *get_int(PyObject *o, void *closure) {
    return PyLong_FromLong(*(const int32_t *)((const char *)FR_GAME(o) + (size_t)closure));
}

static PyObject *get_pile(PyObject *o, void *closure) {
    return pile_list((const fr_pile *)((const char *)FR_GAME(o) + (size_t)closure));
}

static PyObject *get_seed(PyObject *o, void *c) { return PyLong_FromUnsignedLongLong(FR_GAME(o)->seed); }

/* The seed and the shuffle count are the only writable fields: they choose the future
 * shuffles and nothing else, so any value in range leaves a sound state (the oracle agent
 * gives a clone a fresh seed this way, as it does a reference game). */
static int set_seed(PyObject *o, PyObject *value, void *c) {
    uint64_t seed;
    if (fr_parse_seed(value, "seed", &seed) < 0) return -1;
    FR_GAME(o)->seed = seed;
    return 0;
}

/* The shuffle counter from a Python int: 0..`most` (Python's is unbounded; 64 bits here);
 * 0 ok, -1 with StateError set. */
static int parse_shuffles(PyObject *value, int64_t most, int64_t *out) {
    int overflow = 0;
    long long k = (value != NULL && PyLong_Check(value) && !PyBool_Check(value))
                      ? PyLong_AsLongLongAndOverflow(value, &overflow)
                      : -1;
    if (overflow || k < 0 || k > most) {
        PyErr_Clear();
        fr_state_error(most == FR_MAX_SHUFFLES
                           ? "unsound game state: shuffles must be an int in 0..2**62 on the compiled core"
                           : "unsound game state: shuffles must be an int in 0..2**63-1 on the compiled core");
        return -1;
    }
    *out = (int64_t)k;
    return 0;
}

/* A new stream of shuffles: any value up to FR_MAX_SHUFFLES leaves the state sound, whatever
 * its history (fr_check_state allows more, for what play adds). */
static int set_shuffles(PyObject *o, PyObject *value, void *c) {
    return parse_shuffles(value, FR_MAX_SHUFFLES, &FR_GAME(o)->shuffles);
}

static PyObject *get_shuffles(PyObject *o, void *c) { return PyLong_FromLongLong(FR_GAME(o)->shuffles); }
static PyObject *get_won(PyObject *o, void *c) { return PyBool_FromLong(FR_GAME(o)->won); }
static PyObject *get_done(PyObject *o, void *c) { return PyBool_FromLong(FR_GAME(o)->phase == FR_GAME_OVER); }

static PyObject *get_in_pirate_fight(PyObject *o, void *c) {
    return PyBool_FromLong(FR_GAME(o)->step == FR_PIRATES && FR_GAME(o)->hazard >= 0);
}

static PyObject *get_phase(PyObject *o, void *c) {
    if (load_members(phase_members, FR_GAME_OVER + 1, "friday_env.actions.phases", "Phase") < 0)
        return NULL;
    return Py_NewRef(phase_members[FR_GAME(o)->phase]);
}

static PyObject *get_resolving(PyObject *o, void *c) {
    if (load_members(ability_members, 17, "friday_env.cards", "Ability") < 0) return NULL;
    return Py_NewRef(ability_members[FR_GAME(o)->resolving]);
}

static PyObject *get_flags(PyObject *o, void *c) {
    const fr_game *g = FR_GAME(o);
    PyObject *out = PyList_New(g->table.n);
    if (out == NULL) return NULL;
    for (int i = 0; i < g->table.n; i++) PyList_SET_ITEM(out, i, PyLong_FromLong(g->flags[i]));
    return out;
}

static PyObject *get_history(PyObject *o, void *c) {
    const fr_game *g = FR_GAME(o);
    PyObject *out = PyList_New(g->history_len);
    if (out == NULL) return NULL;
    for (int i = 0; i < g->history_len; i++)
        PyList_SET_ITEM(out, i, PyLong_FromLong(g->history[i]));
    return out;
}

static PyObject *get_origin(PyObject *o, void *c) {
    fr_pygame *self = (fr_pygame *)o;
    if (self->origin == NULL && (self->origin = PyDict_New()) == NULL) return NULL;
    return Py_NewRef(self->origin);
}

static int set_origin(PyObject *o, PyObject *value, void *c) {
    if (value == NULL || !PyDict_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "origin must be a dict");
        return -1;
    }
    Py_XSETREF(((fr_pygame *)o)->origin, Py_NewRef(value));
    return 0;
}

static PyGetSetDef game_getset[] = {
    {"level", get_int, NULL, "level 1-4", INT_FIELD(level)},
    {"seed", get_seed, set_seed, "the game seed (writable: it only chooses future shuffles)", NULL},
    {"shuffles", get_shuffles, set_shuffles, "shuffles done so far (writable, as seed)", NULL},
    {"origin", get_origin, set_origin, "how the game was set up (for records)", NULL},
    {"phase", get_phase, NULL, "the pending decision (Phase)", NULL},
    {"step", get_int, NULL, "0 green, 1 yellow, 2 red, 3 pirates", INT_FIELD(step)},
    {"life", get_int, NULL, NULL, INT_FIELD(life)},
    {"reserve", get_int, NULL, NULL, INT_FIELD(reserve)},
    {"aging_total", get_int, NULL, NULL, INT_FIELD(aging_total)},
    {"won", get_won, NULL, NULL, NULL},
    {"fights", get_int, NULL, "fights finished", INT_FIELD(fights)},
    {"stack", get_pile, NULL, "Robinson stack (top = end), a new list", INT_FIELD(stack)},
    {"discard", get_pile, NULL, NULL, INT_FIELD(discard)},
    {"hazard_stack", get_pile, NULL, NULL, INT_FIELD(hazard_stack)},
    {"hazard_discard", get_pile, NULL, NULL, INT_FIELD(hazard_discard)},
    {"aging", get_pile, NULL, NULL, INT_FIELD(aging)},
    {"destroyed", get_pile, NULL, NULL, INT_FIELD(destroyed)},
    {"box", get_pile, NULL, NULL, INT_FIELD(box)},
    {"pirates", get_pile, NULL, NULL, INT_FIELD(pirates)},
    {"beaten", get_pile, NULL, NULL, INT_FIELD(beaten)},
    {"offer", get_pile, NULL, NULL, INT_FIELD(offer)},
    {"hazard", get_int, NULL, "the card fought, -1 outside a fight", INT_FIELD(hazard)},
    {"pirate_value", get_int, NULL, NULL, INT_FIELD(pirate_value)},
    {"free_total", get_int, NULL, NULL, INT_FIELD(free_total)},
    {"free_used", get_int, NULL, NULL, INT_FIELD(free_used)},
    {"step_down", get_int, NULL, NULL, INT_FIELD(step_down)},
    {"table", get_pile, NULL, NULL, INT_FIELD(table)},
    {"flags", get_flags, NULL, "table slot flags, parallel to table", NULL},
    {"spent", get_pile, NULL, NULL, INT_FIELD(spent)},
    {"source", get_int, NULL, NULL, INT_FIELD(source)},
    {"resolving", get_resolving, NULL, "the ability resolving (Ability)", NULL},
    {"exchanges_left", get_int, NULL, NULL, INT_FIELD(exchanges_left)},
    {"sort_taken", get_pile, NULL, NULL, INT_FIELD(sort_taken)},
    {"sort_placed", get_int, NULL, NULL, INT_FIELD(sort_placed)},
    {"budget", get_int, NULL, NULL, INT_FIELD(budget)},
    {"known_top", get_int, NULL, NULL, INT_FIELD(known_top)},
    {"unseen", get_pile, NULL, NULL, INT_FIELD(unseen)},
    {"history", get_history, NULL, "actions played so far, a new list", NULL},
    {"done", get_done, NULL, "whether the game is over", NULL},
    {"in_pirate_fight", get_in_pirate_fight, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

/* ------------------------------------------------------------------ legal actions, apply */

static PyObject *py_legal_actions(PyObject *o, PyObject *unused) {
    fr_pygame *self = (fr_pygame *)o;
    if (self->legal_list == NULL) {
        int n = fr_legal(&self->g);
        PyObject *out = PyList_New(n);
        if (out == NULL) return NULL;
        for (int i = 0; i < n; i++) PyList_SET_ITEM(out, i, PyLong_FromLong(self->g.legal[i]));
        self->legal_list = out;
    }
    return Py_NewRef(self->legal_list);
}

/* Writes the legal actions of `g` as FR_A_NUM_ACTIONS 0/1 bytes into `flags`. */
static void write_legal_flags(fr_game *g, char *flags) {
    int n = fr_legal(g);
    memset(flags, 0, FR_A_NUM_ACTIONS);
    for (int i = 0; i < n && i < FR_A_NUM_ACTIONS; i++)
        if (g->legal[i] < FR_A_NUM_ACTIONS) flags[g->legal[i]] = 1; /* bounded, whatever the state */
}

/* The legal actions as a bytearray of FR_A_NUM_ACTIONS 0/1 bytes: the env's mask without
 * a Python loop over the legal list. */
static PyObject *py_legal_mask(PyObject *o, PyObject *unused) {
    PyObject *out = PyByteArray_FromStringAndSize(NULL, FR_A_NUM_ACTIONS);
    if (out == NULL) return NULL;
    write_legal_flags(FR_GAME(o), PyByteArray_AS_STRING(out));
    return out;
}

/* 1 if a buffer format names a one-byte integer or bool (numpy's int8, uint8, bool). */
static int is_byte_format(const char *format) {
    if (format == NULL) return 1; /* PyBUF_FORMAT asked: NULL means bytes ("B") */
    if (format[0] != '\0' && strchr("@=<>!|", format[0]) != NULL) format++;
    return strcmp(format, "b") == 0 || strcmp(format, "B") == 0 || strcmp(format, "?") == 0;
}

/* _fill_legal_mask(out): the legal actions as 0/1 written into `out`, a writable C-contiguous
 * array of FR_A_NUM_ACTIONS one-byte items (int8, uint8 or bool): the env's mask straight
 * into a fresh numpy array, with no bytearray between. `out` is refused, untouched, with an
 * error naming what is wrong if it is anything else. */
static PyObject *py_fill_legal_mask(PyObject *o, PyObject *out) {
    Py_buffer view;
    if (PyObject_GetBuffer(out, &view, PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_ND) < 0) {
        PyErr_Clear();
        return PyErr_Format(PyExc_TypeError,
                            "_fill_legal_mask: out must be a writable C-contiguous int8 array of "
                            "shape (%d,), got %.200s (not a writable contiguous buffer)",
                            FR_A_NUM_ACTIONS, Py_TYPE(out)->tp_name);
    }
    const char *problem = NULL;
    if (view.itemsize != 1 || !is_byte_format(view.format))
        problem = "its items are not one-byte integers";
    else if (view.ndim != 1 || view.shape[0] != FR_A_NUM_ACTIONS)
        problem = "its shape is wrong";
    if (problem != NULL) {
        PyErr_Format(PyExc_ValueError,
                     "_fill_legal_mask: out must be a C-contiguous int8 array of shape (%d,): %s "
                     "(format %.20s, item size %zd, %d dimension(s), first %zd)",
                     FR_A_NUM_ACTIONS, problem, view.format ? view.format : "B", view.itemsize,
                     view.ndim, view.ndim > 0 ? view.shape[0] : (Py_ssize_t)0);
        PyBuffer_Release(&view);
        return NULL;
    }
    write_legal_flags(FR_GAME(o), (char *)view.buf);
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

/* The action id `action` stands for, as Python's _action_id: ints and numpy integers (not
 * bools) within the action layout; -1 for anything else, -2 with an exception set. */
static long action_id(PyObject *action) {
    if (PyBool_Check(action)) return -1;
    if (!PyLong_Check(action)) {
        if (numpy_integer == NULL) {
            PyObject *np = PyImport_ImportModule("numpy");
            if (np == NULL) {
                PyErr_Clear();
                numpy_integer = Py_NewRef(Py_None);
            } else {
                numpy_integer = PyObject_GetAttrString(np, "integer");
                Py_DECREF(np);
                if (numpy_integer == NULL) return -2;
            }
        }
        if (numpy_integer == Py_None) return -1;
        int is_np = PyObject_IsInstance(action, numpy_integer);
        if (is_np <= 0) return is_np < 0 ? -2 : -1;
    }
    PyObject *index = PyNumber_Index(action);
    if (index == NULL) return -2;
    int overflow;
    long a = PyLong_AsLongAndOverflow(index, &overflow);
    Py_DECREF(index);
    if (a == -1 && PyErr_Occurred()) return -2;
    return (overflow || a < 0 || a >= FR_A_NUM_ACTIONS) ? -1 : a;
}

/* IllegalActionError with the message both cores give
 * (friday_env.actions.names.illegal_action_message, called on the error path only). */
static PyObject *raise_illegal(PyObject *o, PyObject *action) {
    PyObject *names = PyImport_ImportModule("friday_env.actions.names");
    if (names == NULL) return NULL;
    PyObject *message = PyObject_CallMethod(names, "illegal_action_message", "OO", o, action);
    Py_DECREF(names);
    if (message == NULL) return NULL;
    PyObject *errors = PyImport_ImportModule("friday_env.errors");
    PyObject *error = errors ? PyObject_GetAttrString(errors, "IllegalActionError") : NULL;
    Py_XDECREF(errors);
    if (error != NULL) PyErr_SetObject(error, message);
    Py_XDECREF(error);
    Py_DECREF(message);
    return NULL;
}

static PyObject *py_apply(PyObject *o, PyObject *action) {
    long a;
    if (PyLong_CheckExact(action)) {
        int overflow;
        a = PyLong_AsLongAndOverflow(action, &overflow);
        if (overflow || a < 0 || a >= FR_A_NUM_ACTIONS) return raise_illegal(o, action);
    } else {
        a = action_id(action);
        if (a == -2) return NULL;
        if (a < 0) return raise_illegal(o, action);
    }
    fr_pygame *self = (fr_pygame *)o;
    int r = fr_apply(&self->g, (int)a);
    if (r == -1) return raise_illegal(o, action);
    if (r == -2) return PyErr_NoMemory();
    Py_CLEAR(self->legal_list);
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------------ methods */

static PyObject *py_clone(PyObject *o, PyObject *unused) {
    fr_pygame *self = (fr_pygame *)o;
    PyObject *other = fr_pygame_wrap(Py_TYPE(o), &self->g, self->origin);
    if (other == NULL) return NULL;
    if (copy_instance_dict(other, o) < 0) {
        Py_DECREF(other);
        return NULL;
    }
    /* the cached legal list is immutable by contract: share it, as Game.clone does */
    ((fr_pygame *)other)->legal_list = Py_XNewRef(self->legal_list);
    return other;
}

static PyObject *py_deepcopy(PyObject *o, PyObject *memo) { return py_clone(o, NULL); }

static PyObject *py_score(PyObject *o, PyObject *u) { return PyLong_FromLong(fr_score(FR_GAME(o))); }
static PyObject *py_hazards_beaten(PyObject *o, PyObject *u) {
    return PyLong_FromLong(fr_hazards_beaten(FR_GAME(o)));
}
static PyObject *py_pirates_beaten(PyObject *o, PyObject *u) {
    return PyLong_FromLong(FR_GAME(o)->beaten.n);
}
/* fight_total(values=None): with `values` given (card_values() the caller already has), the
 * reference's arithmetic on them (friday_env.engine.scoring.fight_total), as Game does. */
static PyObject *py_fight_total(PyObject *o, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs > 1) return PyErr_Format(PyExc_TypeError, "fight_total() takes at most 1 argument (%zd given)", nargs);
    if (nargs == 0 || args[0] == Py_None) return PyLong_FromLong(fr_fight_total(FR_GAME(o)));
    PyObject *scoring = PyImport_ImportModule("friday_env.engine.scoring");
    if (scoring == NULL) return NULL;
    PyObject *total = PyObject_CallMethod(scoring, "fight_total", "OO", o, args[0]);
    Py_DECREF(scoring);
    return total;
}
static PyObject *py_fight_value(PyObject *o, PyObject *u) { return PyLong_FromLong(fr_fight_value(FR_GAME(o))); }
static PyObject *py_penalty(PyObject *o, PyObject *u) { return PyLong_FromLong(fr_end_of_fight_penalty(FR_GAME(o))); }
static PyObject *py_can_draw(PyObject *o, PyObject *u) { return PyBool_FromLong(fr_can_draw(FR_GAME(o))); }
static PyObject *py_free_draw(PyObject *o, PyObject *u) { return PyBool_FromLong(fr_free_draw_available(FR_GAME(o))); }
static PyObject *py_paid_cost(PyObject *o, PyObject *u) { return PyLong_FromLong(fr_paid_draw_cost(FR_GAME(o))); }

static PyObject *py_card_values(PyObject *o, PyObject *u) {
    const fr_game *g = FR_GAME(o);
    int32_t values[FR_PILE_CAP];
    fr_card_values(g, values);
    PyObject *out = PyList_New(g->table.n);
    if (out == NULL) return NULL;
    for (int i = 0; i < g->table.n; i++) PyList_SET_ITEM(out, i, PyLong_FromLong(values[i]));
    return out;
}

static PyObject *py_robinson_cards(PyObject *o, PyObject *u) {
    const fr_game *g = FR_GAME(o);
    fr_pile cards = g->stack;
    const fr_pile *more[] = {&g->discard, &g->sort_taken};
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < more[k]->n && cards.n < FR_PILE_CAP; i++) cards.c[cards.n++] = more[k]->c[i];
    for (int s = 0; s < g->table.n && cards.n < FR_PILE_CAP; s++)
        if (!(g->flags[s] & FR_DOWN)) cards.c[cards.n++] = g->table.c[s];
    return pile_list(&cards);
}

/* start_turn() on a copy first: on a game already under way it could leave a state the rules
 * cannot reach (an offer in the middle of a fight), which is refused, the game untouched. */
static PyObject *py_start_turn(PyObject *o, PyObject *u) {
    fr_game next;
    fr_game_init(&next);
    if (fr_game_copy(&next, FR_GAME(o)) < 0) return PyErr_NoMemory();
    fr_game_start_turn(&next);
    const char *problem = fr_check_state(&next);
    if (problem != NULL) {
        fr_game_free(&next);
        return fr_state_error("start_turn() would leave an unsound game state: %s", problem);
    }
    fr_game_free(FR_GAME(o));
    *FR_GAME(o) = next; /* the copy's history buffer now belongs to the game */
    fr_pygame_changed(o);
    Py_RETURN_NONE;
}

static PyObject *py_describe(PyObject *o, PyObject *action) {
    PyObject *names = PyImport_ImportModule("friday_env.actions.names");
    if (names == NULL) return NULL;
    PyObject *text = PyObject_CallMethod(names, "describe_action", "OO", o, action);
    Py_DECREF(names);
    return text;
}

/* _new(level, seed): Game.new on the compiled core (friday_env.core checks the arguments). */
static PyObject *py_new(PyObject *cls, PyObject *args) {
    int level;
    PyObject *seed_obj;
    uint64_t seed;
    if (!PyArg_ParseTuple(args, "iO:_new", &level, &seed_obj)) return NULL;
    if (level < 1 || level > 4) return PyErr_Format(PyExc_ValueError, "level must be 1..4, got %d", level);
    if (fr_parse_seed(seed_obj, "seed", &seed) < 0) return NULL;
    PyObject *obj = alloc_game((PyTypeObject *)cls);
    if (obj == NULL) return NULL;
    if (fr_game_new(FR_GAME(obj), level, seed) < 0) {
        Py_DECREF(obj);
        return PyErr_NoMemory();
    }
    return obj;
}

/* _determinized(seed): information.determinized on the compiled core. */
static PyObject *py_determinized(PyObject *o, PyObject *seed_obj) {
    uint64_t seed;
    if (fr_parse_seed(seed_obj, "seed", &seed) < 0) return NULL;
    PyObject *other = alloc_game(Py_TYPE(o));
    if (other == NULL) return NULL;
    fr_pygame *self = (fr_pygame *)o;
    if (fr_determinized(FR_GAME(other), &self->g, seed) < 0) {
        Py_DECREF(other);
        PyErr_SetString(PyExc_ValueError,
                        "determinized: the game's unseen cards do not match its aging pool");
        return NULL;
    }
    ((fr_pygame *)other)->origin = Py_XNewRef(self->origin);
    if (copy_instance_dict(other, o) < 0) {
        Py_DECREF(other);
        return NULL;
    }
    return other;
}

/* ------------------------------------------------------------------ from a Python game */

/* Read attribute `name` of `src` as an int in [lo, hi]; -1 with ValueError/TypeError set. */
static int read_int(PyObject *src, const char *name, long lo, long hi, int32_t *out) {
    PyObject *v = PyObject_GetAttrString(src, name);
    if (v == NULL) return -1;
    if (!PyLong_Check(v)) {
        fr_state_error("unsound game state: %s must be an int, not %s", name, Py_TYPE(v)->tp_name);
        Py_DECREF(v);
        return -1;
    }
    int overflow;
    long x = PyLong_AsLongAndOverflow(v, &overflow);
    Py_DECREF(v);
    if (overflow || x < lo || x > hi) {
        fr_state_error("unsound game state: %s out of range (%ld..%ld)", name, lo, hi);
        return -1;
    }
    *out = (int32_t)x;
    return 0;
}

/* Read a list of ints (card ids, flags or action ids) into `out` (at most `cap`). */
static int read_ints(PyObject *src, const char *name, int cap, long hi, int8_t *out, int32_t *n,
                     uint8_t *uout) {
    PyObject *v = PyObject_GetAttrString(src, name);
    if (v == NULL) return -1;
    PyObject *seq = PySequence_Fast(v, "not a sequence");
    Py_DECREF(v);
    if (seq == NULL) {
        fr_state_error("unsound game state: %s must be a list of ints", name);
        return -1;
    }
    Py_ssize_t size = PySequence_Fast_GET_SIZE(seq);
    if (size > cap) {
        Py_DECREF(seq);
        fr_state_error("unsound game state: %s holds %zd items (at most %d)", name, size, cap);
        return -1;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        int overflow = 0;
        long x = PyLong_Check(item) && !PyBool_Check(item) ? PyLong_AsLongAndOverflow(item, &overflow) : -1;
        if (overflow || x < 0 || x > hi) {
            Py_DECREF(seq);
            PyErr_Clear();
            fr_state_error("unsound game state: %s[%zd] is not an int in 0..%ld", name, i, hi);
            return -1;
        }
        if (out != NULL) out[i] = (int8_t)x;
        if (uout != NULL) uout[i] = (uint8_t)x;
    }
    *n = (int32_t)size;
    Py_DECREF(seq);
    return 0;
}

static const struct { const char *name; size_t offset; long lo, hi; } INT_FIELDS[] = {
    {"level", offsetof(fr_game, level), 1, 4},
    {"phase", offsetof(fr_game, phase), FR_CHOOSE_HAZARD, FR_GAME_OVER},
    {"step", offsetof(fr_game, step), FR_GREEN, FR_PIRATES},
    {"life", offsetof(fr_game, life), -1000, 1000},
    {"reserve", offsetof(fr_game, reserve), -1000, 1000},
    {"aging_total", offsetof(fr_game, aging_total), 0, FR_NUM_AGING},
    {"won", offsetof(fr_game, won), 0, 1},
    {"fights", offsetof(fr_game, fights), 0, 0x7fffffff}, /* fr_check_state bounds it by the history */
    {"hazard", offsetof(fr_game, hazard), -1, FR_NUM_CARDS - 1},
    {"pirate_value", offsetof(fr_game, pirate_value), -1000, 1000},
    {"free_total", offsetof(fr_game, free_total), -1000, 1000},
    {"free_used", offsetof(fr_game, free_used), -1000, 1000},
    {"step_down", offsetof(fr_game, step_down), 0, 1000},
    {"source", offsetof(fr_game, source), -1, FR_PILE_CAP - 1},
    {"resolving", offsetof(fr_game, resolving), 0, 16},
    {"exchanges_left", offsetof(fr_game, exchanges_left), 0, 2},
    {"sort_placed", offsetof(fr_game, sort_placed), 0, FR_PILE_CAP},
    {"budget", offsetof(fr_game, budget), -1000, 1000},
    {"known_top", offsetof(fr_game, known_top), 0, FR_PILE_CAP},
};

static const struct { const char *name; size_t offset; } PILE_FIELDS[] = {
    {"stack", offsetof(fr_game, stack)}, {"discard", offsetof(fr_game, discard)},
    {"hazard_stack", offsetof(fr_game, hazard_stack)},
    {"hazard_discard", offsetof(fr_game, hazard_discard)}, {"aging", offsetof(fr_game, aging)},
    {"destroyed", offsetof(fr_game, destroyed)}, {"box", offsetof(fr_game, box)},
    {"pirates", offsetof(fr_game, pirates)}, {"beaten", offsetof(fr_game, beaten)},
    {"offer", offsetof(fr_game, offer)}, {"table", offsetof(fr_game, table)},
    {"spent", offsetof(fr_game, spent)}, {"sort_taken", offsetof(fr_game, sort_taken)},
    {"unseen", offsetof(fr_game, unseen)},
};

/* The seed and the shuffle counter: the two fields wider than 32 bits. */
static int read_seed_and_shuffles(PyObject *src, fr_game *g) {
    PyObject *v = PyObject_GetAttrString(src, "seed");
    if (v == NULL) return -1;
    int r = fr_parse_seed(v, "unsound game state: seed", &g->seed);
    Py_DECREF(v);
    if (r < 0) return -1;
    v = PyObject_GetAttrString(src, "shuffles");
    if (v == NULL) return -1;
    r = parse_shuffles(v, INT64_MAX, &g->shuffles); /* fr_check_state bounds it by the history */
    Py_DECREF(v);
    return r;
}

static int read_history(PyObject *src, fr_game *g) {
    PyObject *v = PyObject_GetAttrString(src, "history");
    if (v == NULL) return -1;
    Py_ssize_t size = PyObject_Length(v);
    Py_DECREF(v);
    if (size < 0) return -1;
    if (size > FR_MAX_HISTORY) {
        fr_state_error("unsound game state: history too long (at most 2**30 actions)");
        return -1;
    }
    int32_t cap = size < 64 ? 64 : (int32_t)size;
    uint8_t *buf = realloc(g->history, (size_t)cap);
    if (buf == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    g->history = buf;
    g->history_cap = cap;
    return read_ints(src, "history", cap, FR_A_NUM_ACTIONS - 1, NULL, &g->history_len, buf);
}

static int read_game(PyObject *src, fr_game *g) {
    for (size_t i = 0; i < sizeof INT_FIELDS / sizeof INT_FIELDS[0]; i++)
        if (read_int(src, INT_FIELDS[i].name, INT_FIELDS[i].lo, INT_FIELDS[i].hi,
                     (int32_t *)((char *)g + INT_FIELDS[i].offset)) < 0)
            return -1;
    for (size_t i = 0; i < sizeof PILE_FIELDS / sizeof PILE_FIELDS[0]; i++) {
        fr_pile *p = (fr_pile *)((char *)g + PILE_FIELDS[i].offset);
        if (read_ints(src, PILE_FIELDS[i].name, FR_PILE_CAP, FR_NUM_CARDS - 1, p->c, &p->n, NULL) < 0)
            return -1;
    }
    int32_t n_flags;
    if (read_ints(src, "flags", FR_PILE_CAP, 15, NULL, &n_flags, g->flags) < 0) return -1;
    if (n_flags != g->table.n) {
        fr_state_error("unsound game state: flags: %d flags for %d table cards", n_flags, g->table.n);
        return -1;
    }
    if (read_seed_and_shuffles(src, g) < 0 || read_history(src, g) < 0) return -1;
    const char *problem = fr_check_state(g);
    if (problem != NULL) {
        fr_state_error("unsound game state: %s", problem);
        return -1;
    }
    return 0;
}

/* from_game(game): a compiled copy of a game of either core (all fields, checked). */
static PyObject *py_from_game(PyObject *cls, PyObject *src) {
    if (fr_pygame_check(src)) {
        fr_pygame *other = (fr_pygame *)src;
        return fr_pygame_wrap((PyTypeObject *)cls, &other->g, other->origin);
    }
    PyObject *obj = alloc_game((PyTypeObject *)cls);
    if (obj == NULL) return NULL;
    if (read_game(src, FR_GAME(obj)) < 0) {
        Py_DECREF(obj);
        return NULL;
    }
    return obj;
}

/* _check(): fr_check_state's verdict, None if sound (for tests and scenario). */
static PyObject *py_check(PyObject *o, PyObject *u) {
    const char *problem = fr_check_state(FR_GAME(o));
    if (problem == NULL) Py_RETURN_NONE;
    return PyUnicode_FromString(problem);
}

static PyMethodDef game_methods[] = {
    {"legal_actions", py_legal_actions, METH_NOARGS,
     "The legal action ids, ascending (cached: the same list until the next action)."},
    {"_legal_mask", py_legal_mask, METH_NOARGS,
     "The legal actions as a bytearray of 0/1 flags, one per action id."},
    {"_fill_legal_mask", py_fill_legal_mask, METH_O,
     "_fill_legal_mask(out): write the legal actions as 0/1 flags, one per action id, into\n"
     "`out`, a writable C-contiguous int8 (or uint8, bool) array of shape (NUM_ACTIONS,)."},
    {"apply", py_apply, METH_O, "Play one legal action; IllegalActionError leaves the state untouched."},
    {"clone", py_clone, METH_NOARGS, "An independent copy, hidden order and future shuffles included."},
    {"__copy__", py_clone, METH_NOARGS, NULL},
    {"__deepcopy__", py_deepcopy, METH_O, NULL},
    {"score", py_score, METH_NOARGS, "R25, for wins and losses alike."},
    {"hazards_beaten", py_hazards_beaten, METH_NOARGS,
     "Hazard cards beaten so far (joined Robinson's cards, destroyed ones included)."},
    {"pirates_beaten", py_pirates_beaten, METH_NOARGS, "Pirates beaten so far (0-2)."},
    {"fight_total", (PyCFunction)(void (*)(void))py_fight_total, METH_FASTCALL,
     "Robinson's fighting points now (of `values` if given, as card_values() gives them)."},
    {"fight_value", py_fight_value, METH_NOARGS, "The hazard value to reach."},
    {"card_values", py_card_values, METH_NOARGS, "Each table card's value at the end of the fight."},
    {"end_of_fight_penalty", py_penalty, METH_NOARGS, "Life lost to face-up aging cards (R19)."},
    {"robinson_cards", py_robinson_cards, METH_NOARGS, "Robinson's fighting cards."},
    {"can_draw", py_can_draw, METH_NOARGS, "Whether a card can come from the Robinson stack."},
    {"free_draw_available", py_free_draw, METH_NOARGS, "A free draw is left and no stop card blocks it."},
    {"paid_draw_cost", py_paid_cost, METH_NOARGS, "Life per additional card."},
    {"start_turn", py_start_turn, METH_NOARGS, "Start the first turn of a game laid out by hand."},
    {"describe", py_describe, METH_O, "A readable name of an action in the current situation."},
    {"_determinized", py_determinized, METH_O, "information.determinized with an int seed."},
    {"_check", py_check, METH_NOARGS, "None if the state is sound, else what is wrong."},
    {"_new", py_new, METH_VARARGS | METH_CLASS, "_new(level, seed): a new game (checked args)."},
    {"from_game", py_from_game, METH_O | METH_CLASS,
     "A compiled copy of a game of either core; StateError naming the field if its state is not sound."},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot game_slots[] = {
    {Py_tp_doc, "One game of Friday on the compiled core (see friday_env.core.CompiledGame)."},
    {Py_tp_new, game_new},
    {Py_tp_dealloc, game_dealloc},
    {Py_tp_traverse, game_traverse},
    {Py_tp_clear, game_clear},
    {Py_tp_methods, game_methods},
    {Py_tp_getset, game_getset},
    {0, NULL},
};

static PyType_Spec game_spec = {
    .name = "friday_env._core.compiled.CoreGame",
    .basicsize = sizeof(fr_pygame),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .slots = game_slots,
};

int fr_register_game(PyObject *module) {
    PyObject *type = PyType_FromSpec(&game_spec);
    if (type == NULL) return -1;
    fr_game_type = (PyTypeObject *)type;
    if (PyModule_AddObjectRef(module, "CoreGame", type) < 0) return -1;
    return PyModule_AddIntConstant(module, "MAX_SEED_BITS", 64);
}
