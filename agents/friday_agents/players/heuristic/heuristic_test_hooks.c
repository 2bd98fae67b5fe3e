/* The test-only extension friday_agents.players._kernel_test_hooks: the heuristic's card
 * tables and its sum() called directly, to compare them with the Python ones.
 * setup.py builds it for development installs and FRIDAY_TEST_HOOKS=1, never into a wheel.
 *
 *   _heuristic_tables() -> (worth, fight_points)  the card tables as heuristic.c has them
 *   _py_sum(floats) -> float                      sum() as heuristic.c computes it
 */
#include "heuristic.h"
#include "kernels.h"

static PyObject *card_table(double (*table)(int)) {
    PyObject *values = PyTuple_New(FR_NUM_CARDS);
    if (values == NULL) return NULL;
    for (int card = 0; card < FR_NUM_CARDS; card++) {
        PyObject *value = PyFloat_FromDouble(table(card));
        if (value == NULL) {
            Py_DECREF(values);
            return NULL;
        }
        PyTuple_SET_ITEM(values, card, value);
    }
    return values;
}

static PyObject *py_tables(PyObject *self, PyObject *unused) {
    PyObject *worth = card_table(fr_card_worth);
    PyObject *points = worth ? card_table(fr_fight_points) : NULL;
    if (points == NULL) {
        Py_XDECREF(worth);
        return NULL;
    }
    return Py_BuildValue("(NN)", worth, points);
}

static PyObject *py_sum(PyObject *self, PyObject *items) {
    /* a snapshot: an item's __float__ cannot resize what is being read */
    PyObject *seq = PySequence_Tuple(items);
    if (seq == NULL) return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(seq);
    double *values = PyMem_Malloc((size_t)(n ? n : 1) * sizeof(double));
    if (values == NULL) {
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        values[i] = PyFloat_AsDouble(PyTuple_GET_ITEM(seq, i));
        if (values[i] == -1.0 && PyErr_Occurred()) {
            PyMem_Free(values);
            Py_DECREF(seq);
            return NULL;
        }
    }
    double total = fr_py_sum(values, (int)n);
    PyMem_Free(values);
    Py_DECREF(seq);
    return PyFloat_FromDouble(total);
}

static PyMethodDef hook_methods[] = {
    {"_heuristic_tables", py_tables, METH_NOARGS,
     "(WORTH, FIGHT_POINTS) per card as the C heuristic computes them."},
    {"_py_sum", py_sum, METH_O, "sum() of floats as the C heuristic computes it."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef hooks_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "friday_agents.players._kernel_test_hooks",
    .m_doc = "Test hooks of the agents' C kernels (not installed by the wheel).",
    .m_size = -1,
    .m_methods = hook_methods,
};

PyMODINIT_FUNC PyInit__kernel_test_hooks(void) {
    fr_capi = friday_capi_import();
    if (fr_capi == NULL) return NULL;
    fr_heuristic_use_interpreter_sum();
    return PyModule_Create(&hooks_module);
}
