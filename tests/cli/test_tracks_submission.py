"""``tools/build_tracks.py`` refuses an entry whose evidence is not in the repository: a run
folder, results file or model that does not exist, a path outside the repository, a file git
does not hold, or a results file whose numbers are not the entry's; each in one line, exit 2."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import build_tracks
import pytest
from test_tracks import _copy_of_the_sources

ENTRY = "a-ppo-counts-1m.json"  # an entry with a run folder and a model of its own


def _entry(root: Path) -> tuple[Path, dict]:
    path = root / build_tracks.ENTRIES / ENTRY
    return path, json.loads(path.read_text())


def _refusal(root: Path, capsys) -> str:
    assert build_tracks.main(["--root", str(root), "--check"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    return err


def _with(entry: dict, **changes) -> dict:
    return {**entry, **changes}


def _model_of(entry: dict, model: str) -> dict:
    result = dict(entry["result"], agent=f"net:model={model}")
    return _with(entry, result=result)


#: name: (how the entry changes, given the copy's root; the words of the refusal)
DAMAGE = {
    "a missing run": (
        lambda e, root: _with(e, run="experiments/tracks/runs/gone"),
        "does not exist",
    ),
    "a missing one of several runs": (
        lambda e, root: _with(e, run=[e["run"], "experiments/tracks/runs/gone"]),
        "its run 'experiments/tracks/runs/gone' does not exist",
    ),
    "a run outside by ..": (
        lambda e, root: _with(e, run="../elsewhere"),
        "its run '../elsewhere' is outside the repository",
    ),
    "a run by an absolute path": (
        lambda e, root: _with(e, run=str(root / e["run"])),
        "is outside the repository",
    ),
    "a missing results file": (
        lambda e, root: _with(e, result=dict(e["result"], file="experiments/tracks/eval/no.json")),
        "its results file 'experiments/tracks/eval/no.json' does not exist",
    ),
    "a results file outside": (
        lambda e, root: _with(e, result=dict(e["result"], file="/tmp/results.json")),
        "its results file '/tmp/results.json' is outside the repository",
    ),
    "a missing model": (
        lambda e, root: _model_of(e, "experiments/tracks/runs/gone/policy.npz"),
        "its model 'experiments/tracks/runs/gone/policy.npz' does not exist",
    ),
}


@pytest.mark.parametrize("name", sorted(DAMAGE))
def test_an_entry_whose_run_or_results_are_not_in_the_repository_is_refused(name, tmp_path, capsys):
    _copy_of_the_sources(tmp_path)
    path, entry = _entry(tmp_path)
    change, said = DAMAGE[name]
    path.write_text(json.dumps(change(entry, tmp_path)))
    err = _refusal(tmp_path, capsys)
    assert f"entry {entry['id']!r}" in err and said in err, err


def test_a_results_file_whose_numbers_are_not_the_entrys_is_refused(tmp_path, capsys):
    """The results file changed under an unchanged entry (the entry's own numbers changed:
    tests/cli/test_tracks.py)."""
    _copy_of_the_sources(tmp_path)
    _, entry = _entry(tmp_path)
    results_path = tmp_path / entry["result"]["file"]
    results = json.loads(results_path.read_text())
    row = next(r for r in results["summary"] if r["agent"] == entry["result"]["agent"])
    row["mean_score"] += 1.0
    results_path.write_text(json.dumps(results))
    err = _refusal(tmp_path, capsys)
    assert f"is not {entry['result']['file']}'s" in err, err


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_in_a_git_checkout_the_run_must_be_in_git(tmp_path, capsys):
    """A folder that exists but that git does not hold (an ignored or forgotten run) is not in
    the repository: a fresh clone would not have it. Added to git, it is."""
    _copy_of_the_sources(tmp_path)
    for folder in [p for p in tmp_path.rglob("*") if p.is_dir() and not any(p.iterdir())]:
        (folder / "curve.jsonl").write_text("{}\n")  # git holds no empty folder
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", ".")
    path, entry = _entry(tmp_path)
    run = tmp_path / "experiments/tracks/runs/outside-git"
    run.mkdir()
    (run / "curve.jsonl").write_text("{}\n")
    path.write_text(json.dumps(_with(entry, run="experiments/tracks/runs/outside-git")))
    err = _refusal(tmp_path, capsys)
    assert "'experiments/tracks/runs/outside-git' is not in git" in err, err
    _git(tmp_path, "add", ".")
    assert build_tracks.main(["--root", str(tmp_path)]) == 0
