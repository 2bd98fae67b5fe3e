/* search.c: the search agents' rollouts (friday_agents.players.search.agent), in C.
 *
 * One call plays a whole decision's simulations: for each world seed, a determinized copy of
 * the game (or, for the oracle, a re-seeded clone); in each world, for each candidate action,
 * a copy that plays the action and then the heuristic (FR_DEFAULT_PARAMS), or the policy
 * network the request carries (policy_net.c), on to where `rollout` stops. Each rollout's end
 * is reported, not valued: whether the game is over, its level, step, score and result, and
 * the leaf value's feature row
 * (friday_agents.players.networks.linear_value.features / card_features). Python then
 * values each end exactly as the reference does (`float(row @ weights)`, numpy's own dot
 * product), so the totals are the same floats on both cores: see docs/compiled-core.md,
 * "Search on the compiled core". A learned leaf network (leaf_net.c) is valued here instead,
 * each end as it is reached.
 */
#include <math.h>
#include <string.h>

#include "search.h"

/* The rollout's stops: a hazard fight's end (the next turn's start) or the game's end; at
 * the pirates' turn start (FR_CHOOSE_PIRATE) rollouts play on. */
static int is_rollout_stop(int phase) {
    return phase == FR_CHOOSE_HAZARD || phase == FR_LAST_HAZARD || phase == FR_GAME_OVER;
}

/* The rollout policy's action in g (n legal actions): the network's where there is one, so
 * a network rollout never calls the heuristic. */
static int rollout_action(fr_game *g, int n, const fr_policy_net *policy) {
    if (n == 1) return g->legal[0];
    if (policy != NULL) return fr_policy_net_action(policy, g, n);
    return fr_heuristic_action(g, &FR_DEFAULT_PARAMS);
}

int fr_rollout(fr_game *g, const fr_rollout_options *o, const fr_policy_net *policy) {
    int reached = 0;
    /* in 64 bits: the binding takes any int options, whose sum and product overflow int */
    int64_t limit = (int64_t)o->max_actions * ((int64_t)o->horizon + o->max_fights_left);
    for (int64_t i = 0; i < limit; i++) {
        if (is_rollout_stop(g->phase)) {
            if (g->phase == FR_GAME_OVER) break;
            if (g->step < o->finish) {
                reached += 1;
                if (reached >= o->horizon) break;
            }
        }
        int n = fr_legal(g);
        int status = fr_apply(g, rollout_action(g, n, policy));
        if (status == -1) return FR_SEARCH_BROKEN_ROLLOUT;
        if (status < 0) return FR_SEARCH_NO_MEMORY;
    }
    return 0;
}

/* The cards Robinson is known to hold (value.known_cards): the Robinson stack but its unseen
 * aging cards, the discard pile, the cards taken by a sort, the table's face-up cards.
 * Order does not matter: every feature counts or sums integers. Returns how many. */
static int known_cards(const fr_game *g, int8_t *out) {
    int n = 0;
    for (int i = 0; i < g->stack.n; i++) {
        int unseen = 0;
        for (int j = 0; j < g->unseen.n && !unseen; j++) unseen = g->unseen.c[j] == g->stack.c[i];
        if (!unseen) out[n++] = g->stack.c[i];
    }
    for (int i = 0; i < g->discard.n; i++) out[n++] = g->discard.c[i];
    for (int i = 0; i < g->sort_taken.n; i++) out[n++] = g->sort_taken.c[i];
    for (int i = 0; i < g->table.n; i++)
        if (!(g->flags[i] & FR_DOWN)) out[n++] = g->table.c[i];
    return n;
}

/* value._summary: the basic features, in FEATURE_NAMES order. */
static void summary_features(const fr_game *g, const fr_leaf_layout *layout, const int8_t *known,
                             int n_known, double *row) {
    int value_sum = 0, positive_sum = 0, zero = 0, negative = 0, aging = 0;
    double *groups = row + FR_SUMMARY_FIXED;
    for (int k = 0; k < layout->n_groups; k++) groups[k] = 0.0;
    for (int i = 0; i < n_known; i++) {
        int card = known[i];
        if (layout->group[card] >= 0) groups[layout->group[card]] += 1.0;
        if (FR_IS_AGING[card]) {
            aging += 1;
            continue;
        }
        int v = FR_VALUE[card];
        value_sum += v;
        positive_sum += v > 0 ? v : 0;
        zero += v == 0;
        negative += v < 0;
    }
    int unseen = g->unseen.n;
    row[0] = 1.0;
    row[1] = g->life;
    row[2] = log1p((double)g->life);
    row[3] = g->life <= 3 ? 1.0 : 0.0;
    row[4] = n_known + unseen;
    row[5] = value_sum;
    row[6] = positive_sum;
    row[7] = zero;
    row[8] = negative;
    row[9] = aging;
    row[10] = unseen;
    row[11] = g->aging.n;
    row[12] = g->stack.n;
    row[13] = g->hazard_stack.n;
    row[14] = g->hazard_discard.n;
}

/* value.card_features' additions: each deck card type held, each pirate type faced. */
static void card_type_features(const fr_game *g, const fr_leaf_layout *layout,
                               const int8_t *known, int n_known, double *row) {
    double *holds = row + FR_SUMMARY_FIXED + layout->n_groups;
    double *faces = holds + layout->n_deck;
    for (int k = 0; k < layout->n_deck; k++) holds[k] = 0.0;
    for (int k = 0; k < layout->n_pirate; k++) faces[k] = 0.0;
    for (int i = 0; i < n_known; i++) holds[layout->deck[known[i]]] += 1.0;
    for (int i = 0; i < g->pirates.n; i++) faces[layout->pirate[g->pirates.c[i]]] = 1.0;
    for (int i = 0; i < g->beaten.n; i++) faces[layout->pirate[g->beaten.c[i]]] = 1.0;
}

int fr_leaf_row_size(const fr_leaf_layout *layout) {
    int size = FR_SUMMARY_FIXED + layout->n_groups;
    return layout->cards ? size + layout->n_deck + layout->n_pirate : size;
}

void fr_leaf_features(const fr_game *g, const fr_leaf_layout *layout, double *row) {
    int8_t known[4 * FR_PILE_CAP];
    int n_known = known_cards(g, known);
    summary_features(g, layout, known, n_known, row);
    if (layout->cards) card_type_features(g, layout, known, n_known, row);
}

/* Where a rollout ended, into *end (and its feature row, unless the game is over). */
static void record_end(const fr_game *g, const fr_leaf_layout *layout, fr_rollout_end *end,
                       double *row) {
    end->done = g->phase == FR_GAME_OVER;
    end->level = g->level;
    end->step = g->step;
    end->score = fr_score(g);
    end->won = g->won;
    if (!end->done) fr_leaf_features(g, layout, row);
}

/* The leaf value of an end the network values (r->net): its probability of winning, or the
 * result of a finished game. */
static double net_value(const fr_search_request *r, const fr_rollout_end *end, const double *row) {
    if (end->done) return end->won ? 1.0 : 0.0;
    return fr_leaf_net_value(r->net, row, fr_leaf_row_size(r->layout), end->level, end->step);
}

/* The world seeded `seed`: determinized, or (oracle) the true game re-seeded. */
static int make_world(fr_game *world, const fr_game *root, uint64_t seed, int oracle) {
    if (!oracle) return fr_determinized(world, root, seed) == 0 ? 0 : FR_SEARCH_NO_MEMORY;
    if (fr_game_copy(world, root) != 0) return FR_SEARCH_NO_MEMORY;
    world->seed = seed;
    world->shuffles = 0;
    return 0;
}

int fr_search_worlds(const fr_game *root, const fr_search_request *r, int first, int end,
                     fr_rollout_end *ends, double *rows, int row_stride, double *values,
                     int *bad_action) {
    fr_game world, trial;
    fr_game_init(&world);
    fr_game_init(&trial);
    int status = 0;
    for (int w = first; w < end && status == 0; w++) {
        status = make_world(&world, root, r->seeds[w], r->oracle);
        for (int i = 0; i < r->n_actions && status == 0; i++) {
            int k = w * r->n_actions + i;
            if (fr_game_copy(&trial, &world) != 0) {
                status = FR_SEARCH_NO_MEMORY;
                break;
            }
            int applied = fr_apply(&trial, r->actions[i]);
            if (applied == -1) {
                *bad_action = r->actions[i];
                status = FR_SEARCH_ILLEGAL;
                break;
            }
            status = applied < 0 ? FR_SEARCH_NO_MEMORY : fr_rollout(&trial, &r->options, r->policy);
            if (status != 0) break;
            double *row = rows + (size_t)k * row_stride;
            record_end(&trial, r->layout, &ends[k], row);
            if (r->net != NULL) values[k] = net_value(r, &ends[k], row);
        }
    }
    fr_game_free(&world);
    fr_game_free(&trial);
    return status;
}
