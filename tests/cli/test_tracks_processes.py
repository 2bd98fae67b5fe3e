"""Track entries count frames and CPU over every process of a run: a data-parallel
``friday rl`` run (torchrun) counts its frames over all its processes, and its entry takes the
curve's CPU only where the curve says it sums every process's (``cpu_processes``); a curve
that counted one process of several is refused, never multiplied out."""

from __future__ import annotations

import json

import pytest
from studies import study_module

from friday_agents.evaluation.tracks import TrackEntryError, curve_cpu_seconds


def test_a_one_process_row_counts_its_own_cpu():
    assert curve_cpu_seconds({"frames": 8, "cpu_seconds": 12.5}, "c") == 12.5
    assert curve_cpu_seconds({"frames": 8, "cpu_seconds": 12.5, "processes": 1}, "c") == 12.5


def test_a_row_of_several_processes_counts_every_process_cpu():
    row = {"frames": 16, "cpu_seconds": 40.0, "processes": 4, "cpu_processes": 4}
    assert curve_cpu_seconds(row, "c") == 40.0


@pytest.mark.parametrize("summed", [None, 1, 2])
def test_a_row_that_counts_fewer_processes_than_ran_is_refused(summed):
    row = {"frames": 16, "cpu_seconds": 10.0, "processes": 4}
    if summed is not None:
        row["cpu_processes"] = summed
    with pytest.raises(TrackEntryError, match=r"run/curve\.jsonl: .* ran 4 processes but"):
        curve_cpu_seconds(row, "run/curve.jsonl")


def _run(root, rows: list[dict]) -> str:
    folder = root / "run"
    folder.mkdir()
    (folder / "curve.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    return "run"


def test_make_entries_sums_a_torchrun_curve_and_refuses_one_process_of_several(
    tmp_path, monkeypatch
):
    """make_entries reads a run's CPU through the same rule (its entries' cpu_hours)."""
    make = study_module("tracks", "make_entries")
    monkeypatch.setattr(make, "REPO", tmp_path)
    summed = {"frames": 32768, "cpu_seconds": 7200.0, "processes": 2, "cpu_processes": 2}
    run = _run(tmp_path, [summed])
    assert make.run_cpu_seconds(run, make.curve_rows(run)[-1]) == 7200.0
    with pytest.raises(SystemExit, match=r"make_entries: run/curve\.jsonl: .* counts 1 of them"):
        make.run_cpu_seconds(run, {"frames": 32768, "cpu_seconds": 3600.0, "processes": 2})
