"""``friday distill`` on a tiny budget: every budget of the study's configuration (rounds,
games, sims, epochs, validation deals, levels) can be cut from the command line, and the run
folder's config.json records what was run."""

from __future__ import annotations

import json

import pytest
from friday_cli import REPO, friday, friday_main

TINY = (
    "--rounds", "1", "--teacher-games", "2", "--student-games", "0", "--sims", "2",
    "--epochs", "1", "--validation-net", "1", "--validation-search", "1", "--levels", "1",
)  # fmt: skip
CONFIG = str(REPO / "experiments/expert-iteration/config.json")


def test_distill_runs_a_tiny_budget_and_records_it(tmp_path):
    pytest.importorskip("tqdm")
    out = str(tmp_path / "run")
    args = ["distill", "--config", CONFIG, *TINY, "--workers", "1", "--no-progress", "--out", out]
    assert friday_main()(args) == 0  # in this process: its libraries are imported once
    stored = json.loads((tmp_path / "run" / "config.json").read_text())
    assert (stored["rounds"], stored["teacher_games"], stored["sims"]) == (1, 2, 2)
    assert (stored["epochs"], stored["levels"]) == (1, [1])
    assert (tmp_path / "run" / "round-00").is_dir()


def test_a_budget_flag_out_of_range_is_refused_in_one_line(tmp_path):
    done = friday("distill", "--config", CONFIG, "--sims", "0", "--out", "run", cwd=tmp_path)
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()
    assert line.startswith("friday distill: error: ") and "sims" in line, line
    assert list(tmp_path.iterdir()) == []
