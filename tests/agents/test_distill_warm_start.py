"""``friday distill`` with ``warm_start``: each round's fit starts from the round's prior's
weights (issue 42, item 5: a fit of a few thousand games from nothing may fall below the
no-teacher network ``scratch`` it should improve on), on a tiny budget."""

from __future__ import annotations

import dataclasses
import itertools
import json
from pathlib import Path

import numpy as np
import pytest
from test_expert_iteration import TINY, run_distill

from friday_agents.learning.distill import rounds as rounds_module
from friday_agents.learning.distill.config import ExitConfigError, load_config
from friday_agents.learning.distill.dataset import read_decisions
from friday_agents.learning.distill.fit import fit_network
from friday_agents.learning.distill.run_files import check_resume
from friday_agents.learning.run_folder import RunFolderError
from friday_agents.models import model_file
from friday_agents.players.networks.policy_net import (
    PolicyNetwork,
    load_policy_network,
    save_policy_network,
)
from friday_env.actions import NUM_ACTIONS
from friday_env.observation import FLAT_SIZE

#: Two rounds on level 1 from ``scratch`` (64-64, with a value head), fitted at its shape.
WARM = TINY | {"levels": [1], "first_prior": "scratch", "hidden": [64, 64], "warm_start": True}


def _layers_equal(mine, theirs) -> bool:
    return len(mine) == len(theirs) and all(
        np.array_equal(w1, w2) and np.array_equal(b1, b2)
        for (w1, b1), (w2, b2) in zip(mine, theirs, strict=True)
    )


def _as_saved(network: PolicyNetwork) -> PolicyNetwork:
    """``network`` as a round stores it (float16) and reads it back (float32)."""
    return network.astype(np.float16).astype(np.float32)


@pytest.fixture(scope="module")
def warm(tmp_path_factory) -> Path:
    """A warm-started run whose fits take no step (zero epochs): each round's network is
    then exactly the weights its fit started from."""
    root = tmp_path_factory.mktemp("warm")
    real = rounds_module.fit_network
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(
            rounds_module,
            "fit_network",
            lambda data, hidden, _epochs, *rest: real(data, hidden, 0, *rest),
        )
        assert run_distill(root, WARM) == 0
    return root


def test_each_round_fits_from_its_priors_weights_and_says_so(warm):
    out = warm / "out"
    scratch = _as_saved(load_policy_network(model_file("scratch", "prior")))
    first = load_policy_network(out / "round-00" / "network.npz")
    assert _layers_equal(first.layers, scratch.layers)
    assert _layers_equal(first.value_layers, scratch.value_layers)  # its critic too
    second = load_policy_network(out / "round-01" / "network.npz")
    assert _layers_equal(second.layers, first.layers)  # round 1 from round 0's network
    for number in (0, 1):
        summary = json.loads((out / f"round-{number:02d}" / "summary.json").read_text())
        assert summary["fit"]["warm_start"] is True
    assert json.loads((out / "config.json").read_text())["warm_start"] is True


def test_a_start_without_a_value_head_leaves_the_value_drawn_as_a_cold_fit(warm):
    decisions = read_decisions(sorted((warm / "data").rglob("*.jsonl")))
    prior = load_policy_network(model_file("guided-prior", "prior"))  # 128-128, no value
    assert not prior.value_layers
    started, _ = fit_network(decisions, (128, 128), 0, 2.0, 0, start=prior)
    cold, _ = fit_network(decisions, (128, 128), 0, 2.0, 0)
    assert _layers_equal(started.layers, prior.layers)
    assert _layers_equal(started.value_layers, cold.value_layers)
    assert not _layers_equal(cold.layers, prior.layers)
    stepped, _ = fit_network(decisions, (128, 128), 1, 2.0, 0, start=prior)
    assert not _layers_equal(stepped.layers, prior.layers)  # the epoch moved it from there


@pytest.mark.parametrize(
    ("change", "shapes"),
    [
        ({"first_prior": "guided-prior"}, ("flat 991-8-199", "guided-prior is flat 991-128-128")),
        ({"hidden": [64]}, ("flat 991-64-199", "scratch is flat 991-64-64-199 with value head")),
    ],
)
def test_a_prior_of_another_shape_is_refused_naming_both(tmp_path, change, shapes):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(WARM | {"hidden": [8]} | change))
    with pytest.raises(ExitConfigError, match="bad value of warm_start/hidden") as refused:
        load_config(path)
    assert all(shape in str(refused.value) for shape in shapes), refused.value
    assert "\n" not in str(refused.value)


def test_a_prior_whose_value_head_has_another_shape_is_refused(tmp_path):
    rng = np.random.default_rng(0)

    def layers(*sizes: int):
        return tuple(
            (rng.normal(size=(a, b)).astype(np.float32), np.zeros(b, np.float32))
            for a, b in itertools.pairwise(sizes)
        )

    prior = tmp_path / "prior.npz"
    network = PolicyNetwork("flat", layers(FLAT_SIZE, 8, NUM_ACTIONS), layers(FLAT_SIZE, 16, 1))
    save_policy_network(network, prior)
    path = tmp_path / "config.json"
    path.write_text(json.dumps(WARM | {"hidden": [8], "first_prior": str(prior)}))
    with pytest.raises(ExitConfigError, match="with value head 991-16-1"):
        load_config(path)


def test_the_flag_is_refused_before_any_game_for_a_prior_of_another_shape(tmp_path, capsys):
    assert run_distill(tmp_path, TINY, "--warm-start", "true") == 2
    (line,) = capsys.readouterr().err.strip().splitlines()[-1:]
    assert "warm_start" in line and "991-128-128-199" in line and "991-8-199" in line, line
    assert not (tmp_path / "out").exists() and not (tmp_path / "data").exists()


def test_a_study_without_the_setting_fits_from_random_weights_and_continues(tmp_path):
    path, out = tmp_path / "config.json", tmp_path / "out"
    path.write_text(json.dumps(TINY))
    config = load_config(path)
    assert config.warm_start is False
    out.mkdir()
    stored = {k: v for k, v in config.to_json().items() if k != "warm_start"}
    (out / "config.json").write_text(json.dumps(stored))  # a run from before the setting
    check_resume(config, out)
    with pytest.raises(RunFolderError, match=r"other settings \(warm_start"):
        check_resume(dataclasses.replace(config, warm_start=True), out)
    path.write_text(json.dumps(TINY | {"warm_start": 1}))
    with pytest.raises(ExitConfigError, match="warm_start must be bool"):
        load_config(path)
