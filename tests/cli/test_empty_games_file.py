"""A games file with nothing to show: ``friday view`` and ``friday replay`` say why in words
that fit the command that wrote it (an explore run that won nothing was sent to
``friday eval --save-games``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from friday_agents.cli import main


@pytest.fixture(scope="module")
def explore_without_a_win(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("explore") / "run"
    args = ["explore", "--level", "4", "--deals", "1", "--budget", "20", "--out", str(out)]
    assert main([*args, "--no-progress"]) == 0
    assert (out / "games.jsonl").read_text() == ""  # 20 frames win nothing
    return out


@pytest.mark.parametrize("command", ["view", "replay"])
def test_an_explore_run_that_won_nothing_is_said_so(
    explore_without_a_win: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    path = explore_without_a_win / "games.jsonl"
    assert main([command, str(path)] + (["--all"] if command == "replay" else [])) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert "holds no game" in err and "friday explore writes only the games it won" in err
    assert "--save-games" not in err


def test_games_without_records_point_to_save_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps({"agent": "random", "level": 1, "seed": 3, "won": False}) + "\n")
    assert main(["view", str(path)]) == 2
    err = capsys.readouterr().err
    assert "1 game(s) without a record" in err and "--save-games" in err, err
