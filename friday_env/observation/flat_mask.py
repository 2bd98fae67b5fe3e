"""``observation="flat_mask"``: the flat vector with the action mask beside it (PettingZoo's
convention), for policies that read the mask from the observation."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from friday_env.actions import NUM_ACTIONS, action_mask
from friday_env.core import Game
from friday_env.observation.flat import FlatEncoder, flat_space
from friday_env.observation.registry import register_encoder
from friday_env.observation.shared_spaces import built_once


@built_once
def mask_space(size: int = NUM_ACTIONS, dtype: Any = np.int8) -> spaces.Space:
    """The space of an action mask of ``size`` entries: ``MultiBinary`` for a bool mask,
    else ``Box(0, 1)`` of ``dtype``."""
    if np.dtype(dtype) == np.bool_:
        return spaces.MultiBinary(size)
    return spaces.Box(0, 1, (size,), dtype)


@built_once
def _flat_mask_space() -> spaces.Dict:
    return spaces.Dict({"observation": flat_space(), "action_mask": mask_space()})


@register_encoder
class FlatMaskEncoder:
    """``{"observation": flat vector, "action_mask": int8 mask}`` (``observation="flat_mask"``),
    the PettingZoo convention, for policies that take the mask from the observation."""

    name = "flat_mask"

    def __init__(self) -> None:
        self.flat = FlatEncoder()
        self.space = _flat_mask_space()

    def encode(self, game: Game) -> dict[str, np.ndarray]:
        return {"observation": self.flat.encode(game), "action_mask": action_mask(game, np.int8)}
