/* Python bindings of vecenv.c: the VecEnvCore type (friday_env/vector.py drives it).
 *
 * VecEnvCore writes into numpy arrays that friday_env/vector.py allocates once and hands
 * over at construction (held through the buffer protocol until the object dies), so a step
 * is one C call with no allocation. Every buffer is checked (kind, item size, length,
 * C-contiguous, writable) before it is used: a wrong one is a clear TypeError or
 * ValueError, never a write out of bounds.
 */
#include <float.h>
#include <string.h>

#include "pybind.h"
#include "vecenv.h"

/* ------------------------------------------------------------------ buffers */

enum { KIND_SIGNED, KIND_UNSIGNED, KIND_FLOAT, KIND_BOOL };

/* The byte-order prefixes of the other order than this machine's: such a buffer (numpy's
 * '>i8' here) would be read byte-swapped, action 1 as 2**56. */
#if PY_LITTLE_ENDIAN
#define FOREIGN_ORDER "!>"
#else
#define FOREIGN_ORDER "<"
#endif

/* The kind of a struct-module format character in this machine's byte order, or -1. */
static int format_kind(const char *format) {
    if (format == NULL) return KIND_UNSIGNED; /* plain bytes */
    int foreign = *format != '\0' && strchr(FOREIGN_ORDER, *format) != NULL;
    if (*format != '\0' && strchr("<=@!>", *format) != NULL) format++;
    if (format[0] == '\0' || format[1] != '\0') return -1;
    if (foreign && !strchr("bB?", format[0])) return -1; /* one byte has no order */
    if (strchr("bhilq", format[0])) return KIND_SIGNED;
    if (strchr("BHILQ", format[0])) return KIND_UNSIGNED;
    if (strchr("fd", format[0])) return KIND_FLOAT;
    if (format[0] == '?') return KIND_BOOL;
    return -1;
}

/* Gets a C-contiguous buffer of `count` items of the given kind and size; 0 ok, -1 with an
 * exception naming `name`. */
static int get_buffer(PyObject *obj, Py_buffer *view, const char *name, int kind,
                      Py_ssize_t itemsize, Py_ssize_t count, int writable) {
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) < 0) {
        PyErr_Format(PyExc_TypeError, "%s: need a C-contiguous%s array", name,
                     writable ? " writable" : "");
        return -1;
    }
    if (format_kind(view->format) != kind || view->itemsize != itemsize) {
        PyErr_Format(PyExc_TypeError,
                     "%s: wrong dtype (format %s, item size %zd; in this machine's byte order)",
                     name, view->format ? view->format : "B", view->itemsize);
        PyBuffer_Release(view);
        return -1;
    }
    if (view->len != count * itemsize) {
        PyErr_Format(PyExc_ValueError, "%s: need %zd items, got %zd", name, count,
                     view->len / itemsize);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ VecEnvCore */

enum { OUT_OBS, OUT_MASKS, OUT_REWARDS, OUT_TERMINATED, OUT_TRUNCATED, OUT_FINAL_OBS,
       OUT_FINAL_STATS, OUT_NEXT_SEEDS, OUT_COUNT };

typedef struct {
    PyObject_HEAD
    fr_vecenv v;
    Py_buffer views[OUT_COUNT];
    int held;       /* views held (the first `held` of views) */
    fr_vec_out out; /* pointers into the views */
    int ready;      /* reset() has run: the games exist */
} VecEnvCore;

/* name, kind, item size, items per env */
static const struct {
    const char *name;
    int kind;
    Py_ssize_t itemsize, per_env;
} OUT_SPECS[OUT_COUNT] = {
    {"obs (float32, N x FLAT_SIZE)", KIND_FLOAT, 4, FR_FLAT_SIZE},
    {"masks (int8, N x NUM_ACTIONS)", KIND_SIGNED, 1, FR_A_NUM_ACTIONS},
    {"rewards (float64, N)", KIND_FLOAT, 8, 1},
    {"terminated (bool, N)", KIND_BOOL, 1, 1},
    {"truncated (bool, N)", KIND_BOOL, 1, 1},
    {"final_obs (float32, N x FLAT_SIZE)", KIND_FLOAT, 4, FR_FLAT_SIZE},
    {"final_stats (int32, N x STATS)", KIND_SIGNED, 4, FR_VEC_STATS},
    {"next_seeds (uint64, N)", KIND_UNSIGNED, 8, 1},
};

static void release_views(VecEnvCore *self) {
    for (int k = 0; k < self->held; k++) PyBuffer_Release(&self->views[k]);
    self->held = 0;
}

static void vecenv_dealloc(VecEnvCore *self) {
    release_views(self);
    fr_vec_free(&self->v);
    PyTypeObject *type = Py_TYPE(self);
    type->tp_free((PyObject *)self);
    Py_DECREF(type); /* instances of a heap type hold a reference to it */
}

static int hold_outputs(VecEnvCore *self, PyObject *const *buffers, int32_t num_envs) {
    for (int k = 0; k < OUT_COUNT; k++) {
        if (get_buffer(buffers[k], &self->views[k], OUT_SPECS[k].name, OUT_SPECS[k].kind,
                       OUT_SPECS[k].itemsize, OUT_SPECS[k].per_env * num_envs, 1) < 0)
            return -1;
        self->held = k + 1;
    }
    self->out.obs = self->views[OUT_OBS].buf;
    self->out.masks = self->views[OUT_MASKS].buf;
    self->out.rewards = self->views[OUT_REWARDS].buf;
    self->out.terminated = self->views[OUT_TERMINATED].buf;
    self->out.truncated = self->views[OUT_TRUNCATED].buf;
    self->out.final_obs = self->views[OUT_FINAL_OBS].buf;
    self->out.final_stats = self->views[OUT_FINAL_STATS].buf;
    return 0;
}

static int vecenv_init(VecEnvCore *self, PyObject *args, PyObject *kwds) {
    static char *keywords[] = {"num_envs", "level", "reward_mode", "progress_coef",
                               "illegal_mode", "obs", "masks", "rewards", "terminated",
                               "truncated", "final_obs", "final_stats", "next_seeds", NULL};
    int num_envs, level, reward_mode, illegal_mode;
    double progress_coef;
    PyObject *buffers[OUT_COUNT];
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iiidiOOOOOOOO:VecEnvCore", keywords,
                                     &num_envs, &level, &reward_mode, &progress_coef,
                                     &illegal_mode,
                                     &buffers[0], &buffers[1], &buffers[2], &buffers[3],
                                     &buffers[4], &buffers[5], &buffers[6], &buffers[7]))
        return -1;
    if (self->v.games != NULL || self->held) {
        PyErr_SetString(PyExc_RuntimeError, "VecEnvCore is already initialised");
        return -1;
    }
    if (num_envs < 1 || level < 1 || level > 4 || reward_mode < 0 ||
        reward_mode > FR_REWARD_PROGRESS || illegal_mode < 0 || illegal_mode > 1) {
        PyErr_Format(PyExc_ValueError,
                     "VecEnvCore: bad num_envs %d, level %d, reward_mode %d or illegal_mode %d",
                     num_envs, level, reward_mode, illegal_mode);
        return -1;
    }
    if (!(progress_coef >= 0.0 && progress_coef <= DBL_MAX)) { /* NaN fails both */
        PyErr_SetString(PyExc_ValueError, "VecEnvCore: progress_coef must be finite and >= 0");
        return -1;
    }
    if (hold_outputs(self, buffers, num_envs) < 0) {
        release_views(self);
        return -1;
    }
    if (fr_vec_init(&self->v, num_envs, level, reward_mode, progress_coef, illegal_mode) < 0) {
        release_views(self);
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static int require_ready(VecEnvCore *self) {
    if (self->v.games == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "VecEnvCore is not initialised");
        return -1;
    }
    if (!self->ready) {
        PyErr_SetString(PyExc_RuntimeError, "VecEnvCore: call reset() before step()");
        return -1;
    }
    return 0;
}

/* reset(seeds): new games, env i's from seeds[i] (uint64, N). */
static PyObject *vecenv_reset(VecEnvCore *self, PyObject *seeds_obj) {
    if (self->v.games == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "VecEnvCore is not initialised");
        return NULL;
    }
    Py_buffer seeds;
    if (get_buffer(seeds_obj, &seeds, "seeds (uint64, N)", KIND_UNSIGNED, 8, self->v.num_envs,
                   0) < 0)
        return NULL;
    int rc = fr_vec_reset(&self->v, seeds.buf, &self->out);
    PyBuffer_Release(&seeds);
    if (rc < 0) {
        self->ready = 0;
        return PyErr_NoMemory();
    }
    self->ready = 1;
    Py_RETURN_NONE;
}

/* check(actions) -> -1 if every action can be played, else the first refused env. */
static PyObject *vecenv_check(VecEnvCore *self, PyObject *actions_obj) {
    if (require_ready(self) < 0) return NULL;
    Py_buffer actions;
    if (get_buffer(actions_obj, &actions, "actions (int64, N)", KIND_SIGNED, 8,
                   self->v.num_envs, 0) < 0)
        return NULL;
    int32_t refused = fr_vec_check(&self->v, actions.buf);
    PyBuffer_Release(&actions);
    return PyLong_FromLong(refused);
}

/* step(actions) -> the number of games that ended. The caller has run check(actions);
 * step checks again (cheap) so that no unchecked action ever reaches the rules. */
static PyObject *vecenv_step(VecEnvCore *self, PyObject *actions_obj) {
    if (require_ready(self) < 0) return NULL;
    Py_buffer actions;
    if (get_buffer(actions_obj, &actions, "actions (int64, N)", KIND_SIGNED, 8,
                   self->v.num_envs, 0) < 0)
        return NULL;
    int32_t refused = fr_vec_check(&self->v, actions.buf);
    if (refused >= 0) {
        long long action = ((const int64_t *)actions.buf)[refused];
        PyBuffer_Release(&actions);
        return PyErr_Format(PyExc_ValueError, "env %d: action %lld refused (nothing stepped)",
                            (int)refused, action);
    }
    int32_t ended =
        fr_vec_step(&self->v, actions.buf, self->views[OUT_NEXT_SEEDS].buf, &self->out);
    PyBuffer_Release(&actions);
    if (ended < 0) {
        self->ready = 0;
        return PyErr_NoMemory();
    }
    return PyLong_FromLong(ended);
}

/* set_game(i, game): env i plays a copy of the compiled game `game` from its state. */
static PyObject *vecenv_set_game(VecEnvCore *self, PyObject *const *args, Py_ssize_t nargs) {
    if (require_ready(self) < 0) return NULL;
    if (nargs != 2) return PyErr_Format(PyExc_TypeError, "set_game(i, game) takes 2 arguments");
    long i = PyLong_AsLong(args[0]);
    if (i == -1 && PyErr_Occurred()) return NULL;
    if (!fr_pygame_check(args[1]))
        return PyErr_Format(PyExc_TypeError, "set_game: game must be a compiled game");
    const fr_game *g = FR_GAME(args[1]);
    if (i < 0 || i >= self->v.num_envs)
        return PyErr_Format(PyExc_ValueError, "set_game: env %ld is not in 0..%d", i,
                            (int)self->v.num_envs - 1);
    if (g->level != self->v.level || g->phase == FR_GAME_OVER)
        return PyErr_Format(PyExc_ValueError,
                            "set_game: the game must be of level %d and not over (got level "
                            "%d%s)", (int)self->v.level, (int)g->level,
                            g->phase == FR_GAME_OVER ? ", over" : "");
    const char *problem = fr_check_state(g); /* a compiled game was checked when made: again, cheaply */
    if (problem != NULL) return fr_state_error("set_game: unsound game state: %s", problem);
    if (fr_vec_set_game(&self->v, (int32_t)i, g, &self->out) < 0) return PyErr_NoMemory();
    Py_RETURN_NONE;
}

/* set_progress_coef(coef): the progress reward's coefficient from the next step on (a
 * finite number >= 0, progress mode only; vector.py checks it first and says why). */
static PyObject *vecenv_set_progress_coef(VecEnvCore *self, PyObject *arg) {
    double coef = PyFloat_AsDouble(arg);
    if (coef == -1.0 && PyErr_Occurred()) return NULL;
    if (self->v.reward_mode != FR_REWARD_PROGRESS)
        return PyErr_Format(PyExc_ValueError, "set_progress_coef: the reward is not progress");
    if (!(coef >= 0.0 && coef <= DBL_MAX))
        return PyErr_Format(PyExc_ValueError,
                            "set_progress_coef: the coefficient must be a finite number >= 0");
    self->v.progress_coef = coef;
    Py_RETURN_NONE;
}

static PyObject *vecenv_get_num_envs(VecEnvCore *self, void *closure) {
    return PyLong_FromLong(self->v.num_envs);
}

static PyMethodDef vecenv_methods[] = {
    {"reset", (PyCFunction)vecenv_reset, METH_O,
     "reset(seeds): a new game in every env, env i's from seeds[i] (uint64 array)."},
    {"check", (PyCFunction)vecenv_check, METH_O,
     "check(actions) -> -1 if every action (int64 array) can be played, else the first "
     "env whose action is refused. Changes nothing."},
    {"step", (PyCFunction)vecenv_step, METH_O,
     "step(actions) -> number of games ended: every env plays its action (int64 array); "
     "an ended game restarts with next_seeds[i]. Raises ValueError, stepping nothing, if "
     "check(actions) refuses one."},
    {"set_game", (PyCFunction)(void (*)(void))vecenv_set_game, METH_FASTCALL,
     "set_game(i, game): env i plays a copy of the compiled game `game` (the env's level, "
     "not over) from its state; writes its observation and mask rows."},
    {"set_progress_coef", (PyCFunction)vecenv_set_progress_coef, METH_O,
     "set_progress_coef(coef): the progress reward's coefficient from the next step on."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef vecenv_getset[] = {
    {"num_envs", (getter)vecenv_get_num_envs, NULL, "number of envs", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot vecenv_slots[] = {
    {Py_tp_doc, "N Friday games of one level stepped in one call (see friday_env.vector)."},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_init, vecenv_init},
    {Py_tp_dealloc, vecenv_dealloc},
    {Py_tp_methods, vecenv_methods},
    {Py_tp_getset, vecenv_getset},
    {0, NULL},
};

static PyType_Spec vecenv_spec = {
    .name = "friday_env._core.compiled.VecEnvCore",
    .basicsize = sizeof(VecEnvCore),
    .flags = Py_TPFLAGS_DEFAULT,
    .slots = vecenv_slots,
};

int fr_register_vecenv(PyObject *module) {
    PyObject *type = PyType_FromSpec(&vecenv_spec);
    if (type == NULL) return -1;
    if (PyModule_AddObject(module, "VecEnvCore", type) < 0) {
        Py_DECREF(type);
        return -1;
    }
    return 0;
}
