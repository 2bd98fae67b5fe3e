"""The legal actions of a game as a ``NUM_ACTIONS`` mask (the env's and the encoders')."""

from __future__ import annotations

import numpy as np

from friday_env.actions.codec import NUM_ACTIONS
from friday_env.actions.names import GameView


def action_mask(game: GameView, dtype: type = np.int8) -> np.ndarray:
    """The legal actions of ``game`` as a ``NUM_ACTIONS`` 0/1 mask, ``int8`` by default as
    everywhere in the env (all zero once the game is over)."""
    compiled_mask = getattr(game, "_legal_mask", None)
    if compiled_mask is not None:  # the compiled core sets the flags in C
        flags = compiled_mask()
    else:
        # set bytes of a bytearray, then view them: half the time of numpy fancy indexing
        flags = bytearray(NUM_ACTIONS)
        for action in game.legal_actions():
            flags[action] = 1
    if np.dtype(dtype).itemsize == 1:
        return np.frombuffer(flags, dtype)
    return np.frombuffer(flags, np.uint8).astype(dtype)
