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
  command that resumes from it (exit status 130);
- ``final.zip`` (full) and ``policy.zip`` (the policy alone, a few hundred KB: what
  [`friday_agents.players.ppo.agent.PPOAgent`][friday_agents.players.ppo.agent.PPOAgent] loads and
  what the project commits);
- ``curve.csv`` and ``curve.png``: the learning curve, win rate, mean score and episode length
  against timesteps, measured with sb3-contrib's ``MaskableEvalCallback`` on held-out deals
  ([`friday_agents.learning.sb3.envs.held_out_deals`][friday_agents.learning.sb3.envs.held_out_deals];
  training deals are all below 10,000,000).

Reproducibility: torch runs on ``--torch-threads`` (1 by default) CPU threads, the policy,
optimiser and action sampling are seeded through sb3's ``set_random_seed`` (the library's
contract), and every deal comes from a generator seeded from ``--seed``. The same seed and
configuration on the same machine give the same curve, row for row.

torch and sb3 are imported only inside functions, so ``friday --help`` stays fast.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from friday_agents.harness.files import replace_atomically
from friday_agents.harness.interrupts import children_ignore_ctrl_c
from friday_agents.learning.sb3.config import (
    TrainConfig,
)
from friday_agents.players.ppo.checkpoint import (
    CheckpointError,
    encoder_of,
    export_policy,
    load_model,
    record_encoder,
)
from friday_env.observation import make_encoder

#: Where runs without an ``--out-dir`` go (relative to the working directory).
RUNS = Path("runs")
CURVE_FIELDS = ("timesteps", "level", "games", "win_rate", "mean_score", "score_std", "mean_length")


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
            f"checkpoint {str(path)!r} has other network sizes than --net-arch: {err}"
        ) from None


# ------------------------------------------------------------------------ building


def build_vec_env(config: TrainConfig, level: int, stream: int) -> Any:
    """``n_envs`` training envs of ``level``; env ``i`` deals from a generator keyed by
    ``(seed, stream, i)`` (``stream`` = the timestep the stage starts at, so a resumed run
    does not replay the deals it has seen)."""
    from stable_baselines3.common.monitor import Monitor
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    from friday_agents.learning.sb3.envs import make_env, training_deals

    def factory(index: int):
        def make():
            deals = training_deals(level, [config.seed, stream, index])
            env = make_env(level, config.observation, config.reward, deals, config.gamma)
            return Monitor(env, info_keywords=EPISODE_KEYS)

        return make

    makers = [factory(i) for i in range(config.n_envs)]
    if config.vec_env == "subproc":
        with children_ignore_ctrl_c():  # Ctrl-C is the main process's: it saves and says so
            return SubprocVecEnv(makers)
    return DummyVecEnv(makers)


def build_eval_env(config: TrainConfig, level: int) -> Any:
    """One env replaying the held-out deals; its reward is the env's ``score`` (final
    score / 100) whatever the training reward, so the mean return is the mean score."""
    from stable_baselines3.common.monitor import Monitor
    from stable_baselines3.common.vec_env import DummyVecEnv

    from friday_agents.learning.sb3.envs import fixed_deals, held_out_deals, make_env

    deals = fixed_deals(held_out_deals(level, config.eval_games))
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
        n_steps=config.n_steps,
        batch_size=config.batch_size,
        n_epochs=config.n_epochs,
        gamma=config.gamma,
        gae_lambda=config.gae_lambda,
        clip_range=config.clip_range,
        ent_coef=config.ent_coef,
        vf_coef=config.vf_coef,
        max_grad_norm=config.max_grad_norm,
        policy_kwargs={"net_arch": {"pi": layers, "vf": layers}},
        seed=config.seed,
        device="cpu",
        verbose=0,
    )
    record_encoder(model, config.observation)  # every save from now on names the encoder
    return model


# ------------------------------------------------------------------------ callbacks


def _callbacks(config: TrainConfig, level: int, out: Path, curve: Path) -> list[Any]:
    from sb3_contrib.common.maskable.callbacks import MaskableEvalCallback
    from stable_baselines3.common.callbacks import BaseCallback, CheckpointCallback

    class CurveRow(BaseCallback):
        """Run after each evaluation: append its numbers to ``curve.csv``."""

        def _on_step(self) -> bool:
            evaluation = self.parent
            scores = [round(r * 100) for r in evaluation.evaluations_results[-1]]
            successes = evaluation.evaluations_successes[-1]
            lengths = evaluation.evaluations_length[-1]
            _append_row(
                curve,
                {
                    "timesteps": self.num_timesteps,
                    "level": level,
                    "games": len(scores),
                    "win_rate": sum(successes) / len(successes),
                    "mean_score": sum(scores) / len(scores),
                    "score_std": _std(scores),
                    "mean_length": sum(lengths) / len(lengths),
                },
            )
            return True

    class HeldOutEval(MaskableEvalCallback):
        """Evaluates at the start, every ``eval_freq`` timesteps and at the end; each round
        replays the same held-out deals from the first (the reset seed restarts them)."""

        def _due(self) -> bool:
            return self.eval_freq > 0 and self.n_calls % self.eval_freq == 0

        def _on_step(self) -> bool:
            if self._due():
                self.eval_env.seed(0)
            return super()._on_step()

        def evaluate_now(self) -> None:
            self.num_timesteps = self.model.num_timesteps
            if self.evaluations_timesteps and self.evaluations_timesteps[-1] == self.num_timesteps:
                return
            calls, self.n_calls = self.n_calls, 0  # 0 % eval_freq == 0: evaluation is due
            try:
                self._on_step()
            finally:
                self.n_calls = calls

        def _on_training_start(self) -> None:
            super()._on_training_start()
            if not _curve_has(curve, self.model.num_timesteps, level):
                self.evaluate_now()

        def _on_training_end(self) -> None:
            self.evaluate_now()

    callbacks: list[Any] = []
    if config.vf_warmup:
        callbacks.append(_value_warmup(config.vf_warmup))
    if config.eval_freq:
        callbacks.append(
            HeldOutEval(
                build_eval_env(config, level),
                n_eval_episodes=config.eval_games,
                eval_freq=max(config.eval_freq // config.n_envs, 1),
                log_path=str(out / "eval"),
                deterministic=True,
                callback_after_eval=CurveRow(),
                warn=False,
                verbose=0,
            )
        )
    if config.checkpoint_freq:
        callbacks.append(
            CheckpointCallback(
                save_freq=max(config.checkpoint_freq // config.n_envs, 1),
                save_path=str(out / "checkpoints"),
                name_prefix="ppo",
            )
        )
    callbacks.append(_episode_statistics())
    if config.progress_bar:
        callbacks.append(_progress_bar(config.total_timesteps))
    return callbacks


#: What the training envs' Monitor keeps of each finished episode's last info.
EPISODE_KEYS = ("won", "final_score")


def _episode_statistics() -> Any:
    from stable_baselines3.common.callbacks import BaseCallback

    class EpisodeStatistics(BaseCallback):
        """Log the win rate and mean final score of the recent training episodes (SB3's
        episode buffer) next to its ``ep_rew_mean``, which depends on the reward shaping."""

        def _on_step(self) -> bool:
            return True

        def _on_rollout_end(self) -> None:
            episodes = [e for e in self.model.ep_info_buffer if "won" in e]
            if episodes:
                self.logger.record("rollout/win_rate", _mean([e["won"] for e in episodes]))
                self.logger.record(
                    "rollout/mean_score", _mean([e["final_score"] for e in episodes])
                )

    return EpisodeStatistics()


def _mean(values: list[float]) -> float:
    return float(sum(values)) / len(values)


def run_logger(out: Path) -> Any:
    """SB3's logger writing ``progress.csv`` (and TensorBoard events when tensorboard is
    installed) into the run directory; setting it keeps SB3 from making its own in /tmp."""
    import importlib.util

    from stable_baselines3.common.logger import configure

    formats = ["csv"]
    if importlib.util.find_spec("tensorboard") is not None:
        formats.append("tensorboard")
    return configure(str(out), formats)


def _value_warmup(timesteps: int) -> Any:
    """Freeze the actor (policy layers and action head) for the first ``timesteps``: PPO's
    updates then fit only the critic, so a policy from imitation is not pushed around by
    advantages computed with a value function that has not yet seen its own games."""
    from stable_baselines3.common.callbacks import BaseCallback

    class ValueWarmup(BaseCallback):
        def _actor(self) -> list[Any]:
            policy = self.model.policy
            return [*policy.mlp_extractor.policy_net.parameters(), *policy.action_net.parameters()]

        def _set(self, trainable: bool) -> None:
            for parameter in self._actor():
                parameter.requires_grad_(trainable)

        def _on_training_start(self) -> None:
            self._set(self.model.num_timesteps >= timesteps)

        def _on_step(self) -> bool:
            if self.model.num_timesteps >= timesteps:
                self._set(True)
            return True

        def _on_training_end(self) -> None:
            self._set(True)

    return ValueWarmup()


def _progress_bar(total: int) -> Any:
    from stable_baselines3.common.callbacks import BaseCallback
    from tqdm import tqdm

    class ProgressBar(BaseCallback):
        """A tqdm bar over the run's timesteps (sb3's own needs ``rich``)."""

        def _on_training_start(self) -> None:
            self.bar = tqdm(total=total, initial=self.model.num_timesteps, unit="step")

        def _on_step(self) -> bool:
            self.bar.update(self.model.num_timesteps - self.bar.n)
            return True

        def _on_training_end(self) -> None:
            self.bar.close()

    return ProgressBar()


# --------------------------------------------------------------------- the curve


def _std(values: list[float]) -> float:
    mean = sum(values) / len(values)
    return (sum((v - mean) ** 2 for v in values) / len(values)) ** 0.5


def _append_row(path: Path, row: dict[str, Any]) -> None:
    new = not path.exists()
    with path.open("a", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=CURVE_FIELDS)
        if new:
            writer.writeheader()
        writer.writerow({k: (f"{v:.4f}" if isinstance(v, float) else v) for k, v in row.items()})


def read_curve(path: Path) -> list[dict[str, float]]:
    """The rows of a ``curve.csv`` as numbers."""
    if not path.exists():
        return []
    with path.open(newline="") as handle:
        return [{k: float(v) for k, v in row.items()} for row in csv.DictReader(handle)]


def _curve_has(path: Path, timesteps: int, level: int) -> bool:
    return any(
        (int(row["timesteps"]), int(row["level"])) == (timesteps, level) for row in read_curve(path)
    )


def _truncate_curve(path: Path, timesteps: int) -> None:
    """Keep the rows up to ``timesteps`` (a resumed run re-measures what comes after)."""
    rows = [row for row in read_curve(path) if row["timesteps"] <= timesteps]
    if path.exists():
        path.unlink()
    for row in rows:
        _append_row(
            path,
            {k: (int(v) if k in ("timesteps", "level", "games") else v) for k, v in row.items()},
        )


def plot_curve(
    csv_path: Path,
    png_path: Path,
    title: str = "MaskablePPO on Friday-v0",
    baselines: dict[str, tuple[float, float]] | None = None,
) -> None:
    """Draw win rate, mean score and episode length against timesteps. ``baselines`` maps
    an agent's name to its (win rate, mean score), drawn as horizontal lines."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = read_curve(csv_path)
    steps = [row["timesteps"] for row in rows]
    figure, axes = plt.subplots(1, 3, figsize=(13, 3.6))
    for axis, key, label in zip(
        axes,
        ("win_rate", "mean_score", "mean_length"),
        ("win rate", "mean score (R25)", "episode length (decisions)"),
        strict=True,
    ):
        axis.plot(steps, [row[key] for row in rows], marker="o", markersize=3, label="PPO")
        for index, (name, numbers) in enumerate((baselines or {}).items()):
            if key != "mean_length":
                value = numbers[0] if key == "win_rate" else numbers[1]
                axis.axhline(value, linestyle="--", color=f"C{index + 1}", label=name)
        axis.set_xlabel("timesteps")
        axis.xaxis.set_major_formatter(lambda x, _: f"{x / 1000:g}k")
        axis.set_title(label)
        axis.grid(alpha=0.3)
    axes[0].set_ylim(-0.02, max([0.2, *(row["win_rate"] * 1.2 for row in rows)]))
    axes[1].legend(fontsize=8)
    figure.suptitle(title)
    figure.tight_layout()
    figure.savefig(png_path, dpi=100)
    plt.close(figure)


# ------------------------------------------------------------------------ training


@dataclass(frozen=True)
class TrainResult:
    timesteps: int
    seconds: float
    final: Path
    policy: Path
    curve_csv: Path
    curve_png: Path

    @property
    def fps(self) -> float:
        return self.timesteps / max(self.seconds, 1e-9)


def _stage_ends(config: TrainConfig) -> list[int]:
    """Cumulative timesteps at which each curriculum stage ends."""
    levels = config.levels()
    share, extra = divmod(config.total_timesteps, len(levels))
    ends, total = [], 0
    for index in range(len(levels)):
        total += share + (1 if index < extra else 0)
        ends.append(total)
    return ends


def train(config: TrainConfig) -> TrainResult:
    """Train as ``config`` says (validated first) and write the run's files."""
    import torch

    config.validate()
    if not config.out_dir:
        config = dataclasses.replace(config, out_dir=str(RUNS / config.run_name(int(time.time()))))
    torch.set_num_threads(config.torch_threads)
    out = Path(config.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    config.save(out / "config.json")
    curve = out / "curve.csv"
    levels, ends = config.levels(), _stage_ends(config)
    started = time.perf_counter()
    model, first = _resumed(config, curve)
    logger = run_logger(out)
    print(
        f"friday train: {config.total_timesteps} timesteps on {_where(config)}, reward "
        f"{config.reward}, seed {config.seed}; writing to {out}",
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
                callback=_callbacks(config, level, out, curve),
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
    assert model is not None  # total_timesteps > 0: at least one stage ran or was resumed
    model.save(str(out / "final.zip"))
    export_policy(model, out / "policy.zip")
    plot_curve(
        curve,
        out / "curve.png",
        title=_title(config),
    )
    return TrainResult(
        timesteps=model.num_timesteps - first,
        seconds=seconds,
        final=out / "final.zip",
        policy=out / "policy.zip",
        curve_csv=curve,
        curve_png=out / "curve.png",
    )


def _where(config: TrainConfig) -> str:
    return f"curriculum {config.curriculum}" if config.curriculum else f"level {config.level}"


class TrainingInterrupted(Exception):
    """Ctrl-C stopped the training; the model was saved to ``checkpoint``."""

    def __init__(self, config: TrainConfig, timesteps: int, checkpoint: Path) -> None:
        super().__init__(f"interrupted at {timesteps} timesteps")
        self.config, self.timesteps, self.checkpoint = config, timesteps, checkpoint


def save_interrupted(model: Any, out: Path) -> Path:
    """A full checkpoint of the interrupted ``model`` in the run's checkpoints folder."""
    path = out / "checkpoints" / f"interrupted_{model.num_timesteps}_steps.zip"
    path.parent.mkdir(parents=True, exist_ok=True)
    model.save(str(path))
    return path


def resume_command(stop: TrainingInterrupted) -> str:
    """The command that continues an interrupted run from its checkpoint."""
    out = stop.config.out_dir
    return (
        f"friday train --config {out}/config.json --init '' --resume {stop.checkpoint} --out {out}"
    )


def replot(run_dir: str | Path) -> Path:
    """Redraw a run's ``curve.png`` from its ``curve.csv`` and ``config.json``."""
    run = Path(run_dir)
    config = TrainConfig.from_dict(json.loads((run / "config.json").read_text()))
    plot_curve(run / "curve.csv", run / "curve.png", title=_title(config))
    return run / "curve.png"


def _title(config: TrainConfig) -> str:
    return (
        f"MaskablePPO on Friday-v0, {_where(config)}: reward {config.reward}, seed {config.seed}, "
        f"held-out deals ({config.eval_games} per point)"
    )


def _resumed(config: TrainConfig, curve: Path) -> tuple[Any, int]:
    """The model ``config.resume`` names (its curve cut back to its timesteps) and the
    timesteps it starts from; (None, 0) for a new run (whose old curve is removed)."""
    if not config.resume:
        if curve.exists():
            curve.unlink()
        return None, 0
    model = load_model(config.resume)
    _check_fits(model, config)
    record_encoder(model, config.observation)
    _truncate_curve(curve, model.num_timesteps)
    return model, model.num_timesteps


def _check_fits(model: Any, config: TrainConfig) -> None:
    """A resumed checkpoint must read the configured encoder, in its current layout."""
    trained_with = encoder_of(model, config.resume)
    if trained_with != config.observation:
        raise CheckpointError(
            f"checkpoint {config.resume!r} was trained on the {trained_with!r} observation, "
            f"not {config.observation!r}"
        )
    if model.observation_space != make_encoder(config.observation).space:
        raise CheckpointError(
            f"checkpoint {config.resume!r} was trained on another layout of the "
            f"{config.observation!r} observation than the current one: retrain it"
        )
