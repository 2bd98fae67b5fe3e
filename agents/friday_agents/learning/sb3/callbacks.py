"""``friday train``'s SB3 callbacks: the held-out evaluations and their curve rows, the value
warm-up, the checkpoints, the training episodes' statistics and the progress bar (each built
inside a function: sb3 is imported only when a run starts)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from friday_agents.harness.curve import append_row, read_curve
from friday_agents.harness.files import replace_atomically
from friday_agents.learning.sb3.config import TrainConfig
from friday_agents.players.ppo.checkpoint import export_policy

#: The policy of the best held-out evaluation of the level trained last (`is_best`).
BEST_POLICY = "best_policy.zip"


def training_callbacks(
    config: TrainConfig, level: int, out: Path, curve: Path, eval_env: Any
) -> list[Any]:
    """The callbacks of one stage's ``learn`` on ``level``: the value warm-up, the held-out
    evaluations on ``eval_env`` (each a row of ``curve``), the checkpoints in ``out``, the
    training episodes' statistics and the progress bar, as ``config`` asks."""
    # a callback is called once per vector step (num_envs frames): an update is num_steps calls
    callbacks: list[Any] = []
    if config.warmup_frames:
        callbacks.append(_value_warmup(config.warmup_frames))
    callbacks.append(_held_out_evaluation(config, level, out, curve, eval_env))
    if config.checkpoint_every:
        callbacks.append(_whole_checkpoints(config.checkpoint_every * config.num_steps, out))
    callbacks.append(_episode_statistics())
    if config.progress:
        callbacks.append(_progress_bar(config.frames))
    return callbacks


def _whole_checkpoints(every: int, out: Path) -> Any:
    """SB3's checkpoints (``checkpoints/ppo_<frames>_steps.zip`` every ``every`` calls), each
    written whole or not at all (`replace_atomically`): SB3 writes in place, and a checkpoint
    cut short by a kill would be the newest one a resume picks."""
    from stable_baselines3.common.callbacks import CheckpointCallback

    class WholeCheckpoints(CheckpointCallback):
        def _on_step(self) -> bool:
            if self.n_calls % self.save_freq == 0:
                path = Path(self._checkpoint_path(extension="zip"))
                replace_atomically(path, lambda temporary: self.model.save(str(temporary)))
            return True

    return WholeCheckpoints(save_freq=every, save_path=str(out / "checkpoints"), name_prefix="ppo")


def _held_out_evaluation(
    config: TrainConfig, level: int, out: Path, curve: Path, eval_env: Any
) -> Any:
    """The held-out evaluations on ``eval_env``, each a row of ``curve``."""
    from sb3_contrib.common.maskable.callbacks import MaskableEvalCallback
    from stable_baselines3.common.callbacks import BaseCallback

    class CurveRow(BaseCallback):
        """Run after each evaluation: append its numbers to ``curve.jsonl``."""

        def _on_step(self) -> bool:
            evaluation = self.parent
            if not isinstance(evaluation, MaskableEvalCallback):
                raise TypeError("CurveRow runs after a MaskableEvalCallback's evaluations")
            append_row(
                curve, {"frames": self.num_timesteps, "level": level, **_heldout(evaluation)}
            )
            if is_best(read_curve(curve), level):
                replace_atomically(out / BEST_POLICY, lambda path: export_policy(self.model, path))
            return True

    class HeldOutEval(MaskableEvalCallback):
        """Evaluates at the start, every ``eval_every`` updates and at the end; each round
        replays the same held-out deals from the first (the reset seed restarts them) and
        keeps each game's hazards beaten (its last ``info``: progress before any win)."""

        hazards_beaten: list[int]

        def _due(self) -> bool:
            return self.eval_freq > 0 and self.n_calls % self.eval_freq == 0

        def _on_step(self) -> bool:
            if self._due():
                self.eval_env.seed(0)
                self.hazards_beaten = []
            return super()._on_step()

        def _log_success_callback(self, locals_: dict[str, Any], globals_: dict[str, Any]) -> None:
            super()._log_success_callback(locals_, globals_)
            if locals_["done"]:
                self.hazards_beaten.append(locals_["info"]["hazards_beaten"])

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

    return HeldOutEval(
        eval_env,
        n_eval_episodes=config.eval_deals,
        eval_freq=config.eval_every * config.num_steps,
        log_path=str(out / "eval"),
        deterministic=True,
        callback_after_eval=CurveRow(),
        warn=False,
        verbose=0,
    )


def is_best(rows: list[dict[str, Any]], level: int) -> bool:
    """Whether the last row's evaluation is the best of ``level``'s so far: the highest
    held-out win rate, then the most hazards beaten (an earlier one stays best on a tie)."""

    def key(row: dict[str, Any]) -> tuple[float, float]:
        hazards = row.get("heldout_mean_hazards_beaten")
        return row["heldout_win_rate"], -1.0 if hazards is None else hazards

    evaluated = [r for r in rows if r.get("level") == level and "heldout_win_rate" in r]
    return bool(evaluated) and all(key(evaluated[-1]) > key(r) for r in evaluated[:-1])


def _heldout(evaluation: Any) -> dict[str, Any]:
    """The curve row's numbers of the evaluation just made (a ``HeldOutEval``'s)."""
    scores = [round(r * 100) for r in evaluation.evaluations_results[-1]]
    successes = evaluation.evaluations_successes[-1]
    lengths = evaluation.evaluations_length[-1]
    hazards = evaluation.hazards_beaten
    return {
        "heldout_deals": len(scores),
        "heldout_win_rate": sum(successes) / len(successes),
        "heldout_mean_score": sum(scores) / len(scores),
        "heldout_score_std": round(_std(scores), 4),
        "heldout_mean_length": sum(lengths) / len(lengths),
        "heldout_mean_hazards_beaten": _mean(hazards),
    }


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
            episodes = [e for e in self.model.ep_info_buffer or () if "won" in e]
            if episodes:
                self.logger.record("rollout/win_rate", _mean([e["won"] for e in episodes]))
                self.logger.record(
                    "rollout/mean_score", _mean([e["final_score"] for e in episodes])
                )

    return EpisodeStatistics()


def _mean(values: Sequence[float]) -> float:
    return float(sum(values)) / len(values)


def _value_warmup(timesteps: int) -> Any:
    """Freeze the actor (policy layers and action head) for the first ``timesteps``: PPO's
    updates then fit only the critic, so a policy from imitation is not pushed around by
    advantages computed with a value function that has not yet seen its own games."""
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
    from stable_baselines3.common.callbacks import BaseCallback

    class ValueWarmup(BaseCallback):
        def _actor(self) -> list[Any]:
            policy = self.model.policy
            if not isinstance(policy, MaskableActorCriticPolicy):
                raise TypeError(
                    f"the value warm-up freezes a MaskablePPO policy's actor, not {policy}"
                )
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


def _std(values: Sequence[float]) -> float:
    mean = sum(values) / len(values)
    return (sum((v - mean) ** 2 for v in values) / len(values)) ** 0.5


def _curve_has(path: Path, frames: int, level: int) -> bool:
    return any((row["frames"], row["level"]) == (frames, level) for row in read_curve(path))
