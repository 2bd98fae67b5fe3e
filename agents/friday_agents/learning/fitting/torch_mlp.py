"""Small tanh networks in torch as the fits build them, and their weights as numpy layers
(the format of `friday_agents.players.search.mlp`, which plays them without torch).

Imported only by code that trains: importing it imports torch.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from torch import nn

from friday_agents.players.search.mlp import Layers


def default_tanh_mlp(sizes: Sequence[int]) -> nn.Sequential:
    """Linear layers of ``sizes`` with tanh between them, in torch's default
    initialisation; the layers are created first to last, so a seeded fit draws the same
    weights every time."""
    linears = [nn.Linear(a, b) for a, b in itertools.pairwise(sizes)]
    parts: list[nn.Module] = []
    for layer in linears[:-1]:
        parts += [layer, nn.Tanh()]
    return nn.Sequential(*parts, linears[-1])


def numpy_layers(model: nn.Module) -> Layers:
    """The linear layers of ``model``, in order, as numpy ``(weights (in, out), bias)``
    copies."""
    return tuple(
        (m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy())
        for m in model.modules()
        if isinstance(m, nn.Linear)
    )
