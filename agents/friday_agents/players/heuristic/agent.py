"""A hand-written strategy for Friday: the rules of thumb a careful player follows.

Hazards: fight the more winnable hazard, weighing the knowledge card it gives. Fights: use
the abilities that cost nothing first (life, destroying bad cards, step -1), draw free cards
while behind, then sharpen the hand (sort, exchange, double, copy) and pay life for more cards
only when a one-card lookahead says it beats losing. Losing on purpose is part of the plan:
the life paid destroys aging cards first, then the worst others. The pirates must be won, so
there every card is paid for.

Every decision is a plain function of the public game state (R26) so that the search agent
can use them as its fast rollout policy;
[`HeuristicAgent`][friday_agents.players.heuristic.agent.HeuristicAgent] only wraps them. The
numbers live in [`HeuristicParams`][friday_agents.players.heuristic.agent.HeuristicParams]; they
were tuned by measuring win rate and score on a few hundred games per level (see ``friday eval``).
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache

from friday_agents.players.heuristic.fight import fight_action
from friday_agents.players.heuristic.rules import (
    DEFAULT_PARAMS,
    HeuristicParams,
    choose_hazard,
    choose_pirate,
    destroy_after_loss,
    last_hazard_action,
    sort_action,
    target_action,
)
from friday_env import Game
from friday_env import actions as act
from friday_env.actions import Phase
from friday_env.core import core_of

try:  # the agents' C kernels are built with the compiled core; without it every game is Python
    import friday_agents.players._kernels as _kernels
except ImportError:  # pragma: no cover - exercised only where the extensions are not built
    _kernels = None

__all__ = ["HeuristicAgent", "HeuristicParams", "heuristic_action", "python_heuristic_action"]


def heuristic_action(game: Game, params: HeuristicParams = DEFAULT_PARAMS) -> int:
    """The heuristic's action for the pending decision of ``game`` (public information only).
    A game on the compiled core is decided in C, with the same result."""
    if _kernels is not None and core_of(game) == "c":  # the C twin, heuristic.c beside this file
        action = _kernels.heuristic_action(game, _params_tuple(params))
        if action < 0:
            raise ValueError(_GAME_OVER)
        return action
    return python_heuristic_action(game, params)


_GAME_OVER = "heuristic_action: the game is over; there is no decision to make"


@lru_cache(maxsize=64)
def _params_tuple(params: HeuristicParams) -> tuple | None:
    """``params`` as the compiled heuristic takes them (None: the defaults)."""
    return None if params == DEFAULT_PARAMS else dataclasses.astuple(params)


def python_heuristic_action(game: Game, params: HeuristicParams = DEFAULT_PARAMS) -> int:
    """[`heuristic_action`][friday_agents.players.heuristic.agent.heuristic_action] in Python, on
    any game: the reference the C port follows."""
    legal = game.legal_actions()
    if len(legal) == 1:
        return legal[0]
    if not legal:
        raise ValueError(_GAME_OVER)
    phase = game.phase
    if phase == Phase.FIGHT:
        return fight_action(game, params)
    if phase == Phase.TARGET:
        return target_action(game)
    if phase == Phase.CHOOSE_HAZARD:
        return choose_hazard(game, params)
    if phase == Phase.LAST_HAZARD:
        return last_hazard_action(game, params)
    if phase == Phase.CHOOSE_PIRATE:
        return choose_pirate(game, params)
    if phase == Phase.LOSS_DESTROY:
        return destroy_after_loss(game)
    if phase == Phase.DRAW_MORE:
        behind = game.fight_total() < game.fight_value()
        return act.DRAW_ANOTHER if behind else act.STOP_DRAWING
    return sort_action(game)


class HeuristicAgent:
    """A hand-written strategy (see the module docstring).

    ## Description

    Deterministic given the public state: the same situation gets the same action. It is
    also the search agent's rollout policy.

    ## Arguments

    - ``params`` — a [`HeuristicParams`][friday_agents.players.heuristic.agent.HeuristicParams]
      (defaults are the tuned values).
    """

    name = "heuristic"

    def __init__(self, params: HeuristicParams | None = None) -> None:
        self.params = params or DEFAULT_PARAMS

    def reset(self, seed: int) -> None:
        """Nothing random to reseed: the strategy is deterministic."""

    def act(self, game: Game) -> int:
        return heuristic_action(game, self.params)
