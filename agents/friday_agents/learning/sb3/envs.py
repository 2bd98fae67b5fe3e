"""``Friday-v0`` set up for training and held-out evaluation: which deals, which reward.

The env deals each game from a seed it draws itself (any 63-bit number), so on its own it
cannot promise what the project's seed discipline asks (the two rules of
[`friday_agents.harness.deals`][friday_agents.harness.deals]): training on training deals only and
measuring the curve on the held-out validation deals.
[`Deals`][friday_agents.learning.sb3.envs.Deals] does that: it lets the env reset as usual,
then puts the chosen deal in its place and answers with the observation and mask of that deal.

[`ScoreDelta`][friday_agents.learning.sb3.envs.ScoreDelta] is the dense form of the score reward:
the change of the R25 score after each decision, which adds up over an episode to the final score
minus the starting score (a potential-based shaping of ``reward="score"`` with the score as
potential).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.error import ResetNeeded

import friday_env  # noqa: F401  (registers Friday-v0)
from friday_agents.harness.deals import draw_training_deals
from friday_env import Game
from friday_env.env import SCORE_SCALE, EnvOptionError, FridayEnv
from friday_env.episode import DEFAULT_PROGRESS_COEF


def _friday(env: gym.Env, wrapper: str) -> FridayEnv:
    """The ``FridayEnv`` under ``env``'s wrappers, or a TypeError naming ``wrapper``."""
    base = env.unwrapped
    if not isinstance(base, FridayEnv):
        raise TypeError(f"{wrapper} wraps a Friday-v0 env, got {type(base).__name__}")
    return base


def _game(env: gym.Env) -> Game:
    """The game being played by the ``FridayEnv`` under ``env`` (after a reset)."""
    game = _friday(env, "a reward wrapper").game
    if game is None:
        raise ResetNeeded("no game yet: call reset() first")
    return game


class Deals(gym.Wrapper):
    """Deal the games of a ``Friday-v0`` env from a given stream of deal seeds.

    ## Arguments

    - ``env``: a ``Friday-v0`` env (wrappers allowed).
    - ``next_deal``: called with ``restart`` (the seed passed to ``reset``, or None) and
      returns the deal seed of the next game. ``Game.new(level, deal)`` is then played.

    The final ``info`` gains ``is_success`` (the game was won), which sb3's evaluation
    callbacks count as the success rate, and ``deal`` (the seed of the game).
    """

    def __init__(self, env: gym.Env, next_deal: Callable[[int | None], int]) -> None:
        super().__init__(env)
        self.next_deal = next_deal
        self.deal = -1

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        if options:
            raise EnvOptionError(
                f"Deals chooses the deal of every game itself; reset options {sorted(options)} "
                "would be ignored: reset the unwrapped env for a scenario"
            )
        self._friday()  # a Friday-v0 env, or a clear error
        self.deal = int(self.next_deal(seed))
        return self.env.reset(seed=self.deal, options={"deal": self.deal})

    def step(self, action: Any):
        obs, reward, terminated, truncated, info = self.env.step(action)
        if terminated:
            info["is_success"] = bool(info.get("won", False))
            info["deal"] = self.deal
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The legal actions of the game being played (sb3-contrib's contract)."""
        return self._friday().action_masks()

    def _friday(self) -> FridayEnv:
        return _friday(self.env, "Deals")


class ScoreDelta(gym.Wrapper):
    """Reward = (score after the decision - score before) / 100 (see the module doc)."""

    def __init__(self, env: gym.Env) -> None:
        super().__init__(env)
        self._score = 0

    def reset(self, **kwargs: Any):
        obs, info = self.env.reset(**kwargs)
        self._score = _game(self.env).score()
        return obs, info

    def step(self, action: Any):
        obs, _, terminated, truncated, info = self.env.step(action)
        score = _game(self.env).score()
        reward = (score - self._score) / SCORE_SCALE
        self._score = score
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        return self.env.get_wrapper_attr("action_masks")()


def training_deals(level: int, key: Sequence[int]) -> Callable[[int | None], int]:
    """An endless stream of training deals of ``level``, drawn by the one rule of every
    trainer ([`draw_training_deals`][friday_agents.harness.deals.draw_training_deals]) from a
    generator seeded with ``key``; a reset seed reseeds it with ``key + [seed]``."""
    state = {"rng": np.random.default_rng(list(key))}

    def next_deal(restart: int | None) -> int:
        if restart is not None:
            state["rng"] = np.random.default_rng([*key, restart])
        return int(draw_training_deals(level, 1, state["rng"])[0])

    return next_deal


def fixed_deals(seeds: Sequence[int]) -> Callable[[int | None], int]:
    """The deals ``seeds`` in order, over and over; any reset seed starts again at the first
    (so each evaluation round plays the same deals)."""
    state = {"next": 0}

    def next_deal(restart: int | None) -> int:
        if restart is not None:
            state["next"] = 0
        deal = seeds[state["next"] % len(seeds)]
        state["next"] += 1
        return deal

    return next_deal


def make_env(
    level: int,
    observation: str,
    reward: str,
    next_deal: Callable[[int | None], int],
    gamma: float = 0.995,
    shaping: tuple[str, float] = ("none", 1.0),
    progress_coef: float = DEFAULT_PROGRESS_COEF,
) -> gym.Env:
    """A ``Friday-v0`` env dealing from ``next_deal`` with the chosen reward (the env's own,
    ``progress_coef`` with ``"progress"``; or ``score_delta``) and ``shaping`` (a name and
    its coefficient; ``gamma``: the learner's discount, used by the ``value`` shaping)."""
    env_reward = "score" if reward == "score_delta" else reward
    progress: dict[str, Any] = {"progress_coef": progress_coef} if reward == "progress" else {}
    env: gym.Env = Deals(
        gym.make("Friday-v0", level=level, observation=observation, reward=env_reward, **progress),
        next_deal,
    )
    if reward == "score_delta":
        env = ScoreDelta(env)
    if shaping[0] == "value":
        from friday_agents.learning.sb3.shaping import ValueShaping

        env = ValueShaping(env, gamma, shaping[1])
    return env
