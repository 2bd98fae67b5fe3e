"""The settings of ``friday imitate``'s steps, typed: what `friday_agents.learning.imitation.steps`
runs (``friday imitate`` only parses its flags into these)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from friday_env.levels import parse_levels


@dataclass(frozen=True)
class Games:
    """Games played on training deals: ``games`` per level from deal ``first_index`` on, by
    ``workers`` processes (or the CPUs of a local Ray) on ``backend`` (at ``address``)."""

    games: int
    first_index: int = 0
    workers: int = 2
    backend: str = "process"
    address: str | None = None
    progress: bool = True

    @property
    def indices(self) -> range:
        return range(self.first_index, self.first_index + self.games)


@dataclass(frozen=True)
class Collect:
    """``collect``: the ``teacher`` (an agent spec) plays ``play`` on ``levels``, appended to
    ``out``."""

    teacher: str
    out: Path
    play: Games
    levels: str = "1-4"


@dataclass(frozen=True)
class Encode:
    """``encode``: the games of ``games_files`` (of ``levels``) as a dataset of
    ``observation`` vectors, written to ``out``."""

    games_files: tuple[Path, ...]
    out: Path
    observation: str = "flat"
    levels: str = "1-4"


@dataclass(frozen=True)
class PolicyFit:
    """A MaskablePPO policy fitted to decisions (``fit``, and ``dagger``'s refit), written to
    ``out``: its network from ``config`` (a ``friday train`` config file) and ``hidden``, its
    start from ``init`` (None: new weights)."""

    out: Path
    levels: str = "1"
    level: int | None = None  # one level, instead of levels
    config: str | None = None
    hidden: str = "256,256"
    device: str = "auto"
    init: Path | None = None
    epochs: int = 8
    batch_size: int = 512
    learning_rate: float = 1e-3
    soft_tau: float = 0.0
    seed: int = 0

    def chosen_levels(self) -> tuple[int, ...]:
        return (self.level,) if self.level else parse_levels(self.levels)


@dataclass(frozen=True)
class Fit:
    """``fit``: a policy fitted to the dataset ``dataset`` (from ``encode``)."""

    dataset: Path
    policy: PolicyFit


@dataclass(frozen=True)
class Dagger:
    """``dagger``: one round. The ``student`` policy plays ``play``, the ``teacher`` labels
    ``label_share`` of its states into ``games_file``; the policy is refitted on those games
    and those of ``data`` (starting from the student unless ``policy.init`` says otherwise)."""

    student: Path
    teacher: str
    games_file: Path
    play: Games
    policy: PolicyFit
    label_share: float = 1.0
    data: tuple[Path, ...] = ()
