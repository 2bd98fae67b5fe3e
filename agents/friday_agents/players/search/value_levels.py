"""Loading the search's leaf value from a file, and choosing a value model per level.

`load_leaf_value` reads any of four kinds of file: a linear model (``.json`` from
``friday fit linear-value``), a value network (``.npz`` from
``friday fit value-net``), a leaf network of the probability
of winning (``.npz`` from ``friday value fit``,
`friday_agents.players.networks.leaf_net`), or a per-level file (``.json``)::

    {"format": "friday-env/value-per-level",
     "levels": {"1": "search_value.json", "2": "search_value.json",
                "3": "guided_value_level4.json", "4": "search_value.json"},
     "note": "why these (optional)"}

which names a linear model or a network for each of the four levels, by paths relative to the
per-level file. ``guided``'s default (`DEFAULT_VALUE_FILE`) is such a file: the model chosen
for each level on the validation deals (see its ``note``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from friday_agents.harness.files import read_model_file
from friday_agents.models import GUIDED_VALUE_LEAF, check_not_moved
from friday_agents.players.networks.leaf_net import (
    LeafNetwork,
    is_leaf_network_file,
    load_leaf_network,
)
from friday_agents.players.networks.linear_value import ValueModel, load_value_model
from friday_agents.players.networks.value_net import LEVELS, ValueNetwork, load_value_network
from friday_env import Game
from friday_env.json_text import JsonTextError, read_json

FORMAT = "friday-env/value-per-level"
#: The per-level file ``guided`` loads unless told otherwise.
DEFAULT_VALUE_FILE = GUIDED_VALUE_LEAF
#: The models one file can hold.
LeafModel = ValueModel | ValueNetwork | LeafNetwork


@dataclass(frozen=True)
class PerLevelValue:
    """One value model per level; a game is valued by its level's model."""

    models: dict[int, LeafModel]

    def value(self, game: Game) -> float:
        model = self.models.get(game.level)
        if model is None:
            raise ValueError(f"no value model for level {game.level}")
        return model.value(game)


def load_leaf_value(path: Path | str) -> LeafModel | PerLevelValue:
    """The value model in ``path``: a network (``.npz``), a linear model or a per-level
    file (``.json``; see the module docstring)."""
    path = Path(path)
    check_not_moved(path)
    if path.suffix not in (".json", ".npz"):
        raise ValueError(f"value file {str(path)!r} must be a .json (linear) or .npz (network)")
    # missing, truncated or pickled files, each said in one line
    return read_model_file(_load_value_file, path, "value file")


def _load_value_file(path: Path) -> LeafModel | PerLevelValue:
    if path.suffix == ".json" and _read_json(path).get("format") == FORMAT:
        return load_per_level(path)
    return _load_one_model(path)


def _load_one_model(path: Path) -> LeafModel:
    if path.suffix == ".npz":
        if path.exists() and is_leaf_network_file(path):
            return load_leaf_network(path)
        return load_value_network(path)
    if path.suffix != ".json":
        raise ValueError(f"value file {str(path)!r} must be a .json (linear) or .npz (network)")
    if not path.exists():
        raise FileNotFoundError(f"value file {path} does not exist")
    data = _read_json(path)
    if data.get("format") == FORMAT:
        raise ValueError(f"{path} is another per-level file, not one model")
    if "weights" not in data:
        raise ValueError(f"{path} is neither a linear value model nor a per-level value file")
    return load_value_model(path)


@lru_cache(maxsize=8)
def load_per_level(path: Path) -> PerLevelValue:
    """The per-level file ``path`` (see the module docstring); every level must be named
    and every named file must be a linear model or a network."""
    data = _read_json(path)
    levels = data.get("levels")
    if not isinstance(levels, dict):
        raise ValueError(f"{path}: a per-level value file needs a 'levels' object")
    named = set(levels)
    wanted = {str(level) for level in LEVELS}
    if named != wanted:
        extra, missing = sorted(named - wanted), sorted(wanted - named)
        raise ValueError(
            f"{path}: 'levels' must name levels 1-4 exactly (unknown: {extra}, missing: {missing})"
        )
    # resolved, so that a model two per-level files name is loaded (and cached) once
    files = {int(level): (path.parent / str(name)).resolve() for level, name in levels.items()}
    return PerLevelValue({level: _load_one_model(file) for level, file in files.items()})


def _read_json(path: Path) -> dict:
    try:
        data = read_json(path)
    except JsonTextError as err:
        raise ValueError(f"{path} cannot be read: {err}") from None
    if not isinstance(data, dict):
        raise ValueError(f"{path} holds no JSON object")
    return data
