"""What the learning commands' configurations share.

Each command's settings are one dataclass whose fields are its flags or file keys:
``friday train``'s [`TrainConfig`][friday_agents.learning.sb3.config.TrainConfig], ``friday rl``'s
[`RLConfig`][friday_agents.learning.rl.config.RLConfig], ``friday distill``'s
[`ExitConfig`][friday_agents.learning.distill.config.ExitConfig]. They derive from
`LearningConfig`, which saves and reads them the one way (a dict of the fields; an
unknown key, or with ``complete`` a missing one, is refused naming it), and the two PPO
trainers (SB3's and ours) declare the settings they share with `shared`, so each has one
name, one meaning and one help text (`SHARED_HELP`); names from before that are
`RENAMED`. No torch here: ``friday --help`` stays fast.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable
from pathlib import Path
from typing import Any, ClassVar, Self

from friday_env.episode import DEFAULT_PROGRESS_COEF
from friday_env.errors import FridayError
from friday_env.json_text import JsonTextError, read_json

#: The settings both trainers take: name -> help text. Each has this one name in both
#: CLIs (``--name-with-dashes``), config files and run folders, and this one meaning; the
#: defaults are each trainer's own, tuned for its setting. ``docs/settings.md`` tables them.
SHARED_HELP = {
    "out": "run folder",
    "level": "level to train on (1-4)",
    "frames": "total env steps of the run, rounded up to whole rollouts of "
    "num_envs x num_steps frames",
    "num_envs": "games played side by side",
    "num_steps": "steps per env per rollout (a rollout: num_envs x num_steps frames)",
    "learning_rate": "Adam learning rate",
    "gamma": "discount factor (1: the game's own undiscounted outcome)",
    "gae_lambda": "GAE lambda",
    "clip": "PPO clip range of the probability ratio",
    "ent_coef": "entropy bonus weight",
    "vf_coef": "value loss weight",
    "max_grad_norm": "gradient norm clip",
    "epochs": "passes over each rollout",
    "minibatches": "minibatches per pass (each num_envs x num_steps / minibatches frames)",
    "hidden": "hidden layer sizes of a new network, e.g. 64,64",
    "seed": "seed of everything random in the run (network, sampling, training deals)",
    "reward": "the reward the policy learns from",
    "progress_coef": "with --reward progress: the reward for each hazard or pirate beaten (the "
    "env's progress_coef, a finite number >= 0)",
    "shaping": "potential-based shaping added to the reward (none: no shaping)",
    "shaping_coef": "weight of the shaping potential",
    "warmup_frames": "critic warm-up: frames at the start with the policy frozen and only "
    "the value function learning",
    "eval_every": "held-out evaluation on the validation deals every this many updates "
    "(0: only at the start and the end)",
    "eval_deals": "validation deals of each held-out evaluation",
    "checkpoint_every": "checkpoint every this many updates",
    "init": "start a new run from these weights (fine-tuning); empty: from scratch",
    "device": "where acting and learning run: auto (cuda when torch sees a GPU, else cpu), "
    "cpu or cuda",
}

#: Names the learning commands used before one vocabulary (old -> new). An old name on the
#: command line or in a ``--config`` file is refused naming the new one; a run folder's stored
#: configuration is read with its old keys renamed (`LearningConfig.migrate`).
RENAMED = {
    "total_timesteps": "frames",
    "n_envs": "num_envs",
    "n_steps": "num_steps",
    "n_epochs": "epochs",
    "update_epochs": "epochs",
    "num_minibatches": "minibatches",
    "clip_range": "clip",
    "clip_coef": "clip",
    "net_arch": "hidden",
    "curriculum": "levels",
    "eval_games": "eval_deals",
    "out_dir": "out",
    "progress_bar": "progress",
    "vf_warmup": "warmup_frames",
    "eval_freq": "eval_every",
    "checkpoint_freq": "checkpoint_every",
    "batch_size": "minibatches",
    "lr": "learning_rate",
}


#: The key of a run folder's ``config.json`` that says which layout wrote it
#: (`friday_agents.learning.run_folder`); no setting of its own.
VERSION_KEY = "run_folder_version"


def setting(help_text: str, default: Any, **metadata: Any) -> Any:
    """A dataclass field of a learning command's settings: its default and the help text
    its flag shows (more ``metadata`` where a command reads some)."""
    return dataclasses.field(default=default, metadata={"help": help_text, **metadata})


def shared(name: str, default: Any, more: str = "") -> Any:
    """A dataclass field for the shared setting ``name`` (see `SHARED_HELP`); ``more``
    adds what this trainer's values mean."""
    return setting(SHARED_HELP[name] + (f": {more}" if more else ""), default, shared=True)


def shared_names(settings: type) -> set[str]:
    """The fields of ``settings`` that are shared settings."""
    return {f.name for f in dataclasses.fields(settings) if f.metadata.get("shared")}


def renamed_message(old: str, flag: bool) -> str:
    """The line that refuses the old name ``old`` (a flag's or a file key's)."""
    new = RENAMED[old]
    if flag:
        return f"--{old.replace('_', '-')} is now --{new.replace('_', '-')}"
    return f"{old!r} is now {new!r}"


class LearningConfig:
    """The base of a learning command's settings dataclass: ``Error`` is the error its
    checks raise."""

    Error: ClassVar[type[FridayError]] = FridayError

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)  # type: ignore[call-overload]

    @classmethod
    def read_settings(cls, path: str | Path, what: str = "settings") -> dict[str, Any]:
        """The JSON object in ``path``; ``Error`` naming the file and why not (missing, not
        UTF-8, nested too deeply, not JSON, not an object: `friday_env.json_text`)."""
        try:
            data = read_json(path)
        except JsonTextError as err:
            raise cls.Error(f"cannot read the {what} {str(path)!r}: {err}") from None
        if not isinstance(data, dict):
            raise cls.Error(f"the {what} {str(path)!r} must hold a JSON object")
        data.pop(VERSION_KEY, None)  # a run folder's config.json serves as a settings file
        return data

    @classmethod
    def migrate(cls, data: dict[str, Any]) -> dict[str, Any]:
        """A run folder's stored settings with the keys of an older release renamed (a run
        written before the one vocabulary still resumes); trainers with keys whose values
        changed too override it."""
        names = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
        return {
            (RENAMED[key] if key in RENAMED and RENAMED[key] in names else key): value
            for key, value in data.items()
        }

    @classmethod
    def check_keys(cls, data: dict[str, Any], source: str, complete: bool = False) -> None:
        """Refuse keys that are no field (an old name with one line naming the new one;
        with ``complete``, also fields without a key)."""
        names = [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]
        old = sorted(key for key in data if key in RENAMED and key not in names)
        if old:
            raise cls.Error(f"{source}: {renamed_message(old[0], flag=False)}")
        unknown = sorted(set(data) - set(names))
        missing = sorted(set(names) - set(data)) if complete else []
        problems = [f"unknown settings {unknown}"] if unknown else []
        problems += [f"missing settings {missing}"] if missing else []
        if problems:
            raise cls.Error(f"{source}: {', '.join(problems)}; known: {', '.join(names)}")

    @classmethod
    def from_dict(cls, data: dict[str, Any], source: str = "config") -> Self:
        """The settings ``data`` names over the defaults: unknown keys refused, each value
        checked against its field's type (an int is taken where a float is, a list where a
        tuple is; a bool is no number), `Error` naming ``source`` and the setting. A run
        folder's ``config.json`` is read as it is (its version key is no setting)."""
        data = {key: value for key, value in data.items() if key != VERSION_KEY}
        cls.check_keys(data, source)
        fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
        return cls(
            **{name: _typed(fields[name], value, source, cls.Error) for name, value in data.items()}
        )

    # ------------------------------------------------- the checks every command's settings use

    def check_at_least(self, low: int, *names: str) -> None:
        """`Error` naming the first of ``names`` below ``low``."""
        for name in names:
            value = getattr(self, name)
            if value < low:
                raise self.Error(f"{name} must be at least {low}, got {value!r}")

    def check_choice(self, name: str, allowed: Iterable[Any]) -> None:
        """`Error` unless setting ``name`` is one of ``allowed``."""
        value, allowed = getattr(self, name), tuple(allowed)
        if value not in allowed:
            raise self.Error(
                f"unknown {name} {value!r}; choose one of {', '.join(map(str, allowed))}"
            )

    def check_between(self, name: str, low: float, high: float, closed: str = "(]") -> None:
        """`Error` unless setting ``name`` lies between ``low`` and ``high``, each end
        included where ``closed`` has a bracket there (``"[]"``, ``"(]"``, ``"()"``...)."""
        value = getattr(self, name)
        above = value >= low if closed[0] == "[" else value > low
        below = value <= high if closed[1] == "]" else value < high
        if not (above and below):
            raise self.Error(
                f"{name} must be in {closed[0]}{low}, {high}{closed[1]}, got {value!r}"
            )

    def check_progress_coef(self, coef: float, reward: str) -> None:
        """The shared ``progress_coef`` (``coef``) follows the env's own rule: a finite number
        >= 0, and only with ``reward`` progress (elsewhere it would be silently unused)."""
        if not math.isfinite(coef) or coef < 0:
            raise self.Error(f"progress_coef must be a finite number >= 0, got {coef!r}")
        if coef != DEFAULT_PROGRESS_COEF and reward != "progress":
            raise self.Error(
                f"progress_coef={coef!r} is only for --reward progress, "
                f"not {reward or 'the default'!r}"
            )


#: The scalar types a setting's value may have, by the name its annotation gives.
_SCALARS: dict[str, type] = {"int": int, "float": float, "str": str, "bool": bool}


def _typed(field: dataclasses.Field, value: Any, source: str, error: type[FridayError]) -> Any:
    """``value`` of setting ``field`` as its type has it, or ``error`` naming both."""
    kind = str(field.type)
    if kind.startswith("tuple[") and isinstance(value, list | tuple):
        item = kind.removeprefix("tuple[").split(",")[0].strip()
        return tuple(_scalar(item, part, f"{field.name}'s items", source, error) for part in value)
    if kind in _SCALARS:
        return _scalar(kind, value, field.name, source, error)
    raise error(f"{source}: {field.name} must be {kind}, got {value!r}")


def _scalar(kind: str, value: Any, name: str, source: str, error: type[FridayError]) -> Any:
    wanted = _SCALARS[kind]
    if wanted is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if (wanted is not bool and isinstance(value, bool)) or not isinstance(value, wanted):
        raise error(f"{source}: {name} must be {wanted.__name__}, got {value!r}")
    return value


def parse_hidden(
    text: str,
    error: type[Exception] = FridayError,
    name: str = "hidden",
    most_layers: int | None = None,
    largest: int | None = None,
) -> tuple[int, ...]:
    """The hidden layer sizes ``text`` names (``"64,64"``), the one reader of every command's
    ``hidden``: ``error`` in one message unless each part is a whole number of at least 1
    (at most ``largest``, at most ``most_layers`` of them, where a command has such limits)."""
    try:
        sizes = tuple(int(part) for part in str(text).split(","))
    except ValueError:
        sizes = ()
    within = bool(sizes) and min(sizes) >= 1
    within = within and (largest is None or max(sizes) <= largest)
    within = within and (most_layers is None or len(sizes) <= most_layers)
    if not within:
        limits = [f"at most {most_layers} of them"] if most_layers else []
        limits += [f"each at most {largest}"] if largest else []
        more = f" ({', '.join(limits)})" if limits else ""
        raise error(f"{name} must be layer sizes of at least 1 like 64,64{more}, got {text!r}")
    return sizes
