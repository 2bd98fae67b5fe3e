"""The state of a game: its fields, table-slot flags, steps, level setup, seeded shuffles.

Representation. The state is a plain mutable object whose piles are lists of card ids
(``friday_env.cards``) with the top of a stack at the *end* of its list. pgx keeps its state
immutable, which suits JAX; in CPython a mutable object with a handful of short lists is
what makes ``clone()`` a few microseconds and a random action a few microseconds, which
search agents need (they clone thousands of times per decision). The rules still read as
one small method per rule.

Randomness. A game holds one integer seed. The k-th shuffle of the game uses a generator
seeded with ``(seed, k)``, so ``(setup, seed, actions)`` rebuilds any game exactly, a clone
carries its future without copying a generator object, and
[`friday_env.information.determinized`][friday_env.information.determinized] can give a search agent
a fresh seed and a resampled hidden order (R26).
"""

from __future__ import annotations

import random
from typing import Any, Self

import numpy as np

from friday_env.actions import Phase
from friday_env.cards import AGING_IDS, KEY, VERY_STUPID_ID, Ability, card_label

# Table slot flags.
LEFT = 1  # a free card, drawn on the left side of the hazard
USED = 2  # its ability has been used (turned 90 degrees)
DOWN = 4  # destroyed: face down, value 0, ability gone (R12)
DOUBLED = 8  # its value counts twice (R13)

GREEN, YELLOW, RED, PIRATES = 0, 1, 2, 3
STEP_NAMES = ("green", "yellow", "red", "pirates")
_GAME_OVER = Phase.GAME_OVER  # ``done`` runs after every decision: skip the Enum lookup


def level_life(level: int) -> int:
    """Robinson's starting life (R01, R24)."""
    return 18 if level == 4 else 20


def level_aging_cards(level: int) -> list[int]:
    """Aging cards in the game at this level: "very stupid" only on levels 3-4 (R24)."""
    return [c for c in AGING_IDS if level >= 3 or c != VERY_STUPID_ID]


def seed_from(seed: int | np.random.Generator) -> int:
    """A game seed from an int or a numpy ``Generator`` (which advances by one draw)."""
    if isinstance(seed, np.random.Generator):
        return int(seed.integers(0, 2**63 - 1))
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be an int or numpy Generator, not {type(seed).__name__}")
    if seed < 0:
        raise ValueError(f"seed must be non-negative, got {seed}")
    return int(seed)


class State:
    """The fields of a game and what needs no rule: copying, seeded shuffles, ``done``.
    [`Game`][friday_env.engine.game.Game] adds the rules."""

    """One game of Friday. Create with `new` or
    [`friday_env.scenario.scenario`][friday_env.scenario.scenario]."""

    # Everything a clone must copy; lists are copied, the rest is immutable.
    LIST_FIELDS = (
        "stack", "discard", "hazard_stack", "hazard_discard", "aging", "destroyed", "box",
        "pirates", "beaten", "offer", "table", "flags", "sort_taken", "unseen", "history",
        "spent",
    )  # fmt: skip

    def __init__(self) -> None:
        self.level = 1
        self.seed = 0
        self.shuffles = 0  # shuffles done so far: the k of the k-th shuffle's generator
        self.origin: dict[str, Any] = {}  # how the game was set up (for records)
        self.phase = Phase.CHOOSE_HAZARD
        self.step = GREEN
        self.life = 20
        self.reserve = 2
        self.aging_total = 10  # aging cards at the start (R23 "+2 per aging card")
        self.won = False
        """True once the game is won (both pirates beaten); a lost or unfinished game is False."""
        self.fights = 0  # fights finished
        # piles (top of a stack = end of its list)
        self.stack: list[int] = []
        self.discard: list[int] = []
        self.hazard_stack: list[int] = []
        self.hazard_discard: list[int] = []
        self.aging: list[int] = []
        self.destroyed: list[int] = []
        self.box: list[int] = []  # out of this game (unused pirates, "very stupid" on 1-2)
        self.pirates: list[int] = []  # undefeated pirates, face up (R22)
        self.beaten: list[int] = []  # defeated pirates
        self.offer: list[int] = []  # hazard cards drawn, waiting for the choice
        # the fight
        self.hazard = -1  # the hazard or pirate fought, -1 outside a fight
        self.pirate_value = 0  # a pirate's value, fixed when its fight starts
        self.free_total = 0
        self.free_used = 0
        self.step_down = 0  # uses of "step -1" in this fight (R15)
        self.table: list[int] = []
        self.spent: list[int] = []  # cards whose ability was used in this fight (D11)
        self.flags: list[int] = []
        # the ability being resolved
        self.source = -1  # table slot of the card whose ability is resolving
        self.resolving = Ability.NONE
        self.exchanges_left = 0
        self.sort_taken: list[int] = []
        self.sort_placed = 0  # sorted cards already put back on top
        self.budget = 0  # lost fight: destroy points left (R20)
        # what the player knows of the Robinson stack (R26)
        self.known_top = 0  # this many top cards are known in order
        self.unseen: list[int] = []  # aging cards in the stack whose identity is unseen
        self.history: list[int] = []

    def clone(self) -> Self:
        """An independent copy of the whole state, hidden order and future shuffles included."""
        cls = type(self)
        other = cls.__new__(cls)
        other.__dict__.update(self.__dict__)
        for name in self.LIST_FIELDS:
            setattr(other, name, getattr(self, name)[:])
        return other

    # ------------------------------------------------------------- randomness

    def shuffle(self, cards: list[int]) -> None:
        """Shuffle ``cards`` in place with the game's next seeded generator (the k-th shuffle
        of the game uses ``(seed, k)``): setups and resampling go through here too."""
        # A string key is hashed (SHA-512) into the generator's seed. An integer key such as
        # ``seed << 32 | k`` is not: Mersenne Twister adds each key word's index to it, so
        # seed 0's k-th shuffle equalled seed k-1's (seeds 0 and 1 dealt the same stack).
        random.Random(f"{self.seed}:{self.shuffles}").shuffle(cards)
        self.shuffles += 1

    def shuffled(self, cards: list[int]) -> list[int]:
        """A shuffled copy of ``cards`` (see `shuffle`)."""
        out = list(cards)
        self.shuffle(out)
        return out

    # ------------------------------------------------------------- public API

    @property
    def done(self) -> bool:
        """True once the game is over, won or lost: no action is legal any more."""
        return self.phase == _GAME_OVER

    @property
    def in_pirate_fight(self) -> bool:
        return self.step == PIRATES and self.hazard >= 0

    def __repr__(self) -> str:
        return (
            f"Game(level={self.level}, step={STEP_NAMES[self.step]}, life={self.life}, "
            f"phase={self.phase.name}, "
            f"hazard={card_label(self.hazard) if self.hazard >= 0 else None}, "
            f"table={[KEY[c] for c in self.table]})"
        )
