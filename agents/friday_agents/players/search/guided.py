"""The strongest fair player: the search guided by what it learned from its own games.

[`GuidedSearchAgent`][friday_agents.players.search.guided.GuidedSearchAgent] is
[`SearchAgent`][friday_agents.players.search.agent.SearchAgent] with two learned ingredients,
each chosen by a pre-registered rule on the validation deals (the level-4 leaf study,
``experiments/level4-value/PLAN.md``, rules 2, 4 and 5):

- a **policy prior** (``prior="net"``, ``top=1``): the ``net`` agent's network proposes one
  action; only it and the heuristic's choice are tried, so the search referees between two
  candidates with all its worlds, and does not search at all where they agree. It replaced
  ``guided-prior`` (a network fitted on the search's own action values): a paired +4.05 points
  averaged over levels 1-4 on 500 validation deals per level, at 1.15x the CPU per game;
- a **leaf value per level** (``value="guided-value-leaf"``): on levels 1-3 the linear model
  on the ``cards`` features (the public summary plus a count of each card type Robinson holds
  and the pirates he faces), fitted on guided's and the search's own games
  (``guided-value-cards``); on level 4 a network of the probability of winning
  (``guided-leaf-level4``, fitted by ``friday value fit`` on 1.2 M level-4 positions), which
  replaced the linear model: a paired +18.2 points [12.8, 23.8] on 500 level-4 validation deals.

The defaults before that study stay one spec away: `BEFORE_LEAF_STUDY`
(``guided:prior=guided-prior:value=guided-value-per-level``) plays as ``guided`` did, and the
committed results measured with those defaults name it. Both ingredients read only the public
observation; ``search`` itself keeps its defaults, so every committed run of ``search`` replays
as it was measured.
"""

from __future__ import annotations

from friday_agents.players.search.agent import DEFAULT_SIMS, PIRATE_STEP, SearchAgent

#: ``guided`` as it was before the level-4 leaf study (its prior and value then), the spec that
#: names the configuration of every committed result measured before it.
BEFORE_LEAF_STUDY = "guided:prior=guided-prior:value=guided-value-per-level"


class GuidedSearchAgent(SearchAgent):
    """Search with a policy prior and per-level values (see the module docstring).

    ## Arguments

    The same as [`SearchAgent`][friday_agents.players.search.agent.SearchAgent], with other
    defaults: ``prior="net"`` and ``value="guided-value-leaf"`` (model roles,
    [`friday_agents.models`][friday_agents.models]). ``guided:prior=:top=...`` is not allowed
    (``top`` needs a prior); ``guided:value=`` gives back the heuristic-fitted value;
    `BEFORE_LEAF_STUDY` gives back the defaults before the level-4 leaf study.
    """

    name = "guided"

    def __init__(
        self,
        sims: int = DEFAULT_SIMS,
        value: str = "guided-value-leaf",
        horizon: int = 1,
        prior: str = "net",
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


def as_before_leaf_study(spec: str) -> str:
    """The explicit spec of ``spec`` as it played before the level-4 leaf study: a ``guided``
    spec gets the defaults of then (`BEFORE_LEAF_STUDY`) for the options it leaves out
    (``guided`` is ``guided:prior=guided-prior:value=guided-value-per-level``,
    ``guided:prior=net`` is ``guided:prior=net:value=guided-value-per-level``); any other
    spec is returned as it is. Results committed before the change name their agents so."""
    name, *options = spec.split(":")
    if name != GuidedSearchAgent.name:
        return spec
    given = {option.split("=", 1)[0] for option in options}
    before = BEFORE_LEAF_STUDY.split(":")[1:]
    return ":".join([name, *options, *(o for o in before if o.split("=", 1)[0] not in given)])
