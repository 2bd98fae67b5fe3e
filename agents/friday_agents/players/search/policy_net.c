/* policy_net.c: a policy network's choice (see policy_net.h), played at every step of the
 * compiled search's network rollouts.
 *
 * The numpy twin (PolicyPrior.best) encodes the flat observation, runs the layers in float32
 * (BLAS's summation order) and takes the first legal action of highest logit. This reads the
 * same observation (the env's encode.c, bit for bit the Python encoder's), widens it and the
 * float32 weights exactly to double and runs the layers in double: the logits agree to float32
 * rounding (about 1e-6), so the two choose alike unless two legal logits tie that closely
 * (tests/agents/test_network_rollouts.py measures how often). Only what the choice needs is
 * computed: the first layer over the observation's non-zero entries (a few dozen of 991), the
 * last one over the legal actions' columns. */
#include <math.h>

#include "policy_net.h"

long fr_policy_net_param_count(const fr_policy_net *net) {
    long count = 0;
    for (int l = 0; l < net->n_layers; l++)
        count += (long)net->sizes[l] * net->sizes[l + 1] + net->sizes[l + 1];
    return count;
}

/* A layer's input as (row index, value) pairs: the rows of the weights it reads. */
typedef struct {
    int n;
    int index[FR_FLAT_SIZE > FR_POLICY_NET_MAX_WIDTH ? FR_FLAT_SIZE : FR_POLICY_NET_MAX_WIDTH];
    double value[FR_FLAT_SIZE > FR_POLICY_NET_MAX_WIDTH ? FR_FLAT_SIZE : FR_POLICY_NET_MAX_WIDTH];
} fr_layer_input;

/* The flat observation's non-zero entries (their zero products add nothing). */
static void observation_input(const fr_game *g, fr_layer_input *in) {
    float obs[FR_FLAT_SIZE];
    fr_encode_flat(g, obs);
    in->n = 0;
    for (int i = 0; i < FR_FLAT_SIZE; i++)
        if (obs[i] != 0.0f) {
            in->index[in->n] = i;
            in->value[in->n++] = obs[i];
        }
}

/* sum[0..n) += v * row[0..n): a loop the compiler vectorizes (each sum[j] still adds its terms
 * in the order of the rows). Not inlined: inlined, gcc -O3 jams two rows into one scalar loop
 * instead, at half the speed. */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && defined(__linux__)
/* an AVX2 clone beside the baseline one, chosen at load time (no FMA: the same floats) */
#define FR_ROW_LOOP __attribute__((noinline, target_clones("avx2", "default")))
#elif defined(__GNUC__) || defined(__clang__)
#define FR_ROW_LOOP __attribute__((noinline))
#else
#define FR_ROW_LOOP
#endif
FR_ROW_LOOP static void add_scaled_row(double *restrict sum, const double *restrict row, double v,
                                       int n) {
    for (int j = 0; j < n; j++) sum[j] += v * row[j];
}

/* tanh(x) as 1 - 2 / (e^2|x| + 1) with x's sign: one exp, about twice as fast as libm's tanh,
 * and within about 1e-16 of it, far below the float32 rounding of the numpy twin's logits. */
static double fast_tanh(double x) {
    double t = 1.0 - 2.0 / (exp(2.0 * fabs(x)) + 1.0);
    return x < 0 ? -t : t;
}

/* tanh(in @ w + b), as the next layer's input. */
static void hidden_layer(const fr_layer_input *in, const double *w, const double *bias, int n_out,
                         fr_layer_input *out) {
    double sum[FR_POLICY_NET_MAX_WIDTH];
    for (int j = 0; j < n_out; j++) sum[j] = 0.0;
    for (int k = 0; k < in->n; k++)
        add_scaled_row(sum, w + (long)in->index[k] * n_out, in->value[k], n_out);
    out->n = n_out;
    for (int j = 0; j < n_out; j++) {
        out->index[j] = j;
        out->value[j] = fast_tanh(sum[j] + bias[j]);
    }
}

/* The legal action of highest logit (in @ w + b over its column; the last layer's weights are
 * stored by column, so a column is contiguous), the first of equals. */
static int best_legal(const fr_layer_input *in, const double *w_by_column, const double *bias,
                      int n_in, const fr_game *g, int n_legal) {
    int best = 0;
    double best_logit = 0.0;
    for (int m = 0; m < n_legal; m++) {
        int action = g->legal[m];
        const double *column = w_by_column + (long)action * n_in;
        double sum = 0.0;
        for (int k = 0; k < in->n; k++) sum += in->value[k] * column[in->index[k]];
        double logit = sum + bias[action];
        if (m == 0 || logit > best_logit) {
            best = m;
            best_logit = logit;
        }
    }
    return g->legal[best];
}

int fr_policy_net_action(const fr_policy_net *net, const fr_game *g, int n_legal) {
    fr_layer_input a, b;
    fr_layer_input *in = &a, *out = &b;
    observation_input(g, in);
    const double *p = net->params;
    for (int l = 0; l < net->n_layers - 1; l++) {
        int n_in = net->sizes[l], n_out = net->sizes[l + 1];
        hidden_layer(in, p, p + (long)n_in * n_out, n_out, out);
        p += (long)n_in * n_out + n_out;
        fr_layer_input *swap = in;
        in = out;
        out = swap;
    }
    int n_in = net->sizes[net->n_layers - 1], n_out = net->sizes[net->n_layers];
    return best_legal(in, p, p + (long)n_in * n_out, n_in, g, n_legal);
}
