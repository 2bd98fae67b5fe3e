/* Python binding of rng.c: a test hook comparing the compiled shuffle with CPython's. */
#include "pybind.h"

#define SHUFFLE_MAX_CARDS 4096 /* far more than any pile; bounds the temporary buffer */

/* _shuffle(seed, k, cards) -> a new list: cards shuffled as
 * random.Random(f"{seed}:{k}").shuffle would (each card an int in -128..127). */
static PyObject *py_shuffle(PyObject *self, PyObject *args) {
    PyObject *seed_obj, *cards_obj;
    int k;
    if (!PyArg_ParseTuple(args, "OiO:_shuffle", &seed_obj, &k, &cards_obj)) return NULL;
    unsigned long long seed = PyLong_AsUnsignedLongLong(seed_obj);
    if (seed == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_SetString(PyExc_ValueError, "_shuffle: seed must be an int in 0..2**64-1");
        return NULL;
    }
    if (k < 0) return PyErr_Format(PyExc_ValueError, "_shuffle: k must be >= 0, got %d", k);
    PyObject *seq = PySequence_Fast(cards_obj, "_shuffle: cards must be a sequence of ints");
    if (seq == NULL) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > SHUFFLE_MAX_CARDS) {
        Py_DECREF(seq);
        return PyErr_Format(PyExc_ValueError, "_shuffle: at most %d cards, got %zd",
                            SHUFFLE_MAX_CARDS, n);
    }
    int8_t cards[SHUFFLE_MAX_CARDS];
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if ((v == -1 && PyErr_Occurred()) || v < -128 || v > 127) {
            PyErr_Clear();
            Py_DECREF(seq);
            return PyErr_Format(PyExc_ValueError, "_shuffle: card %zd is not an int in -128..127", i);
        }
        cards[i] = (int8_t)v;
    }
    Py_DECREF(seq);
    fr_shuffle((uint64_t)seed, (int32_t)k, cards, (int32_t)n);
    PyObject *out = PyList_New(n);
    if (out == NULL) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) PyList_SET_ITEM(out, i, PyLong_FromLong(cards[i]));
    return out;
}

static PyMethodDef rng_methods[] = {
    {"_shuffle", py_shuffle, METH_VARARGS,
     "_shuffle(seed, k, cards) -> list: cards shuffled as random.Random(f'{seed}:{k}').shuffle "
     "would (a test hook of the compiled shuffle)."},
    {NULL, NULL, 0, NULL},
};

int fr_register_rng(PyObject *module) {
    fr_rng_prepare();
    return PyModule_AddFunctions(module, rng_methods);
}
