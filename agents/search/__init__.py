"""The search agent: determinized Monte-Carlo over engine clones, scored by a value model.

- ``agent`` — :class:`SearchAgent` and its heuristic rollouts;
- ``value`` — the value model (public features of a turn's start -> expected final score);
- ``value_fit`` — fits the model on heuristic games (``python -m friday_agents.search.value_fit``);
- ``value_weights.json`` — the weights fitted on heuristic games; ``value_weights_search.json``
  — refitted on the search's own games; ``value_per_level.json`` — which one each level uses
  by default (``value_levels`` reads these files); ``value_check`` compares value models.
- ``policy_net`` — the policy prior that prunes the candidates (``search:prior=net``), and
  ``policy_net_fit`` fits it on the search's own games (``policy_net.npz``).
"""

from friday_agents.search.agent import SearchAgent

__all__ = ["SearchAgent"]
