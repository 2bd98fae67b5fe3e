/* Python bindings of vecenv.c (placeholder until the part lands: registers nothing). */
#include "pybind.h"

int fr_register_vecenv(PyObject *module) {
    (void)module;
    return 0;
}
