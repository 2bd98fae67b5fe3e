"""``friday rl``'s curve counts the CPU of every process of a data-parallel run (as its
frames do): each update adds the CPU seconds every process spent on it, not rank 0's alone.
Checked with a clock that advances one second a reading and a group that reports a second
process spending exactly what this one spent."""

from __future__ import annotations

import itertools
import json
import time
import types

import pytest

pytest.importorskip("torch")

from friday_agents.learning.rl import trainer as trainer_module
from friday_agents.learning.rl.group import Group


class TwinGroup(Group):
    """One process that reports a twin: each update's exchange (its CPU seconds among
    what it sends) comes back twice."""

    def gather(self, value):
        twin = isinstance(value, dict) and "cpu" in value
        return [value, value] if twin else super().gather(value)


def cpu_column(out, tiny_rl, monkeypatch, group=None) -> list[float]:
    ticks = itertools.count()
    clock = types.SimpleNamespace(
        process_time=lambda: float(next(ticks)), perf_counter=time.perf_counter
    )
    monkeypatch.setattr(trainer_module, "time", clock)
    if group is not None:
        monkeypatch.setattr(trainer_module, "join", lambda device: group)
    trainer_module.Trainer(tiny_rl(out, frames=256)).run()
    rows = [json.loads(line) for line in (out / "curve.jsonl").read_text().splitlines()]
    # each row says how many processes its CPU sums: what a track entry checks before reading it
    assert all(row["cpu_processes"] == row["processes"] for row in rows)
    return [row["cpu_seconds"] for row in rows]


def test_the_curve_adds_every_processes_cpu(tmp_path, monkeypatch, tiny_rl):
    alone = cpu_column(tmp_path / "alone", tiny_rl, monkeypatch)
    twins = cpu_column(tmp_path / "twins", tiny_rl, monkeypatch, TwinGroup())
    assert alone == [1.0, 2.0, 3.0]  # the start, then two updates: one tick each
    assert twins == [2 * seconds for seconds in alone]
