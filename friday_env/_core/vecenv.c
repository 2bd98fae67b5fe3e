/* vecenv.c: N games stepped in one call (the native vector env, friday_env/vector.py).
 *
 * Each env is one game of a fixed level. A step applies each env's action, writes its
 * reward and flags, and, when its game ends, writes the final observation and statistics and
 * starts the env's next game at once (Gymnasium's same-step autoreset) with the seed the
 * caller put in next_seeds[i]: the returned observation and mask are then the new game's
 * first. The rules of an episode are defined once, in Python, by friday_env/episode.py (the
 * single env and the vector env's Python path call it); this file implements them in C for
 * speed, each function naming its definition: rewards at the end, "win_loss" +1/-1 or
 * "score" score / 100 (final_reward), and in "progress" mode the coefficient for each hazard
 * and pirate beaten in a step besides +1/-1 at the end (step_reward); an illegal action either ends the game as a loss
 * (FR_ILLEGAL_LOSS, illegal_action_ends_game) or is refused before anything moves
 * (FR_ILLEGAL_RAISE, fr_vec_check); the statistics of an ended game (final_stats). Game seeds
 * come from the caller (friday_env/vector.py draws them with episode.draw_game_seed).
 */
#include <stdlib.h>
#include <string.h>

#include "vecenv.h"

int fr_vec_init(fr_vecenv *v, int32_t num_envs, int32_t level, int32_t reward_mode,
                double progress_coef, int32_t illegal_mode) {
    memset(v, 0, sizeof *v);
    if (num_envs < 1 || level < 1 || level > 4) return -1;
    v->games = calloc((size_t)num_envs, sizeof *v->games);
    v->steps = calloc((size_t)num_envs, sizeof *v->steps);
    v->progress = calloc((size_t)num_envs, sizeof *v->progress);
    v->ended = calloc((size_t)num_envs, sizeof *v->ended);
    v->cache = malloc(sizeof *v->cache);
    if (v->games == NULL || v->steps == NULL || v->progress == NULL || v->ended == NULL ||
        v->cache == NULL) {
        fr_vec_free(v);
        return -1;
    }
    v->cache->count = 0;
    for (int32_t i = 0; i < num_envs; i++) fr_game_init(&v->games[i]);
    v->num_envs = num_envs;
    v->level = level;
    v->reward_mode = reward_mode;
    v->progress_coef = progress_coef;
    v->illegal_mode = illegal_mode;
    return 0;
}

void fr_vec_free(fr_vecenv *v) {
    if (v->games != NULL)
        for (int32_t i = 0; i < v->num_envs; i++) fr_game_free(&v->games[i]);
    free(v->games);
    free(v->steps);
    free(v->progress);
    free(v->ended);
    free(v->cache);
    v->games = NULL;
    v->steps = NULL;
    v->progress = NULL;
    v->ended = NULL;
    v->cache = NULL;
    v->num_envs = 0;
}

/* The mask row of a game in play (1 for each legal action); never past the row's end,
 * whatever the game's legal list holds. */
static void write_mask(fr_game *g, int8_t *row) {
    memset(row, 0, FR_A_NUM_ACTIONS);
    int n = fr_legal(g);
    for (int k = 0; k < n && k < FR_A_NUM_ACTIONS; k++)
        if (g->legal[k] < FR_A_NUM_ACTIONS) row[g->legal[k]] = 1;
}

/* The observation and mask of env i's current game. */
static void write_live(fr_vecenv *v, int32_t i, const fr_vec_out *out) {
    fr_game *g = &v->games[i];
    fr_encode_flat(g, out->obs + (size_t)i * FR_FLAT_SIZE);
    write_mask(g, out->masks + (size_t)i * FR_A_NUM_ACTIONS);
}

/* friday_env.episode.progress: hazards and pirates beaten in game g. */
static int32_t progress(const fr_game *g) { return fr_hazards_beaten(g) + g->beaten.n; }

/* Env i's step count and progress from its current game's start. */
static void start_counts(fr_vecenv *v, int32_t i) {
    v->steps[i] = 0;
    v->progress[i] = v->reward_mode == FR_REWARD_PROGRESS ? progress(&v->games[i]) : 0;
}

static int new_game(fr_vecenv *v, int32_t i, uint64_t seed) {
    if (fr_game_new(&v->games[i], v->level, seed) != 0) return FR_VEC_NO_MEMORY;
    start_counts(v, i);
    return 0;
}

enum { GAMES_PER_PREFETCH = FR_RNG_CACHE_SIZE / FR_SETUP_SHUFFLES };

/* Seeds the setup shuffles (k = 0..4, fr_game_new's) of up to GAMES_PER_PREFETCH games
 * together into the installed cache (see fr_rng_prefetch). */
static void prefetch_setups(fr_rng_cache *cache, const uint64_t *game_seeds, int32_t games) {
    uint64_t seeds[FR_RNG_CACHE_SIZE];
    int64_t ks[FR_RNG_CACHE_SIZE];
    int32_t count = 0;
    for (int32_t g = 0; g < games && g < GAMES_PER_PREFETCH; g++)
        for (int32_t k = 0; k < FR_SETUP_SHUFFLES; k++) seeds[count] = game_seeds[g], ks[count++] = k;
    fr_rng_prefetch(cache, seeds, ks, count);
}

int fr_vec_reset(fr_vecenv *v, const uint64_t *seeds, const fr_vec_out *out) {
    int rc = 0;
    fr_rng_use(v->cache);
    for (int32_t first = 0; first < v->num_envs && rc == 0; first += GAMES_PER_PREFETCH) {
        int32_t last = first + GAMES_PER_PREFETCH < v->num_envs ? first + GAMES_PER_PREFETCH
                                                               : v->num_envs;
        prefetch_setups(v->cache, seeds + first, last - first);
        for (int32_t i = first; i < last && rc == 0; i++) rc = new_game(v, i, seeds[i]);
    }
    fr_rng_use(NULL);
    if (rc < 0) return FR_VEC_NO_MEMORY;
    for (int32_t i = 0; i < v->num_envs; i++) write_live(v, i, out);
    return 0;
}

/* The first env whose action is refused (friday_env.episode.illegal_action_ends_game: an id
 * outside the layout always is, an illegal one in raise mode), or -1. */
int32_t fr_vec_check(fr_vecenv *v, const int64_t *actions) {
    for (int32_t i = 0; i < v->num_envs; i++) {
        int64_t a = actions[i];
        if (a < 0 || a >= FR_A_NUM_ACTIONS) return i;
        if (v->illegal_mode == FR_ILLEGAL_RAISE && !fr_is_legal(&v->games[i], (int)a)) return i;
    }
    return -1;
}

/* The end-of-game part of the reward of a game that just ended:
 * friday_env.episode.final_reward. */
static double final_reward(const fr_vecenv *v, const fr_game *g, int illegal) {
    if (v->reward_mode == FR_REWARD_SCORE) return (double)fr_score(g) / 100.0;
    return (!illegal && g->won) ? 1.0 : -1.0;
}

/* Env i's game has ended (illegal: by an illegal action in loss mode): its final observation
 * and statistics (friday_env.episode.final_stats, in vecenv.h's row order), then its next
 * game. */
static int end_game(fr_vecenv *v, int32_t i, int illegal, uint64_t next_seed,
                    const fr_vec_out *out) {
    fr_game *g = &v->games[i];
    out->rewards[i] += final_reward(v, g, illegal); /* after play()'s progress part */
    out->terminated[i] = 1;
    fr_encode_flat(g, out->final_obs + (size_t)i * FR_FLAT_SIZE);
    int32_t *stats = out->final_stats + (size_t)i * FR_VEC_STATS;
    stats[FR_STAT_SCORE] = fr_score(g);
    stats[FR_STAT_WON] = illegal ? 0 : g->won;
    stats[FR_STAT_LEVEL] = g->level;
    stats[FR_STAT_FIGHTS] = g->fights;
    stats[FR_STAT_STEPS] = v->steps[i];
    stats[FR_STAT_HAZARDS_BEATEN] = fr_hazards_beaten(g);
    stats[FR_STAT_PIRATES_BEATEN] = g->beaten.n;
    stats[FR_STAT_END_STEP] = g->step;
    stats[FR_STAT_ILLEGAL] = illegal;
    return new_game(v, i, next_seed);
}

/* The progress part of a step's reward (friday_env.episode.step_reward): the coefficient
 * times the hazards and pirates env i's game beat in the step; 0 outside progress mode. The
 * count is kept with a coefficient of 0 too: set_progress_coef may raise it mid-game. */
static double progress_reward(fr_vecenv *v, int32_t i) {
    if (v->reward_mode != FR_REWARD_PROGRESS) return 0.0;
    int32_t before = v->progress[i];
    v->progress[i] = progress(&v->games[i]);
    return v->progress_coef * (double)(v->progress[i] - before);
}

/* Plays env i's action; 1 if its game ended (by the action, or by an illegal one in loss
 * mode: then v->ended[i] is 2), 0 if it goes on, FR_VEC_NO_MEMORY. The reward is the
 * progress part; end_game adds the end's. */
static int play(fr_vecenv *v, int32_t i, int action, const fr_vec_out *out) {
    fr_game *g = &v->games[i];
    int illegal = !fr_is_legal(g, action);
    out->rewards[i] = 0.0;
    if (!illegal) {
        if (fr_apply(g, action) < 0) return FR_VEC_NO_MEMORY;
        v->steps[i]++;
        out->rewards[i] = progress_reward(v, i);
    }
    out->truncated[i] = 0;
    out->terminated[i] = 0;
    v->ended[i] = illegal ? 2 : g->phase == FR_GAME_OVER;
    return v->ended[i] != 0;
}

/* The envs whose games ended: final observations and statistics, then their next games, a
 * few at a time so that each batch's setup shuffles are seeded together. */
static int restart_ended(fr_vecenv *v, const uint64_t *next_seeds, const fr_vec_out *out) {
    int32_t batch[GAMES_PER_PREFETCH];
    uint64_t seeds[GAMES_PER_PREFETCH];
    int32_t n = 0;
    fr_rng_use(v->cache);
    for (int32_t i = 0; i <= v->num_envs; i++) {
        int full = n == GAMES_PER_PREFETCH || (i == v->num_envs && n > 0);
        if (full) {
            prefetch_setups(v->cache, seeds, n);
            for (int32_t b = 0; b < n; b++) {
                if (end_game(v, batch[b], v->ended[batch[b]] == 2, seeds[b], out) < 0) {
                    fr_rng_use(NULL);
                    return FR_VEC_NO_MEMORY;
                }
            }
            n = 0;
        }
        if (i < v->num_envs && v->ended[i]) batch[n] = i, seeds[n++] = next_seeds[i];
    }
    fr_rng_use(NULL);
    return 0;
}

int32_t fr_vec_step(fr_vecenv *v, const int64_t *actions, const uint64_t *next_seeds,
                    const fr_vec_out *out) {
    int32_t ended = 0;
    for (int32_t i = 0; i < v->num_envs; i++) { /* actions in range: fr_vec_check ran first */
        int rc = play(v, i, (int)actions[i], out);
        if (rc < 0) return FR_VEC_NO_MEMORY;
        ended += rc;
    }
    if (ended > 0 && restart_ended(v, next_seeds, out) < 0) return FR_VEC_NO_MEMORY;
    for (int32_t i = 0; i < v->num_envs; i++) write_live(v, i, out);
    return ended;
}

int fr_vec_set_game(fr_vecenv *v, int32_t i, const fr_game *g, const fr_vec_out *out) {
    if (i < 0 || i >= v->num_envs || g->level != v->level || g->phase == FR_GAME_OVER) return -1;
    if (fr_game_copy(&v->games[i], g) < 0) return FR_VEC_NO_MEMORY;
    start_counts(v, i);
    write_live(v, i, out);
    return 0;
}
