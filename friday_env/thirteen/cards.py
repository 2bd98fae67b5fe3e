"""The 50 cards of *Friday the 13th* and the action ids.

Card ids are type-major: the black cats are 0-13, the broken mirrors 14-27, the ladders
28-41, each type's values in the order ``1,1,1,2,2,2,4,4,5,5,5,7,7,7``; 42-49 are the eight
*Friday the 13th* cards (value 4). An action is ``3 * card + pile`` with pile 0 the cats',
1 the mirrors', 2 the ladders': 150 ids, of which an omen card has one legal pile (its own)
and a *Friday the 13th* card three.
"""

from __future__ import annotations

import numpy as np

#: The three omen types, which are also the three piles, then the *Friday the 13th* type.
TYPE_NAMES = ("cat", "mirror", "ladder", "friday13")
PILE_NAMES = TYPE_NAMES[:3]
CAT, MIRROR, LADDER, FRIDAY13 = 0, 1, 2, 3
NUM_PILES = 3
#: One omen type's values, in card-id order.
OMEN_VALUES = (1, 1, 1, 2, 2, 2, 4, 4, 5, 5, 5, 7, 7, 7)
CARDS_PER_OMEN = len(OMEN_VALUES)
NUM_FRIDAY13 = 8
FRIDAY13_VALUE = 4
NUM_CARDS = 3 * CARDS_PER_OMEN + NUM_FRIDAY13
NUM_ACTIONS = NUM_PILES * NUM_CARDS
#: A pile whose total goes past this is taken.
LIMIT = 13
NUM_ROUNDS = 4
MIN_PLAYERS, MAX_PLAYERS = 3, 6

#: card id -> type (0-3) and value.
CARD_TYPE = np.array([c // CARDS_PER_OMEN for c in range(NUM_CARDS)], dtype=np.int8)
CARD_VALUE = np.array(OMEN_VALUES * 3 + (FRIDAY13_VALUE,) * NUM_FRIDAY13, dtype=np.int8)
#: Bad luck a card left in a taken stack scores: 1 an omen card, 2 a Friday the 13th.
CARD_POINTS = np.where(CARD_TYPE == FRIDAY13, 2, 1).astype(np.int8)
# plain tuples for the engine's inner loops (numpy scalars are slow to index one by one)
TYPE_OF: tuple[int, ...] = tuple(int(t) for t in CARD_TYPE)
VALUE_OF: tuple[int, ...] = tuple(int(v) for v in CARD_VALUE)


def action_id(card: int, pile: int) -> int:
    """The action that plays ``card`` onto ``pile``."""
    return NUM_PILES * card + pile


def split_action(action: int) -> tuple[int, int]:
    """``(card, pile)`` of an action id."""
    return divmod(action, NUM_PILES)


def piles_of(card: int) -> tuple[int, ...]:
    """The piles ``card`` may go on: its own, or any of the three for a Friday the 13th."""
    kind = TYPE_OF[card]
    return (CAT, MIRROR, LADDER) if kind == FRIDAY13 else (kind,)


def card_name(card: int) -> str:
    """``"cat 5"``, ``"friday13 4"``."""
    return f"{TYPE_NAMES[TYPE_OF[card]]} {VALUE_OF[card]}"


def action_name(action: int) -> str:
    """``"cat 5 -> cat"``, ``"friday13 4 -> ladder"``."""
    card, pile = split_action(action)
    return f"{card_name(card)} -> {PILE_NAMES[pile]}"
