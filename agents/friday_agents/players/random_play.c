/* random_play.c: uniform random legal play over consecutive games (random_play.h). */
#include <stdlib.h>

#include "random_play.h"

/* A game's setup shuffles and its first reshuffle of the discard pile, which about half of
 * random games make; seeded ahead in one batch, a generator costs an eighth of one seeded
 * alone, so the unused half of the reshuffles' costs less than the used half saves. */
enum { SHUFFLES_AHEAD = FR_SETUP_SHUFFLES + 1, GAMES_PER_PREFETCH = FR_RNG_CACHE_SIZE / SHUFFLES_AHEAD };

/* Seeds the first shuffles of the next GAMES_PER_PREFETCH deals together (speed only). */
static void prefetch_deals(fr_random_run *run) {
    uint64_t seeds[FR_RNG_CACHE_SIZE];
    int64_t ks[FR_RNG_CACHE_SIZE];
    int32_t count = 0;
    for (int32_t i = 0; i < GAMES_PER_PREFETCH; i++)
        for (int32_t k = 0; k < SHUFFLES_AHEAD; k++)
            seeds[count] = run->deal + (uint64_t)i, ks[count++] = k;
    fr_rng_prefetch(run->cache, seeds, ks, count);
    run->prefetched_to = run->deal + GAMES_PER_PREFETCH;
}

/* Starts the game of run->deal (level 1-4 in turn); the run's cache is installed. */
static int deal_game(fr_random_run *run) {
    if (run->cache != NULL && run->deal >= run->prefetched_to) prefetch_deals(run);
    return fr_game_new(&run->game, (int)(run->deal % 4) + 1, run->deal);
}

int fr_random_begin(fr_random_run *run, uint64_t seed) {
    fr_game_init(&run->game);
    run->cache = malloc(sizeof *run->cache);
    run->choices = run->deal = run->prefetched_to = seed;
    run->played = 0;
    run->games = 1;
    fr_rng_use(run->cache);
    int rc = deal_game(run);
    fr_rng_use(NULL);
    if (rc == 0) return 0;
    fr_random_end(run);
    return -1;
}

/* The cache is installed while the games are played, not only dealt: their reshuffles
 * (k = FR_SETUP_SHUFFLES) take their generators from it too. */
static int play_until(fr_random_run *run, int64_t until) {
    fr_game *g = &run->game;
    for (; run->played < until; run->played++) {
        if (g->phase == FR_GAME_OVER) {
            run->games++;
            run->deal++;
            if (deal_game(run) != 0) return -1;
        }
        int n = fr_legal(g);
        int pick = (int)((fr_splitmix64(&run->choices) >> 33) % (uint64_t)n);
        if (fr_apply(g, g->legal[pick]) != 0) return -1;
    }
    return 0;
}

int fr_random_continue(fr_random_run *run, int64_t until) {
    fr_rng_use(run->cache);
    int rc = play_until(run, until);
    fr_rng_use(NULL);
    return rc;
}

void fr_random_end(fr_random_run *run) {
    free(run->cache);
    run->cache = NULL;
    fr_game_free(&run->game);
}
