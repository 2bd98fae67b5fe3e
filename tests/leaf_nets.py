"""A leaf network of random weights, for the tests of the learned leaf value's plumbing (its
C forward pass, its loading, the search playing with it): what it values does not matter, only
that both of its forward passes agree and that the search plays legally with it."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np

from friday_agents.players.networks.leaf_net import INPUT_NAMES, LeafNetwork, save_leaf_network


def random_leaf_network(seed: int = 0, hidden: tuple[int, ...] = (16, 8)) -> LeafNetwork:
    rng = np.random.default_rng(seed)
    sizes = [len(INPUT_NAMES), *hidden, 1]
    layers = tuple(
        (rng.normal(0, 0.3, (n_in, n_out)), rng.normal(0, 0.1, n_out))
        for n_in, n_out in itertools.pairwise(sizes)
    )
    return LeafNetwork(
        rng.normal(0, 1, len(INPUT_NAMES)), rng.uniform(0.5, 3, len(INPUT_NAMES)), layers
    )


def random_leaf_network_file(folder: Path, seed: int = 0) -> Path:
    path = folder / f"leaf-{seed}.npz"
    save_leaf_network(random_leaf_network(seed), path)
    return path
