"""The committed results of Friday the 13th (experiments/thirteen/): the pages show the tables
of the committed files, the committed network is the one the table names and plays legally,
and its training stayed inside its CPU budget."""

from __future__ import annotations

import csv
import hashlib
import importlib.util
import json
from pathlib import Path

import pytest

from friday_agents.thirteen.evaluation import play_game
from friday_agents.thirteen.players import DEFAULT_MODEL, make_agent

REPO = Path(__file__).resolve().parents[2]
HERE = REPO / "experiments" / "thirteen"
NET = HERE / "net13.npz"


def _render():
    spec = importlib.util.spec_from_file_location("thirteen_render", HERE / "render.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _reports(name: str) -> list[dict]:
    return json.loads((HERE / name).read_text(encoding="utf-8"))["reports"]


def test_the_pages_show_the_tables_of_the_committed_files():
    render = _render()
    for page in render.PAGES:
        text = page.read_text(encoding="utf-8")
        assert render.rendered(text) == text, f"{page.name}: run experiments/thirteen/render.py"
    assert "heuristic against random" in render.section()


def test_the_tables_are_the_issues_comparisons_on_1000_fixed_deals():
    heuristic = {r["players"]: r for r in _reports("heuristic-vs-random.json")}
    net = {r["players"]: r for r in _reports("net-vs-heuristic.json")}
    assert sorted(heuristic) == [3, 4, 5, 6] and 4 in net
    for report in [*heuristic.values(), net[4]]:
        assert report["deals"] == 1000 and report["first_deal"] == 0
        assert report["result"]["games"] == report["baseline"]["games"] == 1000
    assert net[4]["candidate"] == "net:model=experiments/thirteen/net13.npz"
    assert net[4]["opponents"] == "heuristic"


def test_the_committed_network_is_the_one_the_table_played_and_the_default():
    (model,) = _reports("net-vs-heuristic.json")[0]["models"].values()
    assert model["path"] == "experiments/thirteen/net13.npz"
    assert model["sha256"] == hashlib.sha256(NET.read_bytes()).hexdigest()
    assert DEFAULT_MODEL.read_bytes() == NET.read_bytes()  # the shipped copy is that file


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_committed_network_plays_whole_games(players):
    game = play_game([make_agent("net") for _ in range(players)], seed=players)
    assert game.done


def test_the_training_curve_stays_inside_its_cpu_budget():
    with (HERE / "curve.csv").open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    config = json.loads((HERE / "config.json").read_text(encoding="utf-8"))
    updates = [int(row["updates"]) for row in rows]
    assert updates == sorted(updates) and updates[0] == 0  # row 0: after the imitation
    seconds = [float(row["cpu_seconds"]) for row in rows]
    assert seconds == sorted(seconds) and seconds[-1] <= 25 * 60 and config["cpu_minutes"] <= 25
