"""The cluster benchmark's report: the projection's arithmetic, and the README section is the
rendering of the committed run (benchmarks/cluster.json)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from published import published_section

from friday_agents.bench.cluster import (
    COMMAND,
    NODE_SIZES,
    SECTION,
    markdown,
    projection,
    ray_costs,
)

REPO = Path(__file__).resolve().parents[2]


def _rows(one: float, two: float) -> list[dict]:
    return [
        {"agent": "a", "backend": "this process", "cpus": 1, "games_per_s": one},
        {"agent": "a", "backend": "Ray, local", "cpus": 1, "games_per_s": one},
        {"agent": "a", "backend": "Ray, local", "cpus": 2, "games_per_s": two},
    ]


def test_projection_is_cores_times_the_one_cpu_rate_times_the_efficiency():
    half = projection(_rows(10.0, 15.0))
    assert half["efficiency"] == pytest.approx(0.75)
    assert half["nodes"] == {str(c): pytest.approx(10.0 * c * 0.75) for c in NODE_SIZES}
    more = projection(_rows(10.0, 24.0))  # above 100 %: noise, projected as 100 %
    assert more["efficiency"] == pytest.approx(1.2)
    assert more["nodes"]["8"] == pytest.approx(80.0)


def test_readme_cluster_section_renders_the_committed_run():
    doc = json.loads((REPO / "benchmarks" / "cluster.json").read_text())
    body = published_section(SECTION)
    assert body == markdown(doc).removesuffix("\n")
    assert COMMAND in body
    backends = {(r["backend"], r["cpus"]) for r in doc["rows"]}
    assert backends == {("this process", 1), ("Ray, local", 1), ("Ray, local", 2)}


def test_ray_cost_is_the_extra_time_per_game_on_a_one_cpu_ray():
    rows = [
        {"agent": "a", "backend": "this process", "cpus": 1, "games": 100, "seconds": 0.3},
        {"agent": "a", "backend": "Ray, local", "cpus": 1, "games": 100, "seconds": 0.5},
        {"agent": "a", "backend": "Ray, local", "cpus": 2, "games": 100, "seconds": 0.25},
    ]
    assert ray_costs(rows) == {"a": "+2.0 ms per game, +67% of a game's 3.0 ms"}
