/* Python bindings of encode.c (placeholder until the part lands: registers nothing). */
#include "pybind.h"

int fr_register_encode(PyObject *module) {
    (void)module;
    return 0;
}
