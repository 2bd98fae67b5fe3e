"""The flat observation's layout: named pieces laid end to end, their bounds and meanings,
and the raw numbers every encoder shares.

Every encoder is built only from what [`friday_env.information`][friday_env.information] calls
public (R26). What is never encoded: the order of the Robinson stack below its known top cards,
which aging cards are the unseen ones (only their count and the pool they come from), the order
of the aging and hazard stacks, the seed and shuffle counter. Physical card ids never leak
either: every pile is encoded by card *type*.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from friday_env.actions import MAX_SLOTS, SORT_SIZE, Phase
from friday_env.cards import (
    CARD_TYPE,
    CARD_TYPES,
    FIGHTING_TYPES,
    NUM_CARDS,
    PIRATE_TYPES,
    Ability,
    Kind,
)
from friday_env.core import Game
from friday_env.engine import level_life
from friday_env.information import unseen_aging_count

# ----------------------------------------------------------------- card type index spaces

#: Fighting types by kind, as positions within ``FIGHTING_TYPES`` (starting 0-4, aging 5-13,
#: knowledge 14-37: contiguous, so a pile's counts over one kind are a slice).
_KIND_OF_FIGHTING = [CARD_TYPES[t].kind for t in FIGHTING_TYPES]
AGING_SLICE = slice(_KIND_OF_FIGHTING.index(Kind.AGING), _KIND_OF_FIGHTING.index(Kind.HAZARD))
HAZARD_SLICE = slice(_KIND_OF_FIGHTING.index(Kind.HAZARD), len(FIGHTING_TYPES))
NUM_FIGHTING = len(FIGHTING_TYPES)
NUM_AGING_TYPES = AGING_SLICE.stop - AGING_SLICE.start
NUM_HAZARD_TYPES = HAZARD_SLICE.stop - HAZARD_SLICE.start
NUM_PIRATE_TYPES = len(PIRATE_TYPES)

FIGHTING_POS = {t: i for i, t in enumerate(FIGHTING_TYPES)}
PIRATE_POS = {t: i for i, t in enumerate(PIRATE_TYPES)}

#: Card codes of the dict encoding: 0 = no card, then every non-step card type in
#: ``cards.CARD_TYPES`` order (fighting types 1-38, pirates 39-48).
CODE_OF_TYPE = {t: i + 1 for i, t in enumerate(FIGHTING_TYPES + PIRATE_TYPES)}
NUM_CODES = len(CODE_OF_TYPE) + 1
CARD_CODE = np.array([CODE_OF_TYPE[CARD_TYPE[c]] for c in range(NUM_CARDS)], dtype=np.int64)

#: Abilities in one-hot features: every ability but NONE.
FEATURE_ABILITIES: list[Ability] = [a for a in Ability if a != Ability.NONE]
#: Abilities that ask for a target, i.e. the ones a TARGET decision can be resolving.
TARGET_ABILITIES = (
    Ability.DESTROY,
    Ability.DOUBLE,
    Ability.COPY,
    Ability.EXCHANGE_1,
    Ability.EXCHANGE_2,
    Ability.BELOW,
)
FIGHTING_KINDS = (Kind.STARTING, Kind.AGING, Kind.HAZARD)

MAX_LIFE = max(level_life(level) for level in range(1, 5)) + 2  # all life tokens (R01)
MAX_FIGHTS = 50  # 15 turns per hazard step at most, plus two pirates
_RED_VALUES = sum(
    CARD_TYPES[t].count * CARD_TYPES[t].hazard_values[2] for t in FIGHTING_TYPES[HAZARD_SLICE]
)
#: The highest value to reach: the "all-hazards" pirate against every hazard (R23).
MAX_FIGHT_VALUE = max(_RED_VALUES, max(CARD_TYPES[t].hazard_values[0] for t in PIRATE_TYPES))
MAX_FREE = max(
    sum(CARD_TYPES[t].count * CARD_TYPES[t].free for t in FIGHTING_TYPES[HAZARD_SLICE]),
    max(CARD_TYPES[t].free for t in PIRATE_TYPES),
)
_POSITIVE = sum(CARD_TYPES[t].count * max(CARD_TYPES[t].value, 0) for t in FIGHTING_TYPES)
_NEGATIVE = sum(CARD_TYPES[t].count * min(CARD_TYPES[t].value, 0) for t in FIGHTING_TYPES)
#: Safe bounds of a fight total: every positive (negative) fighting card on the table and
#: doubled, plus one per card against the "plus-one" pirate (R23).
MAX_CARD_VALUE = max(CARD_TYPES[t].value for t in FIGHTING_TYPES)
MIN_CARD_VALUE = min(CARD_TYPES[t].value for t in FIGHTING_TYPES)
MAX_FIGHT_TOTAL = 2 * _POSITIVE + MAX_SLOTS
MIN_FIGHT_TOTAL = 2 * _NEGATIVE
NUM_AGING = sum(CARD_TYPES[t].count for t in FIGHTING_TYPES[AGING_SLICE])
NUM_HAZARDS = sum(CARD_TYPES[t].count for t in FIGHTING_TYPES[HAZARD_SLICE])


# --------------------------------------------------------------------------- the layout


@dataclass(frozen=True)
class Piece:
    """One named piece of the flat vector: ``size`` entries in ``[low, high]``, read as
    ``rows`` equal rows (one per table slot, card or offered hazard) when ``rows > 1``."""

    name: str
    size: int
    low: float
    high: float
    meaning: str
    rows: int = 1

    @property
    def shape(self) -> tuple[int, ...]:
        return (self.rows, self.size // self.rows) if self.rows > 1 else (self.size,)


@dataclass(frozen=True)
class Scalar:
    """A number of the flat vector, stored as ``raw / divisor``."""

    name: str
    divisor: float
    low: float
    high: float
    meaning: str


#: Scalars of the flat vector in order; raw values come from `_scalars`.
FLAT_SCALARS: tuple[Scalar, ...] = (
    Scalar("life", MAX_LIFE, 0, MAX_LIFE, "Robinson's life points"),
    Scalar("reserve", MAX_LIFE, 0, MAX_LIFE, "life points in the reserve"),
    Scalar("stack_count", MAX_SLOTS, 0, MAX_SLOTS, "cards in the Robinson stack"),
    Scalar("stack_unseen", NUM_AGING, 0, NUM_AGING, "unseen aging cards in the stack"),
    Scalar("known_top_count", 10, 0, MAX_SLOTS, "top stack cards whose order is known"),
    Scalar("discard_count", MAX_SLOTS, 0, MAX_SLOTS, "cards in the Robinson discard pile"),
    Scalar("destroyed_count", MAX_SLOTS, 0, MAX_SLOTS, "destroyed cards"),
    Scalar("aging_count", NUM_AGING, 0, NUM_AGING, "cards in the aging stack"),
    Scalar("hazard_stack_count", NUM_HAZARDS, 0, NUM_HAZARDS, "cards in the hazard stack"),
    Scalar("hazard_discard_count", NUM_HAZARDS, 0, NUM_HAZARDS, "hazard discard pile"),
    Scalar("fights", MAX_FIGHTS, 0, MAX_FIGHTS, "fights finished so far"),
    Scalar("beaten_pirates", 2, 0, 2, "pirates beaten"),
    Scalar("table_count", 20, 0, MAX_SLOTS, "cards on the table (all slots)"),
    Scalar("free_total", 10, 0, MAX_FREE, "free cards of the fight"),
    Scalar("free_left", 10, 0, MAX_FREE, "free draws left"),
    Scalar("step_down", 2, 0, 4, 'uses of "step -1" in this fight'),
    Scalar("fight_value", 20, 0, MAX_FIGHT_VALUE, "hazard value to reach (0 outside a fight)"),
    Scalar("fight_total", 20, MIN_FIGHT_TOTAL, MAX_FIGHT_TOTAL, "fighting points now (0 outside)"),
    Scalar("budget", MAX_LIFE, 0, MAX_LIFE, "lost fight: destroy points left"),
    Scalar("exchanges_left", 2, 0, 2, "2x exchange: exchanges left (TARGET only)"),
    Scalar("sort_placed", SORT_SIZE, 0, SORT_SIZE, "sort 3 cards: cards put back so far"),
    Scalar("overflow_count", 20, 0, MAX_SLOTS, "table cards beyond the encoded slots"),
    Scalar(
        "overflow_value",
        20,
        MIN_FIGHT_TOTAL,
        MAX_FIGHT_TOTAL,
        "their summed current values",
    ),
)

#: Table slots of the flat vector. A table can hold every fighting card (the action space
#: addresses all of them); the flat vector details the first ones and sums up the rest in
#: ``overflow_count``/``overflow_value`` (random play never exceeds 15 cards).
FLAT_TABLE_SLOTS = 20
#: Known top cards of the Robinson stack detailed in the flat vector (sort 3 puts back 3).
FLAT_KNOWN_TOP = SORT_SIZE

#: Per-card features (table, sort hand, known top): present, value / 5, kind one-hot
#: (starting, aging, knowledge), ability one-hot (every ability but none).
CARD_FEATURES = 1 + 1 + len(FIGHTING_KINDS) + len(FEATURE_ABILITIES)
#: Per-slot features of the table: the card features, then current value / 5 (after
#: doubling, destroying, "highest card = 0"), flags left/used/down/doubled, "is the source".
TABLE_FEATURES = CARD_FEATURES + 1 + 4 + 1
VALUE_SCALE = 5.0
_MIN_SLOT_VALUE = 2 * MIN_CARD_VALUE / VALUE_SCALE
_MAX_SLOT_VALUE = 2 * MAX_CARD_VALUE / VALUE_SCALE


def _one_hot(name: str, size: int, meaning: str, rows: int = 1) -> Piece:
    return Piece(name, size, 0.0, 1.0, meaning, rows)


def _shares(name: str, size: int, meaning: str) -> Piece:
    return Piece(name, size, 0.0, 1.0, f"{meaning}: count / copies of the type")


#: The piles counted by type, in layout order.
PILE_PIECES = (
    "stack_known",
    "discard",
    "destroyed",
    "hazard_discard",
    "hazard_stack",
    "unknown_aging",
)


def _flat_pieces() -> tuple[Piece, ...]:
    """The layout. Pieces rewritten at every encoding come first, then the table and the
    pile counts, which the encoder rewrites only when the table or pile changed."""
    scalars = [
        Piece(s.name, 1, s.low / s.divisor, s.high / s.divisor, f"{s.meaning} / {s.divisor:g}")
        for s in FLAT_SCALARS
    ]
    card_feature_bounds = (min(-1.0, MIN_CARD_VALUE / VALUE_SCALE), 1.0)
    return (
        _one_hot("level", 4, "level 1-4, one-hot"),
        _one_hot("step", 4, "green, yellow, red, pirates, one-hot"),
        _one_hot("phase", len(Phase), "pending decision (friday_env.Phase), one-hot"),
        *scalars,
        _one_hot("resolving", len(TARGET_ABILITIES), "TARGET: ability being resolved, one-hot"),
        _one_hot("fight_hazard", NUM_HAZARD_TYPES, "hazard fought, by knowledge type, one-hot"),
        _one_hot("fight_pirate", NUM_PIRATE_TYPES, "pirate fought, one-hot"),
        _one_hot("offer", 2 * NUM_HAZARD_TYPES, "the two hazards offered, one-hot each", rows=2),
        Piece("offer_values", 4, 0.0, 3.0, "per offered hazard: free cards / 5, value now / 5"),
        _one_hot(
            "pirates", 2 * NUM_PIRATE_TYPES, "undefeated pirates in order, one-hot each", rows=2
        ),
        Piece(
            "sort_hand",
            SORT_SIZE * CARD_FEATURES,
            *card_feature_bounds,
            "sort 3 cards: the taken cards, card features each",
            SORT_SIZE,
        ),
        Piece(
            "known_top",
            FLAT_KNOWN_TOP * CARD_FEATURES,
            *card_feature_bounds,
            "known top cards of the stack, top first, card features each",
            FLAT_KNOWN_TOP,
        ),
        Piece(
            "table",
            FLAT_TABLE_SLOTS * TABLE_FEATURES,
            min(card_feature_bounds[0], _MIN_SLOT_VALUE),
            max(1.0, _MAX_SLOT_VALUE),
            f"table slots 0-{FLAT_TABLE_SLOTS - 1}, table features each",
            FLAT_TABLE_SLOTS,
        ),
        _shares("stack_known", NUM_FIGHTING, "stack by type, unseen aging cards left out (R26)"),
        _shares("discard", NUM_FIGHTING, "Robinson discard pile by type"),
        _shares("destroyed", NUM_FIGHTING, "destroyed cards by type"),
        _shares("hazard_discard", NUM_HAZARD_TYPES, "hazard discard pile by type"),
        _shares("hazard_stack", NUM_HAZARD_TYPES, "hazard stack by type (order hidden)"),
        _shares("unknown_aging", NUM_AGING_TYPES, "aging stack + unseen aging cards, by type"),
    )


@dataclass(frozen=True)
class Layout:
    """Named pieces laid end to end; ``offsets[name]`` is where a piece starts."""

    pieces: tuple[Piece, ...]

    @property
    def size(self) -> int:
        return sum(p.size for p in self.pieces)

    @property
    def offsets(self) -> dict[str, int]:
        out, at = {}, 0
        for piece in self.pieces:
            out[piece.name] = at
            at += piece.size
        return out

    def slice(self, name: str) -> slice:
        start = self.offsets[name]
        return slice(start, start + self[name].size)

    def __getitem__(self, name: str) -> Piece:
        for piece in self.pieces:
            if piece.name == name:
                return piece
        raise KeyError(f"no piece {name!r} in the layout; pieces: {[p.name for p in self.pieces]}")

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        low = np.concatenate([np.full(p.size, p.low, np.float32) for p in self.pieces])
        high = np.concatenate([np.full(p.size, p.high, np.float32) for p in self.pieces])
        return low, high

    def names(self) -> list[str]:
        """A name for every entry, e.g. ``table[3].value`` (for inspecting a vector)."""
        names: list[str] = []
        for piece in self.pieces:
            names += _entry_names(piece)
        return names


FLAT_LAYOUT = Layout(_flat_pieces())
FLAT_SIZE = FLAT_LAYOUT.size


# ------------------------------------------------------------------ raw numbers


def fight_numbers(game: Game, values: list[int]) -> tuple[int, int]:
    """``(fight_total, fight_value)`` during a fight, ``(0, 0)`` outside one; ``values`` is
    ``game.card_values()``."""
    if game.hazard < 0:
        return 0, 0
    return game.fight_total(values), game.fight_value()


def scalar_values(game: Game, total: int, value: int, values: list[int]) -> list[float]:
    """Raw scalar values in `FLAT_SCALARS` order."""
    targeting = game.phase == Phase.TARGET
    fighting = game.hazard >= 0
    overflow = values[FLAT_TABLE_SLOTS:]
    return [
        game.life,
        game.reserve,
        len(game.stack),
        unseen_aging_count(game),
        game.known_top,
        len(game.discard),
        len(game.destroyed),
        len(game.aging),
        len(game.hazard_stack),
        len(game.hazard_discard),
        game.fights,
        len(game.beaten),
        len(game.table),
        game.free_total if fighting else 0,
        game.free_total - game.free_used if fighting else 0,
        game.step_down if fighting else 0,
        value,
        total,
        game.budget,
        game.exchanges_left if targeting else 0,
        game.sort_placed,
        len(overflow),
        sum(overflow),
    ]


# ------------------------------------------------------------------- entry names


def _entry_names(piece: Piece) -> list[str]:
    if piece.name in ("table", "sort_hand", "known_top"):
        per = TABLE_FEATURES if piece.name == "table" else CARD_FEATURES
        features = card_feature_names()[:per] + TABLE_EXTRA_FEATURES[: per - CARD_FEATURES]
        return [f"{piece.name}[{i}].{f}" for i in range(piece.rows) for f in features]
    if piece.size == 1:
        return [piece.name]
    return [f"{piece.name}[{i}]" for i in range(piece.size)]


TABLE_EXTRA_FEATURES = ["value_now", "left", "used", "down", "doubled", "source"]


def card_feature_names() -> list[str]:
    kinds = [f"kind={k.name.lower()}" for k in FIGHTING_KINDS]
    abilities = [f"ability={a.name.lower()}" for a in FEATURE_ABILITIES]
    return ["present", "value", *kinds, *abilities]
