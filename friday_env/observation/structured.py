"""The structured observation (``observation="dict"``): the same situation as named
integer arrays (counts per card type, the table as slot arrays), for structured policies
and for reading.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from friday_env.actions import MAX_SLOTS, SORT_SIZE, Phase
from friday_env.cards import CARD_TYPE, CARD_TYPES, FIGHTING_TYPES, Ability
from friday_env.core import Game
from friday_env.engine import DOUBLED, DOWN, LEFT, USED
from friday_env.information import known_top_cards, stack_known_cards, unknown_aging_pool
from friday_env.observation.layout import (
    CARD_CODE,
    FIGHTING_POS,
    FLAT_SCALARS,
    MAX_CARD_VALUE,
    MIN_CARD_VALUE,
    NUM_CODES,
    NUM_FIGHTING,
    Scalar,
    fight_numbers,
    scalar_values,
)
from friday_env.observation.registry import register_encoder
from friday_env.observation.shared_spaces import built_once

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


@built_once
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


#: What each key of the dict encoding holds (the table of ``docs/environment.md``).
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
        counts[FIGHTING_POS[CARD_TYPE[card]]] += 1
    return counts


@register_encoder
class DictEncoder:
    """The structured observation (``observation="dict"``): named integer arrays, card
    codes per `CODE_OF_TYPE` (0 = no card). Keys and meanings: `DICT_KEYS`."""

    name = "dict"

    def __init__(self) -> None:
        self.space = _dict_space()

    def encode(self, game: Game) -> dict[str, Any]:
        values = game.card_values() if game.table else []
        total, value = fight_numbers(game, values)
        numbers = scalar_values(game, total, value, values)[: len(DICT_NUMBERS)]
        targeting = game.phase == Phase.TARGET
        obs: dict[str, Any] = {
            "level": np.int64(game.level - 1),
            "step": np.int64(game.step),
            "phase": np.int64(game.phase),
            "numbers": np.array(numbers, np.int64),
            "stack_known": _type_counts(stack_known_cards(game, sort=False)),
            "discard": _type_counts(game.discard),
            "destroyed": _type_counts(game.destroyed),
            "hazard_discard": _type_counts(game.hazard_discard),
            "hazard_stack": _type_counts(game.hazard_stack),
            "unknown_aging": _type_counts(unknown_aging_pool(game, sort=False)),
            "hazard": np.int64(CARD_CODE[game.hazard] if game.hazard >= 0 else 0),
            "offer": _codes(game.offer, 2),
            "pirates": _codes(game.pirates, 2),
            "beaten": _codes(game.beaten, 2),
            "resolving": np.int64(game.resolving if targeting else 0),
            "source": np.int64(game.source + 1 if targeting else 0),
            "sort_hand": _codes(game.sort_taken, SORT_SIZE),
            "known_top": _codes(known_top_cards(game), MAX_SLOTS),
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
