/* Random legal play in C (random_play.c): random_agent.py's uniform choice, played in a loop
 * inside the compiled core's games for the bench's measure of raw engine speed. */
#ifndef FRIDAY_RANDOM_PLAY_H
#define FRIDAY_RANDOM_PLAY_H

#include "friday.h"

/* splitmix64: a small, fast generator for the random choices (any uniform source serves;
 * the Python engine replays the same choices in the tests). Shared with explore.c. */
static inline uint64_t fr_splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* One run: consecutive games (levels 1-4 in turn, deals seed, seed+1, ..., as the bench's
 * Python loop), choices drawn uniformly from the legal actions with a generator seeded by
 * the run's seed. A run is played in pieces (fr_random_continue), so that a caller can
 * check for interrupts between them; the pieces play exactly what one long call would. */
typedef struct {
    fr_game game;
    fr_rng_cache *cache; /* the setup shuffles' prefetch; NULL plays without one */
    uint64_t choices, deal, prefetched_to;
    int64_t played, games; /* actions played, games begun */
} fr_random_run;

/* Starts a run (the first game dealt): 0, or -1 when out of memory (nothing to free). */
int fr_random_begin(fr_random_run *run, uint64_t seed);
/* Plays on until run->played == until: 0, or -1 when out of memory. */
int fr_random_continue(fr_random_run *run, int64_t until);
void fr_random_end(fr_random_run *run);

#endif
