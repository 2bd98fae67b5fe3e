/* The test-only extension friday_env._core._test_hooks: functions that exist for the tests
 * alone (rng_py.c: the compiled shuffle called directly, to compare it with CPython's).
 * setup.py builds it for development installs and FRIDAY_TEST_HOOKS=1, never into a wheel. */
#include "pybind.h"

static struct PyModuleDef hooks_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "friday_env._core._test_hooks",
    .m_doc = "Test hooks of the compiled core (not installed by the wheel).",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__test_hooks(void) {
    PyObject *module = PyModule_Create(&hooks_module);
    if (module == NULL) return NULL;
    if (fr_register_rng(module) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
