/* The agents' C kernels, bound to Python as friday_agents.players._kernels (kernels.c).
 *
 * Each kernel sits beside its Python twin: heuristic/heuristic.c (agent.py's policy),
 * search/search.c (the search's rollouts), random_play.c (random_agent.py's uniform choice,
 * played in a loop for the bench), explore.c (friday explore's archive, learning/explore/); the *_py.c files bind them. They play on the env's
 * compiled games through its C API (friday_env/_core/friday_capi.h): game_link.c forwards
 * friday.h's game functions to it, so the kernels call fr_legal, fr_apply, ... as the env's
 * own C does.
 */
#ifndef FRIDAY_KERNELS_H
#define FRIDAY_KERNELS_H

#include "friday_capi.h"

/* The env's C API, set by the module's init before any kernel runs (game_link.c). */
extern const friday_capi *fr_capi;

/* The fr_game of a compiled game, or NULL with a TypeError naming `function`. */
fr_game *fr_kernel_game(PyObject *obj, const char *function);

/* A kernel's long run, played in pieces: `play_until(run, until)` plays on until the run's
 * progress counter reaches `until` (0, or the kernel's own negative error code). */
typedef int (*fr_piece_player)(void *run, int64_t until);

/* Plays `run` until `*progress` reaches `target` (or `*stop` becomes non-zero, when `stop`
 * is not NULL), `piece` at a time without the GIL; between pieces it takes the GIL back and
 * checks for signals, so Ctrl-C stops a long run promptly. Returns 0, the first error code
 * `play_until` returned, or -2 with the signal's exception set. (kernels.c) */
int fr_play_in_pieces(fr_piece_player play_until, void *run, const int64_t *progress,
                      int64_t target, const int *stop, int64_t piece);

int fr_register_heuristic(PyObject *module); /* heuristic/heuristic_py.c */
int fr_register_search(PyObject *module);    /* search/search_py.c */
int fr_register_random(PyObject *module);    /* random_play_py.c */
int fr_register_explore(PyObject *module);   /* explore_py.c */

#endif
