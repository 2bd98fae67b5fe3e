"""What an expert-iteration study plays and fits each round: one JSON file, written down
before the runs it decides (``experiments/expert-iteration/config.json``)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from friday_agents.harness.deals import VALIDATION_FIRST_INDEX
from friday_agents.harness.errors import BadInputError
from friday_agents.learning.config import LearningConfig

#: The default first training deal index of round 0; round r plays from ``first_index + r *
#: ROUND_STRIDE``, so no round replays another's deals (and none of the earlier studies' deals,
#: below 100,000). A new study names its own ``first_index`` to play deals no other study did.
FIRST_INDEX = 100_000
ROUND_STRIDE = 20_000


class ExitConfigError(BadInputError):
    """A study configuration that is missing, malformed or asks for something impossible."""


@dataclass(frozen=True)
class ExitConfig(LearningConfig):
    """One study's settings (every field is required in the file; see ``docs/learning.md``).

    - ``rounds`` — how many rounds to play.
    - ``levels`` — the levels played (one network for all of them).
    - ``first_prior`` — the network round 0's search and student start from: a model role
      (``guided-prior``, [`friday_agents.models`][friday_agents.models]) or an ``.npz`` file.
    - ``teacher_games`` / ``student_games`` — games per level and round played by the search
      (every searched decision labelled) and by the network alone (DAgger: the search labels
      every decision the network faces).
    - ``sims`` / ``top`` — the labelling search: simulations per decision, and how many of
      the network's best actions it tries besides the heuristic's choice.
    - ``value`` — its leaf value (``guided-value-per-level``: guided's per-level linear
      models).
    - ``tau`` — temperature of the soft policy targets ``softmax(q / tau)``.
    - ``hidden`` — hidden layer sizes of the policy and of the value network.
    - ``epochs`` — passes over the data per fit; ``held_out_share`` of the games (by deal)
      kept out of the fit to report agreement.
    - ``validation_net`` / ``validation_search`` — validation deals per level on which each
      round's network plays alone, and guides the search (as ``guided`` uses its prior).
    - ``seed`` — the fit's seed.
    - ``first_index`` — round 0's first training deal index (optional, default
      `FIRST_INDEX`); every round's deals must lie below the validation deals.
    - ``value_scale`` — per level (1 to 4), the factor the search's action values are
      multiplied by before the soft targets (optional; empty: 1 on every level). It puts
      values of different units on one scale: a leaf network's win probabilities (level 4 of
      ``guided-value-leaf``) differ by hundredths where the linear models' points differ by
      units, so at one ``tau`` their targets would be nearly uniform.
    - ``anchor`` — the labelling search's action that is always a candidate and wins ties
      (optional): ``heuristic`` (default) the heuristic's choice, ``prior`` the round's
      network's best action (``top`` of at least 2; the search's ``anchor`` option).
    - ``rollout`` — what plays the labelling search's rollouts (optional): ``""`` (default)
      the heuristic, ``prior`` the round's network. With ``anchor=prior``, ``rollout=prior``
      and a ``value`` fitted without the heuristic, no label reads the heuristic; such a
      study measures each round with its own labelling search instead of ``guided``.
    - ``warm_start`` — each round's fit starts from the round's prior's weights (its policy,
      and its value head where it has one) instead of random ones (optional, default false);
      ``first_prior`` must then have the fit's shape (``hidden``), refused before any game.
    - ``margin`` — how far another candidate's mean leaf value must exceed the anchor's for
      the labelling search to depart from it (optional, default 0; the search's ``margin``
      option). Its recorded values credit the anchor with the margin, so the soft targets
      carry the same preference as its choices.
    """

    Error = ExitConfigError

    rounds: int
    levels: tuple[int, ...]
    first_prior: str
    teacher_games: int
    student_games: int
    sims: int
    top: int
    value: str
    tau: float
    hidden: tuple[int, ...]
    epochs: int
    held_out_share: float
    validation_net: int
    validation_search: int
    seed: int
    first_index: int = FIRST_INDEX
    value_scale: tuple[float, ...] = ()
    anchor: str = "heuristic"
    rollout: str = ""
    warm_start: bool = False
    margin: float = 0.0

    def value_scale_of(self, level: int) -> float:
        """The factor of the search's action values on ``level`` (see ``value_scale``)."""
        return float(self.value_scale[level - 1]) if self.value_scale else 1.0

    def round_first_index(self, round_number: int) -> int:
        """The first training deal index the round plays."""
        return self.first_index + round_number * ROUND_STRIDE

    def teacher_spec(self, prior: str) -> str:
        """The labelling search with ``prior`` as its policy network (and, with ``anchor``
        and ``rollout`` of ``prior``, as its anchor and rollout policy)."""
        spec = f"search:sims={self.sims}:value={self.value}:prior={prior}:top={self.top}"
        if self.anchor != "heuristic":
            spec += f":anchor={self.anchor}"
        if self.rollout == "prior":
            spec += f":rollout={prior}"
        if self.margin:
            spec += f":margin={self.margin:g}"
        return spec

    @property
    def uses_heuristic(self) -> bool:
        """Whether the labelling search reads the heuristic (its anchor or its rollouts)."""
        return self.anchor == "heuristic" or self.rollout != "prior"

    def to_json(self) -> dict[str, Any]:
        return self.to_dict()


def load_config(path: Path) -> ExitConfig:
    """Read and check a study configuration
    ([`ExitConfigError`][friday_agents.learning.distill.config.ExitConfigError] naming what is
    wrong)."""
    data = ExitConfig.read_settings(path, "configuration")
    data = {**OPTIONAL, **data}
    ExitConfig.check_keys(data, str(path), complete=True)
    config = ExitConfig.from_dict(data, str(path))  # each value of its setting's type
    _check(config, path)
    return config


def with_overrides(config: ExitConfig, source: Path, **values: Any) -> ExitConfig:
    """``config`` with the settings in ``values`` that are not None (a command's flags),
    checked as the file's are."""
    given = {name: value for name, value in values.items() if value is not None}
    changed = dataclasses.replace(config, **given)
    _check(changed, source)
    return changed


#: The settings a configuration file may leave out, with their defaults.
OPTIONAL = {
    f.name: f.default
    for f in dataclasses.fields(ExitConfig)
    if f.default is not dataclasses.MISSING
}


def _check(config: ExitConfig, path: Path) -> None:
    counts = {
        "rounds": config.rounds,
        "sims": config.sims,
        "top": config.top,
        "epochs": config.epochs,
        "validation_net": config.validation_net,
    }
    bad = [name for name, value in counts.items() if not isinstance(value, int) or value < 1]
    if (
        config.teacher_games + config.student_games < 1
        or min(config.teacher_games, config.student_games) < 0
    ):
        bad.append("teacher_games/student_games")
    if not set(config.levels) <= {1, 2, 3, 4} or not config.levels:
        bad.append("levels")
    if not config.hidden or min(config.hidden) < 1:
        bad.append("hidden")
    if not _valid_scale(config.value_scale):
        bad.append("value_scale (empty, or 4 positive numbers: levels 1-4)")
    if not 0 < config.held_out_share < 1 or config.tau <= 0:
        bad.append("held_out_share/tau")
    if config.anchor not in ("heuristic", "prior"):
        bad.append("anchor (heuristic or prior)")
    elif config.anchor == "prior" and config.top < 2:
        bad.append("anchor (prior needs top of at least 2)")
    if not isinstance(config.margin, int | float) or not config.margin >= 0:
        bad.append("margin (a number >= 0)")
    if config.rollout not in ("", "prior"):
        bad.append("rollout ('' for the heuristic, or prior)")
    if config.teacher_games + config.student_games > ROUND_STRIDE:
        bad.append(f"games per round above {ROUND_STRIDE}")
    last = config.round_first_index(config.rounds) - 1
    if not isinstance(config.first_index, int) or config.first_index < 0:
        bad.append("first_index")
    elif last >= VALIDATION_FIRST_INDEX:
        bad.append(
            f"first_index ({config.rounds} rounds from {config.first_index:,} reach deal "
            f"{last:,}; training deals end at {VALIDATION_FIRST_INDEX - 1:,})"
        )
    if bad:
        raise ExitConfigError(f"{path}: bad value of {', '.join(bad)}")
    _check_value(config, path)
    if config.warm_start:
        _check_warm_start(config, path)


def _check_value(config: ExitConfig, path: Path) -> None:
    """Refuse a labelling search that could not be built (its leaf value, above all), before
    any game: the search with the first network as prior is built once here."""
    from friday_agents.players.registry import make_agent

    try:
        make_agent(config.teacher_spec(config.first_prior))
    except (ValueError, OSError, KeyError) as err:
        raise ExitConfigError(f"{path}: bad value of value/first_prior ({err})") from None


def _check_warm_start(config: ExitConfig, path: Path) -> None:
    """Refuse a warm start from a first network of another shape than the fit's (later
    rounds start from fits of ``hidden``, which have it)."""
    from friday_agents.learning.distill.fit import warm_start_network

    try:
        warm_start_network(config.first_prior, config.hidden)
    except ValueError as err:
        raise ExitConfigError(f"{path}: bad value of warm_start/hidden ({err})") from None


def _valid_scale(scale: object) -> bool:
    if scale == ():
        return True
    return (
        isinstance(scale, tuple)
        and len(scale) == 4
        and all(isinstance(x, int | float) and not isinstance(x, bool) and x > 0 for x in scale)
    )
