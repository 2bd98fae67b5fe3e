/* heuristic.c: the hand-written heuristic policy (friday_agents.players.heuristic), in C.
 *
 * fr_heuristic_action returns exactly the action heuristic_action(game, params) of
 * agents/friday_agents/players/heuristic/agent.py returns, in every state and with any params. Each function
 * below is named after the Python function it ports and keeps its logic and, above all,
 * its floating-point expressions in the same order of operations (IEEE double; no FMA
 * contraction: the build uses -std=c11, under which GCC does not contract, and the
 * pragma below stops clang), with the same libm calls (math.exp and math.log1p call the
 * C library's exp and log1p), the same tie-breaking (Python's max/min keep the first
 * best item, sorted() is stable) and Python's sum() of floats (see py_sum below).
 *
 * Like the Python heuristic it reads public information only (R26): the Robinson stack
 * as a multiset (minus unseen aging cards, which only count), the known top cards, the
 * discard piles, the aging pool as a multiset, the table, life and the fight numbers.
 * Nothing here depends on the hidden order of any pile.
 */
#include <math.h>
#include <string.h>

#include "heuristic.h"

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

/* HeuristicParams() of agents/friday_agents/players/heuristic/rules.py (tests/test_core_heuristic.py checks). */
const fr_heuristic_params FR_DEFAULT_PARAMS = {
    .life_value = 1.0,
    .low_life = 6.0,
    .win_bonus = 1.5,
    .destroy_weight = 2.0,
    .last_hazard_margin = -1.0,
    .exchange_margin = 0.5,
    .future_weight = 1.0,
    .future_mean = 0.5,
    .hard_pirate_first = 0,
};

#define BIT(ability) (1u << (ability))

#define DEATH 100.0               /* rules.DEATH */
#define DILUTION 0.6              /* card_worth.DILUTION */
#define AGING_EXTRA 1.0           /* card_worth.AGING_EXTRA */
#define UNKNOWN_AGING_VALUE (-1.5) /* card_worth.UNKNOWN_AGING_VALUE */
#define MAX_WEIGHTED (2 * FR_PILE_CAP)

/* card_worth.ABILITY_WORTH, indexed by ability */
static const double ABILITY_WORTH[AB_COUNT] = {
    0.0, 0.6, 1.2, 1.2, 1.8, 1.2, 1.8, 1.2, 0.6, 1.2, 0.8, 1.2, 0.8, -2.5, -1.5, -3.0, -2.0,
};

/* ------------------------------------------------------------ Python's sum() */

/* Python's sum() of floats starts from the int 0 and, up to CPython 3.11, adds left to
 * right. CPython 3.12 made sum() of floats compensated (Neumaier's improved Kahan-Babuska
 * summation, adding the compensation at the end when it is non-zero and finite). The
 * binding sets this flag from the interpreter it is compiled against (PY_VERSION_HEX), so
 * the C sums as the running Python does. */
static int compensated_sum = 0;

void fr_heuristic_set_compensated_sum(int on) { compensated_sum = on != 0; }
int fr_heuristic_compensated_sum(void) { return compensated_sum; }

typedef struct {
    double total, compensation;
    int count;
} py_sum;

static void py_sum_init(py_sum *s) {
    s->total = 0.0;
    s->compensation = 0.0;
    s->count = 0;
}

static void py_sum_add(py_sum *s, double x) {
    if (s->count++ == 0 || !compensated_sum) { /* the first item is added to the int 0 */
        s->total = s->total + x;
        return;
    }
    double t = s->total + x;
    if (fabs(s->total) >= fabs(x))
        s->compensation += (s->total - t) + x;
    else
        s->compensation += (x - t) + s->total;
    s->total = t;
}

static double py_sum_value(const py_sum *s) {
    if (compensated_sum && s->compensation != 0.0 && isfinite(s->compensation))
        return s->total + s->compensation;
    return s->total;
}

double fr_py_sum(const double *items, int n) {
    py_sum s;
    py_sum_init(&s);
    for (int i = 0; i < n; i++) py_sum_add(&s, items[i]);
    return py_sum_value(&s);
}

/* ------------------------------------------------------------ card worths */

/* card_worth.fight_points: what a card adds to a fight on average. */
double fr_fight_points(int card) {
    switch (FR_ABILITY[card]) {
    case AB_HIGHEST_ZERO: return -2.0;
    case AB_LOSE_LIFE_1: return -1.0;
    case AB_LOSE_LIFE_2: return -2.0;
    default: return (double)FR_VALUE[card];
    }
}

/* card_worth._card_worth: what having the card in Robinson's deck is worth. */
double fr_card_worth(int card) {
    double worth = (double)FR_VALUE[card] + ABILITY_WORTH[FR_ABILITY[card]];
    if (FR_VALUE[card] == 0 && FR_ABILITY[card] == AB_NONE) worth -= DILUTION;
    if (FR_IS_AGING[card]) worth -= AGING_EXTRA;
    return worth;
}

/* The two tables, computed once (by the functions above, so with the same values): the
 * lookahead of should_pay reads them in its inner loops. */
#define LOG1P_TABLE 64 /* log1p(life) for life 0..63: more than the life tokens (22) */
static double worth_table[FR_NUM_CARDS], fight_points_table[FR_NUM_CARDS];
static double log1p_table[LOG1P_TABLE];
static int tables_ready = 0;

void fr_heuristic_prepare(void) {
    for (int card = 0; card < FR_NUM_CARDS; card++) {
        worth_table[card] = fr_card_worth(card);
        fight_points_table[card] = fr_fight_points(card);
    }
    for (int life = 0; life < LOG1P_TABLE; life++) log1p_table[life] = log1p((double)life);
    tables_ready = 1;
}

#define WORTH(card) worth_table[card]
#define FIGHT_POINTS(card) fight_points_table[card]

/* ------------------------------------------------------------ the draw pile */

/* card_worth.DrawPile: the belief about the next cards drawn. */
typedef struct {
    int8_t known_top[FR_PILE_CAP]; /* top first */
    int n_known;
    int8_t rest[FR_PILE_CAP]; /* ascending card ids */
    int n_rest;
    int unseen;
    int8_t pool[2 * FR_PILE_CAP]; /* the unknown aging pool, ascending */
    int n_pool;
    double aging_mean;
    const fr_pile *discard;
    int aging_left;
} draw_pile;

/* known = Counter(stack_known_cards); known.subtract(known_top); rest = sorted(elements) */
static void draw_pile_rest(draw_pile *d, const fr_game *g) {
    int count[FR_NUM_CARDS] = {0};
    uint8_t unseen[FR_NUM_CARDS] = {0};
    for (int i = 0; i < g->unseen.n; i++) unseen[g->unseen.c[i]] = 1;
    for (int i = 0; i < g->stack.n; i++)
        if (!unseen[g->stack.c[i]]) count[g->stack.c[i]]++;
    for (int i = 0; i < d->n_known; i++) count[d->known_top[i]]--;
    d->n_rest = 0;
    for (int card = 0; card < FR_NUM_CARDS; card++)
        for (int k = 0; k < count[card]; k++) d->rest[d->n_rest++] = (int8_t)card;
}

static void draw_pile_pool(draw_pile *d, const fr_game *g) {
    int count[FR_NUM_CARDS] = {0};
    for (int i = 0; i < g->aging.n; i++) count[g->aging.c[i]]++;
    for (int i = 0; i < g->unseen.n; i++) count[g->unseen.c[i]]++;
    d->n_pool = 0;
    py_sum points;
    py_sum_init(&points);
    for (int card = 0; card < FR_NUM_CARDS; card++)
        for (int k = 0; k < count[card]; k++) {
            d->pool[d->n_pool++] = (int8_t)card;
            py_sum_add(&points, FIGHT_POINTS(card));
        }
    d->aging_mean = d->n_pool ? py_sum_value(&points) / d->n_pool : UNKNOWN_AGING_VALUE;
}

static void draw_pile_init(draw_pile *d, const fr_game *g) {
    /* known_top_cards: stack[len(stack) - known_top:][::-1] */
    int first = g->stack.n - g->known_top;
    if (first < 0) first += g->stack.n; /* Python's negative slice start (never in play) */
    if (first < 0) first = 0;
    d->n_known = 0;
    for (int i = g->stack.n - 1; i >= first; i--) d->known_top[d->n_known++] = g->stack.c[i];
    draw_pile_rest(d, g);
    d->unseen = g->stack.n - d->n_known - d->n_rest;
    draw_pile_pool(d, g);
    d->discard = &g->discard;
    d->aging_left = g->aging.n;
}

static double reshuffle_mean(const draw_pile *d) {
    int cards = d->discard->n + (d->aging_left ? 1 : 0);
    if (cards == 0) return 0.0;
    py_sum total;
    py_sum_init(&total);
    for (int i = 0; i < d->discard->n; i++) py_sum_add(&total, FIGHT_POINTS(d->discard->c[i]));
    double sum = py_sum_value(&total);
    if (d->aging_left) sum += d->aging_mean;
    return sum / cards;
}

/* DrawPile.rest_mean: mean fighting points of a draw from the unknown part of the stack. */
static double rest_mean(const draw_pile *d) {
    int count = d->n_rest + d->unseen;
    if (count == 0) return reshuffle_mean(d);
    py_sum total;
    py_sum_init(&total);
    for (int i = 0; i < d->n_rest; i++) py_sum_add(&total, FIGHT_POINTS(d->rest[i]));
    return (py_sum_value(&total) + d->unseen * d->aging_mean) / count;
}

static int min_int(int a, int b) { return a < b ? a : b; }

/* DrawPile.expected_points: expected fighting points of the next `draws` cards. */
static double expected_points(const draw_pile *d, int draws) {
    double points = 0.0;
    int known = min_int(draws, d->n_known);
    for (int i = 0; i < known; i++) points += FIGHT_POINTS(d->known_top[i]);
    draws -= known;
    int from_rest = min_int(draws, d->n_rest + d->unseen);
    points += from_rest ? from_rest * rest_mean(d) : 0.0;
    draws -= from_rest;
    return points + draws * reshuffle_mean(d);
}

typedef struct {
    double prob;
    int card;
} weighted_card;

/* card_worth._grouped: the weights normalised and summed per card type, in the order the
 * types first appear; each type is represented by its first card. */
static int grouped(const weighted_card *weighted, int n, weighted_card *out) {
    py_sum weights;
    py_sum_init(&weights);
    for (int i = 0; i < n; i++) py_sum_add(&weights, weighted[i].prob);
    double total = py_sum_value(&weights);
    int entry_of_type[FR_NUM_TYPES];
    for (int t = 0; t < FR_NUM_TYPES; t++) entry_of_type[t] = -1;
    int entries = 0;
    for (int i = 0; i < n; i++) {
        int type = FR_CARD_TYPE[weighted[i].card];
        if (entry_of_type[type] < 0) {
            entry_of_type[type] = entries;
            out[entries++] = (weighted_card){0.0, weighted[i].card};
        }
        out[entry_of_type[type]].prob += weighted[i].prob / total;
    }
    return entries;
}

/* DrawPile.next_cards: (probability, card) for the next card drawn, one per card type. */
static int next_cards(const draw_pile *d, weighted_card *out) {
    if (d->n_known) {
        out[0] = (weighted_card){1.0, d->known_top[0]};
        return 1;
    }
    weighted_card weighted[MAX_WEIGHTED];
    int n = 0;
    if (d->n_rest + d->unseen) {
        for (int i = 0; i < d->n_rest; i++) weighted[n++] = (weighted_card){1.0, d->rest[i]};
        if (d->unseen && d->n_pool)
            for (int i = 0; i < d->n_pool; i++)
                weighted[n++] = (weighted_card){(double)d->unseen / d->n_pool, d->pool[i]};
    } else {
        for (int i = 0; i < d->discard->n; i++)
            weighted[n++] = (weighted_card){1.0, d->discard->c[i]};
        if (d->aging_left && d->n_pool)
            for (int i = 0; i < d->n_pool; i++)
                weighted[n++] = (weighted_card){1.0 / d->n_pool, d->pool[i]};
    }
    return grouped(weighted, n, out);
}

/* ------------------------------------------------------------ table helpers */

static int face_up(const fr_game *g, int slot) { return !(g->flags[slot] & FR_DOWN); }

/* card_worth.table_badness: how much a table card hurts the current fight. */
static double table_badness(const fr_game *g, int slot) {
    int card = g->table.c[slot];
    int ability = FR_ABILITY[card];
    if (ability == AB_HIGHEST_ZERO) {
        int highest = FR_VALUE[g->table.c[0]];
        for (int s = 1; s < g->table.n; s++)
            if (FR_VALUE[g->table.c[s]] > highest) highest = FR_VALUE[g->table.c[s]];
        double value = (double)highest;
        return value > 1.0 ? value : 1.0; /* max(1.0, value) */
    }
    if (ability == AB_STOP && (g->flags[slot] & FR_LEFT)) return 2.0;
    return -FIGHT_POINTS(card);
}

/* rules.best_double_gain: the best positive face-up card not doubled yet (0 if none). */
static int best_double_gain(const fr_game *g) {
    int best = 0;
    for (int s = 0; s < g->table.n; s++) {
        int value = FR_VALUE[g->table.c[s]];
        if (!(g->flags[s] & (FR_DOWN | FR_DOUBLED)) && value > 0 && value > best) best = value;
    }
    return best;
}

static int legal_has(const fr_game *g, int action) {
    for (int i = 0; i < g->n_legal; i++)
        if (g->legal[i] == action) return 1;
    return 0;
}

/* rules._destroy_rank: (not IS_AGING[card], WORTH[card]) compared as a Python tuple. */
static int destroy_rank_less(int a, int b) {
    int not_aging_a = !FR_IS_AGING[a], not_aging_b = !FR_IS_AGING[b];
    if (not_aging_a != not_aging_b) return not_aging_a < not_aging_b;
    return WORTH(a) < WORTH(b);
}

/* ------------------------------------------------------------ life */

static double life_worth(const fr_game *g, const fr_heuristic_params *p) {
    return p->life_value + p->low_life / (g->life + 1.0);
}

static double life_utility(int life, const fr_heuristic_params *p) {
    double log = life >= 0 && life < LOG1P_TABLE ? log1p_table[life] : log1p((double)life);
    return p->life_value * life + p->low_life * log;
}

static double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

static double max_zero(double x) { return x > 0.0 ? x : 0.0; } /* max(0.0, x) */

/* ------------------------------------------------------------ hazards and pirates */

static double expected_margin(const fr_game *g, const draw_pile *d, int hazard) {
    return expected_points(d, FR_FREE[hazard]) - FR_HAZARD_VALUES[3 * hazard + g->step];
}

static double hazard_prospect(const fr_game *g, const draw_pile *d, int hazard,
                              const fr_heuristic_params *p) {
    double margin = expected_margin(g, d, hazard);
    double win = sigmoid(margin / 2.0);
    double reward = WORTH(hazard) + p->win_bonus;
    return win * reward - (1.0 - win) * life_worth(g, p) * max_zero(-margin) * 0.5;
}

static double later_burden(const fr_game *g, int hazard, const fr_heuristic_params *p) {
    if (g->step >= FR_PIRATES - 1) return 0.0;
    int later = FR_HAZARD_VALUES[3 * hazard + g->step + 1];
    return max_zero(later - FR_FREE[hazard] * p->future_mean);
}

static int choose_hazard(const fr_game *g, const fr_heuristic_params *p) {
    draw_pile d;
    draw_pile_init(&d, g);
    int first = g->offer.c[0], second = g->offer.c[1];
    double score_first = hazard_prospect(g, &d, first, p);
    score_first -= p->future_weight * later_burden(g, second, p);
    double score_second = hazard_prospect(g, &d, second, p);
    score_second -= p->future_weight * later_burden(g, first, p);
    return score_first >= score_second ? FR_A_CHOOSE_HAZARD_0 : FR_A_CHOOSE_HAZARD_1;
}

static int last_hazard_action(const fr_game *g, const fr_heuristic_params *p) {
    draw_pile d;
    draw_pile_init(&d, g);
    double margin = expected_margin(g, &d, g->offer.c[0]);
    double threshold = p->last_hazard_margin - (g->step == FR_PIRATES - 1 ? 2.0 : 0.0);
    return margin >= threshold ? FR_A_FIGHT_LAST_HAZARD : FR_A_SKIP_LAST_HAZARD;
}

static double pirate_difficulty(const fr_game *g, const draw_pile *d, int pirate) {
    double value;
    int special = FR_SPECIAL[pirate];
    if (special == PS_PLUS_TWO_PER_AGING) {
        value = 2.0 * (g->aging_total - g->aging.n);
    } else if (special == PS_ALL_HAZARDS) {
        int points = 0, free = 0;
        for (int i = 0; i < g->hazard_discard.n; i++) {
            points += FR_HAZARD_VALUES[3 * g->hazard_discard.c[i] + 2];
            free += FR_FREE[g->hazard_discard.c[i]];
        }
        return (double)points - expected_points(d, free);
    } else {
        value = (double)FR_HAZARD_VALUES[3 * pirate];
    }
    return value - expected_points(d, FR_FREE[pirate]);
}

static int choose_pirate(const fr_game *g, const fr_heuristic_params *p) {
    draw_pile d;
    draw_pile_init(&d, g);
    double first = pirate_difficulty(g, &d, g->pirates.c[0]);
    double second = pirate_difficulty(g, &d, g->pirates.c[1]);
    int first_is_harder = first >= second;
    int pick_first = first_is_harder == p->hard_pirate_first;
    return pick_first ? FR_A_CHOOSE_PIRATE_0 : FR_A_CHOOSE_PIRATE_1;
}

/* ------------------------------------------------------------ after a loss, sorting */

/* rules.destroy_after_loss: the first face-up card of destroy_order's ranking (aging first,
 * then by worth; ties in table order) that is worth less than nothing and affordable. */
static int destroy_after_loss(const fr_game *g) {
    int best = -1;
    for (int s = 0; s < g->table.n; s++) {
        int card = g->table.c[s];
        if (!face_up(g, s) || !(WORTH(card) < 0) || FR_DESTROY_COST[card] > g->budget) continue;
        if (best < 0 || destroy_rank_less(card, g->table.c[best])) best = s;
    }
    return best < 0 ? FR_A_FINISH_DESTROYING : FR_A_DESTROY_0 + best;
}

static int sort_action(const fr_game *g) {
    const fr_pile *taken = &g->sort_taken;
    if (g->phase == FR_SORT_TAKE) return g->stack.n ? FR_A_SORT_TAKE : FR_A_SORT_STOP_TAKING;
    if (g->phase == FR_SORT_DISCARD) {
        int worst = 0; /* min(..., key=WORTH): the first smallest */
        for (int k = 1; k < taken->n; k++)
            if (WORTH(taken->c[k]) < WORTH(taken->c[worst])) worst = k;
        return WORTH(taken->c[worst]) < 0 ? FR_A_SORT_DISCARD_0 + worst : FR_A_SORT_KEEP_ALL;
    }
    int best = 0; /* max(..., key=(VALUE, WORTH)): the first largest */
    for (int k = 1; k < taken->n; k++) {
        int a = taken->c[k], b = taken->c[best];
        if (FR_VALUE[a] > FR_VALUE[b] || (FR_VALUE[a] == FR_VALUE[b] && WORTH(a) > WORTH(b)))
            best = k;
    }
    return FR_A_SORT_PLACE_0 + best;
}

/* ------------------------------------------------------------ targets */

/* rules.COPY_PREFERENCE as a rank per ability (11 for abilities not listed). */
static int copy_rank(int ability) {
    static const int8_t rank[AB_COUNT] = {
        [AB_DOUBLE] = 0, [AB_CARDS_2] = 1, [AB_CARDS_1] = 2, [AB_DESTROY] = 3,
        [AB_EXCHANGE_2] = 4, [AB_EXCHANGE_1] = 5, [AB_SORT_3] = 6, [AB_BELOW] = 7,
        [AB_STEP_DOWN] = 8, [AB_LIFE_2] = 9, [AB_LIFE_1] = 10, [AB_NONE] = 11,
        [AB_COPY] = 11, [AB_HIGHEST_ZERO] = 11, [AB_LOSE_LIFE_1] = 11, [AB_LOSE_LIFE_2] = 11,
        [AB_STOP] = 11,
    };
    return rank[ability];
}

/* max(slots, key=(table_badness, -WORTH)): the first largest. */
static int worst_target(const fr_game *g, const int *slots, int n) {
    int worst = slots[0];
    double worst_badness = table_badness(g, worst), worst_key = -WORTH(g->table.c[worst]);
    for (int i = 1; i < n; i++) {
        double badness = table_badness(g, slots[i]), key = -WORTH(g->table.c[slots[i]]);
        if (badness > worst_badness || (badness == worst_badness && key > worst_key)) {
            worst = slots[i];
            worst_badness = badness;
            worst_key = key;
        }
    }
    return worst;
}

static int target_action(const fr_game *g) {
    int slots[FR_A_NUM_ACTIONS], n = 0;
    for (int i = 0; i < g->n_legal; i++)
        if (g->legal[i] >= FR_A_TARGET_0) slots[n++] = g->legal[i] - FR_A_TARGET_0;
    if (n == 0) return g->legal[0]; /* never: of two or more legal actions one is a target */
    int best = slots[0];
    if (g->resolving == AB_DOUBLE) {
        for (int i = 1; i < n; i++)
            if (FR_VALUE[g->table.c[slots[i]]] > FR_VALUE[g->table.c[best]]) best = slots[i];
        return FR_A_TARGET_0 + best;
    }
    if (g->resolving == AB_COPY) {
        for (int i = 1; i < n; i++)
            if (copy_rank(FR_ABILITY[g->table.c[slots[i]]]) <
                copy_rank(FR_ABILITY[g->table.c[best]]))
                best = slots[i];
        return FR_A_TARGET_0 + best;
    }
    int worst = worst_target(g, slots, n);
    if (g->resolving == AB_EXCHANGE_2 && legal_has(g, FR_A_STOP_EXCHANGING)) {
        draw_pile d;
        draw_pile_init(&d, g);
        if (table_badness(g, worst) <= -rest_mean(&d)) return FR_A_STOP_EXCHANGING;
    }
    return FR_A_TARGET_0 + worst;
}

/* ------------------------------------------------------------ the fight */

/* fight.fight_action's `uses`: slot -> ability of the legal "use" actions, by slot. */
typedef struct {
    int n;
    int8_t slot[FR_PILE_CAP];
    int8_t ability[FR_PILE_CAP];
} ability_uses;

static void find_uses(const fr_game *g, ability_uses *u) {
    u->n = 0;
    for (int i = 0; i < g->n_legal; i++) {
        int a = g->legal[i];
        if (a < FR_A_USE_0) continue;
        u->slot[u->n] = (int8_t)(a - FR_A_USE_0);
        u->ability[u->n] = FR_ABILITY[g->table.c[a - FR_A_USE_0]];
        u->n++;
    }
}

/* fight._use: the first use whose ability is in `abilities` (a bit set); -1 if none. */
static int use_any(const ability_uses *u, unsigned abilities) {
    for (int i = 0; i < u->n; i++)
        if (abilities & BIT(u->ability[i])) return FR_A_USE_0 + u->slot[i];
    return -1;
}

/* fight._worst_other: the highest badness among face-up cards other than `source`. */
static double worst_other(const fr_game *g, int source) {
    double worst = -99.0;
    int found = 0;
    for (int s = 0; s < g->table.n; s++) {
        if (s == source || !face_up(g, s)) continue;
        double badness = table_badness(g, s);
        if (!found || badness > worst) worst = badness;
        found = 1;
    }
    return worst;
}

static int use_on_bad_card(const fr_game *g, const ability_uses *u, int ability, double bar) {
    for (int i = 0; i < u->n; i++)
        if (u->ability[i] == ability && worst_other(g, u->slot[i]) > bar)
            return FR_A_USE_0 + u->slot[i];
    return -1;
}

static int free_improvement(const fr_game *g, const ability_uses *u, int deficit) {
    int action = use_any(u, BIT(AB_LIFE_1) | BIT(AB_LIFE_2));
    if (action < 0) action = use_on_bad_card(g, u, AB_DESTROY, 0.0);
    if (action < 0 && deficit > 0) action = use_any(u, BIT(AB_STEP_DOWN));
    if (action < 0) action = use_on_bad_card(g, u, AB_BELOW, 0.0);
    return action;
}

/* fight._useless_other: a face-up card worth less than nothing with value <= 0. */
static int useless_other(const fr_game *g, int source) {
    for (int s = 0; s < g->table.n; s++) {
        int card = g->table.c[s];
        if (s != source && face_up(g, s) && WORTH(card) < 0 && FR_VALUE[card] <= 0) return 1;
    }
    return 0;
}

static int finish(const fr_game *g, const ability_uses *u) {
    if (g->step == FR_PIRATES) return FR_A_END_FIGHT;
    for (int i = 0; i < u->n; i++)
        if (u->ability[i] == AB_DESTROY && useless_other(g, u->slot[i]))
            return FR_A_USE_0 + u->slot[i];
    if (g->stack.n >= 2 && g->known_top == 0) {
        int action = use_any(u, BIT(AB_SORT_3));
        if (action >= 0) return action;
    }
    return legal_has(g, FR_A_END_FIGHT) ? FR_A_END_FIGHT : g->legal[0];
}

static int useful_copy(const fr_game *g, const ability_uses *u) {
    unsigned wanted = BIT(AB_DOUBLE) | BIT(AB_CARDS_1) | BIT(AB_CARDS_2) | BIT(AB_EXCHANGE_1) |
                      BIT(AB_EXCHANGE_2) | BIT(AB_SORT_3) | BIT(AB_STEP_DOWN);
    for (int i = 0; i < u->n; i++) {
        if (u->ability[i] != AB_COPY) continue;
        for (int other = 0; other < g->table.n; other++) {
            int ability = FR_ABILITY[g->table.c[other]];
            if (other == u->slot[i] || !face_up(g, other) || !(wanted & BIT(ability))) continue;
            if (ability == AB_DOUBLE && best_double_gain(g) <= 0) continue;
            return FR_A_USE_0 + u->slot[i];
        }
    }
    return -1;
}

/* ---- should_pay: the two-card lookahead of paying life against losing now ---- */

typedef struct {
    int n;
    int8_t card[FR_PILE_CAP + 4];
} bad_list; /* rules.bad_cards: sorted by destroy rank, stable */

/* rules.with_bad_card: `bad` after `card` lands on the table (a stable insertion). */
static void with_bad_card(const bad_list *bad, int card, bad_list *out) {
    *out = *bad;
    if (WORTH(card) >= 0) return;
    int j = out->n++;
    while (j > 0 && destroy_rank_less(card, out->card[j - 1])) {
        out->card[j] = out->card[j - 1];
        j--;
    }
    out->card[j] = (int8_t)card;
}

/* rules.bad_cards(face_up_cards(game)) */
static void bad_cards(const fr_game *g, bad_list *bad) {
    bad->n = 0;
    for (int s = 0; s < g->table.n; s++) {
        if (!face_up(g, s)) continue;
        bad_list before = *bad;
        with_bad_card(&before, g->table.c[s], bad);
    }
}

static double destroy_gain(const bad_list *bad, int budget) {
    double gain = 0.0;
    for (int i = 0; i < bad->n; i++) {
        int card = bad->card[i];
        if (FR_DESTROY_COST[card] <= budget) {
            gain -= WORTH(card);
            budget -= FR_DESTROY_COST[card];
        }
    }
    return gain;
}

typedef struct {
    int cost;
    double reward;
    const weighted_card *next;
    int n_next;
    const fr_heuristic_params *p;
} pay_question;

static double lose(const pay_question *q, int gap, int life, const bad_list *bad) {
    if (gap > life) return -DEATH;
    return life_utility(life - gap, q->p) + q->p->destroy_weight * destroy_gain(bad, gap);
}

static double pay(const pay_question *q, int gap, int life, const bad_list *bad, int depth) {
    life -= q->cost;
    double value = 0.0;
    double win = life_utility(life, q->p) + q->reward; /* the same for every winning card */
    for (int i = 0; i < q->n_next; i++) {
        double prob = q->next[i].prob;
        int card = q->next[i].card;
        int new_gap = gap - (int)FIGHT_POINTS(card); /* round() of a whole number */
        if (new_gap <= 0) {
            value += prob * win;
            continue;
        }
        bad_list with_card;
        const bad_list *after = bad;
        if (WORTH(card) < 0) {
            with_bad_card(bad, card, &with_card);
            after = &with_card;
        }
        double best = lose(q, new_gap, life, after);
        if (depth > 1 && life >= q->cost) {
            double paid = pay(q, new_gap, life, after, depth - 1);
            if (paid > best) best = paid; /* max(best, paid) */
        }
        value += prob * best;
    }
    return value;
}

static int should_pay(const fr_game *g, int deficit, const fr_heuristic_params *p) {
    bad_list bad;
    bad_cards(g, &bad);
    draw_pile d;
    draw_pile_init(&d, g);
    weighted_card next[MAX_WEIGHTED];
    pay_question q = {
        .cost = fr_paid_draw_cost(g),
        .reward = WORTH(g->hazard) + p->win_bonus,
        .next = next,
        .n_next = next_cards(&d, next),
        .p = p,
    };
    return pay(&q, deficit, g->life, &bad, 2) > lose(&q, deficit, g->life, &bad);
}

static int catch_up_improvement(const fr_game *g, const ability_uses *u,
                                 const fr_heuristic_params *p) {
    int action = use_any(u, BIT(AB_CARDS_1) | BIT(AB_CARDS_2));
    if (action < 0) {
        draw_pile d;
        draw_pile_init(&d, g);
        double bar = p->exchange_margin - rest_mean(&d);
        action = use_on_bad_card(g, u, AB_EXCHANGE_1, bar);
        if (action < 0) action = use_on_bad_card(g, u, AB_EXCHANGE_2, bar);
    }
    if (action < 0 && best_double_gain(g) > 0) action = use_any(u, BIT(AB_DOUBLE));
    if (action < 0) action = useful_copy(g, u);
    return action;
}

static int catch_up(const fr_game *g, const ability_uses *u, int deficit,
                    const fr_heuristic_params *p) {
    int pirate = g->step == FR_PIRATES;
    int sort = use_any(u, BIT(AB_SORT_3));
    int will_draw = legal_has(g, FR_A_DRAW_FREE) || pirate;
    if (will_draw && g->known_top == 0 && sort >= 0) return sort;
    if (legal_has(g, FR_A_DRAW_FREE)) return FR_A_DRAW_FREE;
    int action = catch_up_improvement(g, u, p);
    if (action >= 0) return action;
    if (legal_has(g, FR_A_DRAW_PAID) && (pirate || should_pay(g, deficit, p))) {
        if (g->known_top == 0 && sort >= 0) return sort;
        return FR_A_DRAW_PAID;
    }
    if (legal_has(g, FR_A_END_FIGHT)) return FR_A_END_FIGHT;
    return g->legal[0]; /* a pirate fight with only unhelpful abilities left */
}

static int fight_action(const fr_game *g, const fr_heuristic_params *p) {
    ability_uses u;
    find_uses(g, &u);
    int deficit = fr_fight_value(g) - fr_fight_total(g);
    int action = free_improvement(g, &u, deficit);
    if (action < 0 && deficit <= 0) action = finish(g, &u);
    if (action < 0) action = catch_up(g, &u, deficit, p);
    return action;
}

/* ------------------------------------------------------------ the decision */

int fr_heuristic_action(fr_game *g, const fr_heuristic_params *p) {
    if (!tables_ready) fr_heuristic_prepare(); /* the bindings call it at import */
    int n = fr_legal(g);
    if (n <= 0) return -1;
    if (n == 1) return g->legal[0];
    switch (g->phase) {
    case FR_FIGHT: return fight_action(g, p);
    case FR_TARGET: return target_action(g);
    case FR_CHOOSE_HAZARD: return choose_hazard(g, p);
    case FR_LAST_HAZARD: return last_hazard_action(g, p);
    case FR_CHOOSE_PIRATE: return choose_pirate(g, p);
    case FR_LOSS_DESTROY: return destroy_after_loss(g);
    case FR_DRAW_MORE:
        return fr_fight_total(g) < fr_fight_value(g) ? FR_A_DRAW_ANOTHER : FR_A_STOP_DRAWING;
    default: return sort_action(g);
    }
}

int fr_heuristic_play(fr_game *g, const fr_heuristic_params *p, int max_actions) {
    int played = 0;
    while (played < max_actions) {
        int action = fr_heuristic_action(g, p);
        if (action < 0) break;
        int rc = fr_apply(g, action);
        if (rc < 0) return rc == -2 ? -2 : -3; /* -3: the heuristic chose an illegal action */
        played++;
    }
    return played;
}
