"""The typed configuration of ``friday train``: one dataclass, its field docs become ``--help``.

In CleanRL's style every hyperparameter is a field of
[`TrainConfig`][friday_agents.learning.sb3.config.TrainConfig] with a default and a one-line help. A
run's configuration is resolved in three layers: the defaults, then an optional JSON or TOML file
(``--config``), then the command-line flags given explicitly. The resolved configuration is
validated before anything is built, and saved beside the run as ``config.json`` so a run can be
reproduced or resumed.

No torch here: ``friday --help`` must stay fast.
"""

from __future__ import annotations

import dataclasses
import json
import tomllib
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from friday_agents.harness.errors import BadInputError
from friday_agents.learning.config import LearningConfig, ppo_field, setting
from friday_env.errors import InvalidLevelError
from friday_env.json_text import JsonTextError, read_json, read_text
from friday_env.levels import LEVELS, level_sequence
from friday_env.observation import ENCODERS

#: The observation encoders a policy can train on: every one friday_env registers.
OBSERVATIONS = tuple(ENCODERS)
#: ``win_loss`` and ``score`` are the env's own rewards; ``score_delta`` pays the change of
#: the R25 score after every decision (divided by 100), which sums to the final score / 100
#: minus the starting score / 100: the same objective as ``score``, but dense.
#: ``progress`` is ``win_loss`` plus 0.1 for every hazard beaten (see
#: friday_agents.learning.sb3.envs).
#: ``value_shaped`` is ``win_loss`` plus potential-based shaping with the fitted state value
#: (friday_agents.learning.sb3.shaping).
REWARDS = ("win_loss", "score", "score_delta", "progress", "value_shaped")
VEC_ENVS = ("dummy", "subproc")


class TrainConfigError(BadInputError):
    """A training configuration value that is out of range, unknown or inconsistent."""


@dataclass
class TrainConfig(LearningConfig):
    """Everything ``friday train`` needs; each field is a ``--flag`` of the same name."""

    Error = TrainConfigError

    level: int = setting("level to train on (1-4); ignored when --curriculum is given", 1)
    curriculum: str = setting(
        'levels trained one after another, e.g. "1,2,3,4" (timesteps split evenly); '
        "empty = just --level",
        "",
    )
    observation: str = setting(f"observation encoder: {', '.join(OBSERVATIONS)}", "flat")
    reward: str = setting(
        "reward: win_loss (+1/-1 at the end), score (final R25 score / 100), "
        "score_delta (score change after every decision / 100: dense, same total), "
        "progress (win_loss + 0.1 per hazard beaten), "
        "value_shaped (win_loss + gamma*V(s')-V(s), V the fitted state value / 100)",
        "progress",
    )
    total_timesteps: int = setting("environment steps to train for (all stages together)", 200_000)
    n_envs: int = setting("parallel environments", 8)
    vec_env: str = setting("vectorisation: dummy (one process) or subproc (one per env)", "dummy")
    seed: int = setting("seed of the policy, the optimiser and the training deals", 0)
    learning_rate: float = ppo_field("learning_rate", 3e-4)
    n_steps: int = setting("steps per env per rollout", 256)
    batch_size: int = setting("minibatch size", 256)
    n_epochs: int = setting("optimisation epochs per rollout", 4)
    gamma: float = ppo_field("gamma", 0.995)
    gae_lambda: float = ppo_field("gae_lambda", 0.95)
    clip_range: float = setting("PPO clipping", 0.2)
    ent_coef: float = ppo_field("ent_coef", 0.01)
    vf_coef: float = ppo_field("vf_coef", 0.5)
    max_grad_norm: float = ppo_field("max_grad_norm", 0.5)
    vf_warmup: int = setting(
        "timesteps at the start during which only the value head learns (the policy is "
        "frozen): for fine-tuning a policy from --init",
        0,
    )
    net_arch: str = setting("hidden layer sizes of the policy and value nets, e.g. 64,64", "64,64")
    eval_freq: int = setting(
        "evaluate on held-out deals every this many timesteps (0 = never)", 20_000
    )
    eval_games: int = setting("held-out deals per evaluation", 100)
    checkpoint_freq: int = setting(
        "save a checkpoint every this many timesteps (0 = only at the end)", 50_000
    )
    out_dir: str = setting(
        "run directory: checkpoints, config, logs, curve CSV and PNG; empty = "
        "runs/<level>__<reward>__<seed>__<unix time> (CleanRL-style, a new one per run)",
        "",
    )
    resume: str = setting("checkpoint (.zip) to continue training from", "")
    init: str = setting(
        "policy (.zip, e.g. from `friday imitate fit`) whose weights start a new run with "
        "this config's settings (unlike --resume, which keeps the checkpoint's settings)",
        "",
    )
    torch_threads: int = setting("torch CPU threads (1 keeps runs reproducible)", 1)
    progress_bar: bool = setting("show a progress bar", True)

    # ------------------------------------------------------------------ derived

    def levels(self) -> list[int]:
        """The levels trained, in order (one unless a curriculum is given)."""
        if not self.curriculum:
            return [self.level]
        return level_sequence(self.curriculum)

    def run_name(self, unix_time: int) -> str:
        """CleanRL-style ``level1__progress__0__1700000000`` (``levels1-2-3-4__...`` for a
        curriculum): the run directory under ``runs/`` when no ``out_dir`` is given."""
        levels = self.levels()
        where = f"level{levels[0]}" if len(levels) == 1 else "levels" + "-".join(map(str, levels))
        return f"{where}__{self.reward}__{self.seed}__{unix_time}"

    def hidden_layers(self) -> list[int]:
        return [int(part) for part in self.net_arch.split(",")]

    # --------------------------------------------------------------- validation

    def validate(self) -> TrainConfig:
        """Raise [`TrainConfigError`][friday_agents.learning.sb3.config.TrainConfigError] naming the
        first bad value; return self if fine."""
        self._check_choices()
        self._check_numbers()
        self._check_lists()
        for name in ("resume", "init"):
            if getattr(self, name) and not Path(getattr(self, name)).is_file():
                raise TrainConfigError(f"{name} checkpoint {getattr(self, name)!r} does not exist")
        if self.resume and self.init:
            raise TrainConfigError("give --resume or --init, not both")
        return self

    def _check_choices(self) -> None:
        for name, allowed in (
            ("observation", OBSERVATIONS),
            ("reward", REWARDS),
            ("vec_env", VEC_ENVS),
        ):
            value = getattr(self, name)
            if value not in allowed:
                raise TrainConfigError(
                    f"unknown {name} {value!r}; choose one of {', '.join(allowed)}"
                )

    def _check_numbers(self) -> None:
        positive = (
            "total_timesteps",
            "n_envs",
            "n_steps",
            "batch_size",
            "n_epochs",
            "torch_threads",
        )
        for name in positive:
            if getattr(self, name) <= 0:
                raise TrainConfigError(f"{name} must be positive, got {getattr(self, name)}")
        for name in ("eval_freq", "eval_games", "checkpoint_freq", "seed", "vf_warmup"):
            if getattr(self, name) < 0:
                raise TrainConfigError(f"{name} must not be negative, got {getattr(self, name)}")
        if self.eval_freq and not self.eval_games:
            raise TrainConfigError("eval_games must be positive when eval_freq is set")
        if not 0 < self.learning_rate < 1:
            raise TrainConfigError(f"learning_rate must be in (0, 1), got {self.learning_rate}")
        for name in ("gamma", "gae_lambda"):
            if not 0 < getattr(self, name) <= 1:
                raise TrainConfigError(f"{name} must be in (0, 1], got {getattr(self, name)}")
        for name in ("clip_range", "max_grad_norm"):
            if getattr(self, name) <= 0:
                raise TrainConfigError(f"{name} must be positive, got {getattr(self, name)}")
        for name in ("ent_coef", "vf_coef"):
            if getattr(self, name) < 0:
                raise TrainConfigError(f"{name} must not be negative, got {getattr(self, name)}")

    def _check_lists(self) -> None:
        try:
            levels = self.levels()
        except InvalidLevelError as err:
            raise TrainConfigError(f"curriculum must be levels such as 1,2,3,4: {err}") from None
        for level in levels:
            if level not in LEVELS:
                raise TrainConfigError(f"unknown level {level!r}: levels are 1, 2, 3, 4")
        try:
            layers = self.hidden_layers()
        except ValueError:
            layers = []
        if not layers or min(layers) <= 0:
            raise TrainConfigError(
                f'net_arch must be positive sizes such as "64,64"; got {self.net_arch!r}'
            )

    # ------------------------------------------------------------- persistence

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(self.to_dict(), indent=2) + "\n")

    @classmethod
    def from_dict(cls, values: dict[str, Any], source: str = "config") -> TrainConfig:
        """A config from ``values`` over the defaults; unknown keys and wrong types raise."""
        cls.check_keys(values, source)
        known = {f.name: f for f in fields(cls)}
        config = cls()
        for name, value in values.items():
            setattr(config, name, _typed(known[name], value, source))
        return config


def _typed(spec: dataclasses.Field, value: Any, source: str) -> Any:
    """``value`` checked against the field's type (ints accepted where floats are)."""
    kind = {"int": int, "float": float, "str": str, "bool": bool}[str(spec.type)]
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if (kind is not bool and isinstance(value, bool)) or not isinstance(value, kind):
        raise TrainConfigError(f"{source}: {spec.name} must be {kind.__name__}, got {value!r}")
    return value


def load_config_file(path: str) -> dict[str, Any]:
    """The settings of a ``.json`` or ``.toml`` file (TOML: top level or a ``[train]`` table)."""
    file = Path(path)
    if not file.is_file():
        raise TrainConfigError(f"config file {path!r} does not exist")
    if file.suffix not in (".json", ".toml"):
        raise TrainConfigError(f"config file {path!r}: use a .json or .toml file")
    try:
        if file.suffix == ".toml":
            data = tomllib.loads(read_text(file))
            data = data.get("train", data)
        else:
            data = read_json(file)
    except (JsonTextError, tomllib.TOMLDecodeError, RecursionError) as err:
        # TOML nested past the parser's recursion limit raises RecursionError
        why = "nested too deeply to read" if isinstance(err, RecursionError) else err
        raise TrainConfigError(f"config file {path!r} is malformed: {why}") from None
    if not isinstance(data, dict):
        raise TrainConfigError(f"config file {path!r} must hold a table of settings")
    return data
