"""The masked PPO trainer of ``friday rl`` (``docs/rl.md`` explains the method).

One update: every env plays ``num_steps`` steps with the current policy (sampled from the
legal actions only), advantages come from generalized advantage estimation, then
``epochs`` passes of clipped policy updates over shuffled minibatches. During the
critic warm-up only the value loss is minimised and the actor is not touched. After it, with
a start policy (``--init``), the loss adds ``kl_coef * KL(start || policy)`` on the batch
states, and ``kl_coef`` is multiplied by ``kl_decay`` at every held-out evaluation whose
win rate holds at or above the start's.

A run folder holds ``config.json``, ``checkpoint.pt`` (everything a resumed run needs: the
networks, the optimiser, the RNG states, the counters, the curriculum, and the games in
play as their deals and actions), ``curve.jsonl`` (a row per update) and ``policy.npz``
(the networks as a PolicyNetwork, for ``net:model=...``). Runs are deterministic for a
seed: every random draw comes from the run's own numpy and torch generators, and a run
resumed from a checkpoint continues exactly as the uninterrupted run would have.

``--device``: the networks act and learn on the CPU (the sparse first-layer kernel,
``friday_agents.learning.rl.sparse``) or on a GPU (the same functions as dense torch operations).
On a GPU each step's observations and masks are copied to it once, into the rollout's
buffers, which the update then reads where they are; the torch generator stays on the CPU
(its draws are copied over), so a run draws the same numbers on either device and resumes on
the other.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from torch import nn

import friday_env  # noqa: F401  (registers Friday-v0)
from friday_agents.harness.curve import CURVE_FILE, append_row, keep_rows, read_curve
from friday_agents.harness.deals import draw_training_deals, heldout_deals
from friday_agents.harness.device import torch_device
from friday_agents.harness.errors import BadInputError
from friday_agents.harness.files import read_model_file, replace_atomically
from friday_agents.harness.interrupts import stop_at_a_boundary
from friday_agents.harness.progress import BAR_FORMAT, format_duration
from friday_agents.learning.networks import (
    MASKED_LOGIT,
    ActorCritic,
    hidden_sizes,
    kl_to_reference,
)
from friday_agents.learning.rl.config import RLConfig, RLConfigError
from friday_agents.learning.rl.curriculum import (
    ReverseCurriculum,
    Start,
    replay,
    won_games_of_file,
)
from friday_agents.learning.rl.group import cuda_device_of, join
from friday_agents.learning.rl.sparse import (
    PADDING_LOGIT,
    DenseRows,
    SparseRows,
    Store,
    actor_critic,
    first_of,
    kernel_built,
    legal_ids,
    policy_logits,
    table_of,
    values,
)
from friday_env.observation.layout import FLAT_LAYOUT, MAX_FIGHTS

CONFIG_FILE, CHECKPOINT_FILE = "config.json", "checkpoint.pt"
#: Where the flat observation holds "fights finished so far / 50" (``--shaping fights``).
FIGHTS_FEATURE = FLAT_LAYOUT.offsets["fights"]
#: The features ``--bonus counts`` reads its cells from, and how many values each takes.
#: Life is left out on purpose: with it, losing life fast reached rare cells too.
BEATEN_FEATURE = FLAT_LAYOUT.offsets["beaten_pirates"]
STEP_FEATURES = slice(FLAT_LAYOUT.offsets["step"], FLAT_LAYOUT.offsets["step"] + 4)
FIGHT_CELLS, BEATEN_CELLS = MAX_FIGHTS + 1, 3
NUM_CELLS = FIGHT_CELLS * 4 * BEATEN_CELLS
POLICY_FILE = "policy.npz"
#: The temperatures ``--init-temperature auto`` tries, and how close to the best sampled
#: win rate the chosen (largest such) one must come.
TEMPERATURES = (1.0, 0.5, 0.2, 0.1, 0.05, 0.02)
CALIBRATION_SHARE = 0.9


@dataclass
class Episodes:
    """The games in play, one per env, as the deal and the actions since its start (so a
    resumed run and the curriculum can rebuild them), and what finished games gave."""

    seeds: list[int]
    actions: list[list[int]]
    starts: list[Start | None]
    finished: list[tuple[bool, int]] = field(default_factory=list)  # this update's (won, score)


class Rollout(dict):
    """A rollout's tensors by name (steps x envs). Its observations are in the trainer's
    sparse rows; ``obs`` gives them dense (steps x envs x 991), built when first read and
    only while those rows still hold this rollout (until the next one starts): the update
    never reads them dense, and a 32 MB copy per rollout would cost more than it shows."""

    def __init__(self, rows: Store, shape: tuple[int, int, int]) -> None:
        super().__init__()
        self.rows, self.shape, self.generation = rows, shape, rows.generation

    def __missing__(self, key: str) -> torch.Tensor:
        if key != "obs":
            raise KeyError(key)
        if self.rows.generation != self.generation:
            raise RuntimeError("a later rollout has replaced this one's observations")
        steps, n, width = self.shape
        self["obs"] = self.rows.dense(torch.arange(steps * n), width).reshape(self.shape)
        return self["obs"]


class CpuParts:
    """CPU seconds (``time.process_time``, in ``seconds``) and wall seconds (in ``wall``)
    spent in each named part of the work, added up since the trainer started: ``env`` (the
    vector env's steps), ``acting`` (the networks' forward and the action draws of the
    rollouts, the observations' non-zeros included), ``learning`` (advantages and the PPO
    updates, the gradients' averaging included), ``communication`` (averaging the gradients
    over the processes of a data-parallel run, inside ``learning``). The rest of an update is
    bookkeeping."""

    def __init__(self) -> None:
        self.seconds = {"env": 0.0, "acting": 0.0, "learning": 0.0, "communication": 0.0}
        self.wall = dict(self.seconds)
        self._parts = {name: _TimedPart(self, name) for name in self.seconds}

    def part(self, name: str) -> _TimedPart:
        """A context that adds its time to part ``name`` (only ``communication`` nests,
        in ``learning``)."""
        return self._parts[name]

    def wall_split(self) -> dict[str, float]:
        """The wall seconds of each part, ``learning`` without its ``communication``."""
        split = {name: round(seconds, 3) for name, seconds in self.wall.items()}
        split["learning"] = round(split["learning"] - split["communication"], 3)
        return split


class _TimedPart:
    """One part's timer, reused at every step (a context manager class: a generator-based
    one costs a few microseconds more per use, three uses per env step)."""

    __slots__ = ("name", "parts", "start", "start_wall")

    def __init__(self, parts: CpuParts, name: str) -> None:
        self.parts, self.name, self.start, self.start_wall = parts, name, 0.0, 0.0

    def __enter__(self) -> None:
        self.start, self.start_wall = time.process_time(), time.perf_counter()

    def __exit__(self, *exc: object) -> None:
        self.parts.seconds[self.name] += time.process_time() - self.start
        self.parts.wall[self.name] += time.perf_counter() - self.start_wall


class TrainingInterrupted(Exception):
    """Ctrl-C stopped a run after ``updates`` updates; its checkpoint was saved there."""

    def __init__(self, updates: int, frames: int) -> None:
        super().__init__(f"interrupted after update {updates}")
        self.updates, self.frames = updates, frames


class Trainer:
    """A ``friday rl`` run in ``config.out`` (new, or resumed from its checkpoint)."""

    def __init__(self, config: RLConfig, resume: bool = False, progress: bool = False) -> None:
        self.config = config.resolved().validate()
        self.out = Path(self.config.out)
        self.progress = progress
        torch.set_num_threads(1)  # small networks: more threads only add contention
        self.batch = self.config.num_envs * self.config.num_steps
        # a rollout's observations as their non-zeros, and the one after its last step
        self.device = torch.device(torch_device(self.config.device))
        self.group = join(self.device)  # one process, or one of a torchrun run's
        if self.device.type == "cuda" and self.group.world > 1:
            self.device = cuda_device_of(self.group.rank)
            torch.cuda.set_device(self.device)
        # the frames played in whole rollouts of every process
        per_update = self.batch * self.group.world
        frames = -(-self.config.frames // per_update) * per_update
        self.config = dataclasses.replace(self.config, frames=frames)
        self.cpu = CpuParts()  # where the CPU time of the updates goes (friday bench reads it)
        self.envs = _make_envs(self.config, self.config.num_envs, self.config.level)
        width = self.envs.single_observation_space.shape[0]
        self.rows = _observation_rows(self.batch + self.config.num_envs, width, self.device)
        # one vector env per level measured (a vector env plays one level)
        self.eval_envs = {
            level: _make_envs(self.config, self.config.eval_deals, level)
            for level in self.config.eval_level_list()
        }
        self.curriculum = _curriculum(self.config)
        self.finished_fights: list[int] = []  # fights of this update's finished games
        if resume:
            self._load_checkpoint()
        else:
            self._start_fresh()

    # ------------------------------------------------------------------ setup

    def _start_fresh(self) -> None:
        config = self.config
        if (self.out / CHECKPOINT_FILE).exists():
            raise RLConfigError(
                f"{self.out} already holds a run: pass --resume, or choose another --out"
            )
        # each process its own stream of deals and draws (rank 0 the one-process run's)
        rank = self.group.rank
        self.rng = np.random.default_rng(config.seed if rank == 0 else [config.seed, rank])
        self.torch_rng = torch.Generator().manual_seed(config.seed + 1_000_003 * rank)
        with torch.random.fork_rng():  # the weights' initialisation draws from the global RNG
            torch.manual_seed(config.seed)
            # a bad init file stops before any file is written
            self.model = self._initial_model().to(self.device)
        self.group.same_weights(self.model)
        self._seed_archive()  # a bad games file too
        if self.group.main:
            self.out.mkdir(parents=True, exist_ok=True)
            (self.out / CONFIG_FILE).write_text(json.dumps(config.to_dict(), indent=2) + "\n")
            (self.out / CURVE_FILE).write_text("")
        self.reference = copy.deepcopy(self.model.actor).requires_grad_(False)
        self.optimizer = _adam(self.model, config.learning_rate)
        self.frames = self.updates = 0
        self.cpu_seconds = self.wall_seconds = 0.0
        self.kl_coef = config.kl_coef
        self.start_win_rate: float | None = None
        self.visits = np.zeros(NUM_CELLS, np.int64)  # --bonus counts: visits of each cell
        deals = draw_training_deals(config.level, config.num_envs, self.rng)
        self.episodes = Episodes([int(s) for s in deals], [[] for _ in deals], [None] * len(deals))
        self.next_deals = draw_training_deals(config.level, config.num_envs, self.rng)
        obs, info = self.envs.reset(options={"deal": deals})
        self.envs.set_next_deals(self.next_deals)
        self.obs, self.mask = _tensors(obs, info["action_mask"])

    def _seed_archive(self) -> None:
        """``--archive-from``: the file's won games enter the archive in file order, before
        any game of the run (so they are its first, in ``order``; from then on they live in
        the archive and the checkpoint like the agent's own games)."""
        if not self.config.archive_from or self.curriculum is None:
            return
        for game in won_games_of_file(self.config.archive_from, self.config.level, self.envs.core):
            self.curriculum.add_game(game.seed, list(game.actions), won=True, score=game.score)

    def _initial_model(self) -> ActorCritic:
        if not self.config.init:
            return ActorCritic.new(self.config.hidden_sizes())
        try:  # a missing, truncated or foreign file: one line, before anything is written
            return read_model_file(ActorCritic.from_file, self.config.init, "--init file")[0]
        except BadInputError as err:
            raise RLConfigError(str(err)) from None

    def _load_checkpoint(self) -> None:
        path = self.out / CHECKPOINT_FILE
        if not path.exists():
            raise RLConfigError(f"nothing to resume: {path} does not exist")
        try:  # weights only: a checkpoint is never a way to run code
            state = torch.load(path, weights_only=True, map_location="cpu")
        except Exception:  # torch's advice (load it unsafely if trusted) is not ours to give
            raise RLConfigError(
                f"cannot read the checkpoint {path}: it is broken or holds more than tensors "
                "and plain values (a crafted file, or one written before checkpoints held plain "
                "values only); nothing in it that could run code is loaded"
            ) from None
        stored = state.get("world", 1)
        if stored != self.group.world:
            raise RLConfigError(
                f"{path} was written by a run of {stored} process(es): resume it with as many "
                f"(this is {self.group.world})"
            )
        state |= state["ranks"][self.group.rank - 1] if self.group.rank else {}
        self.model = _model_from_state(state["model"]).to(self.device)
        reference = _model_from_state(state["reference"]).to(self.device)
        self.reference = reference.actor.requires_grad_(False)
        self.optimizer = _adam(self.model, self.config.learning_rate)
        self.optimizer.load_state_dict(state["optimizer"])
        for group in self.optimizer.param_groups:  # a checkpoint written before it was fused
            group["fused"], group["foreach"] = True, None
        self.rng = np.random.default_rng()
        self.rng.bit_generator.state = _rng_state(state["numpy_rng"])
        self.torch_rng = torch.Generator()
        self.torch_rng.set_state(state["torch_rng"])
        for name in (
            "frames",
            "updates",
            "cpu_seconds",
            "wall_seconds",
            "kl_coef",
            "start_win_rate",
        ):
            setattr(self, name, state[name])
        if self.curriculum is not None:
            self.curriculum.load_state_dict(state["curriculum"])
        self.episodes = _episodes_from_state(state["episodes"])
        self.next_deals = state["next_deals"].numpy()
        self.visits = state["visits"].numpy()
        if self.group.main:
            self._truncate_curve()
        self._restore_games()

    def _restore_games(self) -> None:
        """The envs' games as they were at the checkpoint: each deal replayed with its
        actions (the same seed and actions give the same game)."""
        obs, info = self.envs.reset(options={"deal": self.episodes.seeds})
        masks = info["action_mask"]
        for i, (seed, actions) in enumerate(
            zip(self.episodes.seeds, self.episodes.actions, strict=True)
        ):
            if actions:
                game = replay(self.config.level, seed, actions, self.envs.core)
                obs[i], masks[i] = self.envs.set_game(i, game)
        self.envs.set_next_deals(self.next_deals)
        self.obs, self.mask = _tensors(obs, masks)

    def _truncate_curve(self) -> None:
        """Drop the curve rows written after the checkpoint (the resumed run writes them
        again)."""
        keep_rows(self.out / CURVE_FILE, "updates", self.updates)

    # ------------------------------------------------------------------ run

    def run(self) -> dict[str, Any]:
        """Train until ``config.frames``; returns the last curve row."""
        bar = _progress_bar(
            self.config.frames, self.frames, not (self.progress and self.group.main)
        )
        row: dict[str, Any] = {}
        try:
            with stop_at_a_boundary() as ctrl_c:  # Ctrl-C: save after the update in progress
                if self.updates == 0 and self.start_win_rate is None:
                    row = self._start()
                while self.frames < self.config.frames and not self._stopping(ctrl_c):
                    row = self._one_update()
                    bar.update(self.batch * self.group.world)
                    frames_left = self.config.frames - self.frames
                    text = _postfix(row, frames_left, self.wall_per_frame)
                    bar.set_postfix_str(text, refresh=False)
                    if self.updates % self.config.checkpoint_every == 0:
                        self.save_checkpoint()
        finally:
            bar.close()
        self.save_checkpoint()
        if ctrl_c.requested:
            raise TrainingInterrupted(self.updates, self.frames)
        return row or self._last_curve_row()

    def _stopping(self, ctrl_c: Any) -> bool:
        """Ctrl-C was pressed (in rank 0: every process stops at the same update)."""
        return bool(self.group.share(ctrl_c.requested))

    def _last_curve_row(self) -> dict[str, Any]:
        """The curve's last row (a resumed run that had nothing left to do)."""
        rows = read_curve(self.out / CURVE_FILE)
        return rows[-1] if rows else {}

    def _start(self) -> dict[str, Any]:
        """Update 0: the start policy's temperature (with ``--init``) and its held-out
        strength, the mark the KL weight's decay compares with."""
        cpu, wall = time.process_time(), time.perf_counter()
        calibration = self._calibrate_temperature()
        self.reference = copy.deepcopy(self.model.actor).requires_grad_(False)
        heldout = self._evaluate_once()
        self.start_win_rate = heldout["heldout_win_rate"]
        self.cpu_seconds += time.process_time() - cpu
        self.wall_seconds += time.perf_counter() - wall
        return self._log({"phase": "start", **calibration}, heldout)

    def _one_update(self) -> dict[str, Any]:
        cpu, wall = time.process_time(), time.perf_counter()
        warmup = self.frames < self.config.warmup_frames
        rollout = self._rollout()
        with self.cpu.part("learning"):
            losses = self._update(rollout, warmup)
        self.frames += self.batch * self.group.world
        self.updates += 1
        periodic = self.config.eval_every > 0 and self.updates % self.config.eval_every == 0
        heldout = self._evaluate_once() if periodic or self.frames >= self.config.frames else {}
        # only the periodic evaluations steer the KL weight: the one that ends a chunk of a
        # resumed run must not, or the run would depend on where it was cut
        if periodic and not warmup:
            self._decay_kl(heldout["heldout_win_rate"])
        self.cpu_seconds += time.process_time() - cpu  # the evaluation's cost included
        self.wall_seconds += time.perf_counter() - wall
        self.wall_per_frame = (time.perf_counter() - wall) / self.batch  # for the ETA
        return self._log({"phase": "warmup" if warmup else "ppo", **losses}, heldout)

    def _decay_kl(self, win_rate: float) -> None:
        """Release the policy a step (halve the KL weight, by default) each time it shows
        it kept the start's strength on the held-out deals."""
        if self.start_win_rate is not None and win_rate >= self.start_win_rate:
            self.kl_coef *= self.config.kl_decay

    # ------------------------------------------------------------------ rollout

    def _rollout(self) -> Rollout:
        """Every env plays ``num_steps`` steps. The observations go into ``self.rows`` as
        their non-zeros (the update reads them there: rollout row ``t * num_envs + i`` is
        env i's at step t); the rollout gives them dense, as ``obs``, when asked."""
        steps, n, on = self.config.num_steps, self.config.num_envs, self.device
        self.rows.clear()
        buffers = Rollout(self.rows, (steps, n, self.obs.shape[1]))
        buffers |= {
            "mask": torch.zeros((steps, n, self.mask.shape[1]), dtype=torch.bool, device=on),
            "action": torch.zeros((steps, n), dtype=torch.long),  # the env's: on the CPU
            # the action's place among its state's legal ids (ascending): the policy's
            # logits are computed for the legal actions only
            "slot": torch.zeros((steps, n), dtype=torch.long, device=on),
            **{
                key: torch.zeros((steps, n), device=on)
                for key in ("logp", "reward", "done", "value")
            },
        }
        self.episodes.finished = []
        self.finished_fights = []
        rows = self.rows.append(self.obs.numpy())
        self._recorded = np.zeros(n, np.int64)
        # the weights the whole rollout acts with (the sparse kernel's table, on the CPU)
        table = table_of(first_of(self.model)) if isinstance(self.rows, SparseRows) else None
        done = torch.zeros(n, device=on)
        for t in range(steps):
            with self.cpu.part("acting"), torch.no_grad():
                mask = self.mask.to(on, non_blocking=True)
                buffers["mask"][t], buffers["done"][t] = mask, done
                ids = legal_ids(mask)
                logits, buffers["value"][t] = actor_critic(self.model, self.rows, rows, ids, table)
                slot, buffers["logp"][t] = _sample(logits, self.torch_rng)
                buffers["slot"][t] = slot
                action = ids.gather(1, slot[:, None]).squeeze(1).cpu()
            buffers["action"][t] = action
            reward, done = self._step(action.numpy(), buffers["action"], t)
            buffers["reward"][t], done = reward.to(on), done.to(on)
            with self.cpu.part("acting"):
                rows = self.rows.append(self.obs.numpy())
        self._record_actions(np.arange(n), steps, buffers["action"])
        with self.cpu.part("learning"), torch.no_grad():
            next_value = _critic_only(self.model, self.rows, rows)
            buffers["advantage"], buffers["return"] = self._gae(buffers, next_value, done)
        return buffers

    def _record_actions(self, envs: np.ndarray, until: int, actions: torch.Tensor) -> None:
        """Add the rollout's actions of ``envs`` up to step ``until`` (excluded) to their
        games' action lists: one list operation per env when its game ends or the rollout
        does, rather than one per env and step."""
        taken = actions.numpy()
        for i in envs.tolist():
            self.episodes.actions[i].extend(taken[self._recorded[i] : until, i].tolist())
            self._recorded[i] = until

    def _step(
        self, actions: np.ndarray, taken: torch.Tensor, t: int
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Step every env with ``actions`` (step ``t`` of the rollout, whose actions so far
        are ``taken``): the shaped reward and the done flags."""
        obs_before = self.obs.numpy()
        potential_before = self._potential(obs_before)
        with self.cpu.part("env"):
            obs, reward, terminated, truncated, info = self.envs.step(actions)
        masks = info["action_mask"]
        # gamma * phi(s') - phi(s) with no potential after the end (read before a new game
        # replaces the ended env's row)
        reward = reward + self._potential(obs) * (1.0 - terminated) - potential_before
        reward = reward + self._exploration_bonus(obs_before, obs, terminated)
        ended = np.flatnonzero(terminated)
        if len(ended):
            self._record_actions(ended, t + 1, taken)
            final = info["final_info"]
            for i in ended.tolist():
                self._game_ended(i, bool(final["won"][i]), int(final["final_score"][i]))
                self.finished_fights.append(int(final["fights"][i]))
                self._next_game(i, obs, masks)
            self.envs.set_next_deals(self.next_deals)
        self.obs, self.mask = _tensors(obs, masks)
        done = torch.as_tensor(np.logical_or(terminated, truncated), dtype=torch.float32)
        return torch.as_tensor(reward, dtype=torch.float32), done

    def _potential(self, obs: np.ndarray) -> np.ndarray:
        """``--shaping``'s potential of each env's state (0 without shaping). Gamma is 1 and
        the potential after the end is 0, so a game's shaping bonuses add up to minus its
        start's potential, whatever the policy does (Ng, Harada & Russell 1999)."""
        if self.config.shaping == "none":
            return np.zeros(len(obs), np.float32)
        return (self.config.shaping_coef * obs[:, FIGHTS_FEATURE]).astype(np.float32)

    def _exploration_bonus(
        self, before: np.ndarray, after: np.ndarray, terminated: np.ndarray
    ) -> np.ndarray:
        """``--bonus counts``: coef / sqrt(visits) for each env that finished a fight and so
        entered a cell (the visit counted first, so a first visit pays the whole coef);
        nothing at the end (``after`` is then the next game's start). Only finished fights
        pay: a bonus for any change of cell would pay for losing life within a fight."""
        bonus = np.zeros(len(after), np.float32)
        if self.config.bonus == "none":
            return bonus
        fought = after[:, FIGHTS_FEATURE] > before[:, FIGHTS_FEATURE]
        entered = np.flatnonzero(fought & ~np.asarray(terminated, bool))
        cells = cell_of(after[entered])
        np.add.at(self.visits, cells, 1)
        bonus[entered] = self.config.bonus_coef / np.sqrt(self.visits[cells])
        return bonus

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
        self.next_deals[i] = draw_training_deals(self.config.level, 1, self.rng)[0]
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

    def _gae(
        self, buffers: dict[str, torch.Tensor], next_value: torch.Tensor, next_done: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Generalized advantage estimates and the returns the critic is fitted to."""
        gamma, lam = self.config.gamma, self.config.gae_lambda
        rewards, values, dones = buffers["reward"], buffers["value"], buffers["done"]
        advantages = torch.zeros_like(rewards)
        last = torch.zeros_like(next_value)
        for t in reversed(range(rewards.shape[0])):
            following_done = next_done if t == rewards.shape[0] - 1 else dones[t + 1]
            following_value = next_value if t == rewards.shape[0] - 1 else values[t + 1]
            live = 1.0 - following_done
            delta = rewards[t] + gamma * following_value * live - values[t]
            last = delta + gamma * lam * live * last
            advantages[t] = last
        return advantages, advantages + values

    # ------------------------------------------------------------------ update

    def _update(self, rollout: dict[str, torch.Tensor], warmup: bool) -> dict[str, float]:
        # what the loss reads, one row per frame (the observations are read from self.rows,
        # where a rollout row is its flat index)
        flat = {
            key: rollout[key].reshape(self.batch) for key in ("logp", "advantage", "return", "slot")
        }
        flat["ids"] = legal_ids(rollout["mask"].reshape(self.batch, -1))
        if not warmup:
            every = torch.arange(self.batch, device=self.device)
            flat |= self._reference_terms(every, flat["ids"])
        size = self.batch // self.config.minibatches
        sums: dict[str, float] = {}
        count = 0
        for _ in range(self.config.epochs):
            order = torch.randperm(self.batch, generator=self.torch_rng).to(self.device)
            for first in range(0, self.batch, size):
                rows = order[first : first + size]
                minibatch = {key: value[rows] for key, value in flat.items()}
                parts = self._minibatch_loss({**minibatch, "row": rows}, warmup)
                self.optimizer.zero_grad(set_to_none=True)  # the frozen actor keeps no gradient
                parts["loss"].backward()
                with self.cpu.part("communication"):
                    self.group.average_gradients(list(self.model.parameters()))
                nn.utils.clip_grad_norm_(
                    self.model.parameters(), self.config.max_grad_norm, foreach=True
                )
                self.optimizer.step()
                for key, value in parts.items():
                    sums[key] = sums.get(key, 0.0) + float(value.detach())
                count += 1
        return {key: value / count for key, value in sums.items()}

    def _reference_terms(self, rows: torch.Tensor, ids: torch.Tensor) -> dict[str, torch.Tensor]:
        """The start policy's probabilities q of the legal actions ``ids`` on the rollout's
        states and each state's sum of q log q: its part of the KL, once per rollout rather
        than per minibatch."""
        with torch.no_grad():
            padding = ids < 0
            log_q = torch.log_softmax(policy_logits(self.reference, self.rows, rows, ids), -1)
            log_q = log_q.masked_fill(padding, 0.0)
            q = log_q.exp().masked_fill(padding, 0.0)
            return {"reference_q": q, "reference_q_log_q": (q * log_q).sum(-1)}

    def _minibatch_loss(self, mb: dict[str, torch.Tensor], warmup: bool) -> dict[str, torch.Tensor]:
        config = self.config
        if warmup:  # the actor is frozen: the critic alone
            value = _critic_only(self.model, self.rows, mb["row"])
            value_loss = 0.5 * ((value - mb["return"]) ** 2).mean()
            return {"loss": value_loss, "value_loss": value_loss}
        logits, value = actor_critic(self.model, self.rows, mb["row"], mb["ids"])
        value_loss = 0.5 * ((value - mb["return"]) ** 2).mean()
        # masked_log_probs over the legal actions' slots (a padding slot's logit is far below
        # any real one: probability 0, log-probability set to 0)
        log_probs = torch.log_softmax(logits, -1).masked_fill(mb["ids"] < 0, 0.0)
        new_logp = log_probs.gather(1, mb["slot"][:, None]).squeeze(1)
        log_ratio = new_logp - mb["logp"]
        ratio = log_ratio.exp()
        adv = mb["advantage"]
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        clipped = ratio.clamp(1 - config.clip, 1 + config.clip)
        policy_loss = torch.max(-adv * ratio, -adv * clipped).mean()
        entropy = -(log_probs.exp() * log_probs).sum(-1).mean()
        # KL(start || policy) = sum q log q - sum q log p over the legal actions, log p being
        # the log_probs above (kl_to_reference's terms); without a KL weight it is only
        # measured: no gradient through it
        kl_log_probs = log_probs if self.kl_coef > 0 else log_probs.detach()
        kl = (mb["reference_q_log_q"] - (mb["reference_q"] * kl_log_probs).sum(-1)).mean()
        loss = policy_loss + config.vf_coef * value_loss - config.ent_coef * entropy
        loss = loss + self.kl_coef * kl
        with torch.no_grad():
            approx_kl = ((ratio - 1) - log_ratio).mean()
            clip_fraction = ((ratio - 1.0).abs() > config.clip).float().mean()
        return {
            "loss": loss,
            "policy_loss": policy_loss,
            "value_loss": value_loss,
            "entropy": entropy,
            "kl_to_start": kl,
            "approx_kl": approx_kl,
            "clip_fraction": clip_fraction,
        }

    def kl_to_start(self, obs: torch.Tensor, mask: torch.Tensor) -> float:
        """Mean KL(start policy || policy) over the states ``obs`` (with their masks)."""
        obs, mask = obs.to(self.device), mask.to(self.device)
        with torch.no_grad():
            logits = self.model.masked_logits(obs, mask)
            reference_logits = self.reference(obs).masked_fill(~mask, MASKED_LOGIT)
            return float(kl_to_reference(logits, reference_logits, mask).mean())

    # ------------------------------------------------------------------ measure

    def _evaluate_once(self) -> dict[str, Any]:
        """`_evaluate` in rank 0, its row shared with the other processes (the weights are
        the same everywhere: so would be their numbers)."""
        return self.group.share(self._evaluate() if self.group.main else None)

    def _evaluate(self) -> dict[str, Any]:
        """The greedy policy (the legal action with the highest logit, as ``net`` plays)
        on the fixed validation deals of each level measured: win rate and mean score (the
        trained level's at the top of the row, every level's under ``heldout_by_level``
        when ``--eval-levels`` names more)."""
        by_level = {}
        for level in self.config.eval_level_list():
            deals = heldout_deals(level, self.config.eval_deals)
            won, score = self._play(deals, temperature=None, level=level)
            by_level[str(level)] = {
                "heldout_win_rate": float(won.mean()),
                "heldout_mean_score": float(score.mean()),
                "heldout_deals": len(deals),
            }
        row = dict(by_level[str(self.config.level)])
        if len(by_level) > 1:
            row["heldout_by_level"] = by_level
        return row

    def _play(
        self,
        deals: list[int],
        temperature: float | None,
        generator: torch.Generator | None = None,
        level: int | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """One game of each deal of ``level`` (default: the trained one; ``len(deals)`` is
        the eval envs' count): greedy with ``temperature`` None, else sampled from the
        logits divided by it. Won and score."""
        envs = self.eval_envs[self.config.level if level is None else level]
        obs, info = envs.reset(options={"deal": deals})
        envs.set_next_deals(deals)  # games after the first are not counted
        won = np.zeros(len(deals), np.bool_)
        score = np.zeros(len(deals), np.int64)
        finished = np.zeros(len(deals), np.bool_)
        mask = info["action_mask"]
        while not finished.all():
            obs_t, mask_t = (tensor.to(self.device) for tensor in _tensors(obs, mask))
            with torch.no_grad():
                logits = self.model.masked_logits(obs_t, mask_t)
                if temperature is None:
                    actions = logits.argmax(-1).cpu().numpy()
                else:  # drawn on the CPU, with the CPU generator
                    probs = torch.softmax(logits / temperature, -1).cpu()
                    actions = torch.multinomial(probs, 1, generator=generator).squeeze(1).numpy()
            obs, _, terminated, _, info = envs.step(actions)
            mask = info["action_mask"]
            new = terminated & ~finished
            if new.any():
                won[new] = info["final_info"]["won"][new]
                score[new] = info["final_info"]["final_score"][new]
                finished |= new
        return won, score

    def _calibrate_temperature(self) -> dict[str, Any]:
        """Sharpen the start policy for sampling (see ``docs/rl.md``): with ``auto``, the
        largest temperature of `TEMPERATURES` whose sampled win rate on training
        deals is at least `CALIBRATION_SHARE` of the best one's (1 if none wins);
        the actor's last layer is divided by it, which leaves its greedy play unchanged."""
        config = self.config
        if not config.init:
            return {}
        rates: dict[str, float] = {}
        if config.init_temperature == "auto" and not self.group.main:
            chosen, rates = self.group.share(None)  # rank 0's choice
        elif config.init_temperature == "auto":
            deals = [int(d) for d in draw_training_deals(config.level, config.eval_deals, self.rng)]
            generator = torch.Generator().manual_seed(config.seed)
            for temperature in TEMPERATURES:
                rates[str(temperature)] = float(self._play(deals, temperature, generator)[0].mean())
            best = max(rates.values())
            close = [t for t in TEMPERATURES if rates[str(t)] >= CALIBRATION_SHARE * best]
            chosen = max(close) if best > 0 else 1.0
            self.group.share((chosen, rates))
        else:
            chosen = float(config.init_temperature)
        last = [m for m in self.model.actor if isinstance(m, nn.Linear)][-1]
        with torch.no_grad():
            last.weight /= chosen
            last.bias /= chosen
        return {"init_temperature": chosen, "sampled_win_rate_by_temperature": rates}

    def _log(self, row: dict[str, Any], heldout: dict[str, Any]) -> dict[str, Any]:
        # every process's finished games (the train_ numbers are the whole run's)
        finished = [game for part in self.group.gather(self.episodes.finished) for game in part]
        fights = [n for part in self.group.gather(self.finished_fights) for n in part]
        spread = self.group.spread(list(self.model.parameters()))
        row = {
            "frames": self.frames,
            "updates": self.updates,
            "level": self.config.level,
            "cpu_seconds": round(self.cpu_seconds, 3),
            "wall_seconds": round(self.wall_seconds, 3),
            **row,
            "kl_coef": self.kl_coef,
            "train_games": len(finished),
            "train_win_rate": float(np.mean([w for w, _ in finished])) if finished else None,
            "train_mean_score": float(np.mean([s for _, s in finished])) if finished else None,
            "train_mean_fights": float(np.mean(fights)) if fights else None,
            "processes": self.group.world,
            "weights_spread": spread,
            "part_wall_seconds": self.cpu.wall_split(),
            **heldout,
        }
        if self.curriculum is not None:
            row |= {
                "reverse_k": self.curriculum.k,
                "reverse_success": self.curriculum.success_rate(),
                "reverse_archive": len(self.curriculum.archive),
                "reverse_archive_wins": sum(game.won for game in self.curriculum.archive),
                "reverse_longest_win": self.curriculum.longest_win(),
            }
        if self.group.main:
            append_row(self.out / CURVE_FILE, row)
        return row

    # ------------------------------------------------------------------ save

    def save_checkpoint(self) -> None:
        """``checkpoint.pt`` (written whole, then renamed: a killed run never leaves half a
        file) and ``policy.npz``. The checkpoint holds tensors and plain values only, so
        that it loads with ``torch.load(weights_only=True)``."""
        own = self._process_state()
        everyone = self.group.gather(own)  # a data-parallel run: each process's own part
        if not self.group.main:
            return
        state = {
            "model": _model_state(self.model),
            "reference": _model_state(ActorCritic(self.reference, self.model.critic)),
            "optimizer": self.optimizer.state_dict(),
            "frames": self.frames,
            "updates": self.updates,
            "cpu_seconds": self.cpu_seconds,
            "wall_seconds": self.wall_seconds,
            "kl_coef": self.kl_coef,
            "start_win_rate": self.start_win_rate,
            **own,
        }
        if self.group.world > 1:
            state |= {"world": self.group.world, "ranks": everyone[1:]}
        replace_atomically(
            self.out / CHECKPOINT_FILE, lambda temporary: torch.save(state, temporary)
        )
        self.model.save_npz(self.out / POLICY_FILE)

    def _process_state(self) -> dict[str, Any]:
        """What is this process's own in the checkpoint: its generators, its games in play
        and its curriculum (a data-parallel run keeps one of these per process)."""
        return {
            "numpy_rng": json.dumps(self.rng.bit_generator.state),
            "torch_rng": self.torch_rng.get_state(),
            "curriculum": self.curriculum.state_dict() if self.curriculum is not None else None,
            "episodes": _episodes_state(self.episodes),
            "next_deals": torch.from_numpy(self.next_deals.copy()),
            "visits": torch.from_numpy(self.visits.copy()),
        }


def _rng_state(text: str) -> dict[str, Any]:
    """numpy's generator state, kept as JSON text (its 128-bit integers exactly)."""
    return json.loads(text)


def _episodes_state(episodes: Episodes) -> dict[str, Any]:
    """The games in progress as plain lists (a start as its fields)."""
    return {
        "seeds": list(episodes.seeds),
        "actions": [list(actions) for actions in episodes.actions],
        "starts": [None if s is None else dataclasses.astuple(s) for s in episodes.starts],
        "finished": [tuple(f) for f in episodes.finished],
    }


def _episodes_from_state(state: dict[str, Any]) -> Episodes:
    starts = [None if s is None else Start(s[0], tuple(s[1]), s[2], s[3]) for s in state["starts"]]
    return Episodes(state["seeds"], state["actions"], starts, state["finished"])


def cell_of(obs: np.ndarray) -> np.ndarray:
    """``--bonus counts``' cell of each flat observation: (fights finished, step, pirates
    beaten), as one index."""
    fights = np.rint(obs[:, FIGHTS_FEATURE] * MAX_FIGHTS).astype(np.int64)
    beaten = np.rint(obs[:, BEATEN_FEATURE] * 2).astype(np.int64)
    step = obs[:, STEP_FEATURES].argmax(1)
    fights = np.clip(fights, 0, FIGHT_CELLS - 1)
    return (fights * 4 + step) * BEATEN_CELLS + np.clip(beaten, 0, BEATEN_CELLS - 1)


def _model_state(model: ActorCritic) -> dict[str, Any]:
    """What rebuilds ``model`` exactly: its hidden sizes and its parameters."""
    return {
        "actor_hidden": hidden_sizes(model.actor),
        "critic_hidden": hidden_sizes(model.critic),
        "parameters": {key: value.cpu() for key, value in model.state_dict().items()},
    }


def _model_from_state(state: dict[str, Any]) -> ActorCritic:
    model = ActorCritic.new(state["actor_hidden"], state["critic_hidden"])
    model.load_state_dict(state["parameters"])
    return model


def _make_envs(config: RLConfig, num_envs: int, level: int) -> Any:
    # illegal_action="raise": a masking bug stops the run instead of ending games as losses
    return gym.make_vec(
        "Friday-v0",
        num_envs,
        vectorization_mode="vector_entry_point",
        level=level,
        reward=config.reward,
        **({"progress_coef": config.progress_coef} if config.reward == "progress" else {}),
        illegal_action="raise",
    )


def _curriculum(config: RLConfig) -> ReverseCurriculum | None:
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


def _adam(model: ActorCritic, learning_rate: float) -> torch.optim.Adam:
    """The trainer's Adam, fused: one kernel for every parameter instead of a dozen torch
    calls per parameter tensor (a fifth of the optimiser's time at these sizes)."""
    return torch.optim.Adam(model.parameters(), lr=learning_rate, eps=1e-5, fused=True)


def _observation_rows(capacity: int, width: int, device: torch.device) -> Store:
    """Where a rollout's observations are kept: as their non-zeros for the CPU kernel, whole
    on a GPU or without the kernel (the kernel is CPU code; the dense layers are the same
    function)."""
    if device.type == "cpu" and kernel_built():
        return SparseRows(capacity)
    return DenseRows(capacity, width, device)


def _critic_only(model: ActorCritic, rows: Store, which: torch.Tensor) -> torch.Tensor:
    """The critic's values of rows ``which`` of ``rows``."""
    return values(model.critic, rows, which)


def _sample(logits: torch.Tensor, generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """One slot per row of the legal actions' logits (padding slots at `PADDING_LOGIT`),
    drawn with probability softmax(logits), and its log-probability. By the inverse of
    each row's cumulative distribution (a tenth of ``torch.multinomial``'s cost at these
    sizes): the first slot whose cumulative probability exceeds a uniform draw scaled to
    the row's total."""
    probs = torch.softmax(logits, -1)
    cdf = probs.cumsum(1)
    # drawn by the run's CPU generator (the same numbers on any device)
    draw = torch.rand((len(probs), 1), generator=generator).to(probs.device) * cdf[:, -1:]
    slot = torch.searchsorted(cdf, draw, right=True).squeeze(1).clamp_(max=probs.shape[1] - 1)
    chosen = probs.gather(1, slot[:, None]).squeeze(1)
    if not bool((chosen > 0).all()):  # a draw rounded up to the total: the last legal slot
        last = (logits > PADDING_LOGIT).sum(1) - 1
        slot = torch.where(chosen > 0, slot, last)
        chosen = probs.gather(1, slot[:, None]).squeeze(1)
    return slot, torch.log(chosen)


def _tensors(obs: np.ndarray, masks: np.ndarray) -> tuple[torch.Tensor, torch.Tensor]:
    return torch.as_tensor(obs, dtype=torch.float32), torch.as_tensor(masks, dtype=torch.bool)


def _postfix(row: dict[str, Any], frames_left: int, wall_per_frame: float) -> str:
    """The bar's text: the phase, the last held-out rate, and the time left. The estimate
    waits for a PPO update (a warm-up update costs less: no policy gradient) and then
    prices each frame left at the last update's wall time per frame."""
    text = f"{row['phase']}, update {row['updates']}"
    if row.get("heldout_win_rate") is not None:
        text += f", held-out win {row['heldout_win_rate']:.1%}"
    if frames_left <= 0:
        return text
    if row["phase"] != "ppo":
        return text + ", ETA estimating"
    return text + f", ETA {format_duration(frames_left * wall_per_frame)}"


def _progress_bar(total: int, initial: int, disabled: bool) -> Any:
    """A tqdm bar over the run's frames in ``friday eval``'s layout (no tqdm estimate:
    `_postfix` gives one)."""
    from tqdm import tqdm

    return tqdm(
        total=total,
        initial=min(initial, total),
        unit="frame",
        unit_scale=True,
        disable=disabled,
        desc="friday rl",
        bar_format=BAR_FORMAT,
    )


def load_run_config(out: Path) -> RLConfig:
    """The configuration a run in ``out`` was started with (written by an older release:
    its old keys renamed, `RLConfig.migrate`)."""
    path = Path(out) / CONFIG_FILE
    if not path.exists():
        raise RLConfigError(f"nothing to resume: {path} does not exist")
    stored = RLConfig.read_settings(path, "run's configuration")
    return RLConfig.from_dict(RLConfig.migrate(stored), str(path))
