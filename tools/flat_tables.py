"""The text of ``flat_data.h``: the flat observation's layout and lookup tables, as C.

``encode.c`` reads every offset, scale and table from this header, which is written from
the Python encoder's own tables (`friday_env.observation.flat` and ``layout``), so the
C encoder cannot drift from the Python one. Floats are written as C99 hexadecimal literals:
exact, so the C tables hold bit for bit the values the Python encoder stores.
``python tools/generate_headers.py`` writes it (with ``cards_data.h``);
``tests/core/test_core_encode.py`` checks that regenerating changes nothing.
"""

from __future__ import annotations

import numpy as np
from c_text import CORE_DIR, c_array_2d
from c_text import c_array as _array

from friday_env.actions import SORT_SIZE
from friday_env.cards import Ability
from friday_env.observation import flat
from friday_env.observation.layout import (
    CARD_FEATURES,
    FLAT_KNOWN_TOP,
    FLAT_LAYOUT,
    FLAT_SCALARS,
    FLAT_SIZE,
    FLAT_TABLE_SLOTS,
    PILE_PIECES,
    TABLE_FEATURES,
    VALUE_SCALE,
)

FLAT_HEADER = CORE_DIR / "flat_data.h"


def _float32(value: float) -> str:
    """``value`` rounded to float32 (as the Python encoder stores it), as an exact literal."""
    return float(np.float32(value)).hex()


def _defines() -> list[str]:
    """Sizes, piece offsets (``FR_FLAT_OFF_<PIECE>``) and scalar indices."""
    lines = [
        f"#define FR_FLAT_CARD_FEATURES {CARD_FEATURES}",
        f"#define FR_FLAT_TABLE_FEATURES {TABLE_FEATURES}",
        f"#define FR_FLAT_TABLE_SLOTS {FLAT_TABLE_SLOTS}",
        f"#define FR_FLAT_KNOWN_TOP {FLAT_KNOWN_TOP}",
        f"#define FR_FLAT_SORT_SLOTS {SORT_SIZE}",
        f"#define FR_FLAT_NUM_SCALARS {len(FLAT_SCALARS)}",
        f"#define FR_FLAT_NUM_PILES {len(PILE_PIECES)}",
        f"#define FR_FLAT_VALUE_SCALE {float(VALUE_SCALE).hex()} /* a double, as in Python */",
        f"#define FR_FLAT_LAYOUT_SIZE {FLAT_SIZE}",
    ]
    lines += [f"#define FR_FLAT_OFF_{n.upper()} {o}" for n, o in FLAT_LAYOUT.offsets.items()]
    lines += [f"#define FR_FLAT_SCALAR_{s.name.upper()} {i}" for i, s in enumerate(FLAT_SCALARS)]
    return lines


def _hot_tables() -> list[str]:
    """Flat indices of one-hot entries by card or ability (-1: never set)."""
    resolving = [flat.RESOLVING_HOT.get(a, -1) for a in Ability]
    return [
        "/* FR_FLAT_OFFER_HOT[k][card], FR_FLAT_PIRATE_HOT[k][card]: the k-th offered hazard's",
        " * (undefeated pirate's) one-hot index; FR_FLAT_FIGHT_HOT[card]: the fought card's */",
        c_array_2d("int16_t", "FR_FLAT_OFFER_HOT", flat.OFFER_HOT),
        c_array_2d("int16_t", "FR_FLAT_PIRATE_HOT", flat.PIRATE_HOT),
        _array("int16_t", "FR_FLAT_FIGHT_HOT", flat.FIGHT_HOT),
        "/* FR_FLAT_RESOLVING_HOT[ability]: its index in TARGET, -1 for other abilities */",
        _array("int16_t", "FR_FLAT_RESOLVING_HOT", resolving),
    ]


def _value_tables() -> list[str]:
    """Scalar scales, card feature rows and offered hazards' values."""
    scales = [float(s).hex() for s in flat.SCALAR_SCALES]
    rows = flat.CARD_ROWS
    offer = [_float32(v) for step in flat.OFFER_VALUES for card in step for v in card]
    return [
        "/* FR_FLAT_SCALE[i]: 1 / divisor of scalar i as a float32 value held in a double;",
        " * the entry is (float)(raw * scale), the Python encoder's rounding */",
        _array("double", "FR_FLAT_SCALE", scales),
        "/* FR_FLAT_CARD_ROWS[card * FR_FLAT_CARD_FEATURES + f]: a card's features */",
        _array("float", "FR_FLAT_CARD_ROWS", [_float32(v) for v in rows.ravel()]),
        "/* FR_FLAT_OFFER_VALUES[(step * FR_NUM_CARDS + card) * 2 + i]: free cards / 5 and",
        " * value / 5 of an offered hazard in step 0-2 */",
        _array("float", "FR_FLAT_OFFER_VALUES", offer),
    ]


def _pile_tables() -> list[str]:
    """Per counted pile (PILE_PIECES order): each card's type position and the encoded
    share of every count of every position."""
    index = flat.PILE_INDEX
    max_count = max(len(s) for _, shares in index for s in shares)
    max_positions = max(len(shares) for _, shares in index)
    positions = [p for pile_positions, _ in index for p in pile_positions]
    copies, share_values = [], []
    for _, shares in index:
        for pos in range(max_positions):
            counts = shares[pos] if pos < len(shares) else [0.0]
            copies.append(len(counts) - 1)
            share_values += [_float32(v) for v in counts]
            share_values += [_float32(counts[-1])] * (max_count - len(counts))
    return [
        f"#define FR_FLAT_PILE_POSITIONS {max_positions} /* type positions, padded */",
        f"#define FR_FLAT_PILE_MAX_COUNT {max_count - 1} /* copies of the commonest type */",
        _array("int16_t", "FR_FLAT_PILE_OFF", [FLAT_LAYOUT.offsets[n] for n in PILE_PIECES]),
        "/* FR_FLAT_PILE_POS[pile * FR_NUM_CARDS + card]: the card's type position, -1 */",
        _array("int8_t", "FR_FLAT_PILE_POS", positions),
        "/* FR_FLAT_PILE_COPIES[pile * FR_FLAT_PILE_POSITIONS + position] */",
        _array("int8_t", "FR_FLAT_PILE_COPIES", copies),
        "/* FR_FLAT_PILE_SHARE[(pile * FR_FLAT_PILE_POSITIONS + position)",
        " *                    * (FR_FLAT_PILE_MAX_COUNT + 1) + count] */",
        _array("float", "FR_FLAT_PILE_SHARE", share_values),
    ]


def flat_header_text() -> str:
    """The text of ``flat_data.h``."""
    lines = [
        "/* Generated by `python tools/generate_headers.py` from friday_env.observation",
        " * (flat.py, layout.py): do not edit. */",
        "#ifndef FRIDAY_FLAT_DATA_H",
        "#define FRIDAY_FLAT_DATA_H",
        "#include <stdint.h>",
        "",
        *_defines(),
        "",
        *_hot_tables(),
        *_value_tables(),
        *_pile_tables(),
        "",
        "#endif",
        "",
    ]
    return "\n".join(lines)
