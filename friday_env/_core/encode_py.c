/* Python bindings of encode.c: _core.compiled.encode_flat(game, out).
 *
 * `out` is any writable buffer of FR_FLAT_SIZE C-contiguous float32 values (a numpy array,
 * an array.array("f"), a memoryview): the buffer protocol, so no numpy C API is needed.
 */
#include <string.h>

#include "pybind.h"

/* 1 if the buffer's format is a 32-bit float in this machine's byte order. */
static int is_float32_format(const char *format) {
    if (format == NULL) return 0; /* PyBUF_FORMAT asked: NULL means bytes ("B") */
#if PY_LITTLE_ENDIAN
    if (format[0] == '@' || format[0] == '=' || format[0] == '<') format++;
#else
    if (format[0] == '@' || format[0] == '=' || format[0] == '>' || format[0] == '!') format++;
#endif
    return strcmp(format, "f") == 0;
}

/* Fills `view` with the writable buffer of `out` if it fits the flat vector, else sets a
 * clear error (naming what is wrong) and returns -1. */
static int get_flat_buffer(PyObject *out, Py_buffer *view) {
    if (PyObject_GetBuffer(out, view, PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_ND) < 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError,
                     "out must be a writable C-contiguous float32 array of shape (%d,), "
                     "got %.200s (not a writable contiguous buffer)",
                     FR_FLAT_SIZE, Py_TYPE(out)->tp_name);
        return -1;
    }
    const char *problem = NULL;
    if (!is_float32_format(view->format) || view->itemsize != 4)
        problem = "its dtype is not float32";
    else if (view->ndim != 1 || view->shape[0] != FR_FLAT_SIZE)
        problem = "its shape is wrong";
    if (problem == NULL) return 0;
    PyErr_Format(PyExc_ValueError,
                 "out must be a C-contiguous float32 array of shape (%d,): %s "
                 "(format %.20s, item size %zd, %d dimension(s), first %zd)",
                 FR_FLAT_SIZE, problem, view->format ? view->format : "B", view->itemsize,
                 view->ndim, view->ndim > 0 ? view->shape[0] : (Py_ssize_t)0);
    PyBuffer_Release(view);
    return -1;
}

static PyObject *encode_flat(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "encode_flat(game, out) takes 2 arguments, got %zd",
                     nargs);
        return NULL;
    }
    if (!fr_pygame_check(args[0])) {
        PyErr_Format(PyExc_TypeError, "encode_flat: game must be a compiled game, got %.200s",
                     Py_TYPE(args[0])->tp_name);
        return NULL;
    }
    Py_buffer view;
    if (get_flat_buffer(args[1], &view) < 0) return NULL;
    fr_encode_flat(FR_GAME(args[0]), (float *)view.buf);
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

static PyMethodDef encode_methods[] = {
    {"encode_flat", (PyCFunction)(void (*)(void))encode_flat, METH_FASTCALL,
     "encode_flat(game, out): write the flat observation of the compiled game `game` into\n"
     "`out`, a writable C-contiguous float32 array of shape (FLAT_SIZE,). Bit for bit the\n"
     "vector of friday_env.observation.FlatEncoder."},
    {NULL, NULL, 0, NULL},
};

int fr_register_encode(PyObject *module) {
    if (PyModule_AddFunctions(module, encode_methods) < 0) return -1;
    return PyModule_AddIntConstant(module, "FLAT_SIZE", FR_FLAT_SIZE);
}
