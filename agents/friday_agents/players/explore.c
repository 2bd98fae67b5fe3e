/* explore.c: friday explore's archive on one deal (explore.h). */
#include <math.h>
#include <stdlib.h>

#include "explore.h"
#include "random_play.h"

static double cell_weight(const fr_explore_cell *c) {
    int32_t f = 1 + c->fights;
    return (double)(f * f) / sqrt((double)(1 + c->chosen));
}

/* The cell key of g, or -1 when out of the key's ranges. Life bins floor like Python's //. */
static int32_t key_of(const fr_game *g, int32_t *life_bin) {
    int32_t life = g->life < 22 ? g->life : 22;
    *life_bin = life >= 0 ? life / 3 : -1;
    if (g->step < 0 || g->step > 3 || g->beaten.n > 2 || g->fights < 0 ||
        g->fights >= FR_EXPLORE_FIGHTS || *life_bin < 0)
        return -1;
    return ((g->step * 3 + g->beaten.n) * FR_EXPLORE_FIGHTS + g->fights) * FR_EXPLORE_LIFE_BINS +
           *life_bin;
}

static int add_cell(fr_explore *x, const fr_game *g, int32_t key, int32_t life_bin, int32_t value) {
    if (x->n == x->cap) {
        int32_t cap = x->cap ? 2 * x->cap : 64;
        fr_explore_cell *grown = realloc(x->cells, (size_t)cap * sizeof *grown);
        if (grown == NULL) return -1;
        x->cells = grown;
        x->cap = cap;
    }
    fr_explore_cell *c = &x->cells[x->n];
    fr_game_init(&c->game);
    if (fr_game_copy(&c->game, g) < 0) {
        fr_game_free(&c->game);
        return -1;
    }
    c->step = g->step, c->beaten = g->beaten.n, c->fights = g->fights;
    c->life_bin = life_bin, c->value = value, c->chosen = 0;
    c->weight = cell_weight(c);
    x->slot[key] = x->n++;
    return 0;
}

/* A state reached: a new cell, or its cell's state when strictly better. */
static int offer(fr_explore *x, const fr_game *g) {
    int32_t life_bin, key = key_of(g, &life_bin);
    if (key < 0) return -3;
    int32_t value = fr_score(g) + 5 * g->life;
    int32_t i = x->slot[key];
    if (i < 0) return add_cell(x, g, key, life_bin, value);
    if (value <= x->cells[i].value) return 0;
    x->cells[i].value = value;
    return fr_game_copy(&x->cells[i].game, g);
}

/* A cell drawn with the weights: the first whose running sum exceeds u x total, summed in
 * the order found (archive.py sums the same doubles in the same order). */
static int32_t choose(fr_explore *x) {
    double total = 0.0, acc = 0.0;
    for (int32_t i = 0; i < x->n; i++) total += x->cells[i].weight;
    double target = (double)(fr_splitmix64(&x->choices) >> 11) * 0x1.0p-53 * total;
    int32_t pick = x->n - 1; /* a draw of exactly the total */
    for (int32_t i = 0; i < x->n; i++) {
        acc += x->cells[i].weight;
        if (acc > target) {
            pick = i;
            break;
        }
    }
    x->cells[pick].chosen++;
    x->cells[pick].weight = cell_weight(&x->cells[pick]);
    return pick;
}

/* One exploration from cell i. */
static int walk_from(fr_explore *x, int32_t i) {
    fr_game *g = &x->walker;
    if (fr_game_copy(g, &x->cells[i].game) < 0) return -1;
    x->walks++;
    for (int32_t s = 0; s < x->walk && g->phase != FR_GAME_OVER; s++) {
        int n = fr_legal(g);
        if (n <= 0) break; /* no decision pending (archive.py stops too) */
        if (fr_apply(g, g->legal[(fr_splitmix64(&x->actions) >> 33) % (uint64_t)n]) != 0)
            return -1;
        x->frames++;
        if (g->won) {
            x->won = 1;
            return 0;
        }
        if (g->phase != FR_GAME_OVER) {
            int rc = offer(x, g);
            if (rc != 0) return rc;
        }
    }
    return 0;
}

int fr_explore_begin(fr_explore *x, const fr_game *start, int32_t walk, uint64_t choices,
                     uint64_t actions) {
    *x = (fr_explore){.walk = walk, .choices = choices, .actions = actions};
    fr_game_init(&x->walker);
    x->slot = malloc(FR_EXPLORE_KEYS * sizeof *x->slot);
    if (x->slot == NULL) return -1;
    for (int32_t k = 0; k < FR_EXPLORE_KEYS; k++) x->slot[k] = -1;
    int rc = offer(x, start);
    if (rc != 0) fr_explore_end(x);
    return rc;
}

int fr_explore_continue(fr_explore *x, int64_t until) {
    while (x->frames < until && !x->won) {
        int rc = walk_from(x, choose(x));
        if (rc != 0) return rc;
    }
    return 0;
}

void fr_explore_end(fr_explore *x) {
    for (int32_t i = 0; i < x->n; i++) fr_game_free(&x->cells[i].game);
    free(x->cells);
    free(x->slot);
    fr_game_free(&x->walker);
    *x = (fr_explore){0};
}
