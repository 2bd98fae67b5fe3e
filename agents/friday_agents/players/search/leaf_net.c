/* leaf_net.c: the learned leaf value's forward pass (see leaf_net.h), run by the compiled search
 * where a rollout ends, so that a network leaf costs no trip back to Python. The numpy twin
 * (friday_agents.players.networks.leaf_net) computes the same operations in the same order per
 * output, up to the summation order of a dot product: the two agree to about 1e-12, not to the
 * bit (tests/core/test_core_search.py checks it). */
#include <math.h>

#include "leaf_net.h"

long fr_leaf_net_param_count(const fr_leaf_net *net) {
    long count = 2L * net->sizes[0];
    for (int l = 0; l < net->n_layers; l++)
        count += (long)net->sizes[l] * net->sizes[l + 1] + net->sizes[l + 1];
    return count;
}

/* The raw inputs (row without its bias column, one-hot level and step), standardised. */
static void standardised_inputs(const fr_leaf_net *net, const double *row, int row_size,
                                int level, int step, double *x) {
    int n = 0;
    for (int i = 1; i < row_size; i++) x[n++] = row[i];
    for (int i = 0; i < net->n_levels; i++) x[n++] = i == level - 1 ? 1.0 : 0.0;
    for (int i = 0; i < net->n_steps; i++) x[n++] = i == step ? 1.0 : 0.0;
    const double *centre = net->params, *scale = net->params + net->sizes[0];
    for (int i = 0; i < n; i++) x[i] = (x[i] - centre[i]) / scale[i];
}

/* out = in @ w + b (tanh'd when squash), as numpy's h @ w + b. */
static void dense(const double *in, int n_in, const double *w, const double *b, int n_out,
                  int squash, double *out) {
    for (int j = 0; j < n_out; j++) out[j] = 0.0;
    for (int i = 0; i < n_in; i++) {
        const double *w_row = w + (long)i * n_out;
        for (int j = 0; j < n_out; j++) out[j] += in[i] * w_row[j];
    }
    for (int j = 0; j < n_out; j++) out[j] = squash ? tanh(out[j] + b[j]) : out[j] + b[j];
}

double fr_leaf_net_value(const fr_leaf_net *net, const double *row, int row_size, int level,
                         int step) {
    double a[FR_LEAF_NET_MAX_WIDTH], b[FR_LEAF_NET_MAX_WIDTH];
    double *in = a, *out = b;
    standardised_inputs(net, row, row_size, level, step, in);
    const double *p = net->params + 2L * net->sizes[0];
    for (int l = 0; l < net->n_layers; l++) {
        int n_in = net->sizes[l], n_out = net->sizes[l + 1];
        const double *w = p, *bias = p + (long)n_in * n_out;
        dense(in, n_in, w, bias, n_out, l < net->n_layers - 1, out);
        p = bias + n_out;
        double *swap = in;
        in = out;
        out = swap;
    }
    return 1.0 / (1.0 + exp(-in[0]));
}
