"""Potential-based shaping with the fitted state value as potential (``--shaping value``).

Reward after a decision = the env's ``win_loss`` reward + gamma * Phi(s') - Phi(s), with
Phi = `friday_agents.players.networks.linear_value.state_value` / 100 (the expected final score on
the scale of the ``score`` reward) and Phi = 0 once the game is over. Shaping of this form leaves
the optimal policy unchanged (Ng, Harada & Russell, 1999): it only tells the learner sooner
whether a decision made the position better, which ``win_loss`` says once, hundreds of
decisions later.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np

from friday_agents.players.networks.linear_value import state_value
from friday_env import Game
from friday_env.core import is_game
from friday_env.env import SCORE_SCALE


def potential(game: Game) -> float:
    """Phi of a state: its fitted value on the score-reward scale, 0 at the end."""
    return 0.0 if game.done else state_value(game) / SCORE_SCALE


def _game(env: gym.Env) -> Game:
    """The game of the ``Friday-v0`` env under ``env``'s wrappers (after a reset)."""
    game = getattr(env.unwrapped, "game", None)
    if not is_game(game):
        raise TypeError("ValueShaping wraps a Friday-v0 env that has been reset")
    return game


class ValueShaping(gym.Wrapper):
    """Adds ``gamma * Phi(s') - Phi(s)`` to every reward (see the module docstring).

    ## Arguments

    - ``env``: a ``Friday-v0`` env (wrappers allowed) with ``reward="win_loss"``.
    - ``gamma``: the learner's discount (shaping is policy-invariant only with the same one).
    - ``coef``: the potential's weight (``--shaping-coef``).
    """

    def __init__(self, env: gym.Env, gamma: float, coef: float = 1.0) -> None:
        super().__init__(env)
        self.gamma, self.coef = gamma, coef
        self._phi = 0.0

    def reset(self, **kwargs: Any):
        obs, info = self.env.reset(**kwargs)
        self._phi = self.coef * potential(_game(self.env))
        return obs, info

    def step(self, action: Any):
        obs, reward, terminated, truncated, info = self.env.step(action)
        phi = self.coef * potential(_game(self.env))
        shaped = float(reward) + self.gamma * phi - self._phi
        self._phi = phi
        return obs, shaped, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        return self.env.get_wrapper_attr("action_masks")()
