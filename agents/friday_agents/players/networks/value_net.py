"""A value network for the search agent, evaluated in numpy (no torch needed to play).

The same job as the linear `friday_agents.players.networks.linear_value.ValueModel` —
the final score expected from a turn's start, plus a bonus for a win — with one small
multilayer perceptron for every level and step instead of one linear model per (level,
step), fitted on the search agent's own games (``python -m
friday_agents.learning.fitting.value_net_fit``) rather than the heuristic's. Its inputs are
the linear model's public features
(`friday_agents.players.networks.linear_value.features`, without the bias) and a
one-hot level and step, so it reads only open information (R26).

The weights are stored as ``.npz`` (plain arrays, no pickle): ``value_net.npz`` beside this
module is the fitted network ``search:value=value-net`` loads.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from friday_agents.harness.files import write_npz_atomically
from friday_agents.models import VALUE_NET, check_not_moved
from friday_agents.players.networks.layers import Layers, forward, layer_arrays, read_layers
from friday_agents.players.networks.linear_value import FEATURE_NAMES, features
from friday_env import Game
from friday_env.engine import STEP_NAMES

NETWORK_FILE = VALUE_NET
LEVELS = (1, 2, 3, 4)
#: The network's inputs: the public features (bias dropped), then one-hot level and step.
INPUT_NAMES: tuple[str, ...] = (
    *FEATURE_NAMES[1:],
    *(f"level_{level}" for level in LEVELS),
    *(f"step_{name}" for name in STEP_NAMES),
)


def network_inputs(game: Game) -> np.ndarray:
    """The raw (unscaled) input vector of ``game`` (see `INPUT_NAMES`)."""
    level = np.zeros(len(LEVELS))
    level[game.level - 1] = 1.0
    step = np.zeros(len(STEP_NAMES))
    step[game.step] = 1.0
    return np.concatenate([features(game)[1:], level, step])


@dataclass(frozen=True)
class ValueNetwork:
    """A tanh MLP: inputs standardized by ``centre``/``scale``, then ``layers`` of
    ``(weights, bias)``, the last one linear with one output; the output is multiplied by
    ``target_scale`` and shifted by ``target_centre``. A finished game is valued by its real
    score plus ``win_bonus`` for a win, as the target was."""

    centre: np.ndarray
    scale: np.ndarray
    layers: Layers
    target_centre: float
    target_scale: float
    win_bonus: float

    def predict(self, inputs: np.ndarray) -> np.ndarray:
        """Values of a batch of raw input rows (shape ``(n, len(INPUT_NAMES))``)."""
        h = (inputs - self.centre) / self.scale
        return forward(h, self.layers)[:, 0] * self.target_scale + self.target_centre

    def value(self, game: Game) -> float:
        """Expected final score (plus the win bonus times the chance of winning)."""
        if game.done:
            return game.score() + self.win_bonus * game.won
        return float(self.predict(network_inputs(game)[None, :])[0])

    def arrays(self) -> dict[str, np.ndarray]:
        """The network as named arrays (what `save_value_network` writes)."""
        return {
            "input_names": np.array(INPUT_NAMES),
            "centre": self.centre,
            "scale": self.scale,
            "target": np.array([self.target_centre, self.target_scale, self.win_bonus]),
            **layer_arrays(self.layers),
        }


def save_value_network(network: ValueNetwork, path: Path) -> None:
    """The network in ``path`` (``.npz``), whole or not at all."""
    write_npz_atomically(path, network.arrays())


@lru_cache(maxsize=8)
def load_value_network(path: Path = NETWORK_FILE) -> ValueNetwork:
    """The network fitted into ``path`` by
    ``friday fit value-net``."""
    check_not_moved(path)
    if not Path(path).exists():
        raise FileNotFoundError(f"{path} is missing: fit it with `friday fit value-net`")
    with np.load(path, allow_pickle=False) as data:
        if "input_names" not in data.files:
            raise ValueError(
                f"{path} is not a value network (no input names: a policy network?); "
                "value networks come from `friday fit value-net`"
            )
        if tuple(str(n) for n in data["input_names"]) != INPUT_NAMES:
            raise ValueError(f"{path} was fitted for other inputs: refit it")
        layers = read_layers(data)
        target_centre, target_scale, win_bonus = (float(x) for x in data["target"])
        return ValueNetwork(
            data["centre"], data["scale"], layers, target_centre, target_scale, win_bonus
        )
