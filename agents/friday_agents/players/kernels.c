/* The extension module friday_agents.players._kernels: the agents' C kernels (kernels.h). */
#include "kernels.h"

int fr_play_in_pieces(fr_piece_player play_until, void *run, const int64_t *progress,
                      int64_t target, const int *stop, int64_t piece) {
    int rc = 0;
    while (rc == 0 && (stop == NULL || !*stop) && *progress < target) {
        int64_t until = target - *progress > piece ? *progress + piece : target;
        Py_BEGIN_ALLOW_THREADS
        rc = play_until(run, until);
        Py_END_ALLOW_THREADS
        if (rc == 0 && PyErr_CheckSignals() < 0) rc = -2;
    }
    return rc;
}

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
