"""The flat observation (``observation="flat"``): one ``float32`` vector laid out by
`FLAT_LAYOUT`, for ``MlpPolicy``.

Speed. ``env.step`` with the flat encoder has a steps-per-second target (1.5x Blackjack-v1),
and numpy calls on tiny arrays cost about a microsecond each, so the flat encoder makes
one: it keeps its last encoding in a preallocated ``array("f")``, packs the scalars with one
``struct`` call, sets one-hot entries one by one, rewrites only the table slots and type
counts that changed (from precomputed per-card rows and per-count shares), and copies the
numpy view of the array out.

Compiled games (``core="c"``) are encoded by the compiled core in one call
(``_compiled.encode_flat``), into the same vector bit for bit; the cache above then stays
untouched, as it describes only the Python games encoded last.
"""

from __future__ import annotations

import copy
import operator
import struct
from array import array
from typing import Any

import numpy as np
from gymnasium import spaces

from friday_env.actions import SORT_SIZE, Phase
from friday_env.cards import (
    ABILITY,
    CARD_TYPE,
    CARD_TYPES,
    FIGHTING_TYPES,
    FREE,
    HAZARD_VALUES,
    KIND,
    NUM_CARDS,
    VALUE,
    Ability,
    Kind,
)
from friday_env.core import COMPILED_CLASSES, Game, encode_flat
from friday_env.engine import DOUBLED, DOWN, LEFT, USED
from friday_env.information import known_top_cards, stack_known_cards, unknown_aging_pool
from friday_env.observation.layout import (
    AGING_SLICE,
    CARD_FEATURES,
    FEATURE_ABILITIES,
    FIGHTING_KINDS,
    FIGHTING_POS,
    FLAT_KNOWN_TOP,
    FLAT_LAYOUT,
    FLAT_SCALARS,
    FLAT_SIZE,
    FLAT_TABLE_SLOTS,
    HAZARD_SLICE,
    NUM_FIGHTING,
    NUM_HAZARD_TYPES,
    NUM_PIRATE_TYPES,
    PILE_PIECES,
    PIRATE_POS,
    TABLE_FEATURES,
    TARGET_ABILITIES,
    VALUE_SCALE,
    fight_numbers,
    scalar_values,
)
from friday_env.observation.registry import register_encoder
from friday_env.observation.shared_spaces import built_once

# ------------------------------------------------------------------ lookup tables


def _card_feature_rows() -> np.ndarray:
    """``rows[card]``: the card features of a physical card (zeros for non-fighting cards)."""
    rows = np.zeros((NUM_CARDS, CARD_FEATURES), np.float32)
    for card in range(NUM_CARDS):
        if KIND[card] not in FIGHTING_KINDS:
            continue
        rows[card, 0] = 1.0
        rows[card, 1] = VALUE[card] / VALUE_SCALE
        rows[card, 2 + FIGHTING_KINDS.index(KIND[card])] = 1.0
        if ABILITY[card] != Ability.NONE:
            rows[card, 2 + len(FIGHTING_KINDS) + FEATURE_ABILITIES.index(ABILITY[card])] = 1.0
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
    FIGHTING_POS[CARD_TYPE[c]] - HAZARD_SLICE.start if KIND[c] == Kind.HAZARD else -1
    for c in range(NUM_CARDS)
]
_PIRATE_CARD_POS = [
    PIRATE_POS[CARD_TYPE[c]] if KIND[c] == Kind.PIRATE else -1 for c in range(NUM_CARDS)
]


_OFF = FLAT_LAYOUT.offsets
#: ``np.empty`` takes a dtype object faster than a type (one encoding per env step).
_FLOAT32 = np.dtype(np.float32)
_TARGET_PHASE = int(Phase.TARGET)
#: Flat indices of one-hot entries, by card (or ability): looked up, not computed, per step.
OFFER_HOT = [
    [_OFF["offer"] + k * NUM_HAZARD_TYPES + max(_HAZARD_POS[c], 0) for c in range(NUM_CARDS)]
    for k in range(2)
]
PIRATE_HOT = [
    [_OFF["pirates"] + k * NUM_PIRATE_TYPES + max(_PIRATE_CARD_POS[c], 0) for c in range(NUM_CARDS)]
    for k in range(2)
]
FIGHT_HOT = [
    _OFF["fight_pirate"] + _PIRATE_CARD_POS[c]
    if KIND[c] == Kind.PIRATE
    else _OFF["fight_hazard"] + max(_HAZARD_POS[c], 0)
    for c in range(NUM_CARDS)
]
RESOLVING_HOT = {a: _OFF["resolving"] + i for i, a in enumerate(TARGET_ABILITIES)}
_OFFER_VALUE_INDEX = [
    [_OFF["offer_values"] + 2 * k, _OFF["offer_values"] + 2 * k + 1] for k in range(2)
]


def _offer_values(step: int) -> list[list[float]]:
    """Per card: an offered hazard's free cards and value in ``step``, scaled (hazards only
    are ever offered)."""
    return [
        [FREE[c] / VALUE_SCALE, HAZARD_VALUES[c][step] / VALUE_SCALE]
        if KIND[c] == Kind.HAZARD
        else [0.0, 0.0]
        for c in range(NUM_CARDS)
    ]


#: ``OFFER_VALUES[step][card]`` for the green, yellow and red steps.
OFFER_VALUES = [_offer_values(step) for step in range(3)]


def _pile_index(types: slice) -> tuple[list[int], list[list[float]]]:
    """Per card: its position within the fighting types ``types`` (-1 for other cards); per
    position: the encoded share ``count / copies`` for every possible count (float32 values,
    so a cached and a fresh encoding are bit for bit equal)."""
    positions = [-1] * NUM_CARDS
    for card in range(NUM_CARDS):
        position = FIGHTING_POS.get(CARD_TYPE[card], -1)
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
#: Counted piles in `PILE_PIECES` order: their card-position and share tables.
PILE_INDEX = (
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
SCALAR_SCALES = [float(np.float32(1.0 / s.divisor)) for s in FLAT_SCALARS]
#: Where the table starts: the pieces before it are rewritten at every encoding.
_TABLE_START = FLAT_LAYOUT.offsets["table"]
_VOLATILE_ZEROS = array("f", bytes(4 * _TABLE_START))
_SLOT_ZEROS = array("f", bytes(4 * FLAT_TABLE_SLOTS * TABLE_FEATURES))
#: The rows above as ``array("f")``, copied into the encoding by slice assignment.
_CARD_ROW_ARRAYS = [array("f", row.tobytes()) for row in CARD_ROWS]
_SLOT_ROW_ARRAYS = [array("f", row.tobytes()) for row in SLOT_ROWS]


def _pile_sources(game: Game) -> tuple[list[int], ...]:
    """The lists each counted pile depends on, in `PILE_PIECES` order (the stack and
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
    """The cards counted in pile number ``pile`` of `PILE_PIECES`."""
    if pile == 0:
        return stack_known_cards(game, sort=False)
    if pile == 5:
        return unknown_aging_pool(game, sort=False)
    return _pile_sources(game)[pile]


@built_once
def flat_space() -> spaces.Box:
    """The flat observation's Box (a copy of one built once: 991 bounds)."""
    low, high = FLAT_LAYOUT.bounds()
    return spaces.Box(low=low, high=high, dtype=np.float32)


@register_encoder
class FlatEncoder:
    """The flat ``float32`` observation (``observation="flat"``), laid out by
    `FLAT_LAYOUT`. ``encode(game)`` returns a new array; ``encode_into(game, out)``
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
        self.space = flat_space()
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
        self._counts = [[0] * len(shares) for _, shares in PILE_INDEX]

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
        if isinstance(game, COMPILED_CLASSES):
            encoding = np.empty(FLAT_SIZE, _FLOAT32)
            encode_flat(game, encoding)  # every entry
            return encoding
        self._update(game)
        return self._view.copy()

    def encode_into(self, game: Game, out: np.ndarray) -> None:
        """Overwrite ``out`` (shape ``(FLAT_SIZE,)``, float32) with the encoding of ``game``.
        Any float array of that shape is filled (another byte order or width through a
        copy); an integer one is refused (`TypeError`): it would truncate 0.5 to 0."""
        if not isinstance(out, np.ndarray) or out.dtype.kind != "f":
            raise TypeError(
                f"encode_into: out must be a float array of shape ({FLAT_SIZE},), "
                f"got {getattr(out, 'dtype', type(out).__name__)}"
            )
        if isinstance(game, COMPILED_CLASSES):
            try:
                encode_flat(game, out)  # straight into ``out`` if it is float32, contiguous
            except (TypeError, ValueError):  # refused, untouched: convert through a copy
                out[:] = self.encode(game)
            return
        self._update(game)
        out[:] = self._view

    def _update(self, game: Game) -> None:
        entries, off = self._entries, self._off
        entries[:_TABLE_START] = _VOLATILE_ZEROS
        values = game.card_values() if game.table else []
        total, value = fight_numbers(game, values)
        raw = scalar_values(game, total, value, values)
        _SCALAR_STRUCT.pack_into(entries, _SCALAR_BYTE, *map(operator.mul, raw, SCALAR_SCALES))
        for index in self._hot_entries(game):
            entries[index] = 1.0
        if game.offer:
            values_now = OFFER_VALUES[min(game.step, 2)]
            for k, card in enumerate(game.offer):
                first, second = _OFFER_VALUE_INDEX[k]
                entries[first], entries[second] = values_now[card]
        self._cards(game.sort_taken, off["sort_hand"], SORT_SIZE)
        if game.known_top:
            self._cards(known_top_cards(game), off["known_top"], FLAT_KNOWN_TOP)
        self._update_table(game, values)
        self._update_piles(game)

    def _hot_entries(self, game: Game) -> list[int]:
        """Indices of the one-hot entries that are 1 (from per-card tables, not computed)."""
        off = self._off
        hot = [off["level"] + game.level - 1, off["step"] + game.step, off["phase"] + game.phase]
        hot += [OFFER_HOT[k][card] for k, card in enumerate(game.offer)]
        hot += [PIRATE_HOT[k][card] for k, card in enumerate(game.pirates)]
        if game.phase == _TARGET_PHASE:
            hot.append(RESOLVING_HOT[game.resolving])
        if game.hazard >= 0:
            hot.append(FIGHT_HOT[game.hazard])
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
                entries[table + slot * TABLE_FEATURES + CARD_FEATURES] = slot_value / VALUE_SCALE
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
        positions, shares = PILE_INDEX[pile]
        counts = [0] * len(shares)
        for card in cards:
            counts[positions[card]] += 1
        entries, start, old = self._entries, self._pile_offsets[pile], self._counts[pile]
        for position, count in enumerate(counts):
            if count != old[position]:
                entries[start + position] = shares[position][count]
        self._counts[pile] = counts

    def _adjust(self, pile: int, cards: list[int], change: int) -> None:
        positions, shares = PILE_INDEX[pile]
        entries, start, counts = self._entries, self._pile_offsets[pile], self._counts[pile]
        for card in cards:
            position = positions[card]
            counts[position] += change
            entries[start + position] = shares[position][counts[position]]
