"""The README's no-teacher gaps (section ``scratch-gap``): from a results file in which
``scratch`` played the same deals as the heuristic and ``guided``, its paired gap to each, read
from the file's comparisons (negated where the file compares the other way), never from two
unpaired rates; a file that does not pair them is an error naming it."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from rendered import provider

from friday_agents.players.resolved import resolve_spec

#: Synthetic win rates (per level) and paired differences (later agent − earlier one).
RATES = {"heuristic": (0.13, 0.03), "scratch": (0.28, 0.20), "guided": (0.96, 0.84)}
PAIRED = {
    ("heuristic", "scratch"): ((0.15, 0.12, 0.18), (0.17, 0.14, 0.2)),
    ("scratch", "guided"): ((0.68, 0.65, 0.71), (0.64, 0.6, 0.68)),
    ("heuristic", "guided"): ((0.83, 0.8, 0.86), (0.81, 0.78, 0.84)),
    ("guided", "scratch"): ((-0.68, -0.71, -0.65), (-0.64, -0.68, -0.6)),
}


def results(agents: list[str]) -> dict:
    """A ``friday eval`` results file of ``agents`` on levels 1-2 (1,000 deals each), each
    agent compared with the one before it as friday eval does."""
    levels = [1, 2]
    summary = [
        {
            "agent": agent,
            "level": level,
            "games": 1000,
            "wins": round(1000 * RATES[agent][level - 1]),
            "win_rate": RATES[agent][level - 1],
            "win_rate_ci": [RATES[agent][level - 1] - 0.02, RATES[agent][level - 1] + 0.02],
        }
        for agent in agents
        for level in levels
    ]
    comparisons = [
        {"baseline": before, "agent": after, "level": level, "common_games": 1000}
        | {"win_rate_difference": list(PAIRED[before, after][level - 1])}
        for before, after in itertools.pairwise(agents)
        if (before, after) in PAIRED
        for level in levels
    ]
    return {
        "command": f"friday eval --agents {','.join(agents)} --levels 1-2 --games 1000",
        "config": {"agents": agents, "levels": levels},
        "resolved": {agent: resolve_spec(agent) for agent in agents},
        "summary": summary,
        "comparisons": comparisons,
    }


def _commit(root: Path, data: dict) -> None:
    path, _ = provider("tracks").NO_TEACHER_RUNS[0]
    (root / path).parent.mkdir(parents=True)
    (root / path).write_text(json.dumps(data))


def test_scratchs_paired_gaps_to_the_heuristic_and_to_guided(tmp_path):
    _commit(tmp_path, results(["heuristic", "scratch", "guided"]))
    lines = provider("tracks").scratch_gap_section(tmp_path).splitlines()
    rows = {line.split(" | ")[0].removeprefix("| "): line for line in lines if " | " in line}
    assert rows["`scratch` − `heuristic` (points)"].endswith(
        "| +15.0 [+12.0, +18.0] | +17.0 [+14.0, +20.0] |"
    )
    # stored as guided − scratch: negated, its interval's ends swapped
    assert rows["`scratch` − `guided` (points)"].endswith(
        "| -68.0 [-71.0, -65.0] | -64.0 [-68.0, -60.0] |"
    )
    assert rows["`scratch`"].endswith("| 28.0% [26.0, 30.0] | 20.0% [18.0, 22.0] |")
    assert rows["`guided`"].endswith("| 96.0% [94.0, 98.0] | 84.0% [82.0, 86.0] |")
    assert "friday eval --agents heuristic,scratch,guided" in lines[-3]


def test_a_file_that_does_not_pair_scratch_with_a_baseline_is_refused(tmp_path):
    """heuristic,guided,scratch compares guided with each neighbour, scratch never with the
    heuristic."""
    _commit(tmp_path, results(["heuristic", "guided", "scratch"]))
    with pytest.raises(ValueError, match="'scratch' and 'heuristic' are not paired on level 1"):
        provider("tracks").scratch_gap_section(tmp_path)


def test_a_file_without_a_baseline_is_refused(tmp_path):
    _commit(tmp_path, results(["heuristic", "scratch"]))
    with pytest.raises(ValueError, match="'guided' did not play in it"):
        provider("tracks").scratch_gap_section(tmp_path)


def test_a_file_played_by_another_scratch_model_is_refused(tmp_path):
    """``scratch`` takes no option, so a results file reads the same after the role's file is
    replaced: the stored SHA-256 of what it played must be today's file's."""
    data = results(["heuristic", "scratch", "guided"])
    data["resolved"]["scratch"]["models"][0]["sha256"] = "0" * 64
    _commit(tmp_path, data)
    with pytest.raises(ValueError, match=r"is not today's scratch\.npz"):
        provider("tracks").scratch_gap_section(tmp_path)


def test_without_scratchs_evaluation_the_section_says_what_to_play(tmp_path):
    with pytest.raises(ValueError, match="no evaluation of today's scratch is committed"):
        provider("tracks").scratch_gap_section(tmp_path)
