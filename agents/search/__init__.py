"""The search agent: determinized Monte-Carlo over engine clones, scored by a value model.

- ``agent`` — :class:`SearchAgent` and its heuristic rollouts;
- ``guided`` — the best fair agent: the search with the policy prior and per-level values;
- ``oracle`` — the search planning on the true hidden state (cheats: an upper bound);
- ``value`` — the value model (public features of a turn's start -> expected final score);
- ``value_fit`` — fits the model on heuristic games (``python -m friday_agents.search.value_fit``);
- ``value_weights.json`` — the weights fitted on heuristic games (``search``'s value);
  ``value_weights_search.json`` — refitted on the search's own games; ``value_cards.json`` —
  the ``cards`` feature set fitted on guided's and the search's games;
  ``value_per_level.json`` — which one each level uses under ``value=levels`` (``guided``;
  ``value_per_level_basic.json`` the choice before ``value_cards.json``; ``value_levels``
  reads these files); ``value_check`` compares value models;
- ``value_net`` / ``value_net_fit`` — a value network; ``mlp`` — the numpy tanh layers it
  shares with the policy network;
- ``policy_net`` — the policy prior that prunes the candidates (``search:prior=net``), and
  ``policy_net_fit`` fits it on the search's own games (``policy_net.npz``);
- ``ingredients`` and ``timing`` — paired comparisons of variants and their CPU time.
"""

from friday_agents.search.agent import SearchAgent

__all__ = ["SearchAgent"]
