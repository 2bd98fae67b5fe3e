"""Reiner Knizia's *Friday the 13th* (3-6 players): a second game, separate from the solo
*Friday*. The rules need numpy alone (``Game13``); ``friday_env.thirteen.aec`` is the
PettingZoo AEC environment and ``friday_env.thirteen.env`` the single-player Gymnasium
environment ``FridayThe13th-v0`` (registered by ``import friday_env``). docs/thirteen.md
documents the rules as implemented and the rulings.
"""

from __future__ import annotations

from friday_env.thirteen.cards import (
    CARD_POINTS,
    CARD_TYPE,
    CARD_VALUE,
    LIMIT,
    NUM_ACTIONS,
    NUM_CARDS,
    NUM_ROUNDS,
    action_id,
    action_name,
    card_name,
    split_action,
)
from friday_env.thirteen.errors import IllegalMoveError, OptionError, SetupError, ThirteenError
from friday_env.thirteen.game import Game13, deal, starter
from friday_env.thirteen.scoring import round_points, win_shares

__all__ = [
    "CARD_POINTS",
    "CARD_TYPE",
    "CARD_VALUE",
    "LIMIT",
    "NUM_ACTIONS",
    "NUM_CARDS",
    "NUM_ROUNDS",
    "Game13",
    "IllegalMoveError",
    "OptionError",
    "SetupError",
    "ThirteenError",
    "action_id",
    "action_name",
    "card_name",
    "deal",
    "round_points",
    "split_action",
    "starter",
    "win_shares",
]
