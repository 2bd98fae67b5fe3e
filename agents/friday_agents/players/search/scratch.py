"""``scratch-search``: the search learned with no teacher, and ``scratch-distilled``'s network.

[`ScratchSearchAgent`][friday_agents.players.search.scratch.ScratchSearchAgent] is
[`SearchAgent`][friday_agents.players.search.agent.SearchAgent] with only ingredients learned
from nothing (``experiments/no-teacher/PLAN.md``, stage 6 and amendments 3-4), chosen on
validation deals and copied into the models folder by
``experiments/no-teacher/register_search.py``:

- its **prior, anchor and rollout policy** are one network (`PRIOR_ROLE`, the network of
  ``scratch-distilled``: ``scratch``'s network after three rounds of expert iteration on this
  search's own labels): the candidates are the network's two best actions, its best wins ties,
  and its best action plays the rollouts;
- its **leaf value** (``scratch-search-value``) is one network per level of the probability of
  winning, fitted on ``scratch``'s own games;
- its **margin** (`MARGIN`): another candidate is played instead of the network's best only
  where its mean leaf value is ahead by more than 0.1 (a win probability). Without it (margin
  0) the same search lost to its own prior: the rollouts' noise picked the second action too
  often (the study's diagnosis).

No decision reads the heuristic, and no model it loads was made with one
(``tests/agents/test_no_teacher.py``). It takes ``sims``, ``top`` and ``margin``; the rest is
what makes it teacher-free.
"""

from __future__ import annotations

from typing import ClassVar

from friday_agents.players.search.agent import DEFAULT_SIMS, SearchAgent

#: The network that is the search's prior, anchor and rollout policy (a model role).
PRIOR_ROLE = "scratch-distilled"
#: The per-level leaf value (a model role).
VALUE_ROLE = "scratch-search-value"
#: How many of the prior's best actions are candidates.
TOP = 2
#: How far another candidate's mean leaf value must be ahead of the prior's best.
MARGIN = 0.1


class ScratchSearchAgent(SearchAgent):
    """The search with only ingredients learned from nothing (see the module docstring).

    ## Arguments

    - ``sims`` — simulations per decision (default `DEFAULT_SIMS`).
    - ``top`` — how many of the prior's best actions are candidates (default `TOP`, at least 2).
    - ``margin`` — how far another candidate's mean leaf value must exceed the prior's best
      (default `MARGIN`).
    """

    name = "scratch-search"
    #: The models it loads, by option and role (its resolved spec's: they are not options).
    fixed_models: ClassVar[dict[str, str]] = {
        "prior": PRIOR_ROLE,
        "value": VALUE_ROLE,
        "rollout": PRIOR_ROLE,
    }

    def __init__(self, sims: int = DEFAULT_SIMS, top: int = TOP, margin: float = MARGIN) -> None:
        super().__init__(
            sims=sims,
            value=VALUE_ROLE,
            prior=PRIOR_ROLE,
            top=top,
            rollout=PRIOR_ROLE,
            anchor="prior",
            margin=margin,
        )
