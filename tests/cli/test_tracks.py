"""``friday tracks`` and the track entries: the shipped leaderboard is the committed entries,
each entry's numbers are its results file's, and the budget rows follow the frames."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import build_tracks
import pytest
from friday_cli import friday

from friday_agents.evaluation.tracks import (
    BUDGETS,
    TrackEntryError,
    budget_row,
    check_entry,
    load_leaderboard,
)

REPO = Path(__file__).resolve().parents[2]


def test_the_shipped_leaderboard_is_the_committed_entries():
    """What tools/build_tracks.py --check checks: fails when an entry and the shipped file
    disagree (tests below make them disagree)."""
    assert build_tracks.main(["--check"]) == 0


@pytest.mark.parametrize(
    ("frames", "row"),
    [
        (0, "1 M"),
        (999_424, "1 M"),
        (1_000_000, "1 M"),
        (1_000_001, "10 M"),
        (5_005_312, "10 M"),
        (50_003_968, "100 M"),
        (100_000_001, "over 100 M"),
        (None, "not recorded"),
    ],
)
def test_an_entry_sits_in_the_smallest_budget_at_or_above_its_frames(frames, row):
    assert budget_row(frames) == row


def _entries() -> list[dict]:
    return load_leaderboard()["entries"]


def test_an_entry_in_a_smaller_budget_than_its_frames_is_refused():
    entry = dict(_entries()[0], frames=50_000_000, budget="10 M")
    with pytest.raises(TrackEntryError, match="belong in '100 M'"):
        check_entry(entry, "x.json")


def _copy_of_the_sources(root: Path) -> None:
    """The entries, the files they name (results, models; their run folders empty) and the
    shipped leaderboard, under ``root``."""
    files = {build_tracks.LEADERBOARD}
    for path in (REPO / build_tracks.ENTRIES).glob("*.json"):
        files.add(path.relative_to(REPO))
        for _, named in build_tracks._named_paths(json.loads(path.read_text())):
            if (REPO / named).is_dir():
                (root / named).mkdir(parents=True, exist_ok=True)
            else:
                files.add(Path(named))
    for name in files:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO / name, root / name)


def test_an_entry_whose_numbers_are_not_its_results_file_is_refused(tmp_path, capsys):
    _copy_of_the_sources(tmp_path)
    path = sorted((tmp_path / build_tracks.ENTRIES).glob("*.json"))[0]
    entry = json.loads(path.read_text())
    entry["levels"]["1"]["wins"] += 1
    path.write_text(json.dumps(entry))
    assert build_tracks.main(["--root", str(tmp_path), "--check"]) == 2
    assert "is not" in capsys.readouterr().err


def test_check_fails_when_the_shipped_leaderboard_is_stale(tmp_path):
    _copy_of_the_sources(tmp_path)
    path = sorted((tmp_path / build_tracks.ENTRIES).glob("*.json"))[0]
    path.unlink()  # an entry removed, the shipped file not rebuilt
    assert build_tracks.main(["--root", str(tmp_path), "--check"]) == 1
    assert build_tracks.main(["--root", str(tmp_path)]) == 0
    assert build_tracks.main(["--root", str(tmp_path), "--check"]) == 0


def test_friday_tracks_json_lists_three_track_a_algorithms_and_family_a():
    done = friday("tracks", "--json")
    assert done.returncode == 0, done.stderr
    entries = json.loads(done.stdout)["entries"]
    track_a = {e["algorithm"] for e in entries if e["track"] == "a"}
    assert len(track_a) >= 3
    assert any(e["track"] == "b" and e["algorithm"].startswith("family A") for e in entries)
    for entry in entries:
        assert entry["budget"] in BUDGETS
        for cell in entry["levels"].values():
            low, high = cell["wilson_95"]
            assert low <= cell["win_rate"] <= high


def test_friday_tracks_prints_the_leaderboard_of_one_track():
    done = friday("tracks", "--track", "b")
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("| (")]
    assert rows and all(row.startswith("| (b)") for row in rows)


def test_friday_tracks_refuses_an_unknown_track_in_one_line():
    done = friday("tracks", "--track", "d")
    assert done.returncode == 2
    assert "invalid choice: 'd'" in done.stderr


def test_the_earlier_scratch_was_chosen_by_the_best_validation_rate_then_the_later_commit():
    from studies import study_module

    select = study_module("tracks", "select_scratch")
    rows = '{"frames": 8, "level": 1}\n{"frames": 9, "level": 1, "heldout_deals": 500, '
    assert select.last_evaluation(rows + '"heldout_win_rate": 0.02}')["frames"] == 9
    assert select.last_evaluation(rows + '"heldout_win_rate": 0.02}\n{"frames": 10}') is None
    older = {"validation_win_rate": 0.0, "commit_time": 1.0, "frames": 50}
    newer = {"validation_win_rate": 0.0, "commit_time": 2.0, "frames": 1}
    uncommitted = {"validation_win_rate": 0.0, "commit_time": None, "frames": 1}
    assert select.later(newer) > select.later(older)
    assert select.later(uncommitted) > select.later(newer)


def test_the_retired_scratch_selection_writes_its_record_and_never_the_model(tmp_path, monkeypatch):
    """Since the no-teacher study registered scratch, the earlier study's rule rewrites only
    its record: a rerun leaves the registered model as it is."""
    from studies import study_module

    from friday_agents.models import SCRATCH

    select = study_module("tracks", "select_scratch")
    chosen = {"run": "r", "commit": "c", "frames": 9, "validation_win_rate": 0.0, "sha256": "x"}
    monkeypatch.setattr(select, "select", lambda: {"chosen": chosen, "candidates": [chosen]})
    monkeypatch.setattr(select, "REPO", tmp_path)
    monkeypatch.setattr(select, "OUT", tmp_path / "eval/scratch_selection.json")
    model = (SCRATCH.read_bytes(), SCRATCH.stat().st_mtime_ns)
    assert select.main([]) == 0
    assert json.loads(select.OUT.read_text())["chosen"] == chosen
    assert (SCRATCH.read_bytes(), SCRATCH.stat().st_mtime_ns) == model
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == ["scratch_selection.json"]


def test_an_entry_is_refused_when_its_policy_changed_since_its_evaluation(tmp_path, monkeypatch):
    import hashlib

    from studies import study_module

    make = study_module("tracks", "make_entries")
    monkeypatch.setattr(make, "REPO", tmp_path)
    (tmp_path / "policy.npz").write_bytes(b"first")
    digest = hashlib.sha256(b"first").hexdigest()
    (tmp_path / "entries.sha256").write_text(f"{digest}  policy.npz\n")
    make.check_evaluated("entries.json", "policy.npz")  # unchanged: accepted
    (tmp_path / "policy.npz").write_bytes(b"retrained")
    with pytest.raises(SystemExit, match=r"changed since entries\.json evaluated it"):
        make.check_evaluated("entries.json", "policy.npz")


# ------------------------------------------------------------------ damaged files (R13)


def _shipped_board() -> dict:
    return json.loads((REPO / build_tracks.LEADERBOARD).read_text())


def _first_entry(edit):
    def damage(board: dict) -> dict:
        edit(board["entries"][0])
        return board

    return damage


#: name: (what the damage does to the shipped leaderboard, a word the refusal says)
BOARD_DAMAGE = {
    "not JSON": (lambda board: "{", "not valid JSON"),
    "a list": (lambda board: [board], "not a friday-env/tracks file"),
    "entries not a list": (lambda board: {**board, "entries": {}}, "'entries' must be a list"),
    "an entry not an object": (lambda board: {**board, "entries": [7]}, "entry 1: not a JSON"),
    "frames a string": (_first_entry(lambda e: e.update(frames="many")), "frames must be"),
    "levels a list": (_first_entry(lambda e: e.update(levels=[])), "levels must be"),
    "a cell not an object": (_first_entry(lambda e: e["levels"].update({"1": 3})), "level '1'"),
    "win rate a string": (
        _first_entry(lambda e: e["levels"]["1"].update(win_rate="high")),
        "win_rate must be",
    ),
    "interval of one": (
        _first_entry(lambda e: e["levels"]["1"].update(wilson_95=[0.1])),
        "wilson_95 must be",
    ),
    "more wins than games": (
        _first_entry(lambda e: e["levels"]["1"].update(wins=10**6)),
        "more wins than games",
    ),
    "cpu hours negative": (_first_entry(lambda e: e.update(cpu_hours=-1)), "cpu_hours must be"),
    "id a number": (_first_entry(lambda e: e.update(id=3)), "id must be"),
    "result without a file": (_first_entry(lambda e: e.update(result={})), "result must be"),
}


@pytest.mark.parametrize("name", sorted(BOARD_DAMAGE))
def test_friday_tracks_refuses_a_damaged_leaderboard_in_one_line(
    name, tmp_path, monkeypatch, capsys
):
    import friday_agents.evaluation.tracks as tracks
    from friday_agents.cli import main

    damage, said = BOARD_DAMAGE[name]
    damaged = damage(_shipped_board())
    path = tmp_path / "tracks.json"
    path.write_text(damaged if isinstance(damaged, str) else json.dumps(damaged))
    monkeypatch.setattr(tracks, "TRACKS_FILE", path)
    for args in (["tracks"], ["tracks", "--json"]):
        assert main(args) == 2
        err = capsys.readouterr().err
        assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
        assert said in err and str(path) in err, err


@pytest.mark.parametrize(
    "name, damage, said",
    [
        ("entry not JSON", lambda entry, results: ("{", results), "cannot be read"),
        ("entry a list", lambda entry, results: ([entry], results), "not a JSON object"),
        (
            "frames a string",
            lambda entry, results: ({**entry, "frames": "x"}, results),
            "frames must be",
        ),
        ("results a list", lambda entry, results: (entry, []), "no summary rows"),
        ("results not JSON", lambda entry, results: (entry, "[1e400]"), "past the float range"),
        (
            "summary rows not objects",
            lambda entry, results: (entry, {**results, "summary": [1]}),
            "no summary rows",
        ),
    ],
)
def test_build_tracks_refuses_a_damaged_entry_or_results_file_in_one_line(
    tmp_path, capsys, name, damage, said
):
    _copy_of_the_sources(tmp_path)
    path = sorted((tmp_path / build_tracks.ENTRIES).glob("*.json"))[0]
    entry = json.loads(path.read_text())
    results_path = tmp_path / entry["result"]["file"]
    new_entry, new_results = damage(entry, json.loads(results_path.read_text()))
    for file, value in ((path, new_entry), (results_path, new_results)):
        file.write_text(value if isinstance(value, str) else json.dumps(value))
    assert build_tracks.main(["--root", str(tmp_path), "--check"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert said in err, err


def test_the_scratch_entry_is_refused_unless_registered_installed_and_played_agree(
    tmp_path, monkeypatch
):
    """The entry pairs a run with the results of the registered scratch: the record, the
    installed model, the run's policy and the file the results played must be one file."""
    import hashlib

    from studies import study_module

    make = study_module("tracks", "make_entries")
    monkeypatch.setattr(make, "REPO", tmp_path)
    (tmp_path / "model.npz").write_bytes(b"registered")
    (tmp_path / "policy.npz").write_bytes(b"registered")
    digest = hashlib.sha256(b"registered").hexdigest()
    record = {"sha256": digest, "model": "model.npz", "source": "policy.npz"}
    played = {"resolved": {"scratch": {"models": [{"sha256": digest}]}}}
    (tmp_path / "results.json").write_text(json.dumps(played))
    make.check_registered(record, "results.json")  # one file: accepted
    (tmp_path / "model.npz").write_bytes(b"registered again")
    with pytest.raises(SystemExit, match="scratch is not one file"):
        make.check_registered(record, "results.json")
