"""Shared helpers for scripted-scenario tests: start a fight, act on cards by key, read piles;
and the agents' tests' tiny `friday rl` budget (the fixture `tiny_rl`).

Kept small on purpose: each helper is one line of intent, so a test reads like the rulebook
("draw a free card, use the vision, put the weak card on top, end the fight").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

from friday_env import Game
from friday_env import actions as act
from friday_env.cards import CARD_TYPES, KEY, Kind
from friday_env.core import available_cores
from friday_env.scenario import scenario

_PILES = ("robinson_stack", "robinson_discard", "hazard_discard")

#: Both cores as a parametrization: a test run on each (the compiled one skipped where it
#: is not built).
CORE_PARAMS = [
    pytest.param(
        "c",
        marks=pytest.mark.skipif("c" not in available_cores(), reason="compiled core not built"),
    ),
    "python",
]


def fight(hazard: str, **kwargs) -> Game:
    """A game in the fight against ``hazard`` (chosen over another hazard, R04).

    The hazard stack holds ``hazard``, the card it is chosen over (which goes to the hazard
    discard pile) and two more for the next turn, so after the fight the game waits at the
    next hazard choice in the same step. The three extra hazards are picked among cards the
    scenario does not use; ``kwargs`` go to :func:`friday_env.scenario.scenario`.
    """
    used = Counter([hazard] + [k for name in _PILES for k in kwargs.get(name, ())])
    extra = _unused_hazards(3, used)
    game = scenario(hazard_stack=[hazard, *extra], **kwargs)
    game.apply(act.CHOOSE_HAZARD_0)
    return game


def _unused_hazards(n: int, used: Counter) -> list[str]:
    spare = []
    for card_type in reversed(CARD_TYPES):  # cannibals first: rarely used in a test's deck
        if card_type.kind == Kind.HAZARD:
            spare += [card_type.key] * max(0, card_type.count - used[card_type.key])
    return spare[:n]


def play(game: Game, *actions: int) -> None:
    """Apply each action in turn (each must be legal)."""
    for a in actions:
        game.apply(a)


def slot(game: Game, key: str, nth: int = 0) -> int:
    """Table slot of the ``nth`` card with this key."""
    slots = [s for s, c in enumerate(game.table) if KEY[c] == key]
    assert len(slots) > nth, f"no {key!r} #{nth} on the table {table(game)}"
    return slots[nth]


def use(game: Game, key: str, nth: int = 0) -> None:
    """Use the ability of a table card."""
    game.apply(act.USE_0 + slot(game, key, nth))


def target(game: Game, key: str, nth: int = 0) -> None:
    """Choose a table card as the target of the ability being resolved."""
    game.apply(act.TARGET_0 + slot(game, key, nth))


def destroy(game: Game, key: str, nth: int = 0) -> None:
    """After a lost fight, destroy a table card with the points paid (R20)."""
    game.apply(act.DESTROY_0 + slot(game, key, nth))


def can_use(game: Game, key: str, nth: int = 0) -> bool:
    return act.USE_0 + slot(game, key, nth) in game.legal_actions()


def can_target(game: Game, key: str, nth: int = 0) -> bool:
    return act.TARGET_0 + slot(game, key, nth) in game.legal_actions()


def sort_index(game: Game, key: str) -> int:
    """Index of a card taken by "sort 3 cards" (for SORT_DISCARD_k / SORT_PLACE_k)."""
    keys = [KEY[c] for c in game.sort_taken]
    assert key in keys, f"{key!r} not among the sorted cards {keys}"
    return keys.index(key)


def keys(cards: Iterable[int]) -> list[str]:
    """Card keys in list order."""
    return [KEY[c] for c in cards]


def bag(cards: Iterable[int]) -> list[str]:
    """Card keys sorted: a pile compared as a multiset."""
    return sorted(KEY[c] for c in cards)


def top_first(game: Game) -> list[str]:
    """The Robinson stack, top card first."""
    return keys(reversed(game.stack))


def table(game: Game) -> list[str]:
    return keys(game.table)


#: ``friday rl`` on a tiny budget: 4 envs of 32 steps a rollout, an 8-8 network, 3 held-out
#: deals, an evaluation and a checkpoint every 2 rollouts.
TINY_RL = {
    "num_envs": 4,
    "num_steps": 32,
    "hidden": "8,8",
    "eval_deals": 3,
    "eval_every": 2,
    "checkpoint_every": 2,
    "minibatches": 2,
    "epochs": 2,
}


@pytest.fixture
def tiny_rl() -> Callable[..., Any]:
    """``tiny_rl(out, **changes)``: an ``RLConfig`` writing to ``out`` on the tiny budget
    (``TINY_RL``, 4 rollouts unless ``frames`` says), ``changes`` applied."""
    pytest.importorskip("torch")
    from friday_agents.learning.rl.config import RLConfig

    def make(out: Path, **changes: Any) -> RLConfig:
        return RLConfig(out=str(out), **{**TINY_RL, "frames": 4 * 4 * 32, **changes})

    return make
