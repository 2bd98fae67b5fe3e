"""``friday eval``'s progress numbers: hazards beaten and where the games end, per agent and
level, in games.jsonl, results.json, results.csv and the printed table; rows of older runs
(without them) leave the cells empty, and a resumed run refuses rows whose fields are bad."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from friday_agents.cli import main
from friday_agents.evaluation.game_ends import END_PLACES, progress_cells, progress_summary
from friday_agents.evaluation.report import text_table
from friday_agents.evaluation.stored_run import StoredRunError, check_row
from friday_env import GameRecord, replay

REPO = Path(__file__).resolve().parents[2]


def row(won: bool, end_step: int, hazards: int) -> dict:
    return {"won": won, "end_step": end_step, "hazards_beaten": hazards, "pirates_beaten": 0}


def test_the_shares_of_where_games_end_add_up_to_one():
    games = [row(False, 0, 2), row(False, 2, 20), row(False, 3, 28), row(True, 3, 25)]
    summary = progress_summary(games)
    assert summary["mean_hazards_beaten"] == pytest.approx(75 / 4)
    assert summary["ends"] == {
        "green": 0.25,
        "yellow": 0.0,
        "red": 0.25,
        "pirates": 0.25,
        "won": 0.25,
    }
    assert sum(summary["ends"].values()) == pytest.approx(1.0)
    low, high = summary["mean_hazards_beaten_ci"]
    assert low <= summary["mean_hazards_beaten"] <= high
    assert progress_cells(summary) == ["18.8", "25 / 0 / 25 / 25 / 25"]


def test_rows_of_an_older_run_give_no_numbers():
    old = {"won": False, "score": -20}
    assert progress_summary([row(False, 1, 5), old]) == {}
    assert progress_cells({}) == ["–", "–"]


def test_eval_reports_hazards_beaten_and_game_ends(tmp_path, capsys):
    out = tmp_path / "run"
    argv = ["eval", "--out", str(out), "--no-progress", "--agents", "random,heuristic"]
    assert main([*argv, "--levels", "1", "--games", "4", "--workers", "1", "--save-games"]) == 0
    rows = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    for game_row in rows:
        game = replay(GameRecord.from_json(json.dumps(game_row["record"])))
        assert game_row["hazards_beaten"] == game.hazards_beaten()
        assert (game_row["pirates_beaten"], game_row["end_step"]) == (len(game.beaten), game.step)
    results = json.loads((out / "results.json").read_text())
    for cell in results["summary"]:
        mine = [r for r in rows if r["agent"] == cell["agent"]]
        mean = sum(r["hazards_beaten"] for r in mine) / len(mine)
        assert cell["mean_hazards_beaten"] == pytest.approx(mean)
        assert set(cell["ends"]) == set(END_PLACES)
        assert cell["ends"]["won"] == pytest.approx(cell["win_rate"])
    with open(out / "results.csv") as handle:
        table = list(csv.DictReader(handle))
    assert {"mean_hazards_beaten", "ends_green", "ends_won"} <= set(table[0])
    printed = capsys.readouterr().out
    assert "hazards" in printed and "ends G/Y/R/P/won %" in printed
    assert text_table(results).splitlines()[0] == next(
        line for line in printed.splitlines() if line.startswith("agent")
    )


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"hazards_beaten": 3}, "must have all of"),
        ({"hazards_beaten": 31, "pirates_beaten": 0, "end_step": 1}, "hazards_beaten"),
        ({"hazards_beaten": 3, "pirates_beaten": 3, "end_step": 1}, "pirates_beaten"),
        ({"hazards_beaten": 3, "pirates_beaten": 0, "end_step": 4}, "end_step"),
        ({"hazards_beaten": "3", "pirates_beaten": 0, "end_step": 1}, "hazards_beaten"),
    ],
)
def test_a_stored_row_with_bad_progress_fields_is_refused(fields, message):
    stored = {"seed": 7, "won": False, "score": -3, "life": 0, "actions": 40, "fights": 5}
    stored |= {"seconds": 0.1}
    check_row(stored, 7, save_games=False)  # an older row: no progress fields at all
    with pytest.raises(StoredRunError, match=message):
        check_row(stored | fields, 7, save_games=False)


def test_a_results_table_of_an_older_run_keeps_its_columns():
    """The committed headline run was played before games recorded their progress."""
    results = json.loads((REPO / "experiments/results/readme_results.json").read_text())
    assert not any("ends" in cell for cell in results["summary"])
    assert "hazards" not in text_table(results).splitlines()[0]
