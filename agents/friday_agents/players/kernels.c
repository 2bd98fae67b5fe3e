/* The extension module friday_agents.players._kernels: the agents' C kernels (kernels.h). */
#include "kernels.h"

static struct PyModuleDef kernels_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "friday_agents.players._kernels",
    .m_doc = "The agents' C kernels (heuristic, search rollouts, random play) on compiled games.",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__kernels(void) {
    fr_capi = friday_capi_import();
    if (fr_capi == NULL) return NULL;
    PyObject *module = PyModule_Create(&kernels_module);
    if (module == NULL) return NULL;
    if (fr_register_heuristic(module) < 0 || fr_register_search(module) < 0 ||
        fr_register_random(module) < 0 || fr_register_explore(module) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
