/* A policy network's choice in C (policy_net.c), the twin of
 * friday_agents.players.networks.policy_net.PolicyPrior.best on the "flat" observation: what
 * plays the compiled search's rollouts when they are a network's (``rollout=``). */
#ifndef FRIDAY_POLICY_NET_H
#define FRIDAY_POLICY_NET_H

#include "friday.h"

#define FR_POLICY_NET_MAX_LAYERS 8
#define FR_POLICY_NET_MAX_WIDTH 1024
/* A tanh MLP from the flat observation (sizes[0] == FR_FLAT_SIZE) to one logit per action id
 * (sizes[n_layers] == FR_A_NUM_ACTIONS). params: per layer its weights and bias (sizes[l + 1]);
 * a hidden layer's weights by row (sizes[l] rows of sizes[l + 1]: numpy's w), the last
 * layer's by column (sizes[l + 1] rows of sizes[l]: numpy's w.T, so that an action's logit
 * reads contiguous weights); tanh after every layer but the last. */
typedef struct {
    int n_layers;
    int sizes[FR_POLICY_NET_MAX_LAYERS + 1];
    const double *params;
} fr_policy_net;

/* How many doubles params must hold for these sizes. */
long fr_policy_net_param_count(const fr_policy_net *net);
/* The legal action of g the network rates highest, ties to the earlier one in g->legal
 * (fr_legal(g) returned n_legal >= 1). */
int fr_policy_net_action(const fr_policy_net *net, const fr_game *g, int n_legal);

#endif
