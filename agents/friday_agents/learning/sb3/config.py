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

import math
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from friday_agents.harness.device import DEVICES
from friday_agents.harness.errors import BadInputError
from friday_agents.learning.config import LearningConfig, parse_hidden, setting, shared
from friday_env.episode import DEFAULT_PROGRESS_COEF
from friday_env.errors import InvalidLevelError
from friday_env.json_text import JsonTextError, read_json, read_text
from friday_env.levels import LEVELS, level_sequence
from friday_env.observation import ENCODERS

#: The observation encoders a policy can train on: every one friday_env registers.
OBSERVATIONS = tuple(ENCODERS)
#: ``win_loss``, ``score`` and ``progress`` are the env's own rewards (``progress``: +1/-1
#: plus ``progress_coef`` for each hazard and pirate beaten, kept); ``score_delta`` pays the
#: change of the R25 score after every decision (divided by 100), which sums to the final
#: score / 100 minus the starting score / 100: the same objective as ``score``, but dense.
REWARDS = ("win_loss", "score", "score_delta", "progress")
#: ``value``: potential-based shaping with the fitted state value
#: (friday_agents.learning.sb3.shaping).
SHAPINGS = ("none", "value")
VEC_ENVS = ("dummy", "subproc")
#: Reward names of an older release that are now a reward with a shaping.
OLD_REWARDS = {"value_shaped": {"reward": "win_loss", "shaping": "value"}}


class TrainConfigError(BadInputError):
    """A training configuration value that is out of range, unknown or inconsistent."""


@dataclass
class TrainConfig(LearningConfig):
    """Everything ``friday train`` needs; each field is a ``--flag`` of the same name."""

    Error = TrainConfigError

    out: str = shared(
        "out",
        "",
        "config.json, checkpoints/, logs, curve.jsonl and curve.png, policy.zip; empty: "
        "runs/<level>__<reward>__<seed>__<unix time> (CleanRL-style, a new one per run)",
    )
    level: int = shared("level", 1, "ignored when --levels is given")
    levels: str = setting(
        'levels trained one after another, e.g. "1,2,3,4" (frames split evenly); '
        "empty = just --level",
        "",
    )
    observation: str = setting(f"observation encoder: {', '.join(OBSERVATIONS)}", "flat")
    reward: str = shared(
        "reward",
        "progress",
        "progress (+1/-1 at the end plus --progress-coef for each hazard and pirate beaten, "
        "kept: the env's reward='progress'), win_loss (+1/-1 at the end), score (final R25 "
        "score / 100), score_delta (score change after every decision / 100: dense, same "
        "total)",
    )
    progress_coef: float = shared("progress_coef", DEFAULT_PROGRESS_COEF)
    shaping: str = shared(
        "shaping",
        "none",
        "none, or value (+ gamma*V(s')-V(s), V the fitted state value / 100)",
    )
    shaping_coef: float = shared("shaping_coef", 1.0)
    frames: int = shared("frames", 200_000, "all stages together")
    num_envs: int = shared("num_envs", 8)
    vec_env: str = setting("vectorisation: dummy (one process) or subproc (one per env)", "dummy")
    seed: int = shared("seed", 0)
    learning_rate: float = shared("learning_rate", 3e-4)
    num_steps: int = shared("num_steps", 256)
    minibatches: int = shared("minibatches", 8)
    epochs: int = shared("epochs", 4)
    gamma: float = shared("gamma", 0.995)
    gae_lambda: float = shared("gae_lambda", 0.95)
    clip: float = shared("clip", 0.2)
    ent_coef: float = shared("ent_coef", 0.01)
    vf_coef: float = shared("vf_coef", 0.5)
    max_grad_norm: float = shared("max_grad_norm", 0.5)
    warmup_frames: int = shared("warmup_frames", 0, "for fine-tuning a policy from --init")
    hidden: str = shared("hidden", "64,64", "the policy's and the value function's")
    eval_every: int = shared("eval_every", 10)
    eval_deals: int = shared("eval_deals", 100)
    checkpoint_every: int = shared("checkpoint_every", 25)
    init: str = shared(
        "init",
        "",
        "a policy .zip (e.g. from `friday imitate fit`) whose weights start a new run with "
        "this config's settings (unlike --resume, which continues a run with its own)",
    )
    device: str = shared("device", "auto")
    torch_threads: int = setting("torch CPU threads (1 keeps runs reproducible)", 1)
    progress: bool = setting("show a progress bar", True)

    # ------------------------------------------------------------------ derived

    def level_list(self) -> list[int]:
        """The levels trained, in order (one unless a curriculum is given)."""
        if not self.levels:
            return [self.level]
        return level_sequence(self.levels)

    def run_name(self, unix_time: int) -> str:
        """CleanRL-style ``level1__progress__0__1700000000`` (``levels1-2-3-4__...`` for a
        curriculum): the run directory under ``runs/`` when no ``out`` is given."""
        levels = self.level_list()
        where = f"level{levels[0]}" if len(levels) == 1 else "levels" + "-".join(map(str, levels))
        return f"{where}__{self.reward}__{self.seed}__{unix_time}"

    def hidden_layers(self) -> list[int]:
        return list(parse_hidden(self.hidden, TrainConfigError))

    @property
    def batch(self) -> int:
        """Frames per rollout: an update learns from ``num_envs x num_steps`` at once."""
        return self.num_envs * self.num_steps

    def minibatch_size(self) -> int:
        return self.batch // self.minibatches

    # --------------------------------------------------------------- validation

    def validate(self) -> TrainConfig:
        """Raise [`TrainConfigError`][friday_agents.learning.sb3.config.TrainConfigError] naming the
        first bad value; return self if fine."""
        self._check_choices()
        self._check_numbers()
        self._check_lists()
        if self.init and not Path(self.init).is_file():
            raise TrainConfigError(f"init checkpoint {self.init!r} does not exist")
        return self

    def _check_choices(self) -> None:
        for name, allowed in (
            ("observation", OBSERVATIONS),
            ("reward", REWARDS),
            ("shaping", SHAPINGS),
            ("vec_env", VEC_ENVS),
            ("device", DEVICES),
        ):
            value = getattr(self, name)
            if name == "reward" and value in OLD_REWARDS:
                now = " ".join(f"--{k} {v}" for k, v in OLD_REWARDS[value].items())
                raise TrainConfigError(f"reward {value!r} is now {now}")
            self.check_choice(name, allowed)

    def _check_numbers(self) -> None:
        positive = ("frames", "num_envs", "num_steps", "minibatches", "epochs", "torch_threads")
        self.check_at_least(1, *positive, "eval_deals")
        self.check_at_least(0, "eval_every", "checkpoint_every", "seed", "warmup_frames")
        if self.batch % self.minibatches:
            raise TrainConfigError(
                f"num_envs x num_steps ({self.batch}) must split into {self.minibatches} "
                "equal minibatches"
            )
        self.check_between("learning_rate", 0, 1, "()")
        for name in ("gamma", "gae_lambda"):
            self.check_between(name, 0, 1, "(]")
        for name in ("clip", "max_grad_norm"):
            self.check_between(name, 0, math.inf, "()")
        self.check_at_least(0, "ent_coef", "vf_coef", "shaping_coef")
        self.check_progress_coef(self.progress_coef, self.reward)

    def _check_lists(self) -> None:
        try:
            levels = self.level_list()
        except InvalidLevelError as err:
            raise TrainConfigError(f"levels must be levels such as 1,2,3,4: {err}") from None
        for level in levels:
            if level not in LEVELS:
                raise TrainConfigError(f"unknown level {level!r}: levels are 1, 2, 3, 4")
        self.hidden_layers()

    # ------------------------------------------------------------- persistence

    @classmethod
    def migrate(cls, data: dict[str, Any]) -> dict[str, Any]:
        """A run folder's ``config.json`` of an older release in today's vocabulary: keys
        renamed, counts of timesteps as counts of updates, the minibatch size as the
        number of minibatches, a shaped reward as the reward and its shaping, and the old
        ``--bonus hazards`` (its coefficient per hazard beaten, kept) as the env's
        ``--reward progress`` with that coefficient, which also pays it for each pirate."""
        data = dict(data)
        data.pop("resume", None)  # now a flag: a run resumes from its own folder
        batch = data.get("n_envs", cls.num_envs) * data.get("n_steps", cls.num_steps)
        for old in ("eval_freq", "checkpoint_freq"):
            if old in data:  # every this many timesteps -> every this many updates
                data[old] = -(-data[old] // batch) if data[old] else 0
        if "batch_size" in data:
            data["batch_size"] = max(batch // data["batch_size"], 1)
        data |= OLD_REWARDS.get(data.get("reward", ""), {})
        bonus, bonus_coef = data.pop("bonus", "none"), data.pop("bonus_coef", None)
        if bonus == "hazards":
            if data.get("reward", "win_loss") != "win_loss":
                raise TrainConfigError(
                    f"a run of --reward {data['reward']} --bonus hazards cannot resume: "
                    "the bonus is now the env's --reward progress, a reward of its own"
                )
            data["reward"] = "progress"
            if bonus_coef is not None:
                data["progress_coef"] = bonus_coef
        return super().migrate(data)


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
