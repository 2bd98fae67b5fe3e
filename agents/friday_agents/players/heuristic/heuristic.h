/* The heuristic policy in C (heuristic.c), the twin of agent.py beside it.
 *
 * It plays on the env's compiled games (friday_env/_core/friday.h), whose functions it
 * reaches through the env's C API (see ../game_link.c).
 */
#ifndef FRIDAY_HEURISTIC_H
#define FRIDAY_HEURISTIC_H

#include "friday.h"

typedef struct {
    double life_value, low_life, win_bonus, destroy_weight, last_hazard_margin,
        exchange_margin, future_weight, future_mean;
    int hard_pirate_first;
} fr_heuristic_params;
extern const fr_heuristic_params FR_DEFAULT_PARAMS;
/* heuristic_action(game, params) of friday_agents.players.heuristic, decision for decision: a legal
 * action id, or -1 when the game is over. Reads public information only (R26). */
int fr_heuristic_action(fr_game *g, const fr_heuristic_params *p);
/* Plays the heuristic until the game ends or max_actions were played: the number played,
 * or -2 (out of memory) / -3 (an action was refused: a bug). */
int fr_heuristic_play(fr_game *g, const fr_heuristic_params *p, int max_actions);
/* Fills the card tables the heuristic reads; call once before playing from several threads
 * (the bindings do, at import; fr_heuristic_action fills them on first use otherwise). */
void fr_heuristic_prepare(void);
double fr_card_worth(int card);   /* friday_agents.players.heuristic.card_worth.WORTH[card] */
double fr_fight_points(int card); /* card_worth.FIGHT_POINTS[card] */
/* Python's sum() of floats, as the interpreter the binding was compiled for does it:
 * plain left-to-right addition (CPython <= 3.11) or Neumaier's compensated summation
 * (CPython >= 3.12). The bindings set the mode at import. */
void fr_heuristic_set_compensated_sum(int on);
/* Sets the mode of the interpreter the binding is compiled for (PY_VERSION_HEX). */
#define fr_heuristic_use_interpreter_sum() \
    fr_heuristic_set_compensated_sum(PY_VERSION_HEX >= 0x030C0000)
int fr_heuristic_compensated_sum(void);
double fr_py_sum(const double *items, int n);

#endif
