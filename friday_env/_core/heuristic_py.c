/* Python bindings of heuristic.c (placeholder until the part lands: registers nothing). */
#include "pybind.h"

int fr_register_heuristic(PyObject *module) {
    (void)module;
    return 0;
}
