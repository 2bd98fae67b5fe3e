"""The baseline: a uniformly random choice among the legal actions."""

from __future__ import annotations

import numpy as np

from friday_env import Game
from friday_env.random_choice import random_action


class RandomAgent:
    """Chooses uniformly among the legal actions.

    ## Description

    The floor every other agent must beat. It reads nothing but the legal actions.

    ## Arguments

    None. ``reset(seed)`` reseeds its ``np.random.Generator``.
    """

    name = "random"

    def __init__(self) -> None:
        self.rng = np.random.default_rng(0)

    def reset(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, game: Game) -> int:
        return random_action(game, self.rng)
