/* The compiled core of Friday: the game state and the rules, in plain C (no Python).
 *
 * This is a port of the pure-Python reference engine (friday_env/engine/) and must behave
 * identically, action by action: the same legal actions in the same (ascending) order, the
 * same state after every action, hidden piles and future shuffles included. Piles are arrays
 * of physical card ids (0..68, friday_env.cards) with the top of a stack at the END, exactly
 * as the Python lists are. Shuffles reproduce Python's random.Random(f"{seed}:{k}").shuffle.
 *
 * Files: rng.c (shuffles), game.c (setup, legal actions, apply, scoring, clone,
 * determinized), encode.c (the flat observation), vecenv.c (N games stepped in one call);
 * the *_py.c files bind them to Python (module.c is the extension module, capi.c its C API
 * for other extensions: friday_capi.h). cards_data.h and flat_data.h are generated from
 * the Python tables by `python tools/generate_headers.py` (a test checks them). The
 * agents' kernels (heuristic, search, random play) live beside their Python twins in
 * agents/friday_agents/players/ and reach games through friday_capi.h.
 */
#ifndef FRIDAY_H
#define FRIDAY_H

#include <stdint.h>
#include <stddef.h>

#include "cards_data.h" /* FR_NUM_CARDS, per-card tables, action ids FR_A_*, the enums */

#define FR_PILE_CAP 72 /* more than any pile can hold: all 69 cards (a scenario may box 67) */
/* The shuffle counter a state may be given (the seed's stream of shuffles; Python's counter is
 * unbounded, the compiled core keeps 64 bits; a game itself shuffles a few hundred times). */
#define FR_MAX_SHUFFLES (INT64_C(1) << 62)
/* What play adds, for the check to accept whatever play reaches from a state it accepted
 * (fr_check_state): at most this many shuffles per action (a draw's reshuffle, then the hazard
 * piles of two empty steps: 3), one finished fight per action, one history entry per action. */
#define FR_SHUFFLES_PER_ACTION 4
#define FR_FIGHTS_ALLOWANCE 100000
/* The longest history a state may hold: a game from any accepted state ends in far fewer
 * actions, and a Python list this long takes 8 GiB. */
#define FR_MAX_HISTORY (INT32_C(1) << 30)

typedef struct {
    int32_t n;               /* cards in the pile */
    int8_t c[FR_PILE_CAP];   /* card ids; c[n-1] is the top of a stack */
} fr_pile;


/* One game: the fields of friday_env.engine.state.State, same names, same meanings. */
typedef struct fr_game {
    uint64_t seed;           /* the game seed (the compiled core takes seeds < 2**64) */
    int64_t shuffles;        /* shuffles done so far (0..FR_MAX_SHUFFLES) */
    int32_t level, phase, step;
    int32_t life, reserve, aging_total, won, fights;
    fr_pile stack, discard, hazard_stack, hazard_discard, aging, destroyed, box;
    fr_pile pirates, beaten, offer;
    /* the fight */
    int32_t hazard;          /* -1 outside a fight */
    int32_t pirate_value, free_total, free_used, step_down;
    fr_pile table;
    uint8_t flags[FR_PILE_CAP]; /* flags[i] belongs to table.c[i]; table.n entries */
    fr_pile spent;
    /* the ability being resolved */
    int32_t source, resolving, exchanges_left;
    fr_pile sort_taken;
    int32_t sort_placed, budget;
    /* open information (R26) */
    int32_t known_top;
    fr_pile unseen;
    /* legal actions of the pending decision, cached until the next action */
    int32_t legal_valid, n_legal;
    uint8_t legal[FR_A_NUM_ACTIONS];
    /* actions played so far (heap; owned by this game) */
    uint8_t *history;
    int32_t history_len, history_cap;
} fr_game;

/* ---- rng.c ---- */
/* random.Random(f"{seed}:{k}").shuffle(cards[0:n]) of CPython, bit for bit. */
void fr_shuffle(uint64_t seed, int64_t k, int8_t *cards, int32_t n);
/* The shuffles k_first .. k_first+count-1 of game seed `seed`, of piles[i][0:sizes[i]], in one
 * call: the same result as fr_shuffle on each in turn, about 2.5x faster per shuffle when
 * several piles are ready at once (fr_game_new's are not: the stack takes a card from the
 * shuffled aging pile, so it seeds its generators ahead with fr_rng_batch_begin). */
#define FR_SHUFFLE_LANES 8
void fr_shuffle_many(uint64_t seed, int64_t k_first, int32_t count, int8_t *const *piles,
                     const int32_t *sizes);

/* Seeding a shuffle's generator costs most of a shuffle (1247 dependent steps), and one
 * generator at a time leaves the processor idle; seeding several side by side does not. A
 * caller that knows which shuffles are coming (the setup shuffles k = 0..4 of the next games
 * it will deal) can seed them together beforehand into a cache and install the cache for
 * its thread: fr_shuffle then takes a matching generator from it instead of seeding one.
 * Results are identical either way (a generator is a pure function of seed and k). */
typedef struct {
    uint32_t mt[624];
    int32_t next, twisted;
} fr_mt_state;
/* The shuffles fr_game_new makes: the aging piles, the stack, the hazards, the pirates. */
#define FR_SETUP_SHUFFLES 5
#define FR_RNG_CACHE_SIZE 48 /* two wide batches (rng.c) */
typedef struct {
    int32_t count;                         /* entries filled by the last fr_rng_prefetch */
    uint64_t seed[FR_RNG_CACHE_SIZE];
    int64_t k[FR_RNG_CACHE_SIZE];
    uint8_t unused[FR_RNG_CACHE_SIZE];     /* 1 until fr_shuffle takes the entry */
    fr_mt_state state[FR_RNG_CACHE_SIZE];
} fr_rng_cache;
/* Seeds the generators of shuffles (seeds[i], ks[i]) for i < count (at most
 * FR_RNG_CACHE_SIZE; more are ignored) into `cache`, replacing what it held. */
void fr_rng_prefetch(fr_rng_cache *cache, const uint64_t *seeds, const int64_t *ks, int32_t count);
/* The calling thread's fr_shuffle looks in `cache` first (NULL: no cache). The caller owns the
 * cache and must uninstall it (NULL) before freeing it. */
void fr_rng_use(fr_rng_cache *cache);
/* Precomputes the generator's fixed starting state; called when the module loads (fr_shuffle
 * also calls it, but calling it first keeps threads from racing to fill the table). */
void fr_rng_prepare(void);
/* A few generators seeded together on the caller's stack for shuffles it knows are coming
 * (fr_game_new's five setup shuffles): fr_rng_batch_begin seeds shuffles k_first ..
 * k_first+count-1 of `seed` (count at most FR_SHUFFLE_LANES) and installs the batch for the
 * thread, unless a cache is installed (whose owner prefetched what it needs): it returns 1
 * if it installed the batch, and then fr_rng_batch_end must uninstall it. */
typedef struct {
    uint64_t seed;
    int64_t k_first;
    int32_t count;
    uint8_t unused[FR_SHUFFLE_LANES];
    fr_mt_state state[FR_SHUFFLE_LANES];
} fr_rng_batch;
int fr_rng_batch_begin(fr_rng_batch *batch, uint64_t seed, int64_t k_first, int32_t count);
void fr_rng_batch_end(void);
/* Wide seeding (rng.c): up to 24 generators in AVX2 registers where the processor has them.
 * fr_rng_wide_available says whether it does; fr_rng_wide_seeding turns the wide path off or
 * back on (a test hook: results are identical either way) and returns the previous setting. */
int fr_rng_wide_available(void);
int fr_rng_wide_seeding(int on);

/* ---- game.c ---- */
void fr_game_init(fr_game *g);                  /* an empty state (no history buffer) */
void fr_game_free(fr_game *g);                  /* frees the history buffer */
int fr_game_copy(fr_game *dst, const fr_game *src); /* deep copy; dst initialised or freed; 0 ok, -1 out of memory */
int fr_game_new(fr_game *g, int level, uint64_t seed); /* Game.new; 0 ok, -1 bad level/OOM */
void fr_game_start_turn(fr_game *g);            /* Game.start_turn (scenarios) */
int fr_legal(fr_game *g);                       /* fills g->legal/n_legal if stale; returns n_legal */
int fr_is_legal(fr_game *g, int action);
int fr_apply(fr_game *g, int action);           /* plays a legal action; -1 (untouched) if illegal, -2 OOM */
int fr_fight_value(const fr_game *g);
void fr_card_values(const fr_game *g, int32_t *values); /* table.n entries */
int fr_fight_total(const fr_game *g);
int fr_end_of_fight_penalty(const fr_game *g);
int fr_score(const fr_game *g);
int fr_hazards_beaten(const fr_game *g);        /* scoring.hazards_beaten: never falls in a game */
int fr_can_draw(const fr_game *g);
int fr_free_draw_available(const fr_game *g);
int fr_paid_draw_cost(const fr_game *g);
/* information.determinized: dst = a resampled copy of src with seed `seed`; 0 ok */
int fr_determinized(fr_game *dst, const fr_game *src, uint64_t seed);
/* A state's soundness: each card in one place and of a kind its pile can hold, sizes within
 * what the action ids and the arrays hold, the phase's needs met (an offer to choose from, a
 * card to draw, a hazard in a fight...), a legal action unless the game is over. NULL if
 * sound, else a static message that starts with the field at fault ("offer: ..."). */
const char *fr_check_state(const fr_game *g);

/* ---- encode.c ---- */
void fr_encode_flat(const fr_game *g, float *out); /* the "flat" observation, FR_FLAT_SIZE floats */

#endif
