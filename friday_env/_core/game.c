/* game.c: the rules of Friday on an fr_game, a port of friday_env/engine/ and of
 * friday_env.information.determinized.
 *
 * Every function below mirrors the Python method of the same name (without the leading
 * underscore), list operation for list operation: append = pile_push, pop() = pile_pop,
 * pop(i) = pile_take, insert(i, x) = pile_insert, remove(x) = pile_remove. The piles keep
 * the top of a stack at the end, exactly as the lists do, so both cores hold identical
 * piles after every action and shuffle the same cards in the same order.
 */
#include <stdlib.h>
#include <string.h>

#include "friday.h"

#define MAX_SORT FR_A_SORT_SIZE

/* ------------------------------------------------------------------ piles (Python lists) */

static inline void pile_push(fr_pile *p, int card) {
    if (p->n < FR_PILE_CAP) p->c[p->n++] = (int8_t)card;
}

/* list.pop(): -1 on an empty pile (a sound state never pops one; see fr_check_state) */
static inline int pile_pop(fr_pile *p) { return p->n > 0 ? p->c[--p->n] : -1; }

/* list.pop(i) */
static int pile_take(fr_pile *p, int i) {
    if (i < 0 || i >= p->n) return -1;
    int card = p->c[i];
    memmove(p->c + i, p->c + i + 1, (size_t)(p->n - i - 1));
    p->n--;
    return card;
}

/* list.insert(i, card) for 0 <= i <= n */
static void pile_insert(fr_pile *p, int i, int card) {
    if (p->n >= FR_PILE_CAP || i < 0 || i > p->n) return;
    memmove(p->c + i + 1, p->c + i, (size_t)(p->n - i));
    p->c[i] = (int8_t)card;
    p->n++;
}

/* list.index(card), -1 if absent */
static int pile_index(const fr_pile *p, int card) {
    for (int i = 0; i < p->n; i++)
        if (p->c[i] == card) return i;
    return -1;
}

static inline int pile_has(const fr_pile *p, int card) { return pile_index(p, card) >= 0; }

/* list.remove(card) */
static void pile_remove(fr_pile *p, int card) {
    int i = pile_index(p, card);
    if (i >= 0) pile_take(p, i);
}

static void pile_sort(fr_pile *p) {
    for (int i = 1; i < p->n; i++) { /* insertion sort: piles are short */
        int8_t v = p->c[i];
        int j = i - 1;
        while (j >= 0 && p->c[j] > v) {
            p->c[j + 1] = p->c[j];
            j--;
        }
        p->c[j + 1] = v;
    }
}

/* Python's slice bound: x[:k] keeps this many of n items (negative k counts from the end). */
static int slice_end(int k, int n) {
    if (k < 0) k += n;
    if (k < 0) k = 0;
    return k > n ? n : k;
}

/* ------------------------------------------------------------------ state */

void fr_game_init(fr_game *g) {
    memset(g, 0, sizeof *g);
    g->level = 1;
    g->phase = FR_CHOOSE_HAZARD;
    g->step = FR_GREEN;
    g->life = 20;
    g->reserve = 2;
    g->aging_total = 10;
    g->hazard = -1;
    g->source = -1;
    g->resolving = AB_NONE;
}

void fr_game_free(fr_game *g) {
    free(g->history);
    g->history = NULL;
    g->history_len = g->history_cap = 0;
}

int fr_game_copy(fr_game *dst, const fr_game *src) {
    uint8_t *buf = dst->history;
    int32_t cap = dst->history_cap;
    if (cap < src->history_len) {
        int32_t want = src->history_cap > src->history_len ? src->history_cap : src->history_len;
        uint8_t *grown = realloc(buf, (size_t)want);
        if (grown == NULL) return -1;
        buf = grown;
        cap = want;
    }
    memcpy(dst, src, sizeof *dst);
    dst->history = buf;
    dst->history_cap = cap;
    if (src->history_len > 0) memcpy(buf, src->history, (size_t)src->history_len);
    return 0;
}

static int history_push(fr_game *g, int action) {
    if (g->history_len >= g->history_cap) {
        int32_t cap = g->history_cap < 64 ? 64 : 2 * g->history_cap;
        uint8_t *grown = realloc(g->history, (size_t)cap);
        if (grown == NULL) return -1;
        g->history = grown;
        g->history_cap = cap;
    }
    g->history[g->history_len++] = (uint8_t)action;
    return 0;
}

/* State.shuffle: the k-th shuffle of the game uses (seed, k); an empty pile counts too. */
static void shuffle(fr_game *g, fr_pile *p) {
    /* random.shuffle draws nothing for fewer than two items: skip seeding a generator */
    if (p->n > 1) fr_shuffle(g->seed, g->shuffles, p->c, p->n);
    g->shuffles++;
}

/* ------------------------------------------------------------------ read-only rules */

int fr_can_draw(const fr_game *g) { return g->stack.n > 0 || g->discard.n > 0 || g->aging.n > 0; }

/* a card index as Python reads it: hazard -1 is the last card */
static inline int card_at(int card) { return card < 0 ? card + FR_NUM_CARDS : card; }

int fr_free_draw_available(const fr_game *g) {
    if (g->free_used >= g->free_total) return 0;
    for (int s = 0; s < g->table.n; s++) {
        int card = g->table.c[s];
        if (FR_ABILITY[card] == AB_STOP && (g->flags[s] & FR_LEFT) && !(g->flags[s] & FR_DOWN))
            return 0;
    }
    return 1;
}

int fr_paid_draw_cost(const fr_game *g) {
    if (g->step == FR_PIRATES && FR_SPECIAL[card_at(g->hazard)] == PS_TWO_LIFE_PER_CARD) return 2;
    return 1;
}

int fr_fight_value(const fr_game *g) {
    if (g->step == FR_PIRATES) return g->pirate_value;
    int step = g->step - g->step_down;
    if (step < FR_GREEN) step = FR_GREEN;
    return FR_HAZARD_VALUES[3 * card_at(g->hazard) + step];
}

void fr_card_values(const fr_game *g, int32_t *values) {
    int scared = 0;
    for (int s = 0; s < g->table.n; s++) {
        int card = g->table.c[s];
        if (g->flags[s] & FR_DOWN) {
            values[s] = 0;
            continue;
        }
        if (FR_ABILITY[card] == AB_HIGHEST_ZERO) scared++;
        values[s] = (g->flags[s] & FR_DOUBLED) ? 2 * FR_VALUE[card] : FR_VALUE[card];
    }
    for (int k = 0; k < scared; k++) { /* each zeroes the highest positive card not doubled */
        int best = -1, best_value = 0;
        for (int s = 0; s < g->table.n; s++) {
            if (values[s] > best_value && !(g->flags[s] & (FR_DOUBLED | FR_DOWN))) {
                best = s;
                best_value = values[s];
            }
        }
        if (best >= 0) values[best] = 0;
    }
}

static void sort_descending(int32_t *v, int n) {
    for (int i = 1; i < n; i++) {
        int32_t x = v[i];
        int j = i - 1;
        while (j >= 0 && v[j] < x) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = x;
    }
}

/* R23 "half": ceil(n/2) cards count, face-up aging cards first, then the best others. */
static int half_total(const fr_game *g, const int32_t *values) {
    int32_t aging[FR_PILE_CAP], others[FR_PILE_CAP];
    int n_aging = 0, n_others = 0, counted = (g->table.n + 1) / 2;
    for (int s = 0; s < g->table.n; s++) {
        if (FR_IS_AGING[g->table.c[s]] && !(g->flags[s] & FR_DOWN))
            aging[n_aging++] = values[s];
        else
            others[n_others++] = values[s];
    }
    sort_descending(aging, n_aging);
    sort_descending(others, n_others);
    int total = 0, chosen = n_aging < counted ? n_aging : counted;
    for (int i = 0; i < chosen; i++) total += aging[i];
    for (int i = 0; i < counted - chosen && i < n_others; i++) total += others[i];
    return total;
}

int fr_fight_total(const fr_game *g) {
    int32_t values[FR_PILE_CAP];
    fr_card_values(g, values);
    int sum = 0;
    for (int s = 0; s < g->table.n; s++) sum += values[s];
    if (g->step < FR_PIRATES) return sum;
    int special = FR_SPECIAL[card_at(g->hazard)];
    if (special == PS_PLUS_ONE_PER_CARD) return sum + g->table.n;
    if (special == PS_HALF_COUNT) return half_total(g, values);
    return sum;
}

int fr_end_of_fight_penalty(const fr_game *g) {
    int penalty = 0;
    for (int s = 0; s < g->table.n; s++) {
        if (g->flags[s] & FR_DOWN) continue;
        int ability = FR_ABILITY[g->table.c[s]];
        if (ability == AB_LOSE_LIFE_1) penalty += 1;
        if (ability == AB_LOSE_LIFE_2) penalty += 2;
    }
    return penalty;
}

int fr_score(const fr_game *g) {
    int points = 0;
    for (int i = 0; i < g->stack.n; i++) points += FR_SCORE_VALUE[g->stack.c[i]];
    for (int i = 0; i < g->discard.n; i++) points += FR_SCORE_VALUE[g->discard.c[i]];
    for (int i = 0; i < g->sort_taken.n; i++) points += FR_SCORE_VALUE[g->sort_taken.c[i]];
    for (int s = 0; s < g->table.n; s++)
        if (!(g->flags[s] & FR_DOWN)) points += FR_SCORE_VALUE[g->table.c[s]];
    points += 15 * g->beaten.n - 3 * g->hazard_discard.n;
    if (g->won) points += 5 * g->life;
    return points;
}

/* friday_env.engine.scoring.hazards_beaten: hazard cards among Robinson's cards (stack,
 * discard, sort hand, table) and the destroyed ones. */
static int count_hazards(const fr_pile *pile) {
    int n = 0;
    for (int i = 0; i < pile->n; i++) n += FR_KIND[pile->c[i]] == KIND_HAZARD;
    return n;
}

int fr_hazards_beaten(const fr_game *g) {
    return count_hazards(&g->stack) + count_hazards(&g->discard) +
           count_hazards(&g->sort_taken) + count_hazards(&g->table) +
           count_hazards(&g->destroyed);
}

/* ------------------------------------------------------------------ legal actions */

static inline int is_player_ability(int ability) { return ability >= AB_LIFE_1 && ability <= AB_BELOW; }

static int has_effect(const fr_game *g, int ability, int source);

/* LegalActions._targets: slots an ability from `source` may target; returns the count. */
static int targets(const fr_game *g, int ability, int source, int *out) {
    int n = 0, doubling = ability == AB_DOUBLE, copying = ability == AB_COPY;
    for (int s = 0; s < g->table.n; s++) {
        if (s == source || (g->flags[s] & FR_DOWN)) continue;
        if (doubling && (g->flags[s] & FR_DOUBLED)) continue;
        if (copying) {
            int target_ability = FR_ABILITY[g->table.c[s]];
            int copyable = is_player_ability(target_ability) && target_ability != AB_COPY;
            if (!(copyable && has_effect(g, target_ability, source))) continue;
        }
        if (out != NULL) out[n] = s;
        n++;
    }
    return n;
}

/* R09: an ability is offered only when it can change something. */
static int has_effect(const fr_game *g, int ability, int source) {
    switch (ability) {
    case AB_LIFE_1:
    case AB_LIFE_2: return g->reserve > 0;
    case AB_CARDS_1:
    case AB_CARDS_2:
    case AB_SORT_3: return fr_can_draw(g);
    case AB_STEP_DOWN: return g->step < FR_PIRATES && g->step - g->step_down > FR_GREEN;
    default: return targets(g, ability, source, NULL) > 0;
    }
}

static int affordable_destroys(const fr_game *g, int *out) {
    int n = 0;
    for (int s = 0; s < g->table.n; s++) {
        if (!(g->flags[s] & FR_DOWN) && FR_DESTROY_COST[g->table.c[s]] <= g->budget) {
            if (out != NULL) out[n] = s;
            n++;
        }
    }
    return n;
}

/* Appends action `id` to a legal list. Bounded by construction: an id past the action space
 * (a table slot beyond FR_A_MAX_SLOTS, which fr_check_state refuses) is never listed, and
 * the list never outgrows its FR_A_NUM_ACTIONS entries, so no mask indexed by a listed id
 * can be written out of bounds even if a state check were wrong. */
static inline void add_action(uint8_t *legal, int *n, int id) {
    if (id >= 0 && id < FR_A_NUM_ACTIONS && *n < FR_A_NUM_ACTIONS) legal[(*n)++] = (uint8_t)id;
}

/* The action of table slot `slot` in the run of slot actions starting at `first` (use,
 * target, destroy): none past FR_A_MAX_SLOTS, where it would be the next run's id. */
static inline void add_slot_action(uint8_t *legal, int *n, int first, int slot) {
    if (slot < FR_A_MAX_SLOTS) add_action(legal, n, first + slot);
}

static int fight_actions(const fr_game *g, uint8_t *legal) {
    int n = 0, can_draw = fr_can_draw(g);
    if (can_draw) {
        if (fr_free_draw_available(g))
            add_action(legal, &n, FR_A_DRAW_FREE);
        else if (g->life >= fr_paid_draw_cost(g))
            add_action(legal, &n, FR_A_DRAW_PAID);
    }
    /* R06: a card first; D01 when nothing can be drawn; D10 when no card is free */
    int may_end = g->table.n > 0 || !can_draw || !g->free_total;
    if (may_end && (g->step < FR_PIRATES || fr_fight_total(g) >= fr_fight_value(g)))
        add_action(legal, &n, FR_A_END_FIGHT);
    for (int s = 0; s < g->table.n; s++) {
        int ability = FR_ABILITY[g->table.c[s]];
        if (!(g->flags[s] & (FR_USED | FR_DOWN)) && is_player_ability(ability) &&
            has_effect(g, ability, s))
            add_slot_action(legal, &n, FR_A_USE_0, s);
    }
    return n;
}

static int target_actions(const fr_game *g, uint8_t *legal) {
    int slots[FR_PILE_CAP], n = 0;
    if (g->resolving == AB_EXCHANGE_2 && g->exchanges_left == 1)
        add_action(legal, &n, FR_A_STOP_EXCHANGING); /* the lowest id: the list stays ascending */
    int count = targets(g, g->resolving, g->source, slots);
    for (int i = 0; i < count; i++) add_slot_action(legal, &n, FR_A_TARGET_0, slots[i]);
    return n;
}

static int compute_legal(const fr_game *g, uint8_t *legal) {
    int n = 0, slots[FR_PILE_CAP];
    switch (g->phase) {
    case FR_CHOOSE_HAZARD:
        add_action(legal, &n, FR_A_CHOOSE_HAZARD_0);
        add_action(legal, &n, FR_A_CHOOSE_HAZARD_1);
        return n;
    case FR_LAST_HAZARD:
        add_action(legal, &n, FR_A_FIGHT_LAST_HAZARD);
        add_action(legal, &n, FR_A_SKIP_LAST_HAZARD);
        return n;
    case FR_CHOOSE_PIRATE:
        for (int i = 0; i < g->pirates.n && i < 2; i++) add_action(legal, &n, FR_A_CHOOSE_PIRATE_0 + i);
        return n;
    case FR_FIGHT: return fight_actions(g, legal);
    case FR_TARGET: return target_actions(g, legal);
    case FR_DRAW_MORE:
        add_action(legal, &n, FR_A_DRAW_ANOTHER);
        add_action(legal, &n, FR_A_STOP_DRAWING);
        return n;
    case FR_SORT_TAKE:
        add_action(legal, &n, FR_A_SORT_TAKE);
        add_action(legal, &n, FR_A_SORT_STOP_TAKING);
        return n;
    case FR_SORT_DISCARD:
        add_action(legal, &n, FR_A_SORT_KEEP_ALL);
        for (int k = 0; k < g->sort_taken.n && k < MAX_SORT; k++) add_action(legal, &n, FR_A_SORT_DISCARD_0 + k);
        return n;
    case FR_SORT_ORDER:
        for (int k = 0; k < g->sort_taken.n && k < MAX_SORT; k++) add_action(legal, &n, FR_A_SORT_PLACE_0 + k);
        return n;
    case FR_LOSS_DESTROY: {
        add_action(legal, &n, FR_A_FINISH_DESTROYING);
        int count = affordable_destroys(g, slots);
        for (int i = 0; i < count; i++) add_slot_action(legal, &n, FR_A_DESTROY_0, slots[i]);
        return n;
    }
    default: return 0; /* game over */
    }
}

int fr_legal(fr_game *g) {
    if (!g->legal_valid) {
        g->n_legal = compute_legal(g, g->legal);
        g->legal_valid = 1;
    }
    return g->n_legal;
}

int fr_is_legal(fr_game *g, int action) {
    int n = fr_legal(g);
    for (int i = 0; i < n; i++)
        if (g->legal[i] == action) return 1;
    return 0;
}

/* ------------------------------------------------------------------ turn sequence */

static void advance_step(fr_game *g) {
    g->step++;
    if (g->step < FR_PIRATES) { /* the discarded hazards become the new pile (R04) */
        g->hazard_stack = g->hazard_discard;
        g->hazard_discard.n = 0;
        shuffle(g, &g->hazard_stack);
    }
}

/* Game._next_turn: draw hazards (R04), or move on to the next step/pirates. */
static void next_turn(fr_game *g) {
    for (;;) {
        if (g->step >= FR_PIRATES) {
            g->phase = FR_CHOOSE_PIRATE;
            return;
        }
        if (g->hazard_stack.n >= 2) {
            int first = pile_pop(&g->hazard_stack);
            int second = pile_pop(&g->hazard_stack);
            g->offer.n = 0;
            pile_push(&g->offer, first);
            pile_push(&g->offer, second);
            g->phase = FR_CHOOSE_HAZARD;
            return;
        }
        if (g->hazard_stack.n == 1) {
            g->offer.n = 0;
            pile_push(&g->offer, pile_pop(&g->hazard_stack));
            g->phase = FR_LAST_HAZARD;
            return;
        }
        advance_step(g);
    }
}

void fr_game_start_turn(fr_game *g) {
    next_turn(g);
    g->legal_valid = 0;
}

static void start_fight(fr_game *g, int card) {
    g->hazard = card;
    g->offer.n = 0;
    g->free_used = 0;
    g->step_down = 0;
    g->spent.n = 0;
    g->phase = FR_FIGHT;
    if (g->step < FR_PIRATES) {
        g->free_total = FR_FREE[card];
        return;
    }
    int special = FR_SPECIAL[card];
    if (special == PS_PLUS_TWO_PER_AGING) { /* value fixed now (R23) */
        g->free_total = FR_FREE[card];
        g->pirate_value = 2 * (g->aging_total - g->aging.n);
    } else if (special == PS_ALL_HAZARDS) {
        g->free_total = 0;
        g->pirate_value = 0;
        for (int i = 0; i < g->hazard_discard.n; i++) {
            int h = g->hazard_discard.c[i];
            g->free_total += FR_FREE[h];
            g->pirate_value += FR_HAZARD_VALUES[3 * h + FR_RED];
        }
    } else {
        g->free_total = FR_FREE[card];
        g->pirate_value = FR_HAZARD_VALUES[3 * card];
    }
}

/* ------------------------------------------------------------------ drawing */

/* R26: an unseen aging card came up; a seen card of its type still hidden stays unseen. */
static void reveal(fr_game *g, int card) {
    int index = pile_index(&g->unseen, card);
    int kind = FR_CARD_TYPE[card];
    int hidden = g->stack.n - g->known_top;
    hidden = slice_end(hidden, g->stack.n);
    for (int i = 0; i < hidden; i++) {
        int other = g->stack.c[i];
        if (FR_CARD_TYPE[other] == kind && !pile_has(&g->unseen, other)) {
            g->unseen.c[index] = (int8_t)other;
            return;
        }
    }
    pile_take(&g->unseen, index);
}

/* R08: the top aging card (unseen) joins the discard pile, which becomes the stack. */
static void reshuffle(fr_game *g) {
    if (g->aging.n > 0) {
        int card = pile_pop(&g->aging);
        pile_push(&g->discard, card);
        pile_push(&g->unseen, card);
    }
    g->stack = g->discard;
    g->discard.n = 0;
    shuffle(g, &g->stack);
    g->known_top = 0;
}

static int draw(fr_game *g) {
    if (g->stack.n == 0) reshuffle(g);
    int card = pile_pop(&g->stack);
    if (g->known_top) g->known_top--;
    if (card >= 0 && g->unseen.n > 0 && pile_has(&g->unseen, card)) reveal(g, card);
    return card;
}

static int arrival_flags(const fr_game *g, int card, int side) {
    return pile_has(&g->spent, card) ? (side | FR_USED) : side;
}

static void place(fr_game *g, int card, int left) {
    if (card < 0 || g->table.n >= FR_PILE_CAP) return; /* only from an unsound state */
    g->flags[g->table.n] = (uint8_t)arrival_flags(g, card, left ? FR_LEFT : 0);
    pile_push(&g->table, card);
}

static void pay(fr_game *g, int points) {
    g->life -= points;
    g->reserve += points;
}

static void gain(fr_game *g, int points) {
    if (points > g->reserve) points = g->reserve;
    g->life += points;
    g->reserve -= points;
}

/* ------------------------------------------------------------------ abilities */

static void after_sort_take(fr_game *g) {
    g->phase = (g->sort_taken.n < MAX_SORT && fr_can_draw(g)) ? FR_SORT_TAKE : FR_SORT_DISCARD;
}

static void resolve(fr_game *g, int ability, int source) {
    g->phase = FR_FIGHT;
    switch (ability) {
    case AB_LIFE_1: gain(g, 1); break;
    case AB_LIFE_2: gain(g, 2); break; /* "up to 2": taking both is never worse (D02) */
    case AB_CARDS_1: place(g, draw(g), 0); break;
    case AB_CARDS_2:
        place(g, draw(g), 0);
        if (fr_can_draw(g)) g->phase = FR_DRAW_MORE;
        break;
    case AB_STEP_DOWN: g->step_down++; break;
    case AB_SORT_3: {
        int card = draw(g);
        g->sort_taken.n = 0;
        pile_push(&g->sort_taken, card);
        after_sort_take(g);
        break;
    }
    default: /* destroy, double, copy, exchange, below: choose a target next */
        g->phase = FR_TARGET;
        g->source = source;
        g->resolving = ability;
        g->exchanges_left = ability == AB_EXCHANGE_2 ? 2 : 1;
    }
}

/* R17: the target goes to the discard pile, a new card takes its place and side. */
static void exchange(fr_game *g, int slot) {
    pile_push(&g->discard, g->table.c[slot]);
    int card = draw(g);
    if (card < 0) return;
    g->table.c[slot] = (int8_t)card;
    g->flags[slot] = (uint8_t)arrival_flags(g, card, g->flags[slot] & FR_LEFT);
    g->exchanges_left--;
    if (g->exchanges_left > 0) g->phase = FR_TARGET;
}

/* R18: the target goes under the stack; a free card gives its free draw back. */
static void put_below(fr_game *g, int slot) {
    if (g->stack.n == 0) reshuffle(g);
    if (g->known_top == g->stack.n) g->known_top++; /* whole stack known: so is its bottom */
    int card = pile_take(&g->table, slot);
    pile_insert(&g->stack, 0, card);
    int flags = g->flags[slot];
    memmove(g->flags + slot, g->flags + slot + 1, (size_t)(g->table.n - slot));
    if (flags & FR_LEFT) g->free_used--;
}

static void resolve_target(fr_game *g, int slot) {
    int ability = g->resolving;
    g->phase = FR_FIGHT;
    switch (ability) {
    case AB_DESTROY: g->flags[slot] |= FR_DOWN; break;
    case AB_DOUBLE: g->flags[slot] |= FR_DOUBLED; break;
    case AB_COPY: resolve(g, FR_ABILITY[g->table.c[slot]], g->source); break;
    case AB_BELOW: put_below(g, slot); break;
    default: exchange(g, slot);
    }
}

/* Put a sorted card back under the ones already put back (R16), known to the player. */
static void return_to_top(fr_game *g, int card) {
    pile_insert(&g->stack, g->stack.n - g->sort_placed, card);
    g->sort_placed++;
    g->known_top++;
}

/* R16: take up to 3, discard at most 1, put the rest back in a chosen order. */
static void sort_action(fr_game *g, int a) {
    if (a == FR_A_SORT_TAKE) {
        pile_push(&g->sort_taken, draw(g));
        after_sort_take(g);
        return;
    }
    if (a == FR_A_SORT_STOP_TAKING) {
        g->phase = FR_SORT_DISCARD;
        return;
    }
    if (a >= FR_A_SORT_DISCARD_0 && a < FR_A_SORT_PLACE_0)
        pile_push(&g->discard, pile_take(&g->sort_taken, a - FR_A_SORT_DISCARD_0));
    else if (a != FR_A_SORT_KEEP_ALL)
        return_to_top(g, pile_take(&g->sort_taken, a - FR_A_SORT_PLACE_0));
    g->phase = FR_SORT_ORDER;
    if (g->sort_taken.n <= 1) {
        for (int i = 0; i < g->sort_taken.n; i++) return_to_top(g, g->sort_taken.c[i]);
        g->sort_taken.n = 0;
        g->sort_placed = 0;
        g->phase = FR_FIGHT;
    }
}

/* ------------------------------------------------------------------ fights */

static void lose(fr_game *g) {
    g->won = 0;
    g->phase = FR_GAME_OVER;
}

static void clear_table(fr_game *g) {
    for (int s = 0; s < g->table.n; s++)
        pile_push((g->flags[s] & FR_DOWN) ? &g->destroyed : &g->discard, g->table.c[s]);
    g->table.n = 0;
    g->fights++;
}

static void win_fight(fr_game *g) {
    clear_table(g);
    int card = g->hazard;
    g->hazard = -1;
    if (g->step < FR_PIRATES) {
        pile_push(&g->discard, card); /* R21: it joins Robinson's cards as knowledge */
        next_turn(g);
        return;
    }
    pile_remove(&g->pirates, card);
    pile_push(&g->beaten, card);
    if (g->pirates.n > 0) {
        start_fight(g, g->pirates.c[0]); /* the other pirate at once (R22) */
    } else {
        g->won = 1;
        g->phase = FR_GAME_OVER;
    }
}

/* R20: points left over are lost; cards to the discard pile, hazard to its pile. */
static void finish_lost_fight(fr_game *g) {
    g->budget = 0;
    clear_table(g);
    pile_push(&g->hazard_discard, g->hazard);
    g->hazard = -1;
    next_turn(g);
}

/* R03, R06, R20, R21: compare, pay everything owed at once, then clean up. */
static void end_fight(fr_game *g) {
    int total = fr_fight_total(g), value = fr_fight_value(g);
    int penalty = fr_end_of_fight_penalty(g);
    if (total >= value) {
        if (penalty > g->life) {
            lose(g);
            return;
        }
        pay(g, penalty);
        win_fight(g);
        return;
    }
    int difference = value - total;
    if (difference + penalty > g->life) {
        lose(g);
        return;
    }
    pay(g, difference + penalty);
    g->budget = difference;
    g->phase = FR_LOSS_DESTROY;
    if (affordable_destroys(g, NULL) == 0) finish_lost_fight(g);
}

static void loss_destroy_action(fr_game *g, int a) {
    if (a == FR_A_FINISH_DESTROYING) {
        finish_lost_fight(g);
        return;
    }
    int slot = a - FR_A_DESTROY_0;
    g->flags[slot] |= FR_DOWN;
    g->budget -= FR_DESTROY_COST[g->table.c[slot]];
    if (affordable_destroys(g, NULL) == 0) finish_lost_fight(g);
}

static void fight_action(fr_game *g, int a) {
    if (a == FR_A_DRAW_FREE) {
        g->free_used++;
        place(g, draw(g), 1);
    } else if (a == FR_A_DRAW_PAID) {
        pay(g, fr_paid_draw_cost(g));
        place(g, draw(g), 0);
    } else if (a == FR_A_END_FIGHT) {
        end_fight(g);
    } else {
        int slot = a - FR_A_USE_0;
        g->flags[slot] |= FR_USED;
        pile_push(&g->spent, g->table.c[slot]);
        resolve(g, FR_ABILITY[g->table.c[slot]], slot);
    }
}

static void dispatch(fr_game *g, int a) {
    switch (g->phase) {
    case FR_CHOOSE_HAZARD: {
        int i = a - FR_A_CHOOSE_HAZARD_0;
        int chosen = g->offer.c[i];
        pile_push(&g->hazard_discard, g->offer.c[1 - i]);
        start_fight(g, chosen);
        break;
    }
    case FR_LAST_HAZARD:
        if (a == FR_A_FIGHT_LAST_HAZARD) {
            start_fight(g, g->offer.c[0]);
        } else {
            pile_push(&g->hazard_discard, pile_pop(&g->offer));
            advance_step(g);
            next_turn(g);
        }
        break;
    case FR_CHOOSE_PIRATE: start_fight(g, g->pirates.c[a - FR_A_CHOOSE_PIRATE_0]); break;
    case FR_FIGHT: fight_action(g, a); break;
    case FR_TARGET:
        if (a == FR_A_STOP_EXCHANGING)
            g->phase = FR_FIGHT;
        else
            resolve_target(g, a - FR_A_TARGET_0);
        break;
    case FR_DRAW_MORE:
        if (a == FR_A_DRAW_ANOTHER) place(g, draw(g), 0);
        g->phase = FR_FIGHT;
        break;
    case FR_SORT_TAKE:
    case FR_SORT_DISCARD:
    case FR_SORT_ORDER: sort_action(g, a); break;
    case FR_LOSS_DESTROY: loss_destroy_action(g, a); break;
    default: break;
    }
}

int fr_apply(fr_game *g, int action) {
    if (!fr_is_legal(g, action)) return -1;
    if (history_push(g, action) < 0) return -2;
    dispatch(g, action);
    g->legal_valid = 0;
    if (g->step == FR_PIRATES && g->phase == FR_FIGHT && fr_legal(g) == 0)
        lose(g); /* no action can still win this pirate fight (R22); legal stays empty */
    return 0;
}

/* ------------------------------------------------------------------ setup */

int fr_game_new(fr_game *g, int level, uint64_t seed) {
    if (level < 1 || level > 4) return -1;
    uint8_t *history = g->history;
    int32_t cap = g->history_cap;
    fr_game_init(g);
    g->history = history; /* reuse the buffer of a game being reset */
    g->history_cap = cap;
    g->level = level;
    g->seed = seed;
    fr_pile normal = {0}, difficult = {0};
    g->aging_total = 0;
    for (int i = 0; i < FR_NUM_AGING; i++) {
        int card = FR_AGING_IDS[i];
        if (level < 3 && card == FR_VERY_STUPID_ID) continue;
        g->aging_total++;
        pile_push(FR_DIFFICULT[card] ? &difficult : &normal, card);
    }
    if (level < 3) pile_push(&g->box, FR_VERY_STUPID_ID);
    /* the five setup shuffles' generators, seeded side by side before the first (which
     * pile the third shuffles depends on the first two, the generators do not) */
    fr_rng_batch setup;
    int batched = fr_rng_batch_begin(&setup, seed, 0, FR_SETUP_SHUFFLES);
    shuffle(g, &normal);
    shuffle(g, &difficult);
    g->aging = difficult; /* normal cards on top of the difficult ones */
    for (int i = 0; i < normal.n; i++) pile_push(&g->aging, normal.c[i]);
    for (int i = 0; i < FR_NUM_STARTING; i++) pile_push(&g->stack, FR_STARTING_IDS[i]);
    if (level >= 2) { /* one unseen aging card joins the starting cards */
        int card = pile_pop(&g->aging);
        pile_push(&g->stack, card);
        pile_push(&g->unseen, card);
    }
    shuffle(g, &g->stack);
    for (int i = 0; i < FR_NUM_HAZARDS; i++) pile_push(&g->hazard_stack, FR_HAZARD_IDS[i]);
    shuffle(g, &g->hazard_stack);
    fr_pile pirates = {0};
    for (int i = 0; i < FR_NUM_PIRATE_CARDS; i++) pile_push(&pirates, FR_PIRATE_IDS[i]);
    shuffle(g, &pirates);
    if (batched) fr_rng_batch_end();
    pile_push(&g->pirates, pirates.c[0]);
    pile_push(&g->pirates, pirates.c[1]);
    pile_sort(&g->pirates);
    for (int i = 2; i < pirates.n; i++) pile_push(&g->box, pirates.c[i]);
    g->life = level == 4 ? 18 : 20;
    g->reserve = 2;
    next_turn(g);
    return 0;
}

/* ------------------------------------------------------------------ determinized */

/* information._resample_aging: redeal the unknown aging pool between the unseen slots and
 * the aging stack, keeping how many cards have left the aging stack (normal ones first). */
static int resample_aging(fr_game *g) {
    int normal_total = 0, seen_gone_normal = 0;
    for (int i = 0; i < FR_NUM_AGING; i++) {
        int card = FR_AGING_IDS[i];
        if (g->level < 3 && card == FR_VERY_STUPID_ID) continue;
        if (!FR_DIFFICULT[card]) normal_total++;
        if (!pile_has(&g->aging, card) && !pile_has(&g->unseen, card) && !FR_DIFFICULT[card])
            seen_gone_normal++;
    }
    int gone = g->aging_total - g->aging.n;
    int expected_normal = (gone < normal_total ? gone : normal_total) - seen_gone_normal;
    fr_pile pool = g->aging, normal = {0}, difficult = {0};
    for (int i = 0; i < g->unseen.n; i++) pile_push(&pool, g->unseen.c[i]);
    pile_sort(&pool);
    for (int i = 0; i < pool.n; i++)
        pile_push(FR_DIFFICULT[pool.c[i]] ? &difficult : &normal, pool.c[i]);
    shuffle(g, &normal);
    shuffle(g, &difficult);
    /* A scenario may stack the aging cards in any order: keep the counts feasible then. */
    int unseen = g->unseen.n;
    int low = unseen - difficult.n, want = expected_normal;
    if (unseen < want) want = unseen;
    if (normal.n < want) want = normal.n;
    int unseen_normal = low > want ? low : want;
    int unseen_difficult = unseen - unseen_normal;
    /* Python slices: x[:k] and x[k:] with possibly negative k */
    int normal_cut = slice_end(unseen_normal, normal.n);
    int difficult_cut = slice_end(unseen_difficult, difficult.n);
    fr_pile new_unseen = {0};
    for (int i = 0; i < normal_cut; i++) pile_push(&new_unseen, normal.c[i]);
    for (int i = 0; i < difficult_cut; i++) pile_push(&new_unseen, difficult.c[i]);
    g->aging.n = 0;
    for (int i = difficult_cut; i < difficult.n; i++) pile_push(&g->aging, difficult.c[i]);
    for (int i = normal_cut; i < normal.n; i++) pile_push(&g->aging, normal.c[i]);
    fr_pile replacement = new_unseen;
    shuffle(g, &replacement);
    int next = 0;
    for (int i = 0; i < g->stack.n; i++) {
        if (!pile_has(&g->unseen, g->stack.c[i])) continue;
        if (next >= replacement.n) return -1; /* more unseen cards in the stack than slots */
        g->stack.c[i] = replacement.c[next++];
    }
    g->unseen = new_unseen;
    return 0;
}

/* information._resample_stack: shuffle the stack below its known top cards. */
static void resample_stack(fr_game *g) {
    int hidden_count = slice_end(g->stack.n - g->known_top, g->stack.n);
    fr_pile hidden = {0};
    for (int i = 0; i < hidden_count; i++) pile_push(&hidden, g->stack.c[i]);
    pile_sort(&hidden); /* a shuffle of the true order would leak it */
    shuffle(g, &hidden);
    memcpy(g->stack.c, hidden.c, (size_t)hidden_count);
}

int fr_determinized(fr_game *dst, const fr_game *src, uint64_t seed) {
    if (fr_game_copy(dst, src) < 0) return -1;
    dst->seed = seed;
    dst->shuffles = 0;
    if (resample_aging(dst) < 0) return -1;
    resample_stack(dst);
    pile_sort(&dst->hazard_stack); /* from a canonical order: the true order must not show */
    shuffle(dst, &dst->hazard_stack);
    return 0;
}

/* ------------------------------------------------------------------ consistency */

/* Card kinds: KIND_* of cards_data.h (generated from friday_env.cards.Kind) */
/* Which kinds a pile may hold, one bit per kind */
#define KINDS(a, b, c) ((1 << (a)) | (1 << (b)) | (1 << (c)))
#define ROBINSON_KINDS KINDS(KIND_STARTING, KIND_AGING, KIND_HAZARD)
#define ANY_KIND (ROBINSON_KINDS | (1 << KIND_PIRATE))

/* A pile whose cards lie in it alone (`where` marks each card seen, across piles), the kinds
 * it may hold and its messages, each naming the field first. */
typedef struct {
    const fr_pile *pile;
    int kinds;
    const char *messages[4];
} placed_pile;
enum { MSG_SIZE, MSG_ID, MSG_TWICE, MSG_KIND };
#define PLACED(field, kinds)                                                                 \
    {&g->field, kinds,                                                                     \
     {#field ": a pile size is out of range", #field ": a card id is out of range (0..68)", \
      #field ": a physical card lies in more than one place",                               \
      #field ": holds a card of a kind the rules never put there"}}

static const char *check_pile(const fr_pile *p, int kinds, const char *const *messages,
                              int *where) {
    if (p->n < 0 || p->n > FR_PILE_CAP) return messages[MSG_SIZE];
    for (int i = 0; i < p->n; i++) {
        int card = p->c[i];
        if (card < 0 || card >= FR_NUM_CARDS) return messages[MSG_ID];
        if (where[card]) return messages[MSG_TWICE];
        if (!(kinds & (1 << FR_KIND[card]))) return messages[MSG_KIND];
        where[card] = 1;
    }
    return NULL;
}

/* spent and unseen name cards that lie elsewhere: ids in range, each at most once. */
static const char *check_named(const fr_pile *p, const char *size_message, const char *id_message,
                               const char *twice_message) {
    int seen[FR_NUM_CARDS] = {0};
    if (p->n < 0 || p->n > FR_PILE_CAP) return size_message;
    for (int k = 0; k < p->n; k++) {
        int card = p->c[k];
        if (card < 0 || card >= FR_NUM_CARDS) return id_message;
        if (seen[card]++) return twice_message;
    }
    return NULL;
}

static int in_fight_phase(int phase) { return phase >= FR_FIGHT && phase <= FR_LOSS_DESTROY; }

static const char *check_ranges(const fr_game *g) {
    if (g->level < 1 || g->level > 4) return "level: out of range (1..4)";
    if (g->phase < FR_CHOOSE_HAZARD || g->phase > FR_GAME_OVER) return "phase: out of range";
    if (g->step < FR_GREEN || g->step > FR_PIRATES) return "step: out of range (0..3)";
    if (g->resolving < AB_NONE || g->resolving > AB_STOP) return "resolving: not an ability";
    if (g->hazard < -1 || g->hazard >= FR_NUM_CARDS) return "hazard: out of range (-1..68)";
    if (g->shuffles < 0) return "shuffles: negative";
    if (g->known_top < 0 || g->known_top > g->stack.n)
        return "known_top: must be between 0 and the stack size";
    if (g->offer.n > 2) return "offer: holds more than two hazards";
    if (g->pirates.n > 2) return "pirates: more than two pirates in play";
    if (g->beaten.n > 2) return "beaten: more than two pirates in play";
    if (g->sort_taken.n > MAX_SORT) return "sort_taken: holds more than three cards";
    if (g->aging_total != (g->level < 3 ? FR_NUM_AGING - 1 : FR_NUM_AGING))
        return "aging_total: must be the level's number of aging cards (10 at levels 1-2, 11 at 3-4)";
    if (g->table.n > FR_A_MAX_TABLE_CARDS)
        return "table: holds more cards than the action ids have slots for (59)";
    if (g->history_len < 0 || g->history_len > g->history_cap || g->history_len > FR_MAX_HISTORY)
        return "history: size out of range (at most 2**30 actions)";
    return NULL;
}

/* The counters play moves, bounded so that every state play reaches from a state this check
 * accepts is accepted too: life tokens are conserved (R01), so life and the reserve stay
 * within the level's tokens; the shuffle and fight counters grow by at most
 * FR_SHUFFLES_PER_ACTION and one per action, and each action adds one history entry, so
 * their bounds grow with the history; each use of step -1 (R15) also spends an ability. */
static const char *check_counters(const fr_game *g) {
    int tokens = g->level == 4 ? 20 : 22;
    if (g->life < 0 || g->reserve < 0 || g->life + g->reserve != tokens)
        return "life: life and reserve must share the level's 22 tokens (20 at level 4), neither negative (R01)";
    if (g->shuffles > FR_MAX_SHUFFLES + (int64_t)FR_SHUFFLES_PER_ACTION * g->history_len)
        return "shuffles: more than 2**62 plus 4 per action played";
    if ((int64_t)g->fights > FR_FIGHTS_ALLOWANCE + (int64_t)g->history_len)
        return "fights: more than 100000 plus one per action played";
    if (in_fight_phase(g->phase) && g->step_down > g->spent.n)
        return "step_down: more uses of step -1 than abilities used in this fight";
    if (g->pirates.n + g->beaten.n != 2) return "pirates: the two pirates must be in play or beaten (R22)";
    /* a beaten pirate before their step would leave the pirates' step none to choose */
    if (g->beaten.n > 0 && g->step < FR_PIRATES) return "beaten: a pirate is beaten only at the pirates' step (R22)";
    return NULL;
}

static const char *check_slots(const fr_game *g) {
    if ((g->phase == FR_TARGET) && (g->source < 0 || g->source >= g->table.n))
        return "source: not a table slot while an ability is resolving";
    if (g->source < -1 || g->source >= FR_PILE_CAP) return "source: out of range";
    for (int s = 0; s < g->table.n; s++) {
        if (g->flags[s] > (FR_LEFT | FR_USED | FR_DOWN | FR_DOUBLED)) return "flags: a table flag is out of range";
        /* D11: turned exactly when its ability was used in this fight (a use appends it to
         * spent, and a card coming back arrives turned), so no ability is spent twice */
        if (!(g->flags[s] & FR_USED) != !pile_has(&g->spent, g->table.c[s]))
            return "spent: a table card must be turned (used) exactly when spent names it (D11)";
    }
    for (int i = 0; i < g->unseen.n; i++) {
        if (!pile_has(&g->stack, g->unseen.c[i])) return "unseen: an unseen card is not in the stack";
        if (!FR_IS_AGING[g->unseen.c[i]]) return "unseen: an unseen card is not an aging card";
    }
    for (int i = 0; i < g->history_len; i++)
        if (g->history[i] >= FR_A_NUM_ACTIONS) return "history: holds an unknown action id";
    return NULL;
}

/* The hazard fought: a hazard card in no pile before the pirates, one of the pirates at
 * them (R22); -1 outside a fight. */
static const char *check_hazard(const fr_game *g, const int *where) {
    if (g->hazard < 0) return NULL;
    int pirate_step = g->step == FR_PIRATES;
    if (FR_KIND[g->hazard] != (pirate_step ? KIND_PIRATE : KIND_HAZARD))
        return "hazard: must be a hazard card before the pirates and a pirate at them";
    if (pirate_step ? !pile_has(&g->pirates, g->hazard) : where[g->hazard])
        return "hazard: the hazard fought also lies in a pile (or, at the pirates, not among them)";
    return NULL;
}

static int in_sort_phase(int phase) { return phase >= FR_SORT_TAKE && phase <= FR_SORT_ORDER; }

/* What the pending decision needs: each phase's action reads these, so a state without them
 * would pop an empty pile or read a card table at -1. */
static const char *check_phase(const fr_game *g) {
    int phase = g->phase, fighting = in_fight_phase(phase);
    if (phase == FR_GAME_OVER) return NULL;
    if (fighting && g->hazard < 0) return "hazard: none while a fight's decision is pending";
    if (!fighting && g->hazard >= 0) return "hazard: a hazard is fought outside a fight";
    if (!fighting && g->table.n > 0) return "table: cards on the table outside a fight";
    int choosing_hazard = phase == FR_CHOOSE_HAZARD || phase == FR_LAST_HAZARD;
    if (choosing_hazard && g->step == FR_PIRATES) return "step: a hazard choice at the pirates";
    if (phase == FR_CHOOSE_HAZARD && g->offer.n != 2) return "offer: two hazards to choose from are needed";
    if (phase == FR_LAST_HAZARD && g->offer.n != 1) return "offer: the last hazard is needed";
    if (!choosing_hazard && g->offer.n > 0) return "offer: hazards on offer outside a hazard choice";
    if (phase == FR_CHOOSE_PIRATE && g->step != FR_PIRATES) return "step: a pirate choice before the pirates";
    if (phase == FR_CHOOSE_PIRATE && g->pirates.n == 0) return "pirates: none left to choose";
    if (phase == FR_TARGET && (g->resolving < AB_DESTROY || g->resolving == AB_STEP_DOWN ||
                               g->resolving == AB_SORT_3 || g->resolving > AB_BELOW))
        return "resolving: not an ability that targets a card";
    if (phase == FR_LOSS_DESTROY && g->step == FR_PIRATES)
        return "phase: a pirate fight is never lost by points, so nothing is destroyed (R22)";
    if (phase == FR_DRAW_MORE && !fr_can_draw(g)) return "stack: no card left to draw another";
    /* the card whose ability draws or sorts lies on the table: the fight after it never
     * starts over from an empty table with its free draws spent */
    if (phase >= FR_DRAW_MORE && phase <= FR_SORT_ORDER && g->table.n == 0)
        return "table: empty while a card's ability resolves (the card lies there)";
    if (phase == FR_TARGET && (g->resolving == AB_EXCHANGE_1 ? g->exchanges_left != 1
                               : g->resolving == AB_EXCHANGE_2 && g->exchanges_left < 1))
        return "exchanges_left: an exchange resolving needs one left (one or two for exchange 2)";
    if (!in_sort_phase(phase)) {
        if (g->sort_taken.n > 0) return "sort_taken: cards taken outside a sort";
        if (g->sort_placed != 0) return "sort_placed: cards placed outside a sort";
        return NULL;
    }
    if (phase == FR_SORT_TAKE && !fr_can_draw(g)) return "stack: no card left to take";
    int least = phase == FR_SORT_ORDER ? 2 : 1, most = phase == FR_SORT_TAKE ? MAX_SORT - 1 : MAX_SORT;
    if (g->sort_taken.n < least || g->sort_taken.n > most)
        return "sort_taken: the wrong number of cards for the sort's decision";
    if (g->sort_placed > g->stack.n || (phase != FR_SORT_ORDER && g->sort_placed != 0))
        return "sort_placed: cards placed before the sort's order is chosen, or more than the stack holds";
    return NULL;
}

const char *fr_check_state(const fr_game *g) {
    const char *problem = check_ranges(g);
    if (problem != NULL) return problem;
    int where[FR_NUM_CARDS] = {0};
    const placed_pile piles[] = {
        PLACED(stack, ROBINSON_KINDS), PLACED(discard, ROBINSON_KINDS),
        PLACED(hazard_stack, 1 << KIND_HAZARD), PLACED(hazard_discard, 1 << KIND_HAZARD),
        PLACED(aging, 1 << KIND_AGING), PLACED(destroyed, ROBINSON_KINDS), PLACED(box, ANY_KIND),
        PLACED(pirates, 1 << KIND_PIRATE), PLACED(beaten, 1 << KIND_PIRATE),
        PLACED(offer, 1 << KIND_HAZARD), PLACED(table, ROBINSON_KINDS),
        PLACED(sort_taken, ROBINSON_KINDS),
    };
    for (size_t i = 0; i < sizeof piles / sizeof piles[0]; i++) {
        problem = check_pile(piles[i].pile, piles[i].kinds, piles[i].messages, where);
        if (problem != NULL) return problem;
    }
    /* levels 1-2 play without the very stupid aging card (R24): it stays in the box */
    if (g->level < 3 && !pile_has(&g->box, FR_VERY_STUPID_ID))
        return "box: the very stupid card must stay in the box at levels 1-2";
    problem = check_hazard(g, where);
    if (problem == NULL)
        problem = check_named(&g->spent, "spent: size out of range", "spent: a card id is out of range (0..68)",
                              "spent: a card is named twice");
    if (problem == NULL)
        problem = check_named(&g->unseen, "unseen: size out of range",
                              "unseen: a card id is out of range (0..68)", "unseen: a card is named twice");
    if (problem == NULL) problem = check_slots(g);
    if (problem == NULL) problem = check_counters(g);
    if (problem == NULL) problem = check_phase(g);
    if (problem != NULL) return problem;
    uint8_t legal[FR_A_NUM_ACTIONS];
    if (g->phase != FR_GAME_OVER && compute_legal(g, legal) == 0)
        return "phase: a live game with no legal action";
    return NULL;
}
