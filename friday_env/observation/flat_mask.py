"""``observation="flat_mask"``: the flat vector with the action mask beside it (PettingZoo's
convention), for policies that read the mask from the observation."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from friday_env.actions import NUM_ACTIONS, action_mask
from friday_env.core import Game
from friday_env.observation.flat import FlatEncoder
from friday_env.observation.registry import register_encoder


@register_encoder
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
