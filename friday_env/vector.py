"""The native vector env of ``Friday-v0``: N games stepped together, in one C call.

``gymnasium.make_vec("Friday-v0", num_envs=N, vectorization_mode="vector_entry_point")``
gives a [`FridayVectorEnv`][friday_env.vector.FridayVectorEnv]. It returns what a
``gymnasium.vector.SyncVectorEnv`` of N ``Friday-v0`` envs with
``autoreset_mode=AutoresetMode.SAME_STEP`` returns, array for array (the tests check it), without a
Python loop over the envs: on the compiled core one call plays every env's action, encodes the flat
observations and writes the masks.

- Actions: one action id per env (an integer array of shape ``(N,)``). Before anything
  moves, every action is checked: an id outside ``Discrete(199)`` raises, and so does an
  illegal one with ``illegal_action="raise"``; the error names the env and the action, and
  no env is stepped. With ``illegal_action="loss"`` (the default, as in the single env) an
  illegal action ends that env's game as a loss.
- Observations: ``float32`` of shape ``(N, 991)``, the ``"flat"`` encoding.
- ``info["action_mask"]``: the ``(N, 199)`` ``int8`` masks of the games now in play.
- Same-step autoreset: a game that ends is replaced by the env's next game in the same
  step; that env's row of the observation and mask is the new game's first, its reward and
  ``terminated`` are the ended game's, and ``info["final_obs"]`` (an object array, ``None``
  for the other envs) and ``info["final_info"]`` (the single env's last info: ``final_score``,
  ``won``, ``level``, ``fights``, ``steps``, ``hazards_beaten``, ``pirates_beaten``,
  ``end_step``, ``action_mask``, and ``illegal_action`` where one ended a game) hold the ended
  game, each with its ``_key`` mask of envs.
- Seeds: ``reset(seed=s)`` seeds env i with ``s + i`` as ``SyncVectorEnv`` does, and env i
  then deals exactly the games ``Friday-v0`` reset with seed ``s + i`` deals, autoresets
  included. ``reset(options={"deal": [d0, d1, ...]})`` starts env i on ``Game.new(level, di)``.
- Choosing the games (for trainers):
  [`FridayVectorEnv.set_next_deals`][friday_env.vector.FridayVectorEnv.set_next_deals] sets the deal
  each env starts when its current game ends (the next autoreset uses it, later ones draw again),
  and [`FridayVectorEnv.set_game`][friday_env.vector.FridayVectorEnv.set_game] makes env i play a
  copy of a given game from its current state (a reverse curriculum starts episodes late in earlier
  games). [`FridayVectorEnv.set_progress_coef`][friday_env.vector.FridayVectorEnv.set_progress_coef]
  changes ``reward="progress"``'s coefficient between steps (a trainer that anneals it).

``docs/compiled-core.md`` documents the options and errors. On the Python core
(``core="python"``) the same class loops over reference-engine games: slower, identical
results. The rules of an episode (rewards, illegal actions, seeds, the option checks) are
[`friday_env.episode`][friday_env.episode]'s, as the single env's; ``vecenv.c`` implements them
in C.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from friday_env.actions import NUM_ACTIONS, action_mask, action_name
from friday_env.core import Game, VecEnvCore, check_core, is_game, python_copy, to_core
from friday_env.engine.soundness import unsound
from friday_env.episode import (
    ILLEGAL_ACTION_MODES,
    MASK_DTYPE,
    REWARD_MODES,
    STATS,
    check_illegal_action_mode,
    check_progress_coef,
    check_reward_mode,
    draw_game_seed,
    final_stats,
    illegal_action_ends_game,
    progress,
    step_reward,
)
from friday_env.errors import EnvOptionError, IllegalActionError, StateError, check_level
from friday_env.observation import FLAT_SIZE, FlatEncoder
from friday_env.observation.flat import flat_space
from friday_env.observation.shared_spaces import built_once


def _is_game_seed(value: object) -> bool:
    """An int or numpy integer (bools not) that the compiled core takes as a game seed."""
    integer = isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))
    return integer and 0 <= int(value) < 2**64  # type: ignore[call-overload]


@built_once
def _batched_observation_space(num_envs: int) -> spaces.Space:
    return batch_space(flat_space(), num_envs)


@built_once
def _batched_action_space(num_envs: int) -> spaces.Space:
    return batch_space(spaces.Discrete(NUM_ACTIONS), num_envs)


class _Buffers:
    """What a reset or step writes: arrays allocated once, row i for env i."""

    def __init__(self, num_envs: int) -> None:
        self.obs = np.zeros((num_envs, FLAT_SIZE), np.float32)
        self.masks = np.zeros((num_envs, NUM_ACTIONS), MASK_DTYPE)
        self.rewards = np.zeros(num_envs, np.float64)
        self.terminated = np.zeros(num_envs, np.bool_)
        self.truncated = np.zeros(num_envs, np.bool_)
        self.final_obs = np.zeros((num_envs, FLAT_SIZE), np.float32)
        self.final_stats = np.zeros((num_envs, len(STATS)), np.int32)
        self.next_seeds = np.zeros(num_envs, np.uint64)  # each env's next game seed


@dataclass(frozen=True)
class _Rules:
    """An env's rules of an episode, checked: its level, reward mode and coefficient, and
    illegal-action mode."""

    level: int
    reward: str
    progress_coef: float
    illegal: str


class _CompiledBatch:
    """The envs on the compiled core: one ``VecEnvCore`` call per reset or step."""

    def __init__(self, num_envs: int, rules: _Rules, out: _Buffers):
        self.core = VecEnvCore(  # present: check_core said so
            num_envs,
            rules.level,
            REWARD_MODES.index(rules.reward),
            rules.progress_coef,
            ILLEGAL_ACTION_MODES.index(rules.illegal),
            out.obs,
            out.masks,
            out.rewards,
            out.terminated,
            out.truncated,
            out.final_obs,
            out.final_stats,
            out.next_seeds,
        )

    def reset(self, seeds: np.ndarray) -> None:
        self.core.reset(seeds)

    def check(self, actions: np.ndarray) -> int:
        return int(self.core.check(actions))

    def step(self, actions: np.ndarray) -> int:
        return int(self.core.step(actions))

    def set_game(self, i: int, game: Any) -> None:
        self.core.set_game(i, to_core(game, "c"))

    def set_progress_coef(self, coef: float) -> None:
        self.core.set_progress_coef(coef)


class _PythonBatch:
    """The envs on the reference engine, the same rules as `_CompiledBatch` in a loop
    (and as [`friday_env.env.FridayEnv`][friday_env.env.FridayEnv]: both follow
    [`friday_env.episode`][friday_env.episode])."""

    def __init__(self, num_envs: int, rules: _Rules, out: _Buffers):
        self.level, self.reward, self.illegal = rules.level, rules.reward, rules.illegal
        self.progress_coef = rules.progress_coef
        self.out = out
        self.games: list[Game] = []
        self.steps = [0] * num_envs
        self.progress = [0] * num_envs  # hazards and pirates beaten (progress mode)
        self.encoders = [FlatEncoder() for _ in range(num_envs)]

    def reset(self, seeds: np.ndarray) -> None:
        self.games = [Game.new(self.level, int(seed), core="python") for seed in seeds]
        for i in range(len(self.games)):
            self._start_counts(i)
            self._write_live(i)

    def check(self, actions: np.ndarray) -> int:
        for i, action in enumerate(actions.tolist()):
            legal = action in self.games[i].legal_actions()
            if not legal and not illegal_action_ends_game(action, self.illegal):
                return i
        return -1

    def step(self, actions: np.ndarray) -> int:
        out, ended = self.out, 0
        for i, action in enumerate(actions.tolist()):
            game = self.games[i]
            illegal = action not in game.legal_actions()
            made = 0
            if not illegal:
                game.apply(action)
                self.steps[i] += 1
                made = self._progress_made(i)
            out.rewards[i] = step_reward(game, self.reward, self.progress_coef, made, illegal)
            out.truncated[i] = False
            out.terminated[i] = illegal or game.done
            if out.terminated[i]:
                self._end_game(i, illegal)
                ended += 1
            self._write_live(i)
        return ended

    def set_game(self, i: int, game: Any) -> None:
        copy = python_copy(game)
        problem = unsound(copy)  # as the compiled core refuses it: before anything changes
        if problem is not None:
            raise StateError(problem)
        self.games[i] = copy
        self._start_counts(i)
        self._write_live(i)

    def set_progress_coef(self, coef: float) -> None:
        self.progress_coef = coef

    def _start_counts(self, i: int) -> None:
        self.steps[i] = 0
        # counted with a coefficient of 0 too: set_progress_coef may raise it mid-game
        self.progress[i] = progress(self.games[i]) if self.reward == "progress" else 0

    def _progress_made(self, i: int) -> int:
        """Hazards and pirates env i's game beat in its last step (0 outside progress mode)."""
        if self.reward != "progress":
            return 0
        before, self.progress[i] = self.progress[i], progress(self.games[i])
        return self.progress[i] - before

    def _write_live(self, i: int) -> None:
        self.out.obs[i] = self.encoders[i].encode(self.games[i])
        self.out.masks[i] = action_mask(self.games[i], MASK_DTYPE)

    def _end_game(self, i: int, illegal: bool) -> None:
        game, out = self.games[i], self.out
        out.final_obs[i] = self.encoders[i].encode(game)
        stats = final_stats(game, self.steps[i], illegal)
        out.final_stats[i] = [stats.get(key, False) for key in STATS]
        self.games[i] = Game.new(self.level, int(out.next_seeds[i]), core="python")
        self._start_counts(i)


class FridayVectorEnv(VectorEnv):
    """``num_envs`` games of *Friday* stepped together (module docstring: the contract).

    ```python
    gymnasium.make_vec("Friday-v0", num_envs=64, vectorization_mode="vector_entry_point",
                       level=1, reward="win_loss", progress_coef=None, illegal_action=None,
                       core=None)
    ```

    - ``level``, ``reward``, ``progress_coef``, ``illegal_action``: as for
      ``gymnasium.make("Friday-v0")``.
    - ``observation``: ``"flat"`` only (other encoders: ``vectorization_mode="sync"``).
    - ``core``: ``"c"`` (one C call per step) or ``"python"``; None is the default core
      ([`friday_env.core.default_core`][friday_env.core.default_core]: ``FRIDAY_CORE``, else the
      compiled one where it is built).
    - ``copy``: return copies of the observation and mask arrays (the default, as
      ``SyncVectorEnv``); ``copy=False`` returns the env's own arrays, overwritten by the
      next step.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int = 1,
        level: int = 1,
        observation: str = "flat",
        reward: str = "win_loss",
        illegal_action: str | None = None,
        render_mode: str | None = None,
        core: str | None = None,
        copy: bool = True,
        progress_coef: float | None = None,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise EnvOptionError(f"num_envs must be a positive integer, got {num_envs!r}")
        self.level = check_level(level)
        if observation != "flat":
            raise EnvOptionError(
                f"the vector env gives observation='flat' only, got {observation!r}; for "
                "other observations use gymnasium.make_vec(..., vectorization_mode='sync')"
            )
        if render_mode is not None:
            raise EnvOptionError(
                f"the vector env does not render (render_mode={render_mode!r}); render a "
                "single env (gymnasium.make('Friday-v0', render_mode=...)) instead"
            )
        self.reward_mode = check_reward_mode(reward)
        self.progress_coef = check_progress_coef(self.reward_mode, progress_coef)
        self.illegal_action, self._warn_illegal = check_illegal_action_mode(illegal_action)
        self.core = check_core(core)
        self.copy = copy
        self.num_envs = num_envs
        self.render_mode = None
        self.single_observation_space = flat_space()
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = _batched_observation_space(num_envs)
        self.action_space = _batched_action_space(num_envs)
        self._out = _Buffers(num_envs)
        batch = _CompiledBatch if self.core == "c" else _PythonBatch
        rules = _Rules(self.level, self.reward_mode, self.progress_coef, self.illegal_action)
        self._batch = batch(num_envs, rules, self._out)
        self._env_rngs: list[np.random.Generator | None] = [None] * num_envs
        self._started = False

    # ------------------------------------------------------------------ API

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[np.ndarray, dict[str, Any]]:
        deals = self._checked_reset_options(options)
        seeds = self._per_env_seeds(seed)
        super().reset(seed=seed if isinstance(seed, int) else None)
        game_seeds = np.zeros(self.num_envs, np.uint64)
        for i, env_seed in enumerate(seeds):
            if env_seed is not None or self._env_rngs[i] is None:
                self._env_rngs[i] = seeding.np_random(env_seed)[0]
            # drawn even for a deal, as the single env draws it
            game_seeds[i] = self._draw_game_seed(i)
            self._out.next_seeds[i] = self._draw_game_seed(i)
        if deals is not None:
            game_seeds[:] = deals
        self._batch.reset(game_seeds)
        self._started = True
        return self._observations(), self._live_info()

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        if not self._started:
            raise EnvOptionError("step() before reset(): call reset() first")
        actions = self._checked_actions(actions)
        refused = self._batch.check(actions)
        if refused >= 0:
            raise self._refusal(refused, int(actions[refused]))
        ended = self._batch.step(actions)
        out = self._out
        info = self._live_info()
        if ended:
            info |= self._final_info()
            for i in np.flatnonzero(out.terminated):
                out.next_seeds[i] = self._draw_game_seed(int(i))
        return (
            self._observations(),
            out.rewards.copy(),
            out.terminated.copy(),
            out.truncated.copy(),
            info,
        )

    def set_next_deals(self, deals: Sequence[int] | np.ndarray) -> None:
        """Env i's next game (the one its next autoreset starts) is ``Game.new(level,
        deals[i])``; the autoresets after that draw their seeds as usual. A trainer that
        must play chosen deals only (e.g. training deals) calls this after ``reset`` and
        after every step in which a game ended. Bad deals raise ``EnvOptionError`` and
        change nothing."""
        self._out.next_seeds[:] = self._checked_deals("set_next_deals: deals", deals)

    def set_game(self, env: int, game: Any) -> tuple[np.ndarray, np.ndarray]:
        """Env ``env`` plays a copy of ``game`` (a game of either core, of this env's level,
        not over, in a state the rules can reach: `friday_env.engine.soundness`) from its
        current state, its step count from 0; returns that env's new observation row and
        action mask row (copies). The next autoreset is unchanged. Anything else raises
        ``EnvOptionError`` (naming the field for an unsound state, on both cores) and changes
        nothing."""
        if not self._started:
            raise EnvOptionError("set_game() before reset(): call reset() first")
        if isinstance(env, bool) or not isinstance(env, (int, np.integer)):
            raise EnvOptionError(f"set_game: env must be an int, got {env!r}")
        if not 0 <= int(env) < self.num_envs:
            raise EnvOptionError(f"set_game: env {env} is not in 0..{self.num_envs - 1}")
        if not is_game(game):
            raise EnvOptionError(f"set_game: game must be a Friday game, got {type(game)!r}")
        if game.level != self.level or game.done:
            raise EnvOptionError(
                f"set_game: the game must be of level {self.level} and not over "
                f"(got level {game.level}{', over' if game.done else ''})"
            )
        try:
            self._batch.set_game(int(env), game)
        except StateError as err:  # both cores refuse states the rules cannot reach
            raise EnvOptionError(f"set_game: {err}") from None
        return self._out.obs[env].copy(), self._out.masks[env].copy()

    def set_progress_coef(self, progress_coef: float) -> None:
        """The progress reward's coefficient from the next step on, in every env (a trainer
        anneals it between steps; the games in play keep their counts, so a hazard beaten
        later pays the new coefficient). A finite number >= 0, and the env's reward must be
        ``"progress"``; anything else raises ``EnvOptionError`` in one line and changes
        nothing."""
        if self.reward_mode != "progress":
            raise EnvOptionError(
                f"set_progress_coef: the env's reward is {self.reward_mode!r}; a progress "
                "coefficient is only for reward='progress'"
            )
        coef = check_progress_coef(self.reward_mode, progress_coef)
        self._batch.set_progress_coef(coef)
        self.progress_coef = coef

    def close_extras(self, **kwargs: Any) -> None:
        self._started = False

    # -------------------------------------------------------------- helpers

    def _draw_game_seed(self, i: int) -> int:
        rng = self._env_rngs[i]
        assert rng is not None
        return draw_game_seed(rng)

    def _per_env_seeds(self, seed: int | Sequence[int | None] | None) -> list[int | None]:
        """``SyncVectorEnv``'s rule: an int ``s`` seeds env i with ``s + i``; a sequence gives
        one seed (or None) per env."""
        if seed is None:
            return [None] * self.num_envs
        if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
            return [int(seed) + i for i in range(self.num_envs)]
        if not isinstance(seed, Sequence) or len(seed) != self.num_envs:
            raise EnvOptionError(
                f"seed must be an int, None or a sequence of {self.num_envs} seeds, got {seed!r}"
            )
        return list(seed)

    def _checked_reset_options(self, options: dict[str, Any] | None) -> np.ndarray | None:
        """The per-env deals of ``options={"deal": [...]}``, or None; anything else is
        refused before anything changes."""
        options = options or {}
        unknown = sorted(set(options) - {"deal"})
        if unknown:
            raise EnvOptionError(
                f"unknown reset options {unknown} for the vector env; it knows 'deal' (one "
                "game seed per env); scenarios need the single env"
            )
        if "deal" not in options:
            return None
        return self._checked_deals("options['deal']", options["deal"])

    def _checked_deals(self, name: str, deals: Any) -> np.ndarray:
        # every uint64 is a seed: a trainer's array of deals is checked in one test, not one
        # Python call per env (it sets them after every step in which a game ended)
        uint64 = isinstance(deals, np.ndarray) and deals.dtype == np.uint64 and deals.ndim == 1
        if uint64 and len(deals) == self.num_envs:
            return deals.copy()
        if (
            not isinstance(deals, (Sequence, np.ndarray))
            or len(deals) != self.num_envs
            or not all(_is_game_seed(deal) for deal in deals)
        ):
            raise EnvOptionError(
                f"{name} must be {self.num_envs} integer game seeds in 0..2**64-1 "
                f"(one per env), got {deals!r}"
            )
        return np.array([int(deal) for deal in deals], np.uint64)

    def _checked_actions(self, actions: Any) -> np.ndarray:
        array = np.asarray(actions)
        if array.dtype.kind not in "iu":
            raise TypeError(
                f"actions must be integer action ids, one per env; got dtype {array.dtype}"
            )
        if array.shape != (self.num_envs,):
            raise ValueError(
                f"actions must have shape ({self.num_envs},), one action id per env; "
                f"got shape {array.shape}"
            )
        if array.dtype.kind == "u" and (array > np.iinfo(np.int64).max).any():
            i = int(np.flatnonzero(array > np.iinfo(np.int64).max)[0])
            raise IllegalActionError(f"env {i}: action {array[i]} is not an action id (0..198)")
        return np.ascontiguousarray(array, np.int64)

    def _refusal(self, env: int, action: int) -> IllegalActionError:
        if not 0 <= action < NUM_ACTIONS:
            return IllegalActionError(
                f"env {env}: action {action} is not an action id (0..{NUM_ACTIONS - 1}); "
                "no env was stepped"
            )
        legal = np.flatnonzero(self._out.masks[env]).tolist()
        return IllegalActionError(
            f"env {env}: action {action} ({action_name(action)}) is not legal in its game "
            f"(legal: {legal}); no env was stepped (illegal_action='raise')"
        )

    def _observations(self) -> np.ndarray:
        return self._out.obs.copy() if self.copy else self._out.obs

    def _live_info(self) -> dict[str, Any]:
        masks = self._out.masks
        return {
            "action_mask": masks.copy() if self.copy else masks,
            "_action_mask": np.ones(self.num_envs, np.bool_),
        }

    def _final_info(self) -> dict[str, Any]:
        """``final_obs`` and ``final_info`` of the envs whose game ended, in
        ``SyncVectorEnv``'s layout (each key with its ``_key`` mask; values 0 elsewhere).
        Built with few numpy calls: this runs on most steps of a wide vector env."""
        out = self._out
        ended = out.terminated.copy()
        final_obs = np.full(self.num_envs, None, dtype=object)
        for i in np.flatnonzero(ended):
            final_obs[i] = out.final_obs[i].copy()
        # one row per statistic, zero for the envs that did not end
        stats = (out.final_stats * ended[:, None]).T.astype(np.int64)
        keys = ("action_mask", *STATS[:-1])
        masks = np.repeat(ended[None], len(keys), axis=0)  # a row per key
        final_info: dict[str, Any] = {
            "action_mask": np.zeros((self.num_envs, NUM_ACTIONS), MASK_DTYPE)
        }
        for k, key in enumerate(STATS[:-1]):
            final_info[key] = stats[k].astype(np.bool_) if key == "won" else stats[k]
        final_info |= {f"_{key}": masks[k] for k, key in enumerate(keys)}
        illegal = stats[-1] != 0
        if illegal.any():
            final_info["illegal_action"] = illegal
            final_info["_illegal_action"] = illegal.copy()
            self._warn_illegal_once(int(np.flatnonzero(illegal)[0]))
        return {
            "final_obs": final_obs,
            "_final_obs": ended,
            "final_info": final_info,
            "_final_info": ended.copy(),
        }

    def _warn_illegal_once(self, env: int) -> None:
        if not self._warn_illegal:
            return
        self._warn_illegal = False
        warnings.warn(
            f"Friday-v0 vector env: an illegal action in env {env} ended its game as a loss "
            "(illegal_action='loss', the default); sample from info['action_mask'] to stay "
            "legal, or pass illegal_action='raise' to get an error. Later illegal actions "
            "are not reported.",
            UserWarning,
            stacklevel=3,
        )
