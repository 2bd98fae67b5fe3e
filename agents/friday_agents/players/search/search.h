/* The search agents' rollouts in C (search.c), the twin of agent.py / value.py beside it. */
#ifndef FRIDAY_SEARCH_H
#define FRIDAY_SEARCH_H

#include "heuristic.h"
#include "leaf_net.h"
#include "policy_net.h"

/* How far a rollout plays (friday_agents.players.search.agent.rollout and its constants). */
typedef struct {
    int horizon;         /* fights played before the end is valued (1: the current one) */
    int finish;          /* from this step on, play to the game's end */
    int max_actions;     /* MAX_ROLLOUT_ACTIONS */
    int max_fights_left; /* MAX_FIGHTS_LEFT */
} fr_rollout_options;
/* The leaf value's feature row (friday_agents.players.networks.linear_value), its columns given by the
 * Python side: FR_SUMMARY_FIXED numbers, then n_groups ability groups, then (cards set) the
 * n_deck card types held and the n_pirate pirate types faced. -1: the card has no column. */
#define FR_SUMMARY_FIXED 15
typedef struct {
    int cards; /* 1: the "cards" feature set, 0: "basic" */
    int n_groups, n_deck, n_pirate;
    int8_t group[FR_NUM_CARDS], deck[FR_NUM_CARDS], pirate[FR_NUM_CARDS];
} fr_leaf_layout;
/* Where one rollout ended: game over or not, level, step, score, won. */
typedef struct {
    int32_t done, level, step, score, won;
} fr_rollout_end;
/* One decision's simulations: n_seeds worlds x n_actions candidates. */
typedef struct {
    const int32_t *actions;
    int n_actions;
    const uint64_t *seeds;
    int n_seeds;
    int oracle; /* 1: worlds are the true game re-seeded (OracleSearchAgent), not determinized */
    fr_rollout_options options;
    const fr_leaf_layout *layout;
    const fr_leaf_net *net; /* the learned leaf value, valued here; NULL: Python values the rows */
    const fr_policy_net *policy; /* what plays the rollouts; NULL: the heuristic */
} fr_search_request;
enum { FR_SEARCH_OK = 0, FR_SEARCH_ILLEGAL = 1, FR_SEARCH_NO_MEMORY = 2, FR_SEARCH_BROKEN_ROLLOUT = 3 };
/* Plays the policy network `policy` (NULL: the heuristic) on g to the rollout's stop;
 * FR_SEARCH_* status. */
int fr_rollout(fr_game *g, const fr_rollout_options *o, const fr_policy_net *policy);
int fr_leaf_row_size(const fr_leaf_layout *layout);
void fr_leaf_features(const fr_game *g, const fr_leaf_layout *layout, double *row);
/* Fills ends[k] (k = w * n_actions + i) and its row (rows + k * row_stride, unless the game
 * is over) for each world w in [first, end) and candidate i, and with a network (r->net) its
 * value values[k] (the result, 1 or 0, of a finished game); FR_SEARCH_* status (*bad_action:
 * the illegal candidate). Worlds are independent: a decision may be played in pieces. */
int fr_search_worlds(const fr_game *root, const fr_search_request *r, int first, int end,
                     fr_rollout_end *ends, double *rows, int row_stride, double *values,
                     int *bad_action);

#endif
