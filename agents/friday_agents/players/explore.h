/* friday explore's archive in C (explore.c): the loop of learning/explore/archive.py, which
 * plays the same choices in Python and says the design (experiments/from-nothing/PLAN.md).
 *
 * One deal: cells keyed by (step, pirates beaten, fights finished, min(life, 22) / 3), each
 * holding a copy of the best state reached in it (score + 5 x life, strictly higher
 * replaces); a cell is chosen with weight (1 + fights)^2 / sqrt(1 + times chosen), its state
 * copied, and up to `walk` uniform random legal actions played from the copy, every state
 * reached offered to its cell. Two splitmix64 streams: one chooses cells, one actions. A
 * state's actions from Game.new are its history, so the archive keeps each cell's path. */
#ifndef FRIDAY_EXPLORE_H
#define FRIDAY_EXPLORE_H

#include "friday.h"

/* The cell key's ranges: step 0-3, pirates beaten 0-2, fights finished, life bins 0-7. */
enum { FR_EXPLORE_FIGHTS = 256, FR_EXPLORE_LIFE_BINS = 8 };
enum { FR_EXPLORE_KEYS = 4 * 3 * FR_EXPLORE_FIGHTS * FR_EXPLORE_LIFE_BINS };

typedef struct {
    fr_game game; /* the cell's state; its history is the path from Game.new */
    int32_t step, beaten, fights, life_bin, value;
    int64_t chosen;
    double weight;
} fr_explore_cell;

typedef struct {
    int32_t walk;              /* actions per exploration, at most */
    uint64_t choices, actions; /* the splitmix64 states choosing cells and actions */
    fr_explore_cell *cells;    /* in the order found */
    int32_t n, cap;
    int32_t *slot;             /* FR_EXPLORE_KEYS entries: the cell's index, -1 for none */
    fr_game walker;            /* the copy a walk plays on */
    int64_t frames, walks;     /* actions applied, explorations made */
    int won;                   /* 1 once a walk won: walker is then the won game */
} fr_explore;

/* Starts a deal's archive with `start` as its only cell: 0; -1 out of memory, -3 a cell out
 * of the key's ranges (nothing to free either way). */
int fr_explore_begin(fr_explore *x, const fr_game *start, int32_t walk, uint64_t choices,
                     uint64_t actions);
/* Explores until a win or until frames >= until, checked before each exploration (so pieces
 * play exactly what one call would): 0; -1 out of memory, -3 a cell out of range. */
int fr_explore_continue(fr_explore *x, int64_t until);
void fr_explore_end(fr_explore *x);

#endif
