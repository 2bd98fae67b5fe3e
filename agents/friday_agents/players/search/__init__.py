"""The search agent: determinized Monte-Carlo over engine clones, scored by a value model.

- ``agent`` — [`SearchAgent`][friday_agents.players.search.agent.SearchAgent] and its heuristic
  rollouts;
- ``guided`` — the best fair agent: the search with the policy prior and per-level values;
- ``oracle`` — the search planning on the true hidden state (cheats: an upper bound);
- ``value_levels`` — loading a leaf value from a file, and one model per level;
- ``compiled`` — the same search run inside the compiled core.

`DEFAULT_SIMS` is the search's budget per decision wherever none is asked for (``friday
eval --search-sims`` takes its default from here).

The models it evaluates (linear value, value network, policy prior) are in
`friday_agents.players.networks`, their files named by role in
[`friday_agents.models`][friday_agents.models]; `friday_agents.learning.fitting` fits them.
"""

from friday_agents.players.search.agent import DEFAULT_SIMS, SearchAgent

__all__ = ["DEFAULT_SIMS", "SearchAgent"]
