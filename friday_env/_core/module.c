/* The extension module friday_env._core.compiled: each part registers its own names (the
 * test hooks are another module, test_hooks.c). */
#include "pybind.h"

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "friday_env._core.compiled",
    .m_doc = "The compiled core of Friday (see friday_env.core).",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit_compiled(void) {
    PyObject *module = PyModule_Create(&core_module);
    if (module == NULL) return NULL;
    fr_rng_prepare(); /* before any thread shuffles (friday.h) */
    if (fr_register_game(module) < 0 || fr_register_encode(module) < 0 ||
        fr_register_vecenv(module) < 0 || fr_register_capi(module) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
