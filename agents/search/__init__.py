"""The search agent: determinized Monte-Carlo over engine clones, scored by a value model.

- ``agent`` — :class:`SearchAgent` and its heuristic rollouts;
- ``value`` — the value model (public features of a turn's start -> expected final score);
- ``value_fit`` — fits the model on heuristic games (``python -m friday_agents.search.value_fit``);
- ``value_weights.json`` — the fitted weights the agent loads by default.
- ``policy_net`` — the policy prior that prunes the candidates (``search:prior=net``), and
  ``policy_net_fit`` fits it on the search's own games (``policy_net.npz``).
"""

from friday_agents.search.agent import SearchAgent

__all__ = ["SearchAgent"]
