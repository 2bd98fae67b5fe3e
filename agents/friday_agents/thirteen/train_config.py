"""``friday thirteen train``'s settings and its run folder's rules (no torch here: the
settings are checked, and a resumed run's read back, before the trainer is imported).

The run folder goes through [`friday_agents.learning.run_folder`][friday_agents.learning.run_folder]
like every learning command's: ``config.json`` written whole with the layout's version and
read back by the one reader (a file of before the version key, such as the committed
``experiments/thirteen/config.json``, still loads), and the resume rule as data
(`RESUME`: a continued run may only be given more CPU time).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from friday_agents.harness.errors import BadInputError
from friday_agents.learning.config import LearningConfig
from friday_agents.learning.run_folder import ResumeRule, load_run_config

#: Friday the 13th's table sizes.
PLAYERS = range(3, 7)
#: The files whose presence says a folder holds a run (a new run there would overwrite it).
RUN_FILES = ("config.json", "checkpoint.pt")


class ThirteenTrainError(BadInputError):
    """A ``friday thirteen train`` setting out of range, or a run folder it cannot continue."""


#: What a continued run may set anew: its CPU budget (every other setting is the run's own:
#: a curve of two configurations would describe neither).
RESUME = ResumeRule("friday thirteen train --resume", ("cpu_minutes",), ThirteenTrainError)


@dataclass
class TrainConfig(LearningConfig):
    """The self-play trainer's settings (`friday_agents.thirteen.selfplay`)."""

    Error = ThirteenTrainError

    players: tuple[int, ...] = (4,)
    games: int = 64
    steps_per_update: int = 8192
    epochs: int = 4
    minibatch: int = 1024
    lr: float = 3e-4
    clip: float = 0.2
    entropy: float = 0.01
    value_coef: float = 0.5
    lam: float = 0.95
    hidden: int = 256
    self_share: float = 0.5
    cpu_minutes: float = 20.0
    eval_every: int = 10
    eval_deals: int = 200
    seed: int = 0
    imitate_moves: int = 0
    imitate_epochs: int = 10
    win_weight: float = 1.0

    def validate(self) -> TrainConfig:
        """``self`` if every value is usable, else `ThirteenTrainError` naming the first that
        is not (the same checks for flags and for a stored ``config.json``)."""
        bad = [n for n in self.players if n not in PLAYERS]
        if not self.players or bad:
            raise self.Error(
                f"players: Friday the 13th is for 3 to 6 players, got {bad[0] if bad else 'none'}"
            )
        self.check_at_least(1, "games", "steps_per_update", "epochs", "minibatch", "hidden")
        self.check_at_least(1, "eval_every", "eval_deals")
        self.check_at_least(0, "seed", "imitate_moves", "imitate_epochs")
        for name in ("cpu_minutes", "lr", "clip"):
            self.check_between(name, 0, math.inf, "()")
        self.check_between("self_share", 0, 1, "(]")
        self.check_between("lam", 0, 1, "[]")
        for name in ("entropy", "value_coef", "win_weight"):
            if not math.isfinite(getattr(self, name)):
                raise self.Error(f"{name} must be a finite number, got {getattr(self, name)!r}")
        return self


def new_run(out: Path, config: TrainConfig) -> TrainConfig:
    """``config`` checked for a new run in ``out``: refused where ``out`` already holds one."""
    if any((out / name).exists() for name in RUN_FILES):
        raise ThirteenTrainError(f"{out} holds a run: pass --resume to continue it")
    return config.validate()


def resumed_run(out: Path, given: dict[str, object]) -> TrainConfig:
    """The settings of the run in ``out`` (`load_run_config`: checked, a version-0 file
    migrated) with what `RESUME` lets ``given`` (settings named on the command line) set anew;
    a given setting that differs from the run's own is refused in `RESUME`'s one message."""
    stored = load_run_config(out, TrainConfig, complete=True)
    RESUME.check_settings(stored.to_dict(), given, out / "config.json")
    changes = {name: value for name, value in given.items() if name in RESUME.may_change}
    return TrainConfig.from_dict({**stored.to_dict(), **changes}, str(out)).validate()
