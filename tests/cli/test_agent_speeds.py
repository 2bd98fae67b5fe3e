"""Games/s of each agent (``benchmarks/agent_speeds.py``): the docs' speed tables are the
rendering of the committed measurement, made on the compiled core, for every agent the
agents page lists."""

from __future__ import annotations

import json
import re
from pathlib import Path

from bench_scripts import agent_speeds, sections
from published import published_section

REPO = Path(__file__).resolve().parents[2]


def committed() -> dict:
    return json.loads((REPO / sections.AGENT_SPEEDS).read_text(encoding="utf-8"))


def test_docs_speed_tables_are_the_rendering_of_the_committed_measurement():
    assert published_section("agent-speeds") == sections.render_agent_speeds(REPO)
    assert published_section("results-speeds") == sections.render_results_speeds(REPO)
    assert sections.SECTIONS["agent-speeds"][0] == "docs/agents.md"
    assert sections.SECTIONS["results-speeds"][0] == "docs/results.md"


def test_every_listed_agent_was_measured_on_the_compiled_core_on_every_level():
    doc = committed()
    assert doc["core"] == "c" and "process_time" in doc["timing"]
    page = (REPO / "docs" / "agents.md").read_text(encoding="utf-8")
    table = page.split("| agent | what it is | options |")[1].split("\n\n")[0]
    listed = set(re.findall(r"^\| `([a-z]+)` \|", table, re.MULTILINE))
    measured = {(r["agent"], r["level"]) for r in doc["rows"]}
    assert listed and measured == {(a, level) for a in listed for level in (1, 2, 3, 4)}
    assert all(r["games_per_s"] == r["games"] / r["cpu_seconds"] for r in doc["rows"])


def test_a_tiny_run_measures_every_level(tmp_path, capsys):
    out = tmp_path / "speeds.json"
    assert agent_speeds.main(["--games", "random=2", "--out", str(out)]) == 0
    rows = json.loads(out.read_text())["rows"]
    assert [(r["agent"], r["level"], r["games"]) for r in rows] == [
        ("random", level, 2) for level in (1, 2, 3, 4)
    ]
    assert all(r["games_per_s"] > 0 for r in rows)


def test_bad_workloads_stop_in_one_line(tmp_path, capsys):
    assert agent_speeds.main(["--games", "random=0", "--out", str(tmp_path / "s.json")]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert "is not agent=games" in line and list(tmp_path.iterdir()) == []
