"""Model files and datasets are written whole (`friday_agents.harness.files.write_npz_atomically`):
a kill mid-write keeps the file before it, and the file lands at the path named, numpy
adding no ``.npz`` of its own."""

from __future__ import annotations

import numpy as np
import pytest

from friday_agents.harness import files
from friday_agents.players.networks.policy_net import (
    PolicyNetwork,
    load_policy_network,
    save_policy_network,
)
from friday_env import NUM_ACTIONS
from friday_env.observation import make_encoder


def _network(bias: float) -> PolicyNetwork:
    size = make_encoder("flat").space.shape[0]
    weights = np.zeros((size, NUM_ACTIONS), np.float32)
    return PolicyNetwork("flat", ((weights, np.full(NUM_ACTIONS, bias, np.float32)),))


def test_a_network_lands_at_the_path_named(tmp_path):
    path = tmp_path / "network"  # no suffix: numpy's own writer would have made network.npz
    save_policy_network(_network(1.0), path)
    assert [p.name for p in tmp_path.iterdir()] == ["network"]
    assert load_policy_network(path).layers[0][1][0] == 1.0


def test_a_write_cut_short_keeps_the_file_before_it(tmp_path, monkeypatch):
    path = tmp_path / "network.npz"
    save_policy_network(_network(1.0), path)
    before = path.read_bytes()

    def killed(*args, **kwargs):
        raise KeyboardInterrupt  # a kill mid-write

    monkeypatch.setattr(np, "savez_compressed", killed)
    with pytest.raises(KeyboardInterrupt):
        files.write_npz_atomically(path, {"bias": np.zeros(3)})
    assert path.read_bytes() == before and [p.name for p in tmp_path.iterdir()] == [path.name]
