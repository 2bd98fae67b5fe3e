"""Observation encoders: a :class:`~friday_env.engine.Game` turned into arrays for a policy.

Three encoders, all pure objects of a game (an agent can encode engine states without an
env) and all built only from what :mod:`friday_env.information` calls public (R26):

- :class:`FlatEncoder` (``"flat"``): one ``float32`` vector made of named pieces
  (:data:`FLAT_LAYOUT`), for ``MlpPolicy``;
- :class:`DictEncoder` (``"dict"``): the same situation as named integer arrays (counts per
  card type, the table as slot arrays), for structured policies and for reading;
- :class:`FlatMaskEncoder` (``"flat_mask"``): ``{"observation": flat, "action_mask": mask}``,
  the PettingZoo convention for policies that read the mask from the observation.

What is never encoded (R26): the order of the Robinson stack below its ``known_top`` cards,
which aging cards are the unseen ones (only their count and the pool they come from), the
order of the aging and hazard stacks, the seed and shuffle counter. Physical card ids never
leak either: every pile is encoded by card *type*.

Speed. ``env.step`` with the flat encoder has a steps-per-second target (1.5x Blackjack-v1),
and numpy calls on tiny arrays cost about a microsecond each, so the flat encoder makes
one: it keeps its last encoding in a preallocated ``array("f")``, packs the scalars with one
``struct`` call, sets one-hot entries one by one, rewrites only the table slots and type
counts that changed (from precomputed per-card rows and per-count shares), and copies the
numpy view of the array out.
"""

from __future__ import annotations

import copy
import operator
import struct
from array import array
from dataclasses import dataclass
from typing import Any

import numpy as np
from gymnasium import spaces

from friday_env.actions import MAX_SLOTS, NUM_ACTIONS, SORT_SIZE, Phase
from friday_env.cards import (
    ABILITY,
    CARD_TYPE,
    CARD_TYPES,
    FIGHTING_TYPES,
    FREE,
    HAZARD_VALUES,
    KIND,
    NUM_CARDS,
    PIRATE_TYPES,
    VALUE,
    Ability,
    Kind,
)
from friday_env.engine import DOUBLED, DOWN, LEFT, USED, Game, level_life

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

_FIGHTING_POS = {t: i for i, t in enumerate(FIGHTING_TYPES)}
_PIRATE_POS = {t: i for i, t in enumerate(PIRATE_TYPES)}

#: Card codes of the dict encoding: 0 = no card, then every non-step card type in
#: ``cards.CARD_TYPES`` order (fighting types 1-38, pirates 39-48).
CODE_OF_TYPE = {t: i + 1 for i, t in enumerate(FIGHTING_TYPES + PIRATE_TYPES)}
NUM_CODES = len(CODE_OF_TYPE) + 1
CARD_CODE = np.array([CODE_OF_TYPE[CARD_TYPE[c]] for c in range(NUM_CARDS)], dtype=np.int64)

#: Abilities in one-hot features: every ability but NONE.
_ABILITIES: list[Ability] = [a for a in Ability if a != Ability.NONE]
#: Abilities that ask for a target, i.e. the ones a TARGET decision can be resolving.
TARGET_ABILITIES = (
    Ability.DESTROY,
    Ability.DOUBLE,
    Ability.COPY,
    Ability.EXCHANGE_1,
    Ability.EXCHANGE_2,
    Ability.BELOW,
)
_FIGHTING_KINDS = (Kind.STARTING, Kind.AGING, Kind.HAZARD)

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
    """One named piece of the flat vector: ``size`` entries in ``[low, high]``."""

    name: str
    size: int
    low: float
    high: float
    meaning: str


@dataclass(frozen=True)
class Scalar:
    """A number of the flat vector, stored as ``raw / divisor``."""

    name: str
    divisor: float
    low: float
    high: float
    meaning: str


#: Scalars of the flat vector in order; raw values come from :func:`_scalars`.
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
CARD_FEATURES = 1 + 1 + len(_FIGHTING_KINDS) + len(_ABILITIES)
#: Per-slot features of the table: the card features, then current value / 5 (after
#: doubling, destroying, "highest card = 0"), flags left/used/down/doubled, "is the source".
TABLE_FEATURES = CARD_FEATURES + 1 + 4 + 1
_VALUE_SCALE = 5.0
_MIN_SLOT_VALUE = 2 * MIN_CARD_VALUE / _VALUE_SCALE
_MAX_SLOT_VALUE = 2 * MAX_CARD_VALUE / _VALUE_SCALE


def _one_hot(name: str, size: int, meaning: str) -> Piece:
    return Piece(name, size, 0.0, 1.0, meaning)


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
    card_feature_bounds = (min(-1.0, MIN_CARD_VALUE / _VALUE_SCALE), 1.0)
    return (
        _one_hot("level", 4, "level 1-4, one-hot"),
        _one_hot("step", 4, "green, yellow, red, pirates, one-hot"),
        _one_hot("phase", len(Phase), "pending decision (friday_env.Phase), one-hot"),
        *scalars,
        _one_hot("resolving", len(TARGET_ABILITIES), "TARGET: ability being resolved, one-hot"),
        _one_hot("fight_hazard", NUM_HAZARD_TYPES, "hazard fought, by knowledge type, one-hot"),
        _one_hot("fight_pirate", NUM_PIRATE_TYPES, "pirate fought, one-hot"),
        _one_hot("offer", 2 * NUM_HAZARD_TYPES, "the two hazards offered, one-hot each"),
        Piece("offer_values", 4, 0.0, 3.0, "per offered hazard: free cards / 5, value now / 5"),
        _one_hot("pirates", 2 * NUM_PIRATE_TYPES, "undefeated pirates in order, one-hot each"),
        Piece(
            "sort_hand",
            SORT_SIZE * CARD_FEATURES,
            *card_feature_bounds,
            "sort 3 cards: the taken cards, card features each",
        ),
        Piece(
            "known_top",
            FLAT_KNOWN_TOP * CARD_FEATURES,
            *card_feature_bounds,
            "known top cards of the stack, top first, card features each",
        ),
        Piece(
            "table",
            FLAT_TABLE_SLOTS * TABLE_FEATURES,
            min(card_feature_bounds[0], _MIN_SLOT_VALUE),
            max(1.0, _MAX_SLOT_VALUE),
            f"table slots 0-{FLAT_TABLE_SLOTS - 1}, table features each",
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


# ------------------------------------------------------------------ lookup tables


def _card_feature_rows() -> np.ndarray:
    """``rows[card]``: the card features of a physical card (zeros for non-fighting cards)."""
    rows = np.zeros((NUM_CARDS, CARD_FEATURES), np.float32)
    for card in range(NUM_CARDS):
        if KIND[card] not in _FIGHTING_KINDS:
            continue
        rows[card, 0] = 1.0
        rows[card, 1] = VALUE[card] / _VALUE_SCALE
        rows[card, 2 + _FIGHTING_KINDS.index(KIND[card])] = 1.0
        if ABILITY[card] != Ability.NONE:
            rows[card, 2 + len(_FIGHTING_KINDS) + _ABILITIES.index(ABILITY[card])] = 1.0
    return rows


def _flag_rows() -> np.ndarray:
    """``rows[flags]``: the four flag bits as floats (left, used, down, doubled)."""
    rows = np.zeros((16, 4), np.float32)
    for flags in range(16):
        rows[flags] = [bool(flags & bit) for bit in (LEFT, USED, DOWN, DOUBLED)]
    return rows


CARD_ROWS = _card_feature_rows()
FLAG_ROWS = _flag_rows()
#: ``SLOT_ROWS[card * 16 + flags]``: a table slot's card features and flags in one row.
SLOT_ROWS = np.concatenate(
    [
        np.repeat(CARD_ROWS, 16, axis=0),
        np.zeros((NUM_CARDS * 16, 1), np.float32),
        np.tile(FLAG_ROWS, (NUM_CARDS, 1)),
    ],
    axis=1,
)
_HAZARD_POS = [
    _FIGHTING_POS[CARD_TYPE[c]] - HAZARD_SLICE.start if KIND[c] == Kind.HAZARD else -1
    for c in range(NUM_CARDS)
]
_PIRATE_CARD_POS = [
    _PIRATE_POS[CARD_TYPE[c]] if KIND[c] == Kind.PIRATE else -1 for c in range(NUM_CARDS)
]


_OFF = FLAT_LAYOUT.offsets
_TARGET_PHASE = int(Phase.TARGET)
#: Flat indices of one-hot entries, by card (or ability): looked up, not computed, per step.
_OFFER_HOT = [
    [_OFF["offer"] + k * NUM_HAZARD_TYPES + max(_HAZARD_POS[c], 0) for c in range(NUM_CARDS)]
    for k in range(2)
]
_PIRATE_HOT = [
    [_OFF["pirates"] + k * NUM_PIRATE_TYPES + max(_PIRATE_CARD_POS[c], 0) for c in range(NUM_CARDS)]
    for k in range(2)
]
_FIGHT_HOT = [
    _OFF["fight_pirate"] + _PIRATE_CARD_POS[c]
    if KIND[c] == Kind.PIRATE
    else _OFF["fight_hazard"] + max(_HAZARD_POS[c], 0)
    for c in range(NUM_CARDS)
]
_RESOLVING_HOT = {a: _OFF["resolving"] + i for i, a in enumerate(TARGET_ABILITIES)}
_OFFER_VALUE_INDEX = [
    [_OFF["offer_values"] + 2 * k, _OFF["offer_values"] + 2 * k + 1] for k in range(2)
]


def _offer_values(step: int) -> list[list[float]]:
    """Per card: an offered hazard's free cards and value in ``step``, scaled (hazards only
    are ever offered)."""
    return [
        [FREE[c] / _VALUE_SCALE, HAZARD_VALUES[c][step] / _VALUE_SCALE]
        if KIND[c] == Kind.HAZARD
        else [0.0, 0.0]
        for c in range(NUM_CARDS)
    ]


#: ``_OFFER_VALUES[step][card]`` for the green, yellow and red steps.
_OFFER_VALUES = [_offer_values(step) for step in range(3)]


def _pile_index(types: slice) -> tuple[list[int], list[list[float]]]:
    """Per card: its position within the fighting types ``types`` (-1 for other cards); per
    position: the encoded share ``count / copies`` for every possible count (float32 values,
    so a cached and a fresh encoding are bit for bit equal)."""
    positions = [-1] * NUM_CARDS
    for card in range(NUM_CARDS):
        position = _FIGHTING_POS.get(CARD_TYPE[card], -1)
        if types.start <= position < types.stop:
            positions[card] = position - types.start
    shares = []
    for t in FIGHTING_TYPES[types]:
        copies = CARD_TYPES[t].count
        shares.append([float(np.float32(k) / np.float32(copies)) for k in range(copies + 1)])
    return positions, shares


_ROBINSON_INDEX = _pile_index(slice(0, NUM_FIGHTING))
_HAZARD_INDEX = _pile_index(HAZARD_SLICE)
_AGING_INDEX = _pile_index(AGING_SLICE)
#: Counted piles in :data:`PILE_PIECES` order: their card-position and share tables.
_PILE_INDEX = (
    _ROBINSON_INDEX,
    _ROBINSON_INDEX,
    _ROBINSON_INDEX,
    _HAZARD_INDEX,
    _HAZARD_INDEX,
    _AGING_INDEX,
)
#: The scalars are consecutive entries, packed as float32 in one call.
_SCALAR_BYTE = 4 * FLAT_LAYOUT.offsets[FLAT_SCALARS[0].name]
_SCALAR_STRUCT = struct.Struct(f"={len(FLAT_SCALARS)}f")
#: ``1 / divisor`` as float32 values: ``raw * scale`` (an int times a float32, exact in a
#: Python float) rounds to float32 once, as a float32 multiplication would.
_SCALAR_SCALES = [float(np.float32(1.0 / s.divisor)) for s in FLAT_SCALARS]
#: Where the table starts: the pieces before it are rewritten at every encoding.
_TABLE_START = FLAT_LAYOUT.offsets["table"]
_VOLATILE_ZEROS = array("f", bytes(4 * _TABLE_START))
_SLOT_ZEROS = array("f", bytes(4 * FLAT_TABLE_SLOTS * TABLE_FEATURES))
#: The rows above as ``array("f")``, copied into the encoding by slice assignment.
_CARD_ROW_ARRAYS = [array("f", row.tobytes()) for row in CARD_ROWS]
_SLOT_ROW_ARRAYS = [array("f", row.tobytes()) for row in SLOT_ROWS]


def fight_numbers(game: Game, values: list[int]) -> tuple[int, int]:
    """``(fight_total, fight_value)`` during a fight, ``(0, 0)`` outside one; ``values`` is
    ``game.card_values()``."""
    if game.hazard < 0:
        return 0, 0
    return game.fight_total(values), game.fight_value()


def _scalars(game: Game, total: int, value: int, values: list[int]) -> list[float]:
    """Raw scalar values in :data:`FLAT_SCALARS` order."""
    targeting = game.phase == Phase.TARGET
    fighting = game.hazard >= 0
    overflow = values[FLAT_TABLE_SLOTS:]
    return [
        game.life,
        game.reserve,
        len(game.stack),
        len(game.unseen),
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


def _pile_sources(game: Game) -> tuple[list[int], ...]:
    """The lists each counted pile depends on, in :data:`PILE_PIECES` order (the stack and
    the aging pool also depend on ``game.unseen``, compared separately)."""
    return (
        game.stack,
        game.discard,
        game.destroyed,
        game.hazard_discard,
        game.hazard_stack,
        game.aging,
    )


def _pile_cards(game: Game, pile: int) -> list[int]:
    """The cards counted in pile number ``pile`` of :data:`PILE_PIECES`."""
    if pile == 0:
        return [c for c in game.stack if c not in game.unseen] if game.unseen else game.stack
    if pile == 5:
        return game.aging + game.unseen
    return _pile_sources(game)[pile]


class FlatEncoder:
    """The flat ``float32`` observation (``observation="flat"``), laid out by
    :data:`FLAT_LAYOUT`. ``encode(game)`` returns a new array; ``encode_into(game, out)``
    fills a given one (e.g. a row of a batch).

    The encoder keeps its last encoding and rewrites only what changed: table slots whose
    card or flags changed, and type counts whose pile changed (a draw rewrites one slot and
    one count). Every cached entry is a pure function of what it was computed from, so any
    sequence of states, from any games, encodes exactly as a fresh encoder would.

    The encoding lives in an ``array.array("f")`` that a numpy array views: single entries
    and runs of entries (a card's row) are written by Python at a few tens of nanoseconds
    each, where a numpy call costs about a microsecond."""

    name = "flat"

    def __init__(self) -> None:
        low, high = FLAT_LAYOUT.bounds()
        self.space = spaces.Box(low=low, high=high, dtype=np.float32)
        self._entries = array("f", bytes(4 * FLAT_SIZE))
        self._view = np.frombuffer(self._entries, np.float32)
        off = FLAT_LAYOUT.offsets
        self._off = off
        self._slot_rows: list[int] = []  # card * 16 + flags of the encoded slots
        self._values: list[int] | None = []
        self._source = -1
        self._pile_offsets = [off[name] for name in PILE_PIECES]
        self._pile_lists: list[list[int] | None] = [None] * len(PILE_PIECES)
        self._unseen: list[int] | None = None
        self._counts = [[0] * len(shares) for _, shares in _PILE_INDEX]

    def __getstate__(self) -> dict[str, Any]:
        # the numpy view cannot travel: a copy of it would no longer see the array it views,
        # and the copy's encodings would stay what they were when it was made
        state = self.__dict__.copy()
        del state["_view"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._view = np.frombuffer(self._entries, np.float32)

    def __copy__(self) -> FlatEncoder:
        return copy.deepcopy(self)  # a shallow copy would share the array and the caches

    def encode(self, game: Game) -> np.ndarray:
        self._update(game)
        return self._view.copy()

    def encode_into(self, game: Game, out: np.ndarray) -> None:
        """Overwrite ``out`` (shape ``(FLAT_SIZE,)``, float32) with the encoding of ``game``."""
        self._update(game)
        out[:] = self._view

    def _update(self, game: Game) -> None:
        entries, off = self._entries, self._off
        entries[:_TABLE_START] = _VOLATILE_ZEROS
        values = game.card_values() if game.table else []
        total, value = fight_numbers(game, values)
        raw = _scalars(game, total, value, values)
        _SCALAR_STRUCT.pack_into(entries, _SCALAR_BYTE, *map(operator.mul, raw, _SCALAR_SCALES))
        for index in self._hot_entries(game):
            entries[index] = 1.0
        if game.offer:
            values_now = _OFFER_VALUES[min(game.step, 2)]
            for k, card in enumerate(game.offer):
                first, second = _OFFER_VALUE_INDEX[k]
                entries[first], entries[second] = values_now[card]
        self._cards(game.sort_taken, off["sort_hand"], SORT_SIZE)
        if game.known_top:
            top = game.stack[-1 : -1 - min(game.known_top, FLAT_KNOWN_TOP) : -1]
            self._cards(top, off["known_top"], FLAT_KNOWN_TOP)
        self._update_table(game, values)
        self._update_piles(game)

    def _hot_entries(self, game: Game) -> list[int]:
        """Indices of the one-hot entries that are 1 (from per-card tables, not computed)."""
        off = self._off
        hot = [off["level"] + game.level - 1, off["step"] + game.step, off["phase"] + game.phase]
        hot += [_OFFER_HOT[k][card] for k, card in enumerate(game.offer)]
        hot += [_PIRATE_HOT[k][card] for k, card in enumerate(game.pirates)]
        if game.phase == _TARGET_PHASE:
            hot.append(_RESOLVING_HOT[game.resolving])
        if game.hazard >= 0:
            hot.append(_FIGHT_HOT[game.hazard])
        return hot

    def _cards(self, cards: list[int], start: int, slots: int) -> None:
        entries = self._entries
        for card in cards[:slots]:
            entries[start : start + CARD_FEATURES] = _CARD_ROW_ARRAYS[card]
            start += CARD_FEATURES

    def _update_table(self, game: Game, values: list[int]) -> None:
        """Rewrite the slots whose card or flags changed, the value column if any value
        changed, and the source mark if it moved."""
        entries, table = self._entries, _TABLE_START
        n = min(len(game.table), FLAT_TABLE_SLOTS)
        rows = [
            card * 16 + flags for card, flags in zip(game.table[:n], game.flags[:n], strict=True)
        ]
        old = self._slot_rows
        if rows != old:
            for slot, row in enumerate(rows):
                if slot >= len(old) or old[slot] != row:
                    start = table + slot * TABLE_FEATURES
                    entries[start : start + TABLE_FEATURES - 1] = _SLOT_ROW_ARRAYS[row]
            if len(old) > n:
                entries[table + n * TABLE_FEATURES : table + len(old) * TABLE_FEATURES] = (
                    _SLOT_ZEROS[: (len(old) - n) * TABLE_FEATURES]
                )
            self._slot_rows = rows
            self._values = None  # the rows written carry a zero value column
            self._source = -1 if self._source >= n else self._source
        values = values[:n]
        if values != self._values:
            for slot, slot_value in enumerate(values):
                entries[table + slot * TABLE_FEATURES + CARD_FEATURES] = slot_value / _VALUE_SCALE
            self._values = values
        source = game.source if game.phase == Phase.TARGET and game.source < n else -1
        if source != self._source:
            if self._source >= 0:
                entries[table + self._source * TABLE_FEATURES + TABLE_FEATURES - 1] = 0.0
            if source >= 0:
                entries[table + source * TABLE_FEATURES + TABLE_FEATURES - 1] = 1.0
            self._source = source

    def _update_piles(self, game: Game) -> None:
        """Recount the piles whose cards changed; write only the counts that changed. A pile
        that lost cards from its end (a draw) or gained cards at its end (a discard) is
        updated by those cards alone."""
        unseen_changed = game.unseen != self._unseen
        if unseen_changed:
            self._unseen = list(game.unseen)
        for pile, cards in enumerate(_pile_sources(game)):
            old = self._pile_lists[pile]
            if cards == old and not (unseen_changed and pile in (0, 5)):
                continue
            self._pile_lists[pile] = list(cards)
            if old is None or (pile in (0, 5) and (game.unseen or unseen_changed)):
                self._recount(pile, _pile_cards(game, pile))
            elif len(cards) < len(old) and cards == old[: len(cards)]:
                self._adjust(pile, old[len(cards) :], -1)
            elif len(cards) > len(old) and cards[: len(old)] == old:
                self._adjust(pile, cards[len(old) :], 1)
            else:
                self._recount(pile, _pile_cards(game, pile))

    def _recount(self, pile: int, cards: list[int]) -> None:
        positions, shares = _PILE_INDEX[pile]
        counts = [0] * len(shares)
        for card in cards:
            counts[positions[card]] += 1
        entries, start, old = self._entries, self._pile_offsets[pile], self._counts[pile]
        for position, count in enumerate(counts):
            if count != old[position]:
                entries[start + position] = shares[position][count]
        self._counts[pile] = counts

    def _adjust(self, pile: int, cards: list[int], change: int) -> None:
        positions, shares = _PILE_INDEX[pile]
        entries, start, counts = self._entries, self._pile_offsets[pile], self._counts[pile]
        for card in cards:
            position = positions[card]
            counts[position] += change
            entries[start + position] = shares[position][counts[position]]


# ------------------------------------------------------------------ dict encoding


def _counts_space() -> spaces.Box:
    high = np.array([CARD_TYPES[t].count for t in FIGHTING_TYPES], np.int64)
    return spaces.Box(low=0, high=high, shape=(NUM_FIGHTING,), dtype=np.int64)


#: Integer scalars of the dict encoding (key ``"numbers"``), in order, with bounds.
DICT_NUMBERS: tuple[Scalar, ...] = tuple(
    Scalar(s.name, 1, s.low, s.high, s.meaning)
    for s in FLAT_SCALARS
    if not s.name.startswith("overflow")
)

#: Count vectors of the dict encoding: key -> meaning.
DICT_PILES = {
    "stack_known": "Robinson stack by type, unseen aging cards excluded (R26)",
    "discard": "Robinson discard pile by type",
    "destroyed": "destroyed cards by type",
    "hazard_discard": "hazard discard pile by type",
    "hazard_stack": "hazard stack by type (its order is hidden)",
    "unknown_aging": "aging stack + unseen aging cards in the stack, by type",
}


def _dict_space() -> spaces.Dict:
    numbers_low = np.array([s.low for s in DICT_NUMBERS], np.int64)
    numbers_high = np.array([s.high for s in DICT_NUMBERS], np.int64)
    slot_codes = spaces.MultiDiscrete(np.full(MAX_SLOTS, NUM_CODES, np.int64))
    return spaces.Dict(
        {
            "level": spaces.Discrete(4),
            "step": spaces.Discrete(4),
            "phase": spaces.Discrete(len(Phase)),
            "numbers": spaces.Box(numbers_low, numbers_high, dtype=np.int64),
            **{key: _counts_space() for key in DICT_PILES},
            "hazard": spaces.Discrete(NUM_CODES),
            "offer": spaces.MultiDiscrete([NUM_CODES, NUM_CODES]),
            "pirates": spaces.MultiDiscrete([NUM_CODES, NUM_CODES]),
            "beaten": spaces.MultiDiscrete([NUM_CODES, NUM_CODES]),
            "resolving": spaces.Discrete(len(Ability)),
            "source": spaces.Discrete(MAX_SLOTS + 1),
            "sort_hand": spaces.MultiDiscrete(np.full(SORT_SIZE, NUM_CODES, np.int64)),
            "known_top": slot_codes,
            "table_card": slot_codes,
            "table_left": spaces.MultiBinary(MAX_SLOTS),
            "table_used": spaces.MultiBinary(MAX_SLOTS),
            "table_down": spaces.MultiBinary(MAX_SLOTS),
            "table_doubled": spaces.MultiBinary(MAX_SLOTS),
            "table_value": spaces.Box(
                2 * MIN_CARD_VALUE, 2 * MAX_CARD_VALUE, (MAX_SLOTS,), np.int64
            ),
        }
    )


#: What each key of the dict encoding holds (README table).
DICT_KEYS = {
    "level": "level - 1",
    "step": "0 green, 1 yellow, 2 red, 3 pirates",
    "phase": "pending decision (friday_env.Phase)",
    "numbers": "integer scalars: " + ", ".join(s.name for s in DICT_NUMBERS),
    **{key: f"{meaning}, counts over cards.FIGHTING_TYPES" for key, meaning in DICT_PILES.items()},
    "hazard": "card code of the hazard or pirate fought (0 outside a fight)",
    "offer": "card codes of the hazards offered",
    "pirates": "card codes of the undefeated pirates, in choice order",
    "beaten": "card codes of the beaten pirates",
    "resolving": "TARGET: the ability being resolved (cards.Ability), else 0",
    "source": "TARGET: 1 + table slot of the card whose ability resolves, else 0",
    "sort_hand": "sort 3 cards: card codes of the taken cards",
    "known_top": "card codes of the known top stack cards, top first",
    "table_card": "card code per table slot (0 = empty)",
    "table_left": "per slot: drawn free (left side)",
    "table_used": "per slot: ability used",
    "table_down": "per slot: destroyed (face down)",
    "table_doubled": "per slot: value doubled",
    "table_value": "per slot: current value (doubling, destroying, highest = 0 applied)",
}


def _codes(cards: list[int], size: int) -> np.ndarray:
    out = np.zeros(size, np.int64)
    if cards:
        out[: len(cards)] = CARD_CODE[cards[:size]]
    return out


def _type_counts(cards: list[int]) -> np.ndarray:
    counts = np.zeros(NUM_FIGHTING, np.int64)
    for card in cards:
        counts[_FIGHTING_POS[CARD_TYPE[card]]] += 1
    return counts


class DictEncoder:
    """The structured observation (``observation="dict"``): named integer arrays, card
    codes per :data:`CODE_OF_TYPE` (0 = no card). Keys and meanings: :data:`DICT_KEYS`."""

    name = "dict"

    def __init__(self) -> None:
        self.space = _dict_space()

    def encode(self, game: Game) -> dict[str, Any]:
        values = game.card_values() if game.table else []
        total, value = fight_numbers(game, values)
        numbers = _scalars(game, total, value, values)[: len(DICT_NUMBERS)]
        targeting = game.phase == Phase.TARGET
        unseen = set(game.unseen)
        obs: dict[str, Any] = {
            "level": np.int64(game.level - 1),
            "step": np.int64(game.step),
            "phase": np.int64(game.phase),
            "numbers": np.array(numbers, np.int64),
            "stack_known": _type_counts([c for c in game.stack if c not in unseen]),
            "discard": _type_counts(game.discard),
            "destroyed": _type_counts(game.destroyed),
            "hazard_discard": _type_counts(game.hazard_discard),
            "hazard_stack": _type_counts(game.hazard_stack),
            "unknown_aging": _type_counts(game.aging + game.unseen),
            "hazard": np.int64(CARD_CODE[game.hazard] if game.hazard >= 0 else 0),
            "offer": _codes(game.offer, 2),
            "pirates": _codes(game.pirates, 2),
            "beaten": _codes(game.beaten, 2),
            "resolving": np.int64(game.resolving if targeting else 0),
            "source": np.int64(game.source + 1 if targeting else 0),
            "sort_hand": _codes(game.sort_taken, SORT_SIZE),
            "known_top": _codes(game.stack[::-1][: game.known_top], MAX_SLOTS),
            "table_card": _codes(game.table, MAX_SLOTS),
        }
        flags = np.zeros(MAX_SLOTS, np.int64)
        flags[: len(game.flags)] = game.flags
        for key, bit in (("left", LEFT), ("used", USED), ("down", DOWN), ("doubled", DOUBLED)):
            obs[f"table_{key}"] = ((flags & bit) != 0).astype(np.int8)
        table_value = np.zeros(MAX_SLOTS, np.int64)
        table_value[: len(values)] = values
        obs["table_value"] = table_value
        return obs


# ------------------------------------------------------------- flat + mask encoding


def action_mask(game: Game, dtype: type = np.int8) -> np.ndarray:
    """The legal actions of ``game`` as a ``NUM_ACTIONS`` 0/1 mask, ``int8`` by default as
    everywhere in the env (all zero once the game is over)."""
    # set bytes of a bytearray, then view them: half the time of numpy fancy indexing
    flags = bytearray(NUM_ACTIONS)
    for action in game.legal_actions():
        flags[action] = 1
    if np.dtype(dtype).itemsize == 1:
        return np.frombuffer(flags, dtype)
    return np.frombuffer(flags, np.uint8).astype(dtype)


class FlatMaskEncoder:
    """``{"observation": flat vector, "action_mask": int8 mask}`` (``observation="flat_mask"``),
    the PettingZoo convention, for policies that take the mask from the observation."""

    name = "flat_mask"

    def __init__(self) -> None:
        self.flat = FlatEncoder()
        self.space = spaces.Dict(
            {
                "observation": self.flat.space,
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            }
        )

    def encode(self, game: Game) -> dict[str, np.ndarray]:
        return {"observation": self.flat.encode(game), "action_mask": action_mask(game, np.int8)}


Encoder = FlatEncoder | DictEncoder | FlatMaskEncoder
ENCODERS: dict[str, type[Encoder]] = {
    "flat": FlatEncoder,
    "dict": DictEncoder,
    "flat_mask": FlatMaskEncoder,
}


def make_encoder(name: str) -> Encoder:
    """The encoder called ``name`` (see :data:`ENCODERS`)."""
    if name not in ENCODERS:
        raise ValueError(f"unknown observation encoder {name!r}; choose one of {sorted(ENCODERS)}")
    return ENCODERS[name]()


# ------------------------------------------------------------------- entry names


def _entry_names(piece: Piece) -> list[str]:
    if piece.name in ("table", "sort_hand", "known_top"):
        per = TABLE_FEATURES if piece.name == "table" else CARD_FEATURES
        features = card_feature_names()[:per] + TABLE_EXTRA_FEATURES[: per - CARD_FEATURES]
        return [f"{piece.name}[{i}].{f}" for i in range(piece.size // per) for f in features]
    if piece.size == 1:
        return [piece.name]
    return [f"{piece.name}[{i}]" for i in range(piece.size)]


TABLE_EXTRA_FEATURES = ["value_now", "left", "used", "down", "doubled", "source"]


def card_feature_names() -> list[str]:
    kinds = [f"kind={k.name.lower()}" for k in _FIGHTING_KINDS]
    abilities = [f"ability={a.name.lower()}" for a in _ABILITIES]
    return ["present", "value", *kinds, *abilities]
