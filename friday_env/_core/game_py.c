/* Python bindings of game.c (placeholder until the part lands). */
#include "pybind.h"

PyTypeObject *fr_game_type = NULL;

int fr_pygame_check(PyObject *o) { return fr_game_type != NULL && PyObject_TypeCheck(o, fr_game_type); }

void fr_pygame_changed(PyObject *o) {
    fr_pygame *self = (fr_pygame *)o;
    Py_CLEAR(self->legal_list);
    self->g.legal_valid = 0;
}

int fr_register_game(PyObject *module) {
    (void)module;
    return 0;
}
