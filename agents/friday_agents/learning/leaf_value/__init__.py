"""The search's learned leaf value: labelled positions and the network fitted on them
(``friday value``).

- `friday_agents.learning.leaf_value.positions` — one deal's games and labelled positions;
- `friday_agents.learning.leaf_value.chunks` — the data set on disk, in chunks that resume;
- `friday_agents.learning.leaf_value.fit` — the network of the probability of winning
  (`friday_agents.players.networks.leaf_net`), early-stopped on validation positions.

The study that uses them: ``experiments/level4-value/PLAN.md``.
"""
