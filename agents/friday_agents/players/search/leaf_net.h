/* The learned leaf value's forward pass in C (leaf_net.c), the twin of
 * friday_agents.players.networks.leaf_net.LeafNetwork.win_probability. */
#ifndef FRIDAY_LEAF_NET_H
#define FRIDAY_LEAF_NET_H

#define FR_LEAF_NET_MAX_LAYERS 4
#define FR_LEAF_NET_MAX_WIDTH 512
/* A tanh MLP whose one output is the logit of winning. Its inputs: the leaf feature row but its
 * first column (the bias), then a one-hot level (n_levels) and step (n_steps), standardised by
 * centre and scale. params: centre, scale (sizes[0] each), then per layer its weights (sizes[l]
 * rows of sizes[l + 1], row-major) and bias (sizes[l + 1]); tanh after every layer but the last. */
typedef struct {
    int n_layers;
    int sizes[FR_LEAF_NET_MAX_LAYERS + 1];
    int n_levels, n_steps;
    const double *params;
} fr_leaf_net;

/* How many doubles params must hold for these sizes. */
long fr_leaf_net_param_count(const fr_leaf_net *net);
/* The probability of winning of a turn start whose feature row is row (row_size numbers), at
 * level (1-based) and step (0-based). */
double fr_leaf_net_value(const fr_leaf_net *net, const double *row, int row_size, int level,
                         int step);

#endif
