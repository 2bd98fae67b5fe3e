/* Python bindings of search.c (placeholder until the part lands: registers nothing). */
#include "pybind.h"

int fr_register_search(PyObject *module) {
    (void)module;
    return 0;
}
