"""The rules of an episode of ``Friday-v0``, written once for both envs.

The single env (``FridayEnv``) and the vector env's Python path (``FridayVectorEnv`` on
``core="python"``) call these functions; the vector env's compiled path
(``friday_env/_core/vecenv.c``) implements the same rules in C for speed and names the
function here that defines each one. What they define:

- the option checks shared by both envs (``reward``, ``progress_coef``,
  ``illegal_action``; ``core`` is checked by `friday_env.core.check_core`, as everywhere);
- the seed rule: each game's seed is one draw from the env's generator;
- rewards: 0 until the game ends, then +1/-1 (``"win_loss"``) or the score / 100
  (``"score"``); or, with ``"progress"``, ``progress_coef`` for each hazard and pirate beaten
  in the step (kept: never taken back) plus +1/-1 at the end (`step_reward`);
- illegal actions: in ``"loss"`` mode an action id outside the mask ends the episode as a
  lost game; anything else that is not legal raises;
- the statistics of an ended game (``final_score``, ``won``, ``level``, ``fights``,
  ``steps``, ``hazards_beaten``, ``pirates_beaten``, ``end_step``, ``illegal_action``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from friday_env.actions import action_id_of
from friday_env.core import Game
from friday_env.errors import EnvOptionError

#: Reward modes: ``"win_loss"`` gives +1/-1 at the end, ``"score"`` the final score (R25)
#: divided by ``SCORE_SCALE``, ``"progress"`` +1/-1 at the end plus ``progress_coef`` for each
#: hazard and pirate beaten, paid in the step that beats it and never taken back.
REWARD_MODES = ("win_loss", "score", "progress")
#: ``progress_coef`` when ``reward="progress"`` is given without one.
DEFAULT_PROGRESS_COEF = 0.1
#: Divisor of the final score in ``reward="score"``: scores run from about -150 to 200, so
#: rewards stay within a few units, the scale PPO's value function learns well.
SCORE_SCALE = 100.0
#: What an action outside the mask does: ``"loss"`` (the default) ends the episode as a lost
#: game with a warning, ``"raise"`` raises ``IllegalActionError``.
ILLEGAL_ACTION_MODES = ("loss", "raise")
#: The dtype of every mask: Gymnasium's (``Discrete.sample(mask=...)`` wants int8).
MASK_DTYPE = np.int8
#: The statistics of an ended game, in the order of the compiled vector env's rows (vecenv.h).
STATS = (
    "final_score", "won", "level", "fights", "steps", "hazards_beaten", "pirates_beaten",
    "end_step", "illegal_action",
)  # fmt: skip
#: ``end_step``'s values: the step a game ended in, 0-3 (``friday_env.engine.STEP_NAMES``; a
#: won game ends in the pirates step).
END_STEPS = ("green", "yellow", "red", "pirates")
#: Game seeds are drawn in ``0..GAME_SEED_BOUND - 1``.
GAME_SEED_BOUND = 2**63 - 1


# ------------------------------------------------------------------ option checks


def check_choice(
    name: str, value: object, allowed: Sequence[str], error: type[Exception] = EnvOptionError
) -> str:
    """``value`` if it is one of ``allowed``, else ``error`` naming the option and the choices."""
    if not isinstance(value, str) or value not in allowed:
        raise error(f"unknown {name} {value!r}; choose one of {', '.join(allowed)}")
    return value


def check_reward_mode(reward: object) -> str:
    """The env option ``reward``: one of ``REWARD_MODES``."""
    return check_choice("reward mode", reward, REWARD_MODES)


def check_progress_coef(reward: str, progress_coef: object) -> float:
    """The env option ``progress_coef``: a finite number >= 0, given only with
    ``reward="progress"`` (another mode pays nothing for progress, so a coefficient there is a
    mistake); None is `DEFAULT_PROGRESS_COEF` in progress mode and 0 otherwise."""
    if progress_coef is None:
        return DEFAULT_PROGRESS_COEF if reward == "progress" else 0.0
    if reward != "progress":
        raise EnvOptionError(
            f"progress_coef={progress_coef!r} is only for reward='progress', not {reward!r}"
        )
    numbers = (int, float, np.integer, np.floating)
    if not isinstance(progress_coef, numbers) or isinstance(progress_coef, (bool, np.bool_)):
        raise EnvOptionError(f"progress_coef must be a number >= 0, got {progress_coef!r}")
    coef = float(progress_coef)
    if not math.isfinite(coef) or coef < 0:
        raise EnvOptionError(f"progress_coef must be a finite number >= 0, got {progress_coef!r}")
    return coef


def check_illegal_action_mode(illegal_action: object) -> tuple[str, bool]:
    """The env option ``illegal_action`` as (mode, warn): None is ``"loss"`` with a warning
    the first time an illegal action ends a game (an explicit choice is an informed one and
    stays silent)."""
    mode = "loss" if illegal_action is None else illegal_action
    return check_choice("illegal_action mode", mode, ILLEGAL_ACTION_MODES), illegal_action is None


# ------------------------------------------------------------------ seeds


def draw_game_seed(rng: np.random.Generator) -> int:
    """The seed of an env's next game: one draw from its generator (``reset`` draws one
    even when ``options`` name the deal, so the games after it stay those of the seed)."""
    return int(rng.integers(0, GAME_SEED_BOUND))


# ------------------------------------------------------------------ illegal actions


def illegal_action_ends_game(action: object, illegal_action: str) -> bool:
    """Whether an illegal ``action`` ends the episode as a lost game: in ``"loss"`` mode, for
    an action id. Otherwise it raises (an id outside ``Discrete(199)`` always does)."""
    return illegal_action == "loss" and action_id_of(action) is not None


# ------------------------------------------------------------------ rewards


def progress(game: Game) -> int:
    """What ``reward="progress"`` pays for: hazards beaten plus pirates beaten so far
    ([`hazards_beaten`][friday_env.engine.scoring.hazards_beaten]); it never falls in a game."""
    return game.hazards_beaten() + game.pirates_beaten()


def step_reward(
    game: Game, reward_mode: str, progress_coef: float, progress_made: int, illegal: bool = False
) -> float:
    """The reward of a step that left ``game`` as it is: ``progress_coef`` (0 outside
    ``"progress"`` mode) times ``progress_made``, the rise of `progress` in the step, plus
    `final_reward` if the game ended (or ``illegal`` ended it)."""
    reward = 0.0
    if progress_coef:
        reward = progress_coef * progress_made
    if illegal or game.done:
        reward += final_reward(game, reward_mode, illegal)
    return reward


# ------------------------------------------------------------------ the end of a game


def final_reward(game: Game, reward_mode: str, illegal: bool = False) -> float:
    """The end-of-game part of the reward of the step that ended ``game``: the score / 100
    in ``"score"`` mode; +1 for a win, -1 for a loss (an illegal action's included) in
    ``"win_loss"`` and ``"progress"`` modes."""
    if reward_mode == "score":
        return game.score() / SCORE_SCALE
    return 1.0 if game.won and not illegal else -1.0


def final_stats(game: Game, steps: int, illegal: bool = False) -> dict[str, Any]:
    """The last ``info`` of an episode beyond the mask: ``final_score``, ``won``, ``level``,
    ``fights``, ``steps`` (decisions taken), ``hazards_beaten``, ``pirates_beaten``,
    ``end_step`` (the step it ended in: an index of `END_STEPS`), and ``illegal_action`` (True)
    when an illegal action ended it (as a loss)."""
    stats = {
        "final_score": game.score(),
        "won": False if illegal else game.won,
        "level": game.level,
        "fights": game.fights,
        "steps": steps,
        "hazards_beaten": game.hazards_beaten(),
        "pirates_beaten": game.pirates_beaten(),
        "end_step": int(game.step),
    }
    if illegal:
        stats["illegal_action"] = True
    return stats
