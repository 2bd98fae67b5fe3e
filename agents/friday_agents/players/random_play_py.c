/* Python binding of random_play.c:
 *
 *   random_play(actions, seed) -> (actions played, games begun)
 *
 * The run is played without the GIL in pieces of PIECE actions; between pieces the binding
 * takes the GIL back and checks for signals, so Ctrl-C stops a long run promptly
 * (KeyboardInterrupt) instead of after it.
 */
#include "kernels.h"
#include "random_play.h"

#define PIECE 200000 /* actions between signal checks: a few milliseconds */

static int play_until(void *run, int64_t until) { return fr_random_continue(run, until); }

static PyObject *py_random_play(PyObject *module, PyObject *args) {
    long long actions;
    PyObject *seed_obj;
    if (!PyArg_ParseTuple(args, "LO:random_play", &actions, &seed_obj)) return NULL;
    if (actions < 0) return PyErr_Format(PyExc_ValueError, "random_play: actions must be >= 0");
    unsigned long long seed = PyLong_AsUnsignedLongLong(seed_obj); /* refuses < 0, >= 2**64 */
    if (seed == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
    fr_random_run run;
    if (fr_random_begin(&run, (uint64_t)seed) < 0) return PyErr_NoMemory();
    int rc = fr_play_in_pieces(play_until, &run, &run.played, actions, NULL, PIECE);
    PyObject *result = NULL;
    if (rc == 0)
        result = Py_BuildValue("LL", (long long)run.played, (long long)run.games);
    else if (rc == -1)
        PyErr_NoMemory();
    fr_random_end(&run);
    return result;
}

static PyMethodDef random_methods[] = {
    {"random_play", py_random_play, METH_VARARGS,
     "random_play(actions, seed) -> (actions played, games begun): uniform random legal "
     "play on compiled games over consecutive deals seed, seed+1, ... (levels 1-4 in turn), "
     "for the bench."},
    {NULL, NULL, 0, NULL},
};

int fr_register_random(PyObject *module) { return PyModule_AddFunctions(module, random_methods); }
