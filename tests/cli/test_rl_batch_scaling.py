"""``benchmarks/rl_batch_scaling.py``: every setting keeps the default's minibatch of 2,048
frames (as many optimizer steps per frame; a fixed count halved them at 1,024 envs and
learned worse), the rows record it, and a bad ``--minibatches`` stops before measuring."""

from __future__ import annotations

import pytest
from bench_scripts import REPO, _load

scaling = _load("rl_batch_scaling", REPO / "benchmarks" / "rl_batch_scaling.py")


def test_every_setting_from_1024_to_8192_envs_keeps_the_default_minibatch_size():
    envs = [n for n, _ in scaling.SETTINGS]
    assert min(envs) == 64 and {1024, 8192} <= set(envs)
    for n, steps in scaling.SETTINGS:
        count = scaling.minibatch_count(n, steps, None)
        assert count * 2048 == n * steps, (n, steps, count)
    assert scaling.minibatch_count(64, 128, None) == 4  # the trainer's default


def test_a_fixed_count_overrides_the_size():
    assert {scaling.minibatch_count(n, s, 4) for n, s in scaling.SETTINGS} == {4}


def test_each_row_records_its_minibatches(monkeypatch):
    monkeypatch.setattr(scaling, "SETTINGS", ((8, 512),))
    (row,) = scaling.measure(rounds=1, updates=1, fixed=None)
    assert (row["minibatches"], row["minibatch_frames"]) == (2, 2048)
    assert row["frames_per_update"] == 4096 and row["frames_per_cpu_s"] > 0


@pytest.mark.parametrize("value", ["0", "-2"])
def test_a_minibatch_count_below_one_stops_in_one_line(value, tmp_path, capsys):
    out = tmp_path / "scaling.json"
    with pytest.raises(SystemExit) as stopped:
        scaling.main(["--minibatches", value, "--out", str(out)])
    assert stopped.value.code == 2
    assert f"--minibatches must be at least 1, not {value}" in capsys.readouterr().err
    assert not out.exists()
