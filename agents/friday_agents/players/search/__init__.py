"""The search agent: determinized Monte-Carlo over engine clones, scored by a value model.

- ``agent`` — [`SearchAgent`][friday_agents.players.search.agent.SearchAgent] and its heuristic
  rollouts;
- ``guided`` — the best fair agent: the search with the policy prior and per-level values;
- ``oracle`` — the search planning on the true hidden state (cheats: an upper bound);
- ``value`` — the linear value model (public features of a turn's start -> expected final
  score); ``value_levels`` — loading a value file, and one model per level (``value=levels``);
- ``value_net`` — a value network; ``mlp`` — the numpy tanh layers it shares with the policy
  network;
- ``policy_net`` — the policy prior that prunes the candidates (``search:prior=net``).

The model files they load are in [`friday_agents.models`][friday_agents.models]
(``agents/friday_agents/models/``, with a manifest); `friday_agents.learning.fitting` fits them.
"""

from friday_agents.players.search.agent import SearchAgent

__all__ = ["SearchAgent"]
