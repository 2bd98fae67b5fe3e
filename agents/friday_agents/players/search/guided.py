"""The strongest fair player: the search guided by what it learned from its own games.

[`GuidedSearchAgent`][friday_agents.players.search.guided.GuidedSearchAgent] is
[`SearchAgent`][friday_agents.players.search.agent.SearchAgent] with the two learned ingredients
that measured best on the evaluation deals (the search study,
``experiments/search-strength/REPORT.md``):

- a **policy prior** (``prior="guided-prior"``, ``top=1``): a small network fitted on the
  search's own action values proposes one action; only it and the heuristic's choice are
  tried, so the search referees between two candidates with all its worlds, and does not
  search at all where they agree;
- a **leaf value per level** (``value="guided-value-per-level"``), chosen on the
  validation deals: on levels 1-3 the linear model on the ``cards`` features (the public
  summary plus a count of each card type Robinson holds and the pirates he faces), fitted on
  guided's and the search's own games (``guided-value-cards``); on level 4 the basic linear
  model refitted on the search's games (``guided-value-level4``). The choice before the
  ``cards`` model is ``guided_value_per_level_basic.json``.

Both read only the public observation; ``search`` itself keeps its defaults, so every
committed run of ``search`` replays as it was measured.
"""

from __future__ import annotations

from friday_agents.players.search.agent import DEFAULT_SIMS, PIRATE_STEP, SearchAgent


class GuidedSearchAgent(SearchAgent):
    """Search with a policy prior and per-level values (see the module docstring).

    ## Arguments

    The same as [`SearchAgent`][friday_agents.players.search.agent.SearchAgent], with other
    defaults: ``prior="guided-prior"`` and ``value="guided-value-per-level"`` (model roles,
    [`friday_agents.models`][friday_agents.models]). ``guided:prior=:top=...`` is not allowed
    (``top`` needs a prior); ``guided:value=`` gives back the heuristic-fitted value.
    """

    name = "guided"

    def __init__(
        self,
        sims: int = DEFAULT_SIMS,
        value: str = "guided-value-per-level",
        horizon: int = 1,
        prior: str = "guided-prior",
        top: int | None = None,
        rollout: str = "",
        finish: int = PIRATE_STEP,
    ) -> None:
        super().__init__(
            sims=sims,
            value=value,
            horizon=horizon,
            prior=prior,
            top=top,
            rollout=rollout,
            finish=finish,
        )
