"""Named views over a flat observation, in the spirit of OpenSpiel's observation tensors: the
vector stays one array for the policy, and each piece of `FLAT_LAYOUT` is a numpy view
into it, shaped by rows (``view["table"][3]`` is table slot 3), for reading, plotting or
writing a hand-made observation. No copies: writing a view writes the vector."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import numpy as np

from friday_env.observation.layout import FLAT_LAYOUT, Layout


class FlatView(Mapping[str, np.ndarray]):
    """Pieces of a flat vector (or a batch of them, shape ``(..., size)``) by name.

    ## Example

    ```python
    obs, info = env.reset(seed=0)
    view = FlatView(obs)
    view["life"], view["table"].shape   # (1,) array, (20, 30)
    ```
    """

    def __init__(self, vector: np.ndarray, layout: Layout = FLAT_LAYOUT) -> None:
        if vector.shape[-1:] != (layout.size,):
            raise ValueError(
                f"a flat observation has {layout.size} entries in its last axis, "
                f"got shape {vector.shape}"
            )
        self.vector = vector
        self.layout = layout
        self._offsets = layout.offsets

    def __getitem__(self, name: str) -> np.ndarray:
        piece = self.layout[name]
        start = self._offsets[name]
        part = self.vector[..., start : start + piece.size]
        return part.reshape(*self.vector.shape[:-1], *piece.shape)

    def __iter__(self) -> Iterator[str]:
        return (piece.name for piece in self.layout.pieces)

    def __len__(self) -> int:
        return len(self.layout.pieces)
