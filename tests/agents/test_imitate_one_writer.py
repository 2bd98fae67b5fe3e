"""One writer per games file for ``friday imitate collect`` and ``dagger`` (finding R3 of
issue 45): a second session appending to the same file would play and store the missing
games twice; it is refused in one line now, the file untouched. A repaired file keeps its
identity, so the lock on it still holds afterwards."""

from __future__ import annotations

import json
import os

import pytest

from friday_agents.cli import main
from friday_agents.harness.errors import BadInputError
from friday_agents.harness.games_file import drop_cut_short_line
from friday_agents.harness.run_lock import RunFolderLock
from friday_agents.learning.imitation.data import collect, read_games

GAME = {"level": 1, "seed": 11_000_000, "index": 0, "actions": [0]}


def test_a_second_collection_into_a_games_file_is_refused(tmp_path, capsys):
    games = tmp_path / "data" / "teacher.jsonl"
    argv = ["imitate", "collect", "--teacher", "random", "--levels", "1", "--games", "2"]
    argv += ["--workers", "1", "--no-progress", "--out", str(games)]
    with RunFolderLock() as other:
        other.take_file(games)
        assert main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert "in use by another friday command" in err and str(games) in err
    assert games.read_text() == ""
    assert main(argv) == 0  # once the other session is gone, the games are played
    assert len(read_games(games)) == 2


def test_a_collection_holds_its_games_file_while_it_appends(tmp_path):
    games = tmp_path / "teacher.jsonl"
    tried: list[str] = []

    def second_writer(_line: dict) -> None:
        with RunFolderLock() as other, pytest.raises(BadInputError, match="in use") as refused:
            other.take_file(games)
        tried.append(str(refused.value))

    assert collect("random", [1], range(2), games, workers=1, progress=second_writer) == 2
    assert len(tried) == 2 and all("choose another --out" in line for line in tried)


def test_a_cut_short_line_is_removed_in_place_keeping_the_file_a_lock_holds(tmp_path):
    games = tmp_path / "teacher.jsonl"
    whole = json.dumps(GAME)
    games.write_text(f"{whole}\n{whole[:7]}")
    before = os.stat(games).st_ino
    drop_cut_short_line(games)
    assert games.read_text() == f"{whole}\n" and os.stat(games).st_ino == before
