"""The search's learned leaf value: a network's probability of winning from a turn's start.

Where the linear models value a rollout's end by the final score expected (plus a bonus for a
win), `LeafNetwork` values it by the **probability of winning**, fitted on the outcomes of strong
play from such positions (``friday value data`` and ``friday value fit``,
`friday_agents.learning.leaf_value`). A finished game is valued by its result: 1 won, 0 lost.

Its inputs (`INPUT_NAMES`) are the ``cards`` features of the linear value
(`friday_agents.players.networks.linear_value.card_features`, the bias dropped) and a one-hot
level and step, so it reads only open information (R26). The compiled search computes the same
feature row and runs the same forward pass in C (``players/search/leaf_net.c``) where each
rollout ends; `LeafNetwork.win_probability` is its numpy twin, used for games on the Python core,
and the two agree to float rounding (about 1e-12), not to the bit.

On disk: an ``.npz`` of plain arrays (no pickle) with ``format`` = `FORMAT`, ``input_names``,
``centre`` and ``scale`` (the inputs' standardisation) and the layers ``w0, b0, ...``
(`friday_agents.players.networks.layers`: tanh after every layer but the last, whose one output
is the logit of winning).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np
from numpy.typing import ArrayLike

from friday_agents.harness.files import write_npz_atomically
from friday_agents.players.networks.layers import Layers, forward, layer_arrays, read_layers
from friday_agents.players.networks.linear_value import CARD_FEATURE_NAMES, card_features
from friday_env import Game
from friday_env.engine import STEP_NAMES

FORMAT = "friday-env/leaf-net"
LEVELS = (1, 2, 3, 4)
#: The feature set of the row the compiled search computes for this network.
FEATURE_SET = "cards"
#: The network's inputs: the ``cards`` features (bias dropped), then one-hot level and step.
INPUT_NAMES: tuple[str, ...] = (
    *CARD_FEATURE_NAMES[1:],
    *(f"level_{level}" for level in LEVELS),
    *(f"step_{name}" for name in STEP_NAMES),
)
#: What the compiled forward pass can hold (``leaf_net.h``): layers and width.
MAX_LAYERS = 4
MAX_WIDTH = 512


def inputs_from_rows(rows: np.ndarray, levels: ArrayLike, steps: ArrayLike) -> np.ndarray:
    """Raw input rows (see `INPUT_NAMES`) of ``cards`` feature rows (bias included, as
    `card_features` gives them) at ``levels`` and ``steps``."""
    n = len(rows)
    level_columns = np.zeros((n, len(LEVELS)))
    level_columns[np.arange(n), np.asarray(levels) - 1] = 1.0
    step_columns = np.zeros((n, len(STEP_NAMES)))
    step_columns[np.arange(n), np.asarray(steps)] = 1.0
    return np.concatenate(
        [np.asarray(rows, dtype=np.float64)[:, 1:], level_columns, step_columns], 1
    )


def leaf_inputs(game: Game) -> np.ndarray:
    """The raw input row of ``game`` at a turn's start (see `INPUT_NAMES`)."""
    return inputs_from_rows(card_features(game)[None, :], [game.level], [game.step])[0]


@dataclass(frozen=True)
class LeafNetwork:
    """A tanh MLP from standardised inputs to the logit of winning (see the module docstring)."""

    centre: np.ndarray
    scale: np.ndarray
    layers: Layers
    #: The weights packed as the compiled forward pass reads them (built on first use).
    _packed: list = field(default_factory=list, compare=False, repr=False)

    #: The linear models' feature set: what the compiled search computes at each leaf.
    feature_set = FEATURE_SET

    def win_probability(self, inputs: np.ndarray) -> np.ndarray:
        """Probabilities of winning of a batch of raw input rows."""
        logits = forward((inputs - self.centre) / self.scale, self.layers)[:, 0]
        return 1.0 / (1.0 + np.exp(-logits))

    def value(self, game: Game) -> float:
        """The probability of winning ``game`` (its result, once it is over)."""
        if game.done:
            return 1.0 if game.won else 0.0
        return float(self.win_probability(leaf_inputs(game)[None, :])[0])

    def compiled(self) -> tuple[int, int, tuple[int, ...], np.ndarray]:
        """The ``net`` argument of the compiled search: one-hot sizes, layer sizes and every
        weight in one float64 array (``leaf_net.h``'s order)."""
        if not self._packed:
            sizes = (len(self.centre), *(b.shape[0] for _, b in self.layers))
            parts = [self.centre, self.scale]
            for w, b in self.layers:
                parts += [w.ravel(), b]
            params = np.ascontiguousarray(np.concatenate(parts), dtype=np.float64)
            self._packed.append((len(LEVELS), len(STEP_NAMES), sizes, params))
        return self._packed[0]

    def arrays(self) -> dict[str, np.ndarray]:
        """The network as named arrays (what `save_leaf_network` writes)."""
        return {
            "format": np.array(FORMAT),
            "input_names": np.array(INPUT_NAMES),
            "centre": self.centre,
            "scale": self.scale,
            **layer_arrays(self.layers),
        }


def save_leaf_network(network: LeafNetwork, path: Path) -> None:
    """The network in ``path`` (``.npz``), whole or not at all."""
    write_npz_atomically(path, network.arrays())


def is_leaf_network_file(path: Path) -> bool:
    """Whether the ``.npz`` at ``path`` holds a leaf network (its ``format``)."""
    with np.load(path, allow_pickle=False) as data:
        return "format" in data.files and str(data["format"]) == FORMAT


@lru_cache(maxsize=8)
def load_leaf_network(path: Path) -> LeafNetwork:
    """The leaf network in ``path`` (from ``friday value fit``), checked to read this
    version's inputs and to fit the compiled forward pass."""
    with np.load(path, allow_pickle=False) as data:
        if "format" not in data.files or str(data["format"]) != FORMAT:
            raise ValueError(f"{path} is not a leaf network (no format {FORMAT!r})")
        if tuple(str(n) for n in data["input_names"]) != INPUT_NAMES:
            raise ValueError(f"{path} was fitted for other inputs: refit it")
        network = LeafNetwork(
            np.asarray(data["centre"], np.float64),
            np.asarray(data["scale"], np.float64),
            tuple(
                (np.asarray(w, np.float64), np.asarray(b, np.float64)) for w, b in read_layers(data)
            ),
        )
    _check_shape(network, path)
    return network


def _check_shape(network: LeafNetwork, path: Path) -> None:
    sizes = [len(network.centre), *(b.shape[0] for _, b in network.layers)]
    widths_ok = all(1 <= s <= MAX_WIDTH for s in sizes) and sizes[-1] == 1
    chained = all(
        w.shape == (n_in, b.shape[0])
        for (w, b), n_in in zip(network.layers, sizes[:-1], strict=True)
    )
    if not (widths_ok and chained and 1 <= len(network.layers) <= MAX_LAYERS):
        raise ValueError(
            f"{path}: the layers must chain from {len(INPUT_NAMES)} inputs to 1 output, at most "
            f"{MAX_LAYERS} layers of at most {MAX_WIDTH}"
        )
    if network.centre.shape != (len(INPUT_NAMES),) or network.scale.shape != network.centre.shape:
        raise ValueError(f"{path}: centre and scale must have one number per input")
    if not np.all(np.isfinite(network.scale)) or np.any(network.scale == 0):
        raise ValueError(f"{path}: every input scale must be finite and non-zero")
