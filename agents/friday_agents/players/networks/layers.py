"""Small tanh networks in numpy: what the search's value and policy networks share.

A network is a tuple of ``(weights, bias)`` layers with tanh after every layer but the last;
on disk (``.npz``) its layers are the arrays ``w0, b0, w1, b1, ...`` beside whatever else the
network's own module stores.
"""

from __future__ import annotations

from typing import Any

import numpy as np

Layers = tuple[tuple[np.ndarray, np.ndarray], ...]


def forward(h: np.ndarray, layers: Layers) -> np.ndarray:
    """The output of ``layers`` for a batch of input rows ``h``."""
    for w, b in layers[:-1]:
        h = np.tanh(h @ w + b)
    w, b = layers[-1]
    return h @ w + b


def layer_arrays(layers: Layers, prefix: str = "") -> dict[str, np.ndarray]:
    """The layers as named arrays (``w0``, ``b0``, ...; after ``prefix``, e.g. ``vw0``)."""
    data = {}
    for i, (w, b) in enumerate(layers):
        data[f"{prefix}w{i}"], data[f"{prefix}b{i}"] = w, b
    return data


def read_layers(data: Any, prefix: str = "") -> Layers:
    """The layers stored in an opened ``.npz`` (what `layer_arrays` named)."""
    count = sum(1 for key in data.files if key.startswith(prefix + "w"))
    return tuple((data[f"{prefix}w{i}"], data[f"{prefix}b{i}"]) for i in range(count))
