"""Files a command reads back, edited by someone else: ``friday view``, ``friday replay`` and
``friday eval --resume`` refuse each bad file in one line with exit status 2, no traceback and
nothing written; nothing an edit puts in a run folder reaches ``results.json``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from friday_agents.cli import main

#: A JSON text nested deeper than any parser's recursion limit.
DEEP = "[" * 100_000 + "]" * 100_000


def _one_line_refusal(capsys: pytest.CaptureFixture[str], status: int, names: str) -> str:
    err = capsys.readouterr().err
    assert status == 2, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert names in err, err
    return err


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


# ------------------------------------------------------------------ view and replay


@pytest.mark.parametrize("command", ["view", "replay"])
@pytest.mark.parametrize(
    "name, text",
    [
        ("deep.json", DEEP),
        ("deep-line.jsonl", DEEP + "\n"),
        ("deep-cut.jsonl", DEEP),
        ("latin1.json", '{"format": "caf\xe9"}'),
    ],
    ids=["deep", "deep-line", "deep-cut", "latin-1"],
)
def test_a_hostile_record_file_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, name: str, text: str
) -> None:
    path = tmp_path / name
    path.write_bytes(text.encode("latin-1"))
    before = _files(tmp_path)
    args = [command, str(path)] + (["--all"] if command == "replay" else [])
    _one_line_refusal(capsys, main(args), str(path))
    assert _files(tmp_path) == before


# ------------------------------------------------------------------ eval --resume


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished two-game evaluation of the random agent, to edit."""
    out = tmp_path_factory.mktemp("eval") / "run"
    args = ["eval", "--agents", "random", "--levels", "1", "--games", "2", "--workers", "1"]
    assert main([*args, "--no-progress", "--out", str(out)]) == 0
    return out


def _copy(run: Path, into: Path) -> Path:
    into.mkdir()
    for path in run.iterdir():
        (into / path.name).write_bytes(path.read_bytes())
    return into


def _edit_config(out: Path, edit: Any) -> None:
    path = out / "run.json"
    data = json.loads(path.read_text())
    edit(data["config"])
    path.write_text(json.dumps(data))


def _edit_game(out: Path, edit: Any) -> None:
    path = out / "games.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    edit(rows[0])
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))


def _set(key: str, value: Any) -> Any:
    return lambda data: data.__setitem__(key, value)


def _drop(key: str) -> Any:
    return lambda data: data.pop(key)


#: name: (which file, the edit, what the refusal names)
RESUME_EDITS: dict[str, tuple[str, Any, str]] = {
    "games 10**8": ("config", _set("games", {"random": 10**8}), "games"),
    "games zero": ("config", _set("games", {"random": 0}), "games"),
    "games a string": ("config", _set("games", {"random": "2"}), "games"),
    "games a list": ("config", _set("games", [2]), "games"),
    "games for another agent": ("config", _set("games", {"heuristic": 2}), "games"),
    "negative search_sims": ("config", _set("search_sims", -5), "search_sims"),
    "search_sims a float": ("config", _set("search_sims", 2.5), "search_sims"),
    "search_sims huge": ("config", _set("search_sims", 10**12), "search_sims"),
    "save_games a string": ("config", _set("save_games", "no"), "save_games"),
    "levels empty": ("config", _set("levels", []), "levels"),
    "level 7": ("config", _set("levels", [7]), "levels"),
    "levels a string": ("config", _set("levels", "1"), "levels"),
    "level a bool": ("config", _set("levels", [True]), "levels"),
    "agents a string": ("config", _set("agents", "random"), "agents"),
    "agents empty": ("config", _set("agents", []), "agents"),
    "agent not a string": ("config", _set("agents", [3]), "agents"),
    "agent unknown": (
        "config",
        lambda data: data.update(agents=["nobody"], games={"nobody": 2}),
        "agents: unknown agent 'nobody'",
    ),
    "deals unknown": ("config", _set("deals", "training"), "deals"),
    "no games key": ("config", _drop("games"), "games"),
    "config not an object": ("config", lambda data: data.clear() or data.update(x=1), "agents"),
    "won a string": ("game", _set("won", "yes"), "won"),
    "score NaN": ("game", _set("score", float("nan")), "NaN"),
    "score a float": ("game", _set("score", 3.5), "score"),
    "score huge": ("game", _set("score", 10**30), "score"),
    "seconds negative": ("game", _set("seconds", -1.0), "seconds"),
    "seconds Infinity": ("game", _set("seconds", float("inf")), "Infinity"),
    "life a string": ("game", _set("life", "20"), "life"),
    "actions negative": ("game", _set("actions", -3), "actions"),
    "fights missing": ("game", _drop("fights"), "fights"),
    "seed of another deal": ("game", _set("seed", 12345), "seed"),
    "level a string": ("game", _set("level", "1"), "level"),
    "index 1.0": ("game", _set("index", 1.0), "index"),
    "a game of another agent": ("game", _set("agent", "heuristic"), "does not play"),
}


@pytest.mark.parametrize("name", sorted(RESUME_EDITS))
def test_resume_refuses_a_tampered_run_folder_naming_the_field(
    finished_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    which, edit, names = RESUME_EDITS[name]
    out = _copy(finished_run, tmp_path / "run")
    (out / "results.json").unlink()  # a resume must not write it again
    (_edit_config if which == "config" else _edit_game)(out, edit)
    before = _files(out)
    status = main(["eval", "--out", str(out), "--resume", "--no-progress"])
    _one_line_refusal(capsys, status, names)
    assert _files(out) == before


@pytest.mark.parametrize("which", ["run.json", "games.jsonl"])
def test_resume_refuses_json_nested_100000_deep(
    finished_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], which: str
) -> None:
    out = _copy(finished_run, tmp_path / "run")
    (out / which).write_text(DEEP + "\n")
    before = _files(out)
    status = main(["eval", "--out", str(out), "--resume", "--no-progress"])
    _one_line_refusal(capsys, status, which)
    assert _files(out) == before


def test_an_untouched_run_folder_still_resumes(
    finished_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _copy(finished_run, tmp_path / "run")
    assert main(["eval", "--out", str(out), "--resume", "--no-progress"]) == 0
    assert json.loads((out / "results.json").read_text())["complete"]
