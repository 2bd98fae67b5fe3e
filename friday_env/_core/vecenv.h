/* vecenv.c's API: N games of one level stepped in one call (see vecenv.c). */
#ifndef FRIDAY_VECENV_H
#define FRIDAY_VECENV_H

#include "friday.h"

/* episode.py's reward modes, in REWARD_MODES's order */
enum { FR_REWARD_WIN_LOSS = 0, FR_REWARD_SCORE = 1, FR_REWARD_PROGRESS = 2 };
enum { FR_ILLEGAL_LOSS = 0, FR_ILLEGAL_RAISE = 1 };    /* env.py's illegal_action modes */
enum { FR_VEC_NO_MEMORY = -2 };

/* The statistics of a game that ended, one row of FR_VEC_STATS int32 per env (the single
 * env's final info, in episode.STATS's order; the end step is 0-3, green to pirates). */
enum {
    FR_STAT_SCORE = 0, FR_STAT_WON, FR_STAT_LEVEL, FR_STAT_FIGHTS, FR_STAT_STEPS,
    FR_STAT_HAZARDS_BEATEN, FR_STAT_PIRATES_BEATEN, FR_STAT_END_STEP, FR_STAT_ILLEGAL,
    FR_VEC_STATS
};

typedef struct {
    int32_t num_envs, level, reward_mode, illegal_mode;
    double progress_coef; /* FR_REWARD_PROGRESS: the reward per hazard or pirate beaten */
    fr_game *games;  /* num_envs games */
    int32_t *steps;  /* decisions taken in each env's current game */
    int32_t *progress; /* FR_REWARD_PROGRESS: hazards and pirates beaten in each env's game */
    uint8_t *ended;  /* during a step: 1 if env i's game ended, 2 if by an illegal action */
    fr_rng_cache *cache; /* the setup shuffles of the games about to start (rng.c) */
} fr_vecenv;

/* Where a reset or step writes (row i belongs to env i). */
typedef struct {
    float *obs;            /* num_envs x FR_FLAT_SIZE: the current games' observations */
    int8_t *masks;         /* num_envs x FR_A_NUM_ACTIONS: their legal actions, 0/1 */
    double *rewards;       /* num_envs */
    uint8_t *terminated;   /* num_envs: the game ended in this step */
    uint8_t *truncated;    /* num_envs: always 0 (a game always ends) */
    float *final_obs;      /* num_envs x FR_FLAT_SIZE: rows of the envs that ended */
    int32_t *final_stats;  /* num_envs x FR_VEC_STATS: rows of the envs that ended */
} fr_vec_out;

/* 0, or -1 (bad arguments or out of memory; nothing to free). */
int fr_vec_init(fr_vecenv *v, int32_t num_envs, int32_t level, int32_t reward_mode,
                double progress_coef, int32_t illegal_mode);
void fr_vec_free(fr_vecenv *v);
/* New games, env i's with seeds[i]; writes obs and masks. 0, or FR_VEC_NO_MEMORY. */
int fr_vec_reset(fr_vecenv *v, const uint64_t *seeds, const fr_vec_out *out);
/* Checks a step's actions before anything moves: -1 if they can all be played, else the
 * first env whose action is out of range (always refused) or illegal (refused in
 * FR_ILLEGAL_RAISE mode). */
int32_t fr_vec_check(fr_vecenv *v, const int64_t *actions);
/* One step of every env (actions checked by fr_vec_check); an env whose game ends starts
 * its next game with next_seeds[i]. Returns how many games ended, or FR_VEC_NO_MEMORY. */
int32_t fr_vec_step(fr_vecenv *v, const int64_t *actions, const uint64_t *next_seeds,
                    const fr_vec_out *out);

/* Env i plays a copy of `g` (a game of the env's level, not over) from its current state:
 * its step count starts at 0, and obs and masks get its row. 0, -1 (bad env, level or a
 * game over; nothing changed) or FR_VEC_NO_MEMORY. */
int fr_vec_set_game(fr_vecenv *v, int32_t i, const fr_game *g, const fr_vec_out *out);

#endif
