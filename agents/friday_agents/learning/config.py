"""What the learning commands' configurations share.

Each command's settings are one dataclass whose fields are its flags or file keys:
``friday train``'s [`TrainConfig`][friday_agents.learning.sb3.config.TrainConfig], ``friday rl``'s
[`RLConfig`][friday_agents.learning.rl.config.RLConfig], ``friday distill``'s
[`ExitConfig`][friday_agents.learning.distill.config.ExitConfig]. They derive from
`LearningConfig`, which saves and reads them the one way (a dict of the fields; an
unknown key, or with ``complete`` a missing one, is refused naming it), and the two PPO
trainers (SB3's and ours) declare the hyperparameters they share with `ppo_field`, so
each has one meaning and one help text. No torch here: ``friday --help`` stays fast.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, ClassVar, Self

from friday_env.errors import FridayError
from friday_env.json_text import JsonTextError, read_json

#: The PPO hyperparameters both trainers take: name -> help text (the defaults are each
#: trainer's own, tuned for its setting).
PPO_HELP = {
    "learning_rate": "Adam learning rate",
    "gamma": "discount factor (1: the game's own undiscounted outcome)",
    "gae_lambda": "GAE lambda",
    "ent_coef": "entropy bonus weight",
    "vf_coef": "value loss weight",
    "max_grad_norm": "gradient norm clip",
}


def setting(help_text: str, default: Any, **metadata: Any) -> Any:
    """A dataclass field of a learning command's settings: its default and the help text
    its flag shows (more ``metadata`` where a command reads some)."""
    return dataclasses.field(default=default, metadata={"help": help_text, **metadata})


def ppo_field(name: str, default: float) -> Any:
    """A dataclass field for the shared PPO hyperparameter ``name`` (see `PPO_HELP`)."""
    return setting(PPO_HELP[name], default)


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
        return data

    @classmethod
    def check_keys(cls, data: dict[str, Any], source: str, complete: bool = False) -> None:
        """Refuse keys that are no field (and, with ``complete``, fields without a key)."""
        names = [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]
        unknown = sorted(set(data) - set(names))
        missing = sorted(set(names) - set(data)) if complete else []
        problems = [f"unknown settings {unknown}"] if unknown else []
        problems += [f"missing settings {missing}"] if missing else []
        if problems:
            raise cls.Error(f"{source}: {', '.join(problems)}; known: {', '.join(names)}")

    @classmethod
    def from_dict(cls, data: dict[str, Any], source: str = "config") -> Self:
        """The settings ``data`` names over the defaults (unknown keys refused)."""
        cls.check_keys(data, source)
        return cls(**data)
