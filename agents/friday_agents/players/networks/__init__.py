"""The learned models the players evaluate, in numpy (no torch needed to play).

- ``linear_value`` — the linear value model (public features of a turn's start -> expected
  final score), the search's default leaf value;
- ``value_net`` — a value network (the same job, one small MLP);
- ``policy_net`` — a policy network: the search's prior, and the ``net`` agent's whole
  policy (``PolicyNetwork``, ``PolicyPrior``);
- ``layers`` — the numpy tanh layers both networks share.

The files they load are named by role in [`friday_agents.models`][friday_agents.models];
`friday_agents.learning` fits them (torch builders in
[`friday_agents.learning.networks`][friday_agents.learning.networks]).
"""
