/* The errors the bindings raise for a state or seed the compiled core refuses: StateError
 * (friday_env.errors) naming the field. Shared by the compiled core and its test hooks. */
#include <stdarg.h>

#include "pybind.h"


PyObject *fr_state_error(const char *format, ...) {
    PyObject *type = PyExc_ValueError, *errors = PyImport_ImportModule("friday_env.errors");
    PyObject *state_error = errors != NULL ? PyObject_GetAttrString(errors, "StateError") : NULL;
    Py_XDECREF(errors);
    PyErr_Clear(); /* without the module, a plain ValueError still says what is wrong */
    if (state_error != NULL) type = state_error;
    va_list args;
    va_start(args, format);
    PyErr_FormatV(type, format, args);
    va_end(args);
    Py_XDECREF(state_error);
    return NULL;
}

int fr_parse_seed(PyObject *value, const char *field, uint64_t *out) {
    if (value == NULL || !PyLong_Check(value) || PyBool_Check(value)) {
        fr_state_error("%s: must be an int, not %s", field,
                       value == NULL ? "nothing" : Py_TYPE(value)->tp_name);
        return -1;
    }
    unsigned long long seed = PyLong_AsUnsignedLongLong(value); /* no Python code runs */
    if (seed == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        fr_state_error("%s: the compiled core takes seeds 0 <= seed < 2**64 (use core='python' "
                       "for larger seeds), got %R", field, value);
        return -1;
    }
    *out = (uint64_t)seed;
    return 0;
}
