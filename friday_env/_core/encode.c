/* The flat observation (friday_env/observation/flat.py) of a game, in C.
 *
 * The Python encoder is incremental (it caches its last encoding and rewrites what changed);
 * its result is a pure function of the game's public information (R26), so this one simply
 * recomputes every entry at each call: about a thousand floats, most of them zero.
 *
 * Bit for bit: every offset and table comes from flat_data.h, generated from the Python
 * encoder's own tables, and every float is rounded as Python rounds it: where Python computes
 * in double and stores into a float32 array, this computes in double and casts.
 *
 * On states the rules never produce (e.g. a count above a type's copies) the Python encoder
 * may raise or write out of its piece; this one clamps instead, so it never writes outside
 * `out` whatever the state.
 */
#include <string.h>

#include "flat_data.h"
#include "friday.h"

_Static_assert(FR_FLAT_LAYOUT_SIZE == FR_FLAT_SIZE, "flat_data.h and cards_data.h disagree");
_Static_assert(FR_FLAT_NUM_SCALARS == 23, "a flat scalar was added: set it in put_scalars");
_Static_assert(FR_FLAT_TABLE_SLOTS <= FR_PILE_CAP, "more table slots than a pile holds");
_Static_assert(2 * FR_PILE_CAP < 256, "a pile and the unseen cards counted in one byte (put_piles)");
_Static_assert(FR_FLAT_PILE_POSITIONS < 128, "a type position fits put_piles' int8 list");

/* The raw scalars of friday_env.observation.layout.scalar_values, scaled and rounded. */
static void put_scalars(const fr_game *g, const int32_t *values, float *out) {
    int fighting = g->hazard >= 0, targeting = g->phase == FR_TARGET;
    int32_t overflow_count = 0, overflow_value = 0;
    for (int slot = FR_FLAT_TABLE_SLOTS; slot < g->table.n; slot++) {
        overflow_count++;
        overflow_value += values[slot];
    }
    int32_t raw[FR_FLAT_NUM_SCALARS];
    raw[FR_FLAT_SCALAR_LIFE] = g->life;
    raw[FR_FLAT_SCALAR_RESERVE] = g->reserve;
    raw[FR_FLAT_SCALAR_STACK_COUNT] = g->stack.n;
    raw[FR_FLAT_SCALAR_STACK_UNSEEN] = g->unseen.n;
    raw[FR_FLAT_SCALAR_KNOWN_TOP_COUNT] = g->known_top;
    raw[FR_FLAT_SCALAR_DISCARD_COUNT] = g->discard.n;
    raw[FR_FLAT_SCALAR_DESTROYED_COUNT] = g->destroyed.n;
    raw[FR_FLAT_SCALAR_AGING_COUNT] = g->aging.n;
    raw[FR_FLAT_SCALAR_HAZARD_STACK_COUNT] = g->hazard_stack.n;
    raw[FR_FLAT_SCALAR_HAZARD_DISCARD_COUNT] = g->hazard_discard.n;
    raw[FR_FLAT_SCALAR_FIGHTS] = g->fights;
    raw[FR_FLAT_SCALAR_BEATEN_PIRATES] = g->beaten.n;
    raw[FR_FLAT_SCALAR_TABLE_COUNT] = g->table.n;
    raw[FR_FLAT_SCALAR_FREE_TOTAL] = fighting ? g->free_total : 0;
    raw[FR_FLAT_SCALAR_FREE_LEFT] = fighting ? g->free_total - g->free_used : 0;
    raw[FR_FLAT_SCALAR_STEP_DOWN] = fighting ? g->step_down : 0;
    raw[FR_FLAT_SCALAR_FIGHT_VALUE] = fighting ? fr_fight_value(g) : 0;
    raw[FR_FLAT_SCALAR_FIGHT_TOTAL] = fighting ? fr_fight_total(g) : 0;
    raw[FR_FLAT_SCALAR_BUDGET] = g->budget;
    raw[FR_FLAT_SCALAR_EXCHANGES_LEFT] = targeting ? g->exchanges_left : 0;
    raw[FR_FLAT_SCALAR_SORT_PLACED] = g->sort_placed;
    raw[FR_FLAT_SCALAR_OVERFLOW_COUNT] = overflow_count;
    raw[FR_FLAT_SCALAR_OVERFLOW_VALUE] = overflow_value;
    /* Python: struct.pack("f", raw * scale), the product a double rounded once to float */
    for (int i = 0; i < FR_FLAT_NUM_SCALARS; i++)
        out[FR_FLAT_OFF_LIFE + i] = (float)((double)raw[i] * FR_FLAT_SCALE[i]);
}

static int valid_card(int card) { return card >= 0 && card < FR_NUM_CARDS; }

/* An entry of a one-hot piece; an index outside the vector (a corrupt state) is skipped. */
static void put_hot(float *out, int index) {
    if (index >= 0 && index < FR_FLAT_SIZE) out[index] = 1.0f;
}

static void put_one_hots(const fr_game *g, float *out) {
    put_hot(out, g->level >= 1 && g->level <= 4 ? FR_FLAT_OFF_LEVEL + g->level - 1 : -1);
    put_hot(out, g->step >= 0 && g->step < 4 ? FR_FLAT_OFF_STEP + g->step : -1);
    put_hot(out, g->phase >= 0 && g->phase <= FR_GAME_OVER ? FR_FLAT_OFF_PHASE + g->phase : -1);
    for (int k = 0; k < g->offer.n && k < 2; k++)
        if (valid_card(g->offer.c[k])) put_hot(out, FR_FLAT_OFFER_HOT[k][g->offer.c[k]]);
    for (int k = 0; k < g->pirates.n && k < 2; k++)
        if (valid_card(g->pirates.c[k])) put_hot(out, FR_FLAT_PIRATE_HOT[k][g->pirates.c[k]]);
    int abilities = (int)(sizeof FR_FLAT_RESOLVING_HOT / sizeof FR_FLAT_RESOLVING_HOT[0]);
    if (g->phase == FR_TARGET && g->resolving >= 0 && g->resolving < abilities)
        put_hot(out, FR_FLAT_RESOLVING_HOT[g->resolving]);
    if (valid_card(g->hazard)) put_hot(out, FR_FLAT_FIGHT_HOT[g->hazard]);
}

/* Free cards and value now of each offered hazard (steps above red read red's values). */
static void put_offer_values(const fr_game *g, float *out) {
    int step = g->step < 0 ? 0 : g->step > 2 ? 2 : g->step;
    for (int k = 0; k < g->offer.n && k < 2; k++) {
        int card = g->offer.c[k];
        if (!valid_card(card)) continue;
        const float *values = &FR_FLAT_OFFER_VALUES[(step * FR_NUM_CARDS + card) * 2];
        out[FR_FLAT_OFF_OFFER_VALUES + 2 * k] = values[0];
        out[FR_FLAT_OFF_OFFER_VALUES + 2 * k + 1] = values[1];
    }
}

static void put_card_row(float *at, int card) {
    if (valid_card(card))
        memcpy(at, &FR_FLAT_CARD_ROWS[card * FR_FLAT_CARD_FEATURES],
               FR_FLAT_CARD_FEATURES * sizeof(float));
}

/* The sort hand (in order) and the known top of the stack (top first), the first few each. */
static void put_card_lists(const fr_game *g, float *out) {
    for (int i = 0; i < g->sort_taken.n && i < FR_FLAT_SORT_SLOTS; i++)
        put_card_row(&out[FR_FLAT_OFF_SORT_HAND + i * FR_FLAT_CARD_FEATURES], g->sort_taken.c[i]);
    int known = g->known_top < g->stack.n ? g->known_top : g->stack.n;
    for (int i = 0; i < known && i < FR_FLAT_KNOWN_TOP; i++) {
        int card = g->stack.c[g->stack.n - 1 - i];
        put_card_row(&out[FR_FLAT_OFF_KNOWN_TOP + i * FR_FLAT_CARD_FEATURES], card);
    }
}

/* Table slots: card features, value now / 5, the four flags, "is the source". */
static void put_table(const fr_game *g, const int32_t *values, float *out) {
    int n = g->table.n < FR_FLAT_TABLE_SLOTS ? g->table.n : FR_FLAT_TABLE_SLOTS;
    static const int flag_bits[4] = {FR_LEFT, FR_USED, FR_DOWN, FR_DOUBLED};
    for (int slot = 0; slot < n; slot++) {
        float *row = &out[FR_FLAT_OFF_TABLE + slot * FR_FLAT_TABLE_FEATURES];
        put_card_row(row, g->table.c[slot]);
        row[FR_FLAT_CARD_FEATURES] = (float)(values[slot] / FR_FLAT_VALUE_SCALE);
        for (int f = 0; f < 4; f++)
            row[FR_FLAT_CARD_FEATURES + 1 + f] = (g->flags[slot] & flag_bits[f]) ? 1.0f : 0.0f;
    }
    if (g->phase == FR_TARGET && g->source >= 0 && g->source < n)
        out[FR_FLAT_OFF_TABLE + g->source * FR_FLAT_TABLE_FEATURES + FR_FLAT_TABLE_FEATURES - 1] =
            1.0f;
}

/* Adds `card` to the counts by type position of counted pile `which`, listing each position
 * in `touched` when it is first counted (so only those are written: most types are absent). */
static void count_card(int which, int card, uint8_t *counts, int8_t *touched, int *n_touched) {
    if (!valid_card(card)) return;
    int position = FR_FLAT_PILE_POS[which * FR_NUM_CARDS + card];
    if (position < 0 || position >= FR_FLAT_PILE_POSITIONS) return;
    /* without a branch (whether a type is new is a coin toss): written each time, kept the
     * first; `touched` has room for one more than the positions */
    touched[*n_touched] = (int8_t)position;
    *n_touched += counts[position] == 0;
    counts[position]++; /* a pile and the unseen cards at most: below 256 (asserted above) */
}

/* The piles counted by type (PILE_PIECES order): each type's share count / copies. */
static void put_piles(const fr_game *g, float *out) {
    const fr_pile *sources[FR_FLAT_NUM_PILES] = {&g->stack,          &g->discard,
                                                 &g->destroyed,      &g->hazard_discard,
                                                 &g->hazard_stack,   &g->aging};
    uint8_t is_unseen[FR_NUM_CARDS] = {0};
    for (int i = 0; i < g->unseen.n; i++)
        if (valid_card(g->unseen.c[i])) is_unseen[g->unseen.c[i]] = 1;
    for (int which = 0; which < FR_FLAT_NUM_PILES; which++) {
        uint8_t counts[FR_FLAT_PILE_POSITIONS] = {0};
        int8_t touched[FR_FLAT_PILE_POSITIONS + 1];
        int n_touched = 0;
        const fr_pile *pile = sources[which];
        for (int i = 0; i < pile->n; i++) {
            int card = pile->c[i];
            /* the stack without its unseen aging cards; the aging pool with them (R26) */
            if (which == 0 && valid_card(card) && is_unseen[card]) continue;
            count_card(which, card, counts, touched, &n_touched);
        }
        if (which == FR_FLAT_NUM_PILES - 1)
            for (int i = 0; i < g->unseen.n; i++)
                count_card(which, g->unseen.c[i], counts, touched, &n_touched);
        for (int k = 0; k < n_touched; k++) {
            int position = touched[k];
            int row = which * FR_FLAT_PILE_POSITIONS + position, count = counts[position];
            if (count > FR_FLAT_PILE_COPIES[row]) count = FR_FLAT_PILE_COPIES[row];
            out[FR_FLAT_PILE_OFF[which] + position] =
                FR_FLAT_PILE_SHARE[row * (FR_FLAT_PILE_MAX_COUNT + 1) + count];
        }
    }
}

void fr_encode_flat(const fr_game *g, float *out) {
    int32_t values[FR_PILE_CAP] = {0};
    if (g->table.n > 0) fr_card_values(g, values);
    memset(out, 0, FR_FLAT_SIZE * sizeof(float));
    put_one_hots(g, out);
    put_scalars(g, values, out);
    put_offer_values(g, out);
    put_card_lists(g, out);
    put_table(g, values, out);
    put_piles(g, out);
}
