"""``friday view`` without a browser: the snapshots equal the engine's state at every decision,
the page is self-contained, bad input is refused. The page itself is tested in a real
browser in tests/env/test_viewer_browser.py."""

from __future__ import annotations

import ast
import base64
import gzip
import io
import json
import re
from pathlib import Path

import pytest
from viewer_support import (
    decisions_of_interest,
    engine_states,
    expected,
    fight_openings,
    heuristic_record,
)

from friday_agents.cli import main
from friday_agents.players.heuristic.agent import heuristic_action
from friday_env import GameRecord, RecordError
from friday_env.cards import CARD_TYPE, CARD_TYPES, KEY, PIRATE_IDS, PirateSpecial
from friday_env.scenario import from_spec
from friday_env.viewer import ViewerGame, fight_starts, record_snapshots, viewer_html

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def record() -> GameRecord:
    return heuristic_record()


def _shown(shot: dict) -> dict:
    fight = shot["fight"]
    return {
        "life": shot["life"],
        "reserve": shot["reserve"],
        "step": shot["step"],
        "hazard": fight["card"] if fight else None,
        "hazard_value": fight["value"] if fight else None,
        "table": [
            {k: card[k] for k in ("card", "side", "value", "used", "doubled", "destroyed")}
            for card in shot["table"]
        ],
        "taken": shot["taken"],
        "legal": [a for a, _ in shot["legal"]],
    }


def test_snapshots_equal_the_engine_at_every_decision(record):
    states = engine_states(record)
    shots = record_snapshots(record)
    assert len(shots) == len(states) == len(record.actions) + 1
    taken = [*record.actions, None]
    for index, (shot, game) in enumerate(zip(shots, states, strict=True)):
        assert _shown(shot) == expected(game, taken[index]), f"decision {index}"
        names = dict(shot["legal"])
        assert all(names[a] == game.describe(a) for a in names)
    decisions_of_interest(states)  # the game shows every mark the page draws


def test_fight_starts_are_the_decisions_that_open_a_fight(record):
    assert fight_starts(record_snapshots(record)) == fight_openings(engine_states(record))


def test_a_tampered_record_is_refused(record):
    bad = GameRecord(record.origin, record.actions, dict(record.result, score=999))
    with pytest.raises(RecordError, match="does not replay"):
        record_snapshots(bad)
    with pytest.raises(RecordError, match="at least one game"):
        viewer_html([])


def _page_data(page: str) -> dict:
    found = re.search(r'<script id="friday-data" type="application/json">(.*?)</script>', page)
    assert found
    return json.loads(found.group(1))


def test_the_page_is_self_contained_and_holds_the_snapshots(record):
    page = viewer_html([ViewerGame(record, agent="heuristic", deal=0)])
    assert not re.search(r"(src|href)\s*=\s*[\"']?(https?:)?//", page)
    assert "default-src 'none'" in page  # the browser may not load anything
    assert "__" + "DATA__" not in page and "__" + "SCRIPT__" not in page
    entry = _page_data(page)["games"][0]
    unpacked = json.loads(gzip.decompress(base64.b64decode(entry["data"])))
    assert unpacked["snapshots"] == record_snapshots(record)
    assert entry["meta"]["agent"] == "heuristic" and entry["meta"]["level"] == 1
    assert entry["meta"]["won"] == record.result["won"]


def test_friday_view_file_and_errors(tmp_path, record, capsys):
    path = tmp_path / "game.json"
    record.save(path)
    assert main(["view", str(path)]) == 0
    assert (tmp_path / "game.html").exists()
    assert "game.html (1 game)" in capsys.readouterr().out
    assert main(["view", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["view", str(tmp_path)]) == 2  # a directory without games.jsonl
    assert "games.jsonl does not exist" in capsys.readouterr().err
    data = json.loads(path.read_text())
    data["actions"] = data["actions"][:-1]
    path.write_text(json.dumps(data))
    assert main(["view", str(path)]) == 2
    assert "does not replay" in capsys.readouterr().err


def test_friday_view_dir_filters(tmp_path, capsys):
    out = tmp_path / "eval"
    argv = ["eval", "--agents", "random,heuristic", "--levels", "1,2", "--games", "2"]
    assert main([*argv, "--save-games", "--workers", "1", "--no-progress", "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["view", str(out)]) == 0
    games = _page_data((out / "games.html").read_text())["games"]
    assert len(games) == 8
    page = tmp_path / "h2.html"
    assert main(["view", str(out), "--agent", "heuristic", "--level", "2", "--out", str(page)]) == 0
    metas = [g["meta"] for g in _page_data(page.read_text())["games"]]
    assert [(m["agent"], m["level"], m["deal"]) for m in metas] == [
        ("heuristic", 2, 0),
        ("heuristic", 2, 1),
    ]
    assert main(["view", str(out), "--max-games", "3", "--out", str(page)]) == 0
    data = _page_data(page.read_text())
    assert len(data["games"]) == 3 and "first 3 of 8" in data["note"]
    assert main(["view", str(out), "--agent", "search"]) == 2
    assert "no game" in capsys.readouterr().err


# ------------------------------------------------- what the page calls things


def test_a_played_game_names_its_player(tmp_path, monkeypatch, capsys):
    path = tmp_path / "game.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 3000))
    assert main(["play", "--level", "1", "--seed", "3", "--save", str(path)]) == 0
    assert main(["view", str(path)]) == 0
    meta = _page_data((tmp_path / "game.html").read_text())["games"][0]["meta"]
    assert meta["agent"] == "human"
    assert meta["title"].startswith("human, level 1, seed 3: ")


def _pirate_scenario_record() -> GameRecord:
    """The golden pirate scenario (pirate/half and pirate/aging), played by the heuristic."""
    golden = ROOT / "tests" / "rules" / "playthroughs" / "scenario-pirates.txt"
    header = golden.read_text().splitlines()
    origin = ast.literal_eval(header[2].removeprefix("# origin: "))
    game = from_spec(origin["scenario"])
    while not game.done:
        game.apply(heuristic_action(game))
    return GameRecord.of(game)


def test_pirates_are_named_as_in_the_docs():
    """A pirate's rule reads as docs/cards.md gives it, never as the engine's enum name."""
    shots = record_snapshots(_pirate_scenario_record())
    shown = [text for shot in shots for text in shot["pirates"] + shot["offer"]]
    shown += [shot["fight"]["special"] for shot in shots if shot["fight"]]
    joined = "\n".join(shown)
    for card in PIRATE_IDS:
        if KEY[card] in ("pirate/half", "pirate/aging"):
            assert f"{KEY[card]} ({CARD_TYPES[CARD_TYPE[card]].title})" in joined
    for special in PirateSpecial:
        if special != PirateSpecial.NONE:
            assert special.name.lower() not in joined
            assert special.name.lower().replace("_", " ") not in joined
    assert "only half of the fighting cards count" in joined


def test_card_names_wrap_between_words_only():
    """``raft/equipment`` may wrap after the slash, never inside a word (``equipme nt``)."""
    style = (ROOT / "friday_env" / "viewer" / "assets" / "viewer.css").read_text()
    rule = re.search(r"\.card \.key \{([^}]*)\}", style)
    assert rule, "no style for card names"
    assert not re.search(r"break-word|break-all|anywhere", rule.group(1)), rule.group(1)
    script = (ROOT / "friday_env" / "viewer" / "assets" / "viewer.js").read_text()
    assert 'element("div", "key", breakAfterSlashes(card.card))' in script
    assert 'return text.replaceAll("/", "/\\u200B");' in script  # a zero-width space


def test_the_game_list_is_sorted_by_agent_level_and_deal(tmp_path, capsys):
    out = tmp_path / "eval"
    argv = ["eval", "--agents", "random,heuristic", "--levels", "1,2", "--games", "2"]
    assert main([*argv, "--save-games", "--workers", "1", "--no-progress", "--out", str(out)]) == 0
    lines = (out / "games.jsonl").read_text().splitlines()
    (out / "games.jsonl").write_text("\n".join(reversed(lines)) + "\n")  # any finishing order
    assert main(["view", str(out)]) == 0
    metas = [g["meta"] for g in _page_data((out / "games.html").read_text())["games"]]
    order = [(m["agent"], m["level"], m["deal"]) for m in metas]
    assert order == sorted(order) and len(order) == 8


@pytest.mark.parametrize("marker", ["__DATA__", "__SCRIPT__", "__STYLE__", "__TITLE__"])
def test_a_title_holding_a_placeholder_leaves_the_page_whole(record, marker):
    """The page is filled in one pass: text put in (a file named ``__DATA__.json``) is never
    searched for placeholders again."""
    page = viewer_html([ViewerGame(record)], title=f"Friday: {marker}.json")
    assert f"<title>Friday: {marker}.json</title>" in page
    data = re.search(r'<script id="friday-data" type="application/json">(.*?)</script>', page, re.S)
    assert data is not None and json.loads(data.group(1))["games"]
    assert page.count(marker) == 1  # the title's own, every placeholder filled


def test_friday_view_of_a_file_named_like_a_placeholder(tmp_path, record):
    path = tmp_path / "__DATA__.json"
    record.save(path)
    assert main(["view", str(path)]) == 0
    page = (tmp_path / "__DATA__.html").read_text()
    data = re.search(r'<script id="friday-data" type="application/json">(.*?)</script>', page, re.S)
    assert data is not None and json.loads(data.group(1))["games"]
