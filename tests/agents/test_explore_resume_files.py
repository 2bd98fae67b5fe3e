"""``friday explore --resume`` reads back two files it wrote, ``config.json`` and the journal
``deals.jsonl``; edited by someone else, each bad value is refused in one line naming the file
(and the journal's line), exit status 2, no traceback, nothing written (finding R4 of issue 45:
17 bad values were accepted and 31 gave tracebacks)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from friday_agents.cli import main
from friday_agents.harness.run_lock import RunFolderLock

pytest.importorskip("friday_agents.players._kernels", reason="the kernels are not built")

#: Three level-1 training deals of no study, explored briefly (none is won).
FIRST, DEALS, BUDGET = 600_000, 3, 2_000


@pytest.fixture(scope="module")
def stopped_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run whose journal holds two of its three deals (the third to play on resume)."""
    out = tmp_path_factory.mktemp("explore") / "run"
    argv = ["explore", "--level", "1", "--first-index", str(FIRST), "--deals", str(DEALS)]
    assert main([*argv, "--budget", str(BUDGET), "--no-progress", "--out", str(out)]) == 0
    lines = (out / "deals.jsonl").read_text().splitlines()
    (out / "deals.jsonl").write_text("\n".join(lines[:2]) + "\n")
    return out


def _config(run: Path) -> dict[str, Any]:
    return json.loads((run / "config.json").read_text())


def _rows(run: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (run / "deals.jsonl").read_text().splitlines()]


CONFIG_EDITS = {
    "level 0": ("level", 0),
    "level 5": ("level", 5),
    "level text": ("level", "1"),
    "level true": ("level", True),
    "level float": ("level", 1.5),
    "level null": ("level", None),
    "first index negative": ("first_index", -1),
    "first index in validation": ("first_index", 899_999),
    "deals 0": ("deals", 0),
    "deals negative": ("deals", -3),
    "budget 0": ("budget", 0),
    "budget past int64": ("budget", 2**70),
    "budget text": ("budget", "big"),
    "walk 0": ("walk", 0),
    "walk past int": ("walk", 2**40),
    "seed negative": ("seed", -1),
    "seed past 2**63": ("seed", 2**64),
    "seed float": ("seed", 1.0),
    "design other": ("design", "cells by score"),
    "design number": ("design", 3),
    "version newer": ("run_folder_version", 99),
    "version text": ("run_folder_version", "one"),
    "unknown key": ("colour", "red"),
}


def _journal_edits() -> dict[str, Any]:
    """name -> a function of the two journal rows giving the rows to write."""

    def edit(field: str, value: Any, row: int = 0):
        return lambda rows: [{**r, field: value} if i == row else r for i, r in enumerate(rows)]

    return {
        "index outside the run": edit("index", FIRST + DEALS),
        "index text": edit("index", str(FIRST)),
        "index missing": lambda rows: [{k: v for k, v in rows[0].items() if k != "index"}],
        "index twice": lambda rows: [rows[0], rows[0]],
        "level other": edit("level", 2),
        "seed other": edit("seed", 12345),
        "won text": edit("won", "yes"),
        "won without actions": edit("won", True),
        "won with a lost game": lambda rows: [{**rows[0], "won": True, "actions": [0, 0]}],
        "won with an illegal action": lambda rows: [{**rows[0], "won": True, "actions": [9999]}],
        "won with actions not numbers": lambda rows: [{**rows[0], "won": True, "actions": ["a"]}],
        "lost with actions": edit("actions", [1, 2]),
        "frames negative": edit("frames", -1),
        "frames text": edit("frames", "many"),
        "walks float": edit("walks", 2.5),
        "cells 0": edit("cells", 0),
        "cpu negative": edit("cpu_s", -1),
        "cpu text": edit("cpu_s", "1s"),
        "furthest missing": lambda rows: [{k: v for k, v in rows[0].items() if k != "furthest"}],
        "furthest text": edit("furthest", "far"),
        "a list line": lambda rows: [[1, 2], rows[1]],
    }


JOURNAL_EDITS = _journal_edits()


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def _refused(run: Path, capsys: pytest.CaptureFixture[str], names: str) -> str:
    before = _tree(run)
    status = main(["explore", "--resume", "--out", str(run), "--no-progress"])
    err = capsys.readouterr().err
    assert status == 2, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert err.startswith("friday explore: error: ") and names in err, err
    assert _tree(run) == before
    return err


@pytest.mark.parametrize("case", CONFIG_EDITS)
def test_a_bad_config_value_is_refused_naming_the_file(stopped_run, tmp_path, capsys, case):
    run = tmp_path / "run"
    shutil.copytree(stopped_run, run)
    name, value = CONFIG_EDITS[case]
    (run / "config.json").write_text(json.dumps({**_config(stopped_run), name: value}))
    _refused(run, capsys, str(run / "config.json"))


def test_a_config_without_a_setting_is_refused(stopped_run, tmp_path, capsys):
    run = tmp_path / "run"
    shutil.copytree(stopped_run, run)
    config = _config(stopped_run)
    del config["budget"]
    (run / "config.json").write_text(json.dumps(config))
    assert "missing settings ['budget']" in _refused(run, capsys, str(run / "config.json"))


@pytest.mark.parametrize("case", JOURNAL_EDITS)
def test_a_bad_journal_line_is_refused_naming_the_line(stopped_run, tmp_path, capsys, case):
    run = tmp_path / "run"
    shutil.copytree(stopped_run, run)
    rows = JOURNAL_EDITS[case](_rows(stopped_run))
    (run / "deals.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    _refused(run, capsys, f"{run / 'deals.jsonl'}:")


@pytest.mark.parametrize("name", ["config.json", "deals.jsonl"])
def test_a_fifo_in_place_of_a_run_file_is_refused(stopped_run, tmp_path, capsys, name):
    run = tmp_path / "run"
    shutil.copytree(stopped_run, run)
    (run / name).unlink()
    os.mkfifo(run / name)
    err = _refused(run, capsys, str(run / name))
    assert "not a regular file" in err


def test_an_untouched_run_resumes_and_a_version_0_config_still_loads(stopped_run, tmp_path):
    run = tmp_path / "run"
    shutil.copytree(stopped_run, run)
    config = _config(stopped_run)
    assert config.pop("run_folder_version") == 1
    (run / "config.json").write_text(json.dumps(config))  # as the release before wrote it
    assert main(["explore", "--resume", "--out", str(run), "--no-progress"]) == 0
    assert len(_rows(run)) == DEALS


def test_a_second_session_on_the_folder_is_refused(stopped_run, tmp_path, capsys):
    run = tmp_path / "run"
    shutil.copytree(stopped_run, run)
    with RunFolderLock() as other:
        other.take(run)
        err = _refused(run, capsys, str(run))
    assert "in use by another friday command" in err
