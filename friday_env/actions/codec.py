"""The action codec: one flat integer per decision, the same layout at every level.

The engine speaks these integers directly, so the Gymnasium env's ``Discrete(NUM_ACTIONS)``
and its mask are the engine's own legal actions with no translation. Which decision an
integer answers depends on the pending decision ([`Phase`][friday_env.actions.Phase]);
[`describe_action`][friday_env.actions.describe_action] names a legal action in context ("use
further/vision (slot 3)"), and [`action_name`][friday_env.action_name] gives the context-free name
of every id.

Layout (ranges are inclusive of the start, exclusive of the end)::

    0   CHOOSE_HAZARD_0        fight the first of the two drawn hazards
    1   CHOOSE_HAZARD_1        fight the second
    2   FIGHT_LAST_HAZARD      one hazard left: fight it
    3   SKIP_LAST_HAZARD       one hazard left: discard it, go to the next step
    4   CHOOSE_PIRATE_0        fight the first pirate first
    5   CHOOSE_PIRATE_1        fight the second pirate first
    6   DRAW_FREE              draw a free card (left side)
    7   DRAW_PAID              pay life for a card (right side)
    8   END_FIGHT              compare totals and end the fight
    9   DRAW_ANOTHER           "+2 cards": draw the second card
    10  STOP_DRAWING           "+2 cards": stop after one
    11  SORT_TAKE              "sort 3 cards": take another card
    12  SORT_STOP_TAKING       "sort 3 cards": stop taking
    13  SORT_KEEP_ALL          "sort 3 cards": discard none of the taken cards
    14..17 SORT_DISCARD_k      "sort 3 cards": discard taken card k (0..2)
    17..20 SORT_PLACE_k        "sort 3 cards": put taken card k next (from the top down)
    20  STOP_EXCHANGING        "2x exchange": do not make the second exchange
    21  FINISH_DESTROYING      lost fight: destroy no more cards
    22 + i                     USE_i: use the ability of the card in table slot i
    22 + S + i                 TARGET_i: the ability being resolved targets slot i
    22 + 2S + i                DESTROY_i: lost fight, destroy the card in slot i

with S = `MAX_SLOTS` = 59, every fighting card of the game, so no legal move is ever
inexpressible (a pirate fight against all remaining hazards can put many cards on the table).
"""

from __future__ import annotations

import numpy as np

from friday_env.cards import MAX_TABLE_CARDS

MAX_SLOTS = MAX_TABLE_CARDS
SORT_SIZE = 3

CHOOSE_HAZARD_0 = 0
CHOOSE_HAZARD_1 = 1
FIGHT_LAST_HAZARD = 2
SKIP_LAST_HAZARD = 3
CHOOSE_PIRATE_0 = 4
CHOOSE_PIRATE_1 = 5
DRAW_FREE = 6
DRAW_PAID = 7
END_FIGHT = 8
DRAW_ANOTHER = 9
STOP_DRAWING = 10
SORT_TAKE = 11
SORT_STOP_TAKING = 12
SORT_KEEP_ALL = 13
SORT_DISCARD_0 = 14
SORT_PLACE_0 = SORT_DISCARD_0 + SORT_SIZE
STOP_EXCHANGING = SORT_PLACE_0 + SORT_SIZE
FINISH_DESTROYING = STOP_EXCHANGING + 1
USE_0 = FINISH_DESTROYING + 1
TARGET_0 = USE_0 + MAX_SLOTS
DESTROY_0 = TARGET_0 + MAX_SLOTS
NUM_ACTIONS = DESTROY_0 + MAX_SLOTS


_FIXED_NAMES = {
    CHOOSE_HAZARD_0: "choose hazard 0",
    CHOOSE_HAZARD_1: "choose hazard 1",
    FIGHT_LAST_HAZARD: "fight the last hazard",
    SKIP_LAST_HAZARD: "skip the last hazard",
    CHOOSE_PIRATE_0: "fight pirate 0 first",
    CHOOSE_PIRATE_1: "fight pirate 1 first",
    DRAW_FREE: "draw a free card",
    DRAW_PAID: "draw a card for life",
    END_FIGHT: "end the fight",
    DRAW_ANOTHER: "+2 cards: draw another",
    STOP_DRAWING: "+2 cards: stop",
    SORT_TAKE: "sort: take a card",
    SORT_STOP_TAKING: "sort: stop taking",
    SORT_KEEP_ALL: "sort: discard none",
    STOP_EXCHANGING: "2x exchange: stop",
    FINISH_DESTROYING: "finish destroying",
}


def action_name(action: int) -> str:
    """Context-free name of an action id (the engine names legal actions in context)."""
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action id {action} is outside 0..{NUM_ACTIONS - 1}")
    if action in _FIXED_NAMES:
        return _FIXED_NAMES[action]
    if SORT_DISCARD_0 <= action < SORT_PLACE_0:
        return f"sort: discard taken card {action - SORT_DISCARD_0}"
    if SORT_PLACE_0 <= action < STOP_EXCHANGING:
        return f"sort: put taken card {action - SORT_PLACE_0} next"
    if USE_0 <= action < TARGET_0:
        return f"use slot {action - USE_0}"
    if TARGET_0 <= action < DESTROY_0:
        return f"target slot {action - TARGET_0}"
    return f"destroy slot {action - DESTROY_0}"


def action_id_of(action: object) -> int | None:
    """The action id ``action`` stands for, as an int: ints and numpy integers (bools not)
    within ``0..NUM_ACTIONS - 1``; None for anything else."""
    is_integer = isinstance(action, (int, np.integer)) and not isinstance(action, bool)
    if is_integer and 0 <= int(action) < NUM_ACTIONS:  # type: ignore[call-overload]
        return int(action)  # type: ignore[call-overload]
    return None


ACTION_NAMES: tuple[str, ...] = tuple(action_name(a) for a in range(NUM_ACTIONS))
