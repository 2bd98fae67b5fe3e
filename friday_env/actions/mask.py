"""The legal actions of a game as a ``NUM_ACTIONS`` mask (the env's and the encoders')."""

from __future__ import annotations

import numpy as np

from friday_env.actions.codec import NUM_ACTIONS
from friday_env.actions.names import GameView

#: ``np.empty`` takes a dtype object faster than a type (the env makes two masks per step).
_INT8 = np.dtype(np.int8)


def action_mask(game: GameView, dtype: type = np.int8) -> np.ndarray:
    """The legal actions of ``game`` as a ``NUM_ACTIONS`` 0/1 mask, ``int8`` by default as
    everywhere in the env (all zero once the game is over): a new writable array each call."""
    fill_mask = getattr(game, "_fill_legal_mask", None)
    if fill_mask is not None:  # the compiled core writes the flags in C, into the new array
        mask = np.empty(NUM_ACTIONS, _INT8)
        fill_mask(mask)  # every entry
        return mask if dtype is np.int8 else mask.astype(dtype)
    # set bytes of a bytearray, then view them: half the time of numpy fancy indexing
    flags = bytearray(NUM_ACTIONS)
    for action in game.legal_actions():
        flags[action] = 1
    if np.dtype(dtype).itemsize == 1:
        return np.frombuffer(flags, dtype)
    return np.frombuffer(flags, np.uint8).astype(dtype)
