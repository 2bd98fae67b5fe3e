"""``friday train``: MaskablePPO (sb3-contrib) on ``Friday-v0``, one level or a curriculum.

A run writes into ``--out`` (default: a new CleanRL-style
``runs/<level>__<reward>__<seed>__<unix time>``, see
[`TrainConfig.run_name`][friday_agents.learning.sb3.config.TrainConfig.run_name]):

- ``config.json``: the resolved configuration (defaults, ``--config`` file, flags);
- ``progress.csv``: SB3's log, one row per rollout: losses (``train/...``), episode
  statistics (``rollout/ep_rew_mean``, ``ep_len_mean``, ``win_rate``, ``mean_score``), the
  held-out evaluations (``eval/...``) and speed; TensorBoard event files beside it when
  tensorboard is installed (``tensorboard --logdir DIR``). Nothing goes to the temp dir;
- ``checkpoints/ppo_<timesteps>_steps.zip``: full checkpoints (optimiser included) to resume;
  Ctrl-C saves one more, ``checkpoints/interrupted_<timesteps>_steps.zip``, and prints the
  command that resumes from it (exit status 130); ``friday train --resume --out DIR``
  continues from the newest;
- ``final.zip`` (full) and ``policy.zip`` (the policy alone, a few hundred KB: what
  [`friday_agents.players.ppo.agent.PPOAgent`][friday_agents.players.ppo.agent.PPOAgent] loads and
  what the project commits); ``best_policy.zip``, the policy of the best held-out evaluation
  of the level trained last (highest win rate, then most hazards beaten:
  ``friday_agents.learning.sb3.callbacks.is_best``);
- ``curve.jsonl`` and ``curve.png``: the learning curve in the one format of every trainer
  ([`friday_agents.harness.curve`][friday_agents.harness.curve]): held-out win rate, mean score,
  episode length and hazards beaten against frames, measured with sb3-contrib's
  ``MaskableEvalCallback`` on the validation deals
  ([`heldout_deals`][friday_agents.harness.deals.heldout_deals]; training deals are drawn
  by [`draw_training_deals`][friday_agents.harness.deals.draw_training_deals]).

Reproducibility: torch runs on ``--device`` (on a CPU, ``--torch-threads``, 1 by default);
the policy, optimiser and action sampling are seeded through sb3's ``set_random_seed`` (the
library's contract), and every deal comes from a generator seeded from ``--seed``. The same seed and
configuration on the same machine give the same curve, row for row.

torch and sb3 are imported only inside functions, so ``friday --help`` stays fast.
"""

from __future__ import annotations

import dataclasses
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from friday_agents.harness.curve import CURVE_FILE, keep_rows, plot_curve, read_curve
from friday_agents.harness.device import torch_device
from friday_agents.harness.files import replace_atomically
from friday_agents.harness.interrupts import children_ignore_ctrl_c
from friday_agents.learning.run_folder import load_run_config, write_config
from friday_agents.learning.sb3.callbacks import EPISODE_KEYS, training_callbacks
from friday_agents.learning.sb3.config import TrainConfig, TrainConfigError
from friday_agents.players.ppo.checkpoint import (
    CheckpointError,
    encoder_of,
    export_policy,
    load_model,
    record_encoder,
)
from friday_env.observation import make_encoder

#: Where runs without an ``--out`` go (relative to the working directory).
RUNS = Path("runs")
#: A checkpoint's file name holds its timesteps (SB3's CheckpointCallback, and Ctrl-C's).
CHECKPOINT_NAME = re.compile(r"_(\d+)_steps\.zip$")


def init_weights(model: Any, path: str | Path) -> None:
    """Copy the policy weights of the checkpoint ``path`` into ``model`` (same observation
    and network sizes, or a `CheckpointError` saying which differ)."""
    source = load_model(path)
    if source.observation_space != model.observation_space:
        raise CheckpointError(f"checkpoint {str(path)!r} reads another observation")
    try:
        model.policy.load_state_dict(source.policy.state_dict())
    except RuntimeError as err:
        raise CheckpointError(
            f"checkpoint {str(path)!r} has other network sizes than --hidden: {err}"
        ) from None


# ------------------------------------------------------------------------ building


def build_vec_env(config: TrainConfig, level: int, stream: int) -> Any:
    """``num_envs`` training envs of ``level``; env ``i`` deals from a generator keyed by
    ``(seed, stream, i)`` (``stream`` = the timestep the stage starts at, so a resumed run
    does not replay the deals it has seen)."""
    from stable_baselines3.common.monitor import Monitor
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    from friday_agents.learning.sb3.envs import make_env, training_deals

    def factory(index: int):
        def make():
            deals = training_deals(level, [config.seed, stream, index])
            env = make_env(
                level,
                config.observation,
                config.reward,
                deals,
                config.gamma,
                (config.shaping, config.shaping_coef),
                config.progress_coef,
            )
            return Monitor(env, info_keywords=EPISODE_KEYS)

        return make

    makers = [factory(i) for i in range(config.num_envs)]
    if config.vec_env == "subproc":
        with children_ignore_ctrl_c():  # Ctrl-C is the main process's: it saves and says so
            return SubprocVecEnv(makers)
    return DummyVecEnv(makers)


def build_eval_env(config: TrainConfig, level: int) -> Any:
    """One env replaying the held-out deals; its reward is the env's ``score`` (final
    score / 100) whatever the training reward, so the mean return is the mean score."""
    from stable_baselines3.common.monitor import Monitor
    from stable_baselines3.common.vec_env import DummyVecEnv

    from friday_agents.harness.deals import heldout_deals
    from friday_agents.learning.sb3.envs import fixed_deals, make_env

    deals = fixed_deals(heldout_deals(level, config.eval_deals))
    return DummyVecEnv([lambda: Monitor(make_env(level, config.observation, "score", deals))])


def new_model(config: TrainConfig, env: Any) -> Any:
    from gymnasium import spaces
    from sb3_contrib import MaskablePPO

    structured = isinstance(env.observation_space, spaces.Dict)
    layers = config.hidden_layers()
    model = MaskablePPO(
        "MultiInputPolicy" if structured else "MlpPolicy",
        env,
        learning_rate=config.learning_rate,
        n_steps=config.num_steps,
        batch_size=config.minibatch_size(),
        n_epochs=config.epochs,
        gamma=config.gamma,
        gae_lambda=config.gae_lambda,
        clip_range=config.clip,
        ent_coef=config.ent_coef,
        vf_coef=config.vf_coef,
        max_grad_norm=config.max_grad_norm,
        policy_kwargs={"net_arch": {"pi": layers, "vf": layers}},
        seed=config.seed,
        device=torch_device(config.device),
        verbose=0,
    )
    record_encoder(model, config.observation)  # every save from now on names the encoder
    return model


def run_logger(out: Path) -> Any:
    """SB3's logger writing ``progress.csv`` (and TensorBoard events when tensorboard is
    installed) into the run directory; setting it keeps SB3 from making its own in /tmp."""
    import importlib.util

    from stable_baselines3.common.logger import configure

    formats = ["csv"]
    if importlib.util.find_spec("tensorboard") is not None:
        formats.append("tensorboard")
    return configure(str(out), formats)


# ------------------------------------------------------------------------ training


@dataclass(frozen=True)
class TrainResult:
    timesteps: int
    seconds: float
    final: Path
    policy: Path
    curve: Path
    curve_png: Path

    @property
    def fps(self) -> float:
        return self.timesteps / max(self.seconds, 1e-9)


def _stage_ends(config: TrainConfig) -> list[int]:
    """Cumulative timesteps at which each curriculum stage ends."""
    levels = config.level_list()
    share, extra = divmod(config.frames, len(levels))
    ends, total = [], 0
    for index in range(len(levels)):
        total += share + (1 if index < extra else 0)
        ends.append(total)
    return ends


def train(config: TrainConfig, resume: bool = False) -> TrainResult:
    """Train as ``config`` says (validated first) and write the run's files; with
    ``resume``, continue the run in ``config.out`` from its newest checkpoint."""
    import torch

    config.validate()
    device = torch_device(config.device)  # --device cuda without CUDA: before any file
    if not config.out:
        config = dataclasses.replace(config, out=str(RUNS / config.run_name(int(time.time()))))
    torch.set_num_threads(config.torch_threads)
    out = Path(config.out)
    model, first = _resumed(config, out / CURVE_FILE) if resume else _fresh(out / CURVE_FILE)
    out.mkdir(parents=True, exist_ok=True)
    write_config(out, config.to_dict())
    curve = out / CURVE_FILE
    levels, ends = config.level_list(), _stage_ends(config)
    started = time.perf_counter()
    logger = run_logger(out)
    print(
        f"friday train: {config.frames} frames on {_where(config)}, reward "
        f"{config.reward}, seed {config.seed}, device {device}; "
        f"writing to {out}",
        flush=True,
    )
    try:
        for level, end in zip(levels, ends, strict=True):
            if model is not None and model.num_timesteps >= end:
                continue
            env = build_vec_env(config, level, stream=model.num_timesteps if model else 0)
            if model is None:
                model = new_model(config, env)  # seeds torch, sampling and envs from config.seed
                if config.init:
                    init_weights(model, config.init)
            else:
                model.set_env(env)
                model.set_random_seed(config.seed + model.num_timesteps)
            model.set_logger(logger)
            model.learn(
                end - model.num_timesteps,
                callback=training_callbacks(
                    config, level, out, curve, build_eval_env(config, level)
                ),
                reset_num_timesteps=False,
            )
            env.close()
    except KeyboardInterrupt:
        if model is None:  # stopped before the first model was made: nothing to keep
            raise
        checkpoint = save_interrupted(model, out)
        # the policy so far, as a finished run writes it: a user can play it at once; atomic,
        # so a second Ctrl-C leaves the old file or the new one, never half of one
        replace_atomically(out / "policy.zip", lambda path: export_policy(model, path))
        raise TrainingInterrupted(config, model.num_timesteps, checkpoint) from None
    seconds = time.perf_counter() - started
    assert model is not None  # frames > 0: at least one stage ran or was resumed
    replace_atomically(out / "final.zip", lambda temporary: model.save(str(temporary)))
    export_policy(model, out / "policy.zip")
    plot_curve(read_curve(curve), out / "curve.png", title=_title(config))
    return TrainResult(
        timesteps=model.num_timesteps - first,
        seconds=seconds,
        final=out / "final.zip",
        policy=out / "policy.zip",
        curve=curve,
        curve_png=out / "curve.png",
    )


def _where(config: TrainConfig) -> str:
    return f"levels {config.levels}" if config.levels else f"level {config.level}"


class TrainingInterrupted(Exception):
    """Ctrl-C stopped the training; the model was saved to ``checkpoint``."""

    def __init__(self, config: TrainConfig, timesteps: int, checkpoint: Path) -> None:
        super().__init__(f"interrupted at {timesteps} timesteps")
        self.config, self.timesteps, self.checkpoint = config, timesteps, checkpoint


def save_interrupted(model: Any, out: Path) -> Path:
    """A full checkpoint of the interrupted ``model`` in the run's checkpoints folder."""
    path = out / "checkpoints" / f"interrupted_{model.num_timesteps}_steps.zip"
    path.parent.mkdir(parents=True, exist_ok=True)
    replace_atomically(path, lambda temporary: model.save(str(temporary)))
    return path


def resume_command(stop: TrainingInterrupted) -> str:
    """The command that continues an interrupted run from its checkpoint."""
    return f"friday train --resume --out {stop.config.out}"


def replot(run_dir: str | Path) -> Path:
    """Redraw a run's ``curve.png`` from its curve and ``config.json``."""
    run = Path(run_dir)
    plot_curve(read_curve(run), run / "curve.png", title=_title(load_run_config(run, TrainConfig)))
    return run / "curve.png"


def _title(config: TrainConfig) -> str:
    return (
        f"MaskablePPO on Friday-v0, {_where(config)}: reward {config.reward}, seed {config.seed}, "
        f"held-out deals ({config.eval_deals} per point)"
    )


def _fresh(curve: Path) -> tuple[None, int]:
    """A new run: refused in a folder holding one (``--resume`` continues it)."""
    if (curve.parent / "checkpoints").exists() or (curve.parent / "final.zip").exists():
        raise TrainConfigError(
            f"{curve.parent} already holds a run: pass --resume, or choose another --out"
        )
    curve.unlink(missing_ok=True)
    return None, 0


def newest_checkpoint(out: Path) -> Path:
    """The run's checkpoint with the most timesteps (``final.zip`` when it is not behind
    one), or [`TrainConfigError`][friday_agents.learning.sb3.config.TrainConfigError]."""
    saved = {
        int(match.group(1)): path
        for path in (out / "checkpoints").glob("*.zip")
        if (match := CHECKPOINT_NAME.search(path.name))
    }
    if (out / "final.zip").exists():
        return out / "final.zip" if not saved else _newer_final(out / "final.zip", saved)
    if not saved:
        raise TrainConfigError(f"nothing to resume: {out} holds no checkpoint")
    return saved[max(saved)]


def _newer_final(final: Path, saved: dict[int, Path]) -> Path:
    """``final.zip`` unless a checkpoint has more timesteps (a resumed run stopped later)."""
    timesteps = load_model(final).num_timesteps
    return final if timesteps >= max(saved) else saved[max(saved)]


def _resumed(config: TrainConfig, curve: Path) -> tuple[Any, int]:
    """The run's newest checkpoint (its curve cut back to its timesteps) and the timesteps
    it starts from."""
    checkpoint = newest_checkpoint(curve.parent)
    model = load_model(checkpoint, device=torch_device(config.device))
    _check_fits(model, config, checkpoint)
    record_encoder(model, config.observation)
    keep_rows(curve, "frames", model.num_timesteps)
    return model, model.num_timesteps


def _check_fits(model: Any, config: TrainConfig, checkpoint: Path) -> None:
    """A resumed checkpoint must read the configured encoder, in its current layout."""
    trained_with = encoder_of(model, checkpoint)
    if trained_with != config.observation:
        raise CheckpointError(
            f"checkpoint {str(checkpoint)!r} was trained on the {trained_with!r} observation, "
            f"not {config.observation!r}"
        )
    if model.observation_space != make_encoder(config.observation).space:
        raise CheckpointError(
            f"checkpoint {str(checkpoint)!r} was trained on another layout of the "
            f"{config.observation!r} observation than the current one: retrain it"
        )
