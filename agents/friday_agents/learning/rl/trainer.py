"""The masked PPO trainer of ``friday rl`` (``docs/rl.md`` explains the method): `Trainer`, the
loop over the jobs that live beside it.

One update: every env plays ``num_steps`` steps with the current policy (sampled from the legal
actions only; [`friday_agents.learning.rl.rollout`][friday_agents.learning.rl.rollout], on the games
of [`friday_agents.learning.rl.games`][friday_agents.learning.rl.games]), then advantages by
generalized advantage estimation and ``epochs`` passes of clipped policy updates over shuffled
minibatches ([`friday_agents.learning.rl.ppo`][friday_agents.learning.rl.ppo]). During the critic
warm-up only the value loss is minimised and the actor is not touched. After it, with a start policy
(``--init``), the loss adds ``kl_coef * KL(start || policy)`` on the batch states, and ``kl_coef``
is multiplied by ``kl_decay`` at every held-out evaluation
([`friday_agents.learning.rl.heldout`][friday_agents.learning.rl.heldout]) whose win rate holds at
or above the start's.

A run folder holds ``config.json``, ``checkpoint.pt`` (everything a resumed run needs:
[`friday_agents.learning.rl.checkpoint`][friday_agents.learning.rl.checkpoint]), ``curve.jsonl`` (a
row per update: [`friday_agents.learning.rl.bookkeeping`][friday_agents.learning.rl.bookkeeping])
and ``policy.npz`` (the networks as a PolicyNetwork, for ``net:model=...``). Runs are deterministic
for a seed: every random draw comes from the run's own numpy and torch generators, and a run resumed
from a checkpoint continues exactly as the uninterrupted run would have.

``--device``: the networks act and learn on the CPU (the sparse first-layer kernel,
[`friday_agents.learning.sparse`][friday_agents.learning.sparse]) or on a GPU (the same functions as
dense torch operations). On a GPU each step's observations and masks are copied to it once, into the
rollout's buffers, which the update then reads where they are; the torch generator stays on the CPU
(its draws are copied over), so a run draws the same numbers on either device and resumes on the
other.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import signal
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch

from friday_agents.harness.curve import CURVE_FILE, append_row, read_curve
from friday_agents.harness.device import torch_device
from friday_agents.harness.errors import BadInputError
from friday_agents.harness.files import read_model_file
from friday_agents.harness.interrupts import CtrlC, stop_at_a_boundary
from friday_agents.learning.networks import MASKED_LOGIT, ActorCritic, kl_to_reference
from friday_agents.learning.rl.bookkeeping import (
    CpuParts,
    checked_curve,
    curriculum_numbers,
    keep_curve_rows,
    postfix,
    progress_bar,
    training_games,
)
from friday_agents.learning.rl.checkpoint import (
    CHECKPOINT_FILE,
    POLICY_FILE,
    CheckpointError,
    episodes_state,
    model_state,
    restore,
    write_checkpoint,
)
from friday_agents.learning.rl.config import RLConfig, RLConfigError
from friday_agents.learning.rl.games import TrainingGames
from friday_agents.learning.rl.group import cuda_device_of, join, weights_sum
from friday_agents.learning.rl.heldout import HeldOut
from friday_agents.learning.rl.ppo import PPO, adam
from friday_agents.learning.rl.rollout import Rollout, StepInputs, collect, observation_rows
from friday_agents.learning.run_folder import write_config
from friday_agents.learning.sparse import DenseRows
from friday_env.errors import FridayError


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
        self.games = TrainingGames(self.config, self.cpu)
        width = self.games.envs.single_observation_space.shape[0]
        # a rollout's observations as their non-zeros, and the one after its last step
        self.rows = observation_rows(self.batch + self.config.num_envs, width, self.device)
        self.inputs: StepInputs | None = None  # made at the first rollout, if rows are whole
        self.heldout = HeldOut(self.config, self.device)
        self.wall_per_frame = 0.0
        # Ctrl-C as `run` watches it, and whether a process of the run was asked to stop
        self.ctrl_c, self.stop_agreed = CtrlC(), False
        if resume:
            self._resume()
        else:
            self._start_fresh()

    @property
    def model(self) -> ActorCritic:
        return self.ppo.model

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
        torch_rng = torch.Generator().manual_seed(config.seed + 1_000_003 * rank)
        with torch.random.fork_rng():  # the weights' initialisation draws from the global RNG
            torch.manual_seed(config.seed)
            # a bad init file stops before any file is written
            model = self._initial_model().to(self.device)
        self.group.same_weights(model)
        self.games.seed_archive()  # a bad games file too
        if self.group.main:
            self.out.mkdir(parents=True, exist_ok=True)
            write_config(self.out, config.to_dict())
            (self.out / CURVE_FILE).write_text("")
        reference = copy.deepcopy(model.actor).requires_grad_(False)
        self.ppo = self._ppo(model, reference, adam(model, config.learning_rate), torch_rng)
        self.frames = self.updates = 0
        self.cpu_seconds = self.wall_seconds = 0.0
        self.kl_coef = config.kl_coef
        self.start_win_rate: float | None = None
        self.games.start(self.rng)

    def _initial_model(self) -> ActorCritic:
        if not self.config.init:
            return ActorCritic.new(self.config.hidden_sizes())
        try:  # a missing, truncated or foreign file: one line, before anything is written
            return read_model_file(ActorCritic.from_file, self.config.init, "--init file")[0]
        except BadInputError as err:
            raise RLConfigError(str(err)) from None

    def _ppo(
        self,
        model: ActorCritic,
        reference: torch.nn.Sequential,
        optimizer: torch.optim.Adam,
        generator: torch.Generator,
    ) -> PPO:
        """The update of ``model`` (the start policy ``reference``), its minibatches drawn
        by ``generator``, the run's torch generator (its rollouts draw from it too)."""
        return PPO(
            self.config,
            model,
            reference,
            optimizer,
            self.rows,
            generator,
            self.group.average_gradients,
            self.cpu,
        )

    def _resume(self) -> None:
        """The run as its checkpoint left it. Every file is checked (the checkpoint, the
        games it replays, the curve) before the curve drops its rows after the checkpoint:
        a damaged folder stops the run in one line and is left as it was."""
        path = self.out / CHECKPOINT_FILE
        state = restore(path, self.config, self.device, self.group.rank, self.group.world)
        curve = checked_curve(self.out / CURVE_FILE) if self.group.main else []
        self.ppo = self._ppo(state.model, state.reference, state.optimizer, state.torch_rng)
        self.rng = state.rng
        for name, value in state.counters.items():
            setattr(self, name, value)
        if self.games.curriculum is not None and state.curriculum is not None:
            self.games.curriculum.load_state_dict(state.curriculum)
        self.games.terms.visits = state.visits
        try:
            self.games.restore(self.rng, state.episodes, state.next_deals)
        except (FridayError, IndexError) as err:  # an action the game does not take
            raise CheckpointError(f"the checkpoint {path} is damaged: episodes: {err}") from None
        if self.group.main:
            keep_curve_rows(self.out / CURVE_FILE, curve, self.updates)

    # ------------------------------------------------------------------ run

    def run(self) -> dict[str, Any]:
        """Train until ``config.frames``; returns the last curve row."""
        bar = progress_bar(self.config.frames, self.frames, not (self.progress and self.group.main))
        row: dict[str, Any] = {}
        # Ctrl-C (and, in a torchrun worker, torchrun's SIGINT or SIGTERM): stop after the
        # update in progress, every process after the same one (`_log`'s exchange), then save.
        # A torchrun worker takes no second signal as "stop now": torchrun passes signals on
        # and may repeat them, and a worker killed before the save would lose the run's end.
        many = self.group.world > 1
        signals = (signal.SIGINT, signal.SIGTERM) if many else (signal.SIGINT,)
        try:
            with stop_at_a_boundary(signals, second_stops=not many) as ctrl_c:
                self.ctrl_c = ctrl_c
                if self.updates == 0 and self.start_win_rate is None:
                    row = self._start()
                self.stop_agreed = any(self.group.gather(ctrl_c.requested))
                while self.frames < self.config.frames and not self.stop_agreed:
                    row = self._one_update()
                    bar.update(self.batch * self.group.world)
                    frames_left = self.config.frames - self.frames
                    bar.set_postfix_str(
                        postfix(row, frames_left, self.wall_per_frame), refresh=False
                    )
                    if self.updates % self.config.checkpoint_every == 0:
                        self.save_checkpoint()
                self.save_checkpoint()
                # no process leaves before rank 0 has written the checkpoint (torchrun stops
                # the others when one exits first with an error code, 130 after Ctrl-C)
                self.group.leave()
        finally:
            bar.close()
        if self.stop_agreed or ctrl_c.requested:
            raise TrainingInterrupted(self.updates, self.frames)
        return row or self._last_curve_row()

    def _last_curve_row(self) -> dict[str, Any]:
        """The curve's last row (a resumed run that had nothing left to do)."""
        rows = read_curve(self.out / CURVE_FILE)
        return rows[-1] if rows else {}

    def _start(self) -> dict[str, Any]:
        """Update 0: the start policy's temperature (with ``--init``) and its held-out
        strength, the mark the KL weight's decay compares with."""
        cpu, wall = time.process_time(), time.perf_counter()
        calibration = self.heldout.calibrate_temperature(self.model, self.rng, self.group)
        self.ppo.reference = copy.deepcopy(self.model.actor).requires_grad_(False)
        heldout = self._evaluate_once()
        self.start_win_rate = heldout["heldout_win_rate"]
        return self._log({"phase": "start", **calibration}, heldout, cpu, wall)

    def collect_rollout(self) -> Rollout:
        """Every env plays ``num_steps`` steps with the current policy (whole observations,
        the GPU path's, pass through buffers made once for the run)."""
        if self.inputs is None and isinstance(self.rows, DenseRows):
            obs, mask = self.games.obs, self.games.mask
            self.inputs = StepInputs(len(obs), obs.shape[1], mask.shape[1], self.device)
        games, generator = self.games, self.ppo.generator
        return collect(self.model, games, self.rows, generator, self.device, self.inputs)

    def _one_update(self) -> dict[str, Any]:
        cpu, wall = time.process_time(), time.perf_counter()
        warmup = self.frames < self.config.warmup_frames
        coef = self._anneal_progress_coef()
        rollout = self.collect_rollout()
        with self.cpu.part("learning"):
            losses = self.ppo.update(rollout, warmup, self.kl_coef)
        self.frames += self.batch * self.group.world
        self.updates += 1
        periodic = self.config.eval_every > 0 and self.updates % self.config.eval_every == 0
        heldout = self._evaluate_once() if periodic or self.frames >= self.config.frames else {}
        # only the periodic evaluations steer the KL weight: the one that ends a chunk of a
        # resumed run must not, or the run would depend on where it was cut
        if periodic and not warmup:
            self._decay_kl(heldout["heldout_win_rate"])
        phase = "warmup" if warmup else "ppo"
        row = self._log({"phase": phase, **coef, **losses}, heldout, cpu, wall)  # eval included
        self.wall_per_frame = (time.perf_counter() - wall) / self.batch  # for the ETA
        return row

    def _anneal_progress_coef(self) -> dict[str, float]:
        """``--reward progress``: this update's coefficient (for its curve row), set on the
        training envs when ``--progress-coef-final`` anneals it. It depends on the frames
        played only, so a resumed run continues the schedule exactly."""
        config = self.config
        if config.reward != "progress":
            return {}
        coef = config.progress_coef_at(self.frames)
        if config.progress_coef_final != config.progress_coef:
            self.games.envs.set_progress_coef(coef)
        return {"progress_coef": coef}

    def _decay_kl(self, win_rate: float) -> None:
        """Release the policy a step (halve the KL weight, by default) each time it shows
        it kept the start's strength on the held-out deals."""
        if self.start_win_rate is not None and win_rate >= self.start_win_rate:
            self.kl_coef *= self.config.kl_decay

    def kl_to_start(self, obs: torch.Tensor, mask: torch.Tensor) -> float:
        """Mean KL(start policy || policy) over the states ``obs`` (with their masks)."""
        obs, mask = obs.to(self.device), mask.to(self.device)
        with torch.no_grad():
            logits = self.model.masked_logits(obs, mask)
            reference_logits = self.ppo.reference(obs).masked_fill(~mask, MASKED_LOGIT)
            return float(kl_to_reference(logits, reference_logits, mask).mean())

    # ------------------------------------------------------------------ measure

    def _evaluate_once(self) -> dict[str, Any]:
        """The held-out evaluation, its deals shared out among the processes (the weights
        are the same everywhere), its row in every process."""
        return self.heldout.evaluate(self.model, self.group)

    def _log(
        self, row: dict[str, Any], heldout: dict[str, Any], cpu: float, wall: float
    ) -> dict[str, Any]:
        """The curve row of the update that started at ``cpu`` (this process's
        ``time.process_time()``) and ``wall``. The processes exchange what it needs in one
        message each, the update's only one besides the gradients': the CPU seconds of
        every process (a data-parallel run's curve counts all of them, as its frames do),
        their finished games (the train_ numbers are the whole run's), their weights' sums
        (``weights_spread``) and whether any was asked to stop (every process then stops
        after this update)."""
        mine = {
            "cpu": time.process_time() - cpu,
            "finished": self.games.episodes.finished,
            "fights": self.games.finished_fights,
            "weights": weights_sum(list(self.model.parameters())),
            "stop": self.ctrl_c.requested,
        }
        everyone = self.group.gather(mine)
        self.cpu_seconds += float(sum(part["cpu"] for part in everyone))
        self.wall_seconds += time.perf_counter() - wall
        self.stop_agreed = any(part["stop"] for part in everyone)
        finished = [game for part in everyone for game in part["finished"]]
        fights = [n for part in everyone for n in part["fights"]]
        sums = [part["weights"] for part in everyone]
        spread = max(sums) - min(sums)
        levels = self.config.trained_levels()
        row = {
            "frames": self.frames,
            "updates": self.updates,
            "level": self.config.level,
            **({"levels": levels} if len(levels) > 1 else {}),
            "cpu_seconds": round(self.cpu_seconds, 3),
            "wall_seconds": round(self.wall_seconds, 3),
            **row,
            "kl_coef": self.kl_coef,
            **training_games(finished, fights),
            "processes": self.group.world,
            "cpu_processes": self.group.world,  # cpu_seconds sums them all (tracks reads it)
            "weights_spread": spread,
            "part_wall_seconds": self.cpu.wall_split(),
            **heldout,
            **curriculum_numbers(self.games.curriculum),
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
            "model": model_state(self.model),
            "reference": model_state(ActorCritic(self.ppo.reference, self.model.critic)),
            "optimizer": self.ppo.optimizer.state_dict(),
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
        write_checkpoint(self.out / CHECKPOINT_FILE, state)
        self.model.save_npz(self.out / POLICY_FILE)

    def _process_state(self) -> dict[str, Any]:
        """What is this process's own in the checkpoint: its generators, its games in play
        and its curriculum (a data-parallel run keeps one of these per process)."""
        games = self.games
        return {
            "numpy_rng": json.dumps(self.rng.bit_generator.state),
            "torch_rng": self.ppo.generator.get_state(),
            "curriculum": games.curriculum.state_dict() if games.curriculum is not None else None,
            "episodes": episodes_state(games.episodes),
            "next_deals": torch.from_numpy(games.next_deals.copy()),
            "visits": torch.from_numpy(games.visits.copy()),
        }

    def close(self) -> None:
        """Close the training and held-out envs."""
        self.games.envs.close()
        self.heldout.close()
