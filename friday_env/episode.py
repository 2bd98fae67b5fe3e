"""The rules of an episode of ``Friday-v0``, written once for both envs.

The single env (``FridayEnv``) and the vector env's Python path (``FridayVectorEnv`` on
``core="python"``) call these functions; the vector env's compiled path
(``friday_env/_core/vecenv.c``) implements the same rules in C for speed and names the
function here that defines each one. What they define:

- the option checks shared by both envs (``reward``, ``illegal_action``; ``core`` is
  checked by `friday_env.core.check_core`, as everywhere);
- the seed rule: each game's seed is one draw from the env's generator;
- rewards: 0 until the game ends, then +1/-1 (``"win_loss"``) or the score / 100
  (``"score"``);
- illegal actions: in ``"loss"`` mode an action id outside the mask ends the episode as a
  lost game; anything else that is not legal raises;
- the statistics of an ended game (``final_score``, ``won``, ``level``, ``fights``,
  ``steps``, ``illegal_action``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from friday_env.actions import action_id_of
from friday_env.core import Game
from friday_env.errors import EnvOptionError

#: Reward modes: ``"win_loss"`` gives +1/-1 at the end, ``"score"`` the final score (R25)
#: divided by ``SCORE_SCALE``.
REWARD_MODES = ("win_loss", "score")
#: Divisor of the final score in ``reward="score"``: scores run from about -150 to 200, so
#: rewards stay within a few units, the scale PPO's value function learns well.
SCORE_SCALE = 100.0
#: What an action outside the mask does: ``"loss"`` (the default) ends the episode as a lost
#: game with a warning, ``"raise"`` raises ``IllegalActionError``.
ILLEGAL_ACTION_MODES = ("loss", "raise")
#: The dtype of every mask: Gymnasium's (``Discrete.sample(mask=...)`` wants int8).
MASK_DTYPE = np.int8
#: The statistics of an ended game, in the order of the compiled vector env's rows (vecenv.h).
STATS = ("final_score", "won", "level", "fights", "steps", "illegal_action")
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


# ------------------------------------------------------------------ the end of a game


def final_reward(game: Game, reward_mode: str, illegal: bool = False) -> float:
    """The reward of the step that ended ``game`` (every other step gives 0): the score / 100
    in ``"score"`` mode; +1 for a win, -1 for a loss (an illegal action's included)."""
    if reward_mode == "score":
        return game.score() / SCORE_SCALE
    return 1.0 if game.won and not illegal else -1.0


def final_stats(game: Game, steps: int, illegal: bool = False) -> dict[str, Any]:
    """The last ``info`` of an episode beyond the mask: ``final_score``, ``won``, ``level``,
    ``fights``, ``steps`` (decisions taken), and ``illegal_action`` (True) when an illegal
    action ended it (as a loss)."""
    stats = {
        "final_score": game.score(),
        "won": False if illegal else game.won,
        "level": game.level,
        "fights": game.fights,
        "steps": steps,
    }
    if illegal:
        stats["illegal_action"] = True
    return stats
