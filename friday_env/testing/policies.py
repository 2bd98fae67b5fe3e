"""Seeded policies that play an engine game: the one random policy of the project, and a
simple greedy player that gets further (soak runs, tests, golden playthroughs, the agents'
random baseline).

A policy is a function ``game -> action`` made by a factory from a ``random.Random``; the
same rng state gives the same actions.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from friday_env.actions import Phase
from friday_env.actions import codec as act
from friday_env.cards import HAZARD_VALUES, SCORE_VALUE
from friday_env.core import Game
from friday_env.engine import PIRATES
from friday_env.random_choice import random_action

__all__ = ["Policy", "greedy_policy", "random_action", "random_policy"]

Policy = Callable[[Game], int]


def random_policy(rng: random.Random) -> Policy:
    """Uniformly random among the legal actions."""

    def choose(game: Game) -> int:
        return random_action(game, rng)

    return choose


def greedy_policy(rng: random.Random) -> Policy:
    """A simple player that gets further than random play: it fights the lower hazard,
    draws free cards, uses abilities, pays for cards only when close, ends a fight as soon
    as it is won, and destroys its worst cards after a loss. Ties are broken with ``rng``."""

    def choose(game: Game) -> int:
        legal = game.legal_actions()
        phase = game.phase
        if phase == Phase.CHOOSE_HAZARD:
            values = [HAZARD_VALUES[h][game.step] for h in game.offer]
            return act.CHOOSE_HAZARD_0 if values[0] <= values[1] else act.CHOOSE_HAZARD_1
        if phase == Phase.FIGHT:
            return _greedy_fight(game, legal, rng)
        if phase == Phase.LOSS_DESTROY and len(legal) > 1:
            destroys = [a for a in legal if a != act.FINISH_DESTROYING]
            return min(destroys, key=lambda a: SCORE_VALUE[game.table[a - act.DESTROY_0]])
        return rng.choice(legal)

    return choose


def _greedy_fight(game: Game, legal: list[int], rng: random.Random) -> int:
    if act.END_FIGHT in legal and game.fight_total() >= game.fight_value():
        return act.END_FIGHT
    if act.DRAW_FREE in legal:
        return act.DRAW_FREE
    uses = [a for a in legal if a >= act.USE_0]
    if uses:
        return rng.choice(uses)
    deficit = game.fight_value() - game.fight_total()
    close = deficit <= 2 and game.life > 10
    if act.DRAW_PAID in legal and (game.step == PIRATES or close):
        return act.DRAW_PAID
    if act.END_FIGHT in legal:
        return act.END_FIGHT
    return rng.choice(legal)


POLICIES: dict[str, Callable[[random.Random], Policy]] = {
    "random": random_policy,
    "greedy": greedy_policy,
}
