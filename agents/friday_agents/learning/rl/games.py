"""``friday rl``'s training games: the vector env that plays them, each env's game in play kept
as its deal and actions (so that a resumed run and the reverse curriculum can rebuild it), the
deals drawn next, and what each step pays (the env's reward, ``--shaping``, ``--bonus``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym
import numpy as np
import torch

import friday_env  # noqa: F401  (registers Friday-v0)
from friday_agents.harness.deals import draw_training_deals
from friday_agents.learning.rl.bookkeeping import CpuParts
from friday_agents.learning.rl.config import RLConfig
from friday_agents.learning.rl.curriculum import (
    ReverseCurriculum,
    Start,
    replay,
    won_games_of_file,
)
from friday_agents.learning.rl.levels import MixedLevelEnvs, draw_deals, env_levels
from friday_agents.learning.rl.shaping import RewardTerms


@dataclass
class Episodes:
    """The games in play, one per env, as the deal and the actions since its start (so a
    resumed run and the curriculum can rebuild them), and what finished games gave."""

    seeds: list[int]
    actions: list[list[int]]
    starts: list[Start | None]
    finished: list[tuple[bool, int]] = field(default_factory=list)  # this update's (won, score)


def make_envs(config: RLConfig, num_envs: int, level: int) -> Any:
    """A native vector env of ``num_envs`` games of ``level`` paying ``config``'s reward."""
    reward: dict[str, Any] = {"reward": config.reward}
    if config.reward == "progress":
        reward["progress_coef"] = config.progress_coef
    # illegal_action="raise": a masking bug stops the run instead of ending games as losses
    return gym.make_vec(
        "Friday-v0",
        num_envs,
        vectorization_mode="vector_entry_point",
        level=level,
        illegal_action="raise",
        **reward,
    )


def make_training_envs(config: RLConfig) -> Any:
    """The training games' envs: ``config.num_envs`` games of ``--level``, or of each of
    ``--levels`` in equal shares
    ([`friday_agents.learning.rl.levels`][friday_agents.learning.rl.levels])."""
    levels = config.trained_levels()
    if len(levels) == 1:
        return make_envs(config, config.num_envs, levels[0])
    return MixedLevelEnvs(levels, config.num_envs, lambda level, n: make_envs(config, n, level))


def make_curriculum(config: RLConfig) -> ReverseCurriculum | None:
    """``--method reverse``'s curriculum (None for plain PPO)."""
    if config.method != "reverse":
        return None
    return ReverseCurriculum(
        config.reverse_share,
        config.reverse_start,
        config.reverse_step,
        config.reverse_threshold,
        config.reverse_window,
        config.reverse_archive,
    )


def tensors(obs: np.ndarray, masks: np.ndarray) -> tuple[torch.Tensor, torch.Tensor]:
    """Observations and masks as the networks read them (float32 and bool, no copy where
    the arrays have those types already)."""
    return torch.as_tensor(obs, dtype=torch.float32), torch.as_tensor(masks, dtype=torch.bool)


class TrainingGames:
    """The training env's games (``config.num_envs``, env i of level ``levels[i]``: the
    trained levels' equal shares) and where they are:
    ``obs`` and ``mask`` (each env's current observation and legal actions, as tensors),
    ``episodes`` (the games in play), ``next_deals`` (each env's next deal). Deals and the
    curriculum's choices are drawn from ``rng``, the run's numpy generator."""

    def __init__(self, config: RLConfig, cpu: CpuParts) -> None:
        self.config, self.cpu = config, cpu
        self.envs = make_training_envs(config)
        self.levels = env_levels(config.trained_levels(), config.num_envs)
        self.curriculum = make_curriculum(config)
        self.terms = RewardTerms(config)
        self.finished_fights: list[int] = []  # fights of this update's finished games
        self.rng: np.random.Generator
        self.episodes: Episodes
        self.next_deals: np.ndarray
        self.obs: torch.Tensor
        self.mask: torch.Tensor

    @property
    def visits(self) -> np.ndarray:
        """``--bonus counts``: the visits of each cell so far."""
        return self.terms.visits

    def seed_archive(self) -> None:
        """``--archive-from``: the file's won games enter the archive in file order, before
        any game of the run (so they are its first, in ``order``; from then on they live in
        the archive and the checkpoint like the agent's own games)."""
        if not self.config.archive_from or self.curriculum is None:
            return
        for game in won_games_of_file(self.config.archive_from, self.config.level, self.envs.core):
            self.curriculum.add_game(game.seed, list(game.actions), won=True, score=game.score)

    def start(self, rng: np.random.Generator) -> None:
        """A new run's first games: a training deal for each env, and the next ones."""
        self.rng = rng
        deals = draw_deals(self.levels, rng)
        self.episodes = Episodes([int(s) for s in deals], [[] for _ in deals], [None] * len(deals))
        self.next_deals = draw_deals(self.levels, rng)
        obs, info = self.envs.reset(options={"deal": deals})
        self.envs.set_next_deals(self.next_deals)
        self.obs, self.mask = tensors(obs, info["action_mask"])

    def restore(self, rng: np.random.Generator, episodes: Episodes, next_deals: np.ndarray) -> None:
        """The envs' games as they were at a checkpoint: each deal replayed with its actions
        (the same seed and actions give the same game)."""
        self.rng, self.episodes, self.next_deals = rng, episodes, next_deals
        obs, info = self.envs.reset(options={"deal": episodes.seeds})
        masks = info["action_mask"]
        for i, (seed, actions) in enumerate(zip(episodes.seeds, episodes.actions, strict=True)):
            if actions:
                game = replay(int(self.levels[i]), seed, actions, self.envs.core)
                obs[i], masks[i] = self.envs.set_game(i, game)
        self.envs.set_next_deals(next_deals)
        self.obs, self.mask = tensors(obs, masks)

    def begin_rollout(self) -> None:
        """Forget the last rollout's finished games (an update's curve row counts its own)."""
        self.episodes.finished = []
        self.finished_fights = []
        self._recorded = np.zeros(self.config.num_envs, np.int64)

    def step(
        self, actions: np.ndarray, taken: torch.Tensor, t: int
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Step every env with ``actions`` (step ``t`` of the rollout, whose actions so far
        are ``taken``): the shaped reward and the done flags."""
        obs_before = self.obs.numpy()
        potential_before = self.terms.potential(obs_before)
        with self.cpu.part("env"):
            obs, reward, terminated, truncated, info = self.envs.step(actions)
        masks = info["action_mask"]
        # gamma * phi(s') - phi(s) with no potential after the end (read before a new game
        # replaces the ended env's row)
        reward = reward + self.terms.potential(obs) * (1.0 - terminated) - potential_before
        reward = reward + self.terms.exploration_bonus(obs_before, obs, terminated)
        ended = np.flatnonzero(terminated)
        if len(ended):
            self.record_actions(ended, t + 1, taken)
            final = info["final_info"]
            for i in ended.tolist():
                self._game_ended(i, bool(final["won"][i]), int(final["final_score"][i]))
                self.finished_fights.append(int(final["fights"][i]))
                self._next_game(i, obs, masks)
            self.envs.set_next_deals(self.next_deals)
        self.obs, self.mask = tensors(obs, masks)
        done = torch.as_tensor(np.logical_or(terminated, truncated), dtype=torch.float32)
        return torch.as_tensor(reward, dtype=torch.float32), done

    def record_actions(self, envs: np.ndarray, until: int, actions: torch.Tensor) -> None:
        """Add the rollout's actions of ``envs`` up to step ``until`` (excluded) to their
        games' action lists: one list operation per env when its game ends or the rollout
        does, rather than one per env and step."""
        taken = actions.numpy()
        for i in envs.tolist():
            self.episodes.actions[i].extend(taken[self._recorded[i] : until, i].tolist())
            self._recorded[i] = until

    def _game_ended(self, i: int, won: bool, score: int) -> None:
        episodes = self.episodes
        episodes.finished.append((won, score))
        if self.curriculum is None:
            return
        self.curriculum.add_game(episodes.seeds[i], episodes.actions[i], won, score)
        start = episodes.starts[i]
        if start is not None:
            self.curriculum.record(start, won, score)

    def _next_game(self, i: int, obs: np.ndarray, masks: np.ndarray) -> None:
        """Env i has started its pending training deal; the curriculum may put it in an
        archived state instead (rows ``i`` of ``obs`` and ``masks`` follow)."""
        episodes = self.episodes
        episodes.seeds[i], episodes.actions[i], episodes.starts[i] = (
            int(self.next_deals[i]),
            [],
            None,
        )
        self.next_deals[i] = draw_training_deals(int(self.levels[i]), 1, self.rng)[0]
        start = self.curriculum.choose_start(self.rng) if self.curriculum is not None else None
        if start is None:
            return
        game = replay(self.config.level, start.seed, start.prefix, self.envs.core)
        obs[i], masks[i] = self.envs.set_game(i, game)
        episodes.seeds[i], episodes.actions[i], episodes.starts[i] = (
            start.seed,
            list(start.prefix),
            start,
        )
