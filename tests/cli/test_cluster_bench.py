"""The cluster benchmark (``benchmarks/bench_cluster.py``): the projection's arithmetic, its
input checks, and the performance report's section is the rendering of the committed run
(``benchmarks/cluster.json``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bench_scripts import cluster, sections
from published import published_section

REPO = Path(__file__).resolve().parents[2]


def _rows(one: float, two: float) -> list[dict]:
    return [
        {"agent": "a", "backend": "this process", "cpus": 1, "games_per_s": one},
        {"agent": "a", "backend": "Ray, local", "cpus": 1, "games_per_s": one},
        {"agent": "a", "backend": "Ray, local", "cpus": 2, "games_per_s": two},
    ]


def test_projection_is_cores_times_the_one_cpu_rate_times_the_efficiency():
    half = cluster.projection(_rows(10.0, 15.0))
    assert half["efficiency"] == pytest.approx(0.75)
    assert half["nodes"] == {str(c): pytest.approx(10.0 * c * 0.75) for c in cluster.NODE_SIZES}
    more = cluster.projection(_rows(10.0, 24.0))  # above 100 %: noise, projected as 100 %
    assert more["efficiency"] == pytest.approx(1.2)
    assert more["nodes"]["8"] == pytest.approx(80.0)


def test_report_cluster_section_renders_the_committed_run():
    doc = json.loads((REPO / "benchmarks" / "cluster.json").read_text())
    body = published_section("cluster")
    assert body == sections.cluster_section(doc)
    assert sections.SECTIONS["cluster"][0] == "experiments/performance/REPORT.md"
    assert cluster.COMMAND in body
    backends = {(r["backend"], r["cpus"]) for r in doc["rows"]}
    assert backends == {("this process", 1), ("Ray, local", 1), ("Ray, local", 2)}


def test_ray_cost_is_the_extra_time_per_game_on_a_one_cpu_ray():
    rows = [
        {"agent": "a", "backend": "this process", "cpus": 1, "games": 100, "seconds": 0.3},
        {"agent": "a", "backend": "Ray, local", "cpus": 1, "games": 100, "seconds": 0.5},
        {"agent": "a", "backend": "Ray, local", "cpus": 2, "games": 100, "seconds": 0.25},
    ]
    assert sections.ray_costs(rows) == {"a": "+2.0 ms per game, +67% of a game's 3.0 ms"}


def test_workloads_are_agent_equals_games():
    assert cluster.parse_workloads("heuristic=20,search:sims=16=4") == {
        "heuristic": 20,
        "search:sims=16": 4,
    }
    for bad in ("heuristic", "heuristic=0", "=3", "heuristic=two"):
        with pytest.raises(ValueError, match="is not agent=games"):
            cluster.parse_workloads(bad)


def test_bad_input_stops_in_one_line_before_anything_runs(tmp_path, capsys):
    assert cluster.main(["--games", "heuristic=x", "--out", str(tmp_path / "c.json")]) == 2
    assert cluster.main(["--out", str(tmp_path)]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert lines[0].endswith("'heuristic=x' is not agent=games with games at least 1")
    assert lines[1].endswith("is a folder; name the JSON file to write") and len(lines) == 2
    assert list(tmp_path.iterdir()) == []
