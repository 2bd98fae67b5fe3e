"""``friday rl --frames N`` runs the frames it announces, and its bar ends at 100 %.

A rollout is ``num_envs x num_steps`` frames and is never cut short, so N is rounded up to
whole rollouts; --help and the run's first line say so. Before, ``--frames 20000`` ran 24,576
frames while the bar's total stayed 20,000, and tqdm shows a count past its total as "0%
.../?"."""

from __future__ import annotations

import json

import pytest
from friday_cli import friday, friday_main


def test_rl_runs_the_frames_it_announces_and_its_bar_ends_full(tmp_path, capsys):
    pytest.importorskip("torch")
    pytest.importorskip("tqdm")
    tiny = ("--num-envs", "2", "--num-steps", "64", "--minibatches", "2", "--eval-deals", "4")
    out = str(tmp_path / "run")
    assert friday_main()(["rl", "--frames", "300", *tiny, "--out", out]) == 0  # in this process
    done = capsys.readouterr()
    assert "384 frames (--frames 300 rounded up to whole rollouts of 128" in done.out
    bars = [line for line in done.err.replace("\r", "\n").splitlines() if "%|" in line]
    assert "100%" in bars[-1] and "384/384" in bars[-1], bars[-1]
    rows = (tmp_path / "run" / "curve.jsonl").read_text().splitlines()
    assert json.loads(rows[-1])["frames"] == 384
    assert json.loads((tmp_path / "run" / "config.json").read_text())["frames"] == 384


def test_rl_help_says_frames_are_whole_rollouts():
    done = friday("rl", "--help")
    assert "rounded up to whole rollouts" in " ".join(done.stdout.split())
