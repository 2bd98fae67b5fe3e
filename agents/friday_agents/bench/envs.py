"""Stand-ins for ``Friday-v0`` in ``friday bench``'s training-speed measurement (f).

- `TrivialMaskedEnv`: the same spaces and no game, the baseline of the ratio.
  MaskablePPO's frames/s on it is what training would reach if the game cost nothing;
  ``Friday-v0``'s frames/s as a fraction of it is the share of training time the game
  does not take.
- `UnencodedFridayEnv`: ``Friday-v0`` with the observation encoder left out (a
  constant observation), everything else the same: the ratio it reaches is the most that
  any speed-up of the encoder could give.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from friday_env import FlatEncoder, FridayEnv, Game
from friday_env.actions import NUM_ACTIONS


class TrivialMaskedEnv(gym.Env[np.ndarray, np.int64]):
    """``Friday-v0``'s spaces with trivial dynamics.

    ## Description

    Every step returns the same observation (the flat encoding of a new level-1 game) and
    ends the episode after `EPISODE_STEPS` steps; any action is accepted.

    ## Action Space

    ``Discrete(199)``, as ``Friday-v0``. The mask (``info["action_mask"]`` and
    ``action_masks()``) allows a few actions, a different few at each step.

    ## Observation Space

    The ``Box(float32, (991,))`` of ``Friday-v0``'s flat encoder.

    ## Rewards

    0, and +1 on the last step.

    ## Episode End

    Terminates after `EPISODE_STEPS` steps.
    """

    metadata: dict[str, Any] = {"render_modes": ["rgb_array"], "render_fps": 2}  # noqa: RUF012
    #: About the length of a game played at random.
    EPISODE_STEPS = 48

    def __init__(self, render_mode: str | None = None) -> None:
        # stable-baselines3's make_vec_env asks for render_mode="rgb_array", as for Friday-v0
        self.render_mode = render_mode
        encoder = FlatEncoder()
        self.observation_space = encoder.space
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self._observation = encoder.encode(Game.new(1, 0))
        self._masks = np.zeros((4, NUM_ACTIONS), np.bool_)
        for k, mask in enumerate(self._masks):
            mask[k : k + 3] = True
        self._t = 0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self._t = 0
        return self._observation.copy(), {"action_mask": self.action_masks()}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        self._t += 1
        terminated = self._t >= self.EPISODE_STEPS
        reward = 1.0 if terminated else 0.0
        info = {"action_mask": self.action_masks()}
        return self._observation.copy(), reward, terminated, False, info

    def render(self) -> np.ndarray:
        return np.zeros((8, 8, 3), np.uint8)

    def action_masks(self) -> np.ndarray:
        return self._masks[self._t % len(self._masks)].copy()


class _ConstantEncoder:
    """The flat encoder's space, and always the same observation for any game."""

    name = "flat"

    def __init__(self) -> None:
        encoder = FlatEncoder()
        self.space = encoder.space
        self._observation = encoder.encode(Game.new(1, 0))

    def encode(self, game: Game) -> np.ndarray:
        return self._observation.copy()


class UnencodedFridayEnv(FridayEnv):
    """``Friday-v0`` (level 1, flat observation, mask) whose observation is a constant: the
    game, the mask and the env's bookkeeping cost what they cost in ``Friday-v0``, the
    observation encoder nothing. Not for learning: the policy sees nothing of the game."""

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode=render_mode)
        self.encoder = _ConstantEncoder()  # type: ignore[assignment]
