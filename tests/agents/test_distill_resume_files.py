"""``friday distill`` continued on a run folder someone else edited or a kill damaged (findings
R2, R3 and R6 of issue 45): every file it reads back is refused in one line naming it, exit
status 2, nothing written; a damaged decision cache is rebuilt (it is derived data); a second
session on the run's folders is refused."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from test_expert_iteration import TINY as EXIT_TINY

from friday_agents.cli import main
from friday_agents.harness.run_lock import RunFolderLock
from friday_agents.learning.distill import dataset
from friday_agents.players.networks.policy_net import load_policy_network

#: The expert-iteration tests' tiny study, on deals of its own.
TINY = EXIT_TINY | {"first_index": 700_000}


def _distill(root: Path) -> int:
    args = ["--config", str(root / "study.json"), "--out", str(root / "out")]
    args += ["--data", str(root / "data"), "--workers", "1", "--no-progress"]
    return main(["distill", *args])


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("distill")
    (root / "study.json").write_text(json.dumps(TINY))
    assert _distill(root) == 0
    return root


@pytest.fixture
def copy(finished: Path, tmp_path: Path) -> Path:
    shutil.copytree(finished, tmp_path / "run")
    return tmp_path / "run"


def _tree(root: Path) -> dict[str, bytes | None]:
    return {
        str(p.relative_to(root)): p.read_bytes() if p.is_file() else None
        for p in sorted(root.rglob("*"))
    }


def _refused(root: Path, capsys: pytest.CaptureFixture[str], names: str) -> str:
    before = _tree(root)
    status = _distill(root)
    err = capsys.readouterr().err
    assert status == 2, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert err.startswith("friday distill: error: ") and names in err, err
    assert _tree(root) == before
    return err


def _json_edit(name: str, edit: Callable[[dict], object]) -> Callable[[Path], str]:
    def apply(root: Path) -> str:
        path = root / "out" / name
        path.write_text(json.dumps(edit(json.loads(path.read_text()))))
        return str(path)

    return apply


def _text(name: str, text: str) -> Callable[[Path], str]:
    def apply(root: Path) -> str:
        (root / name).write_text(text)
        return str(root / name)

    return apply


def _fifo(name: str) -> Callable[[Path], str]:
    def apply(root: Path) -> str:
        (root / name).unlink()
        os.mkfifo(root / name)
        return str(root / name)

    return apply


def _game_lines(kind: str, edit: Callable[[list[dict]], list]) -> Callable[[Path], str]:
    def apply(root: Path) -> str:
        path = root / "data" / "round-01" / f"{kind}.jsonl"
        games = [json.loads(line) for line in path.read_text().splitlines()]
        path.write_text("".join(json.dumps(g) + "\n" for g in edit(games)))
        return f"{path}:"

    return apply


def _the_next_round_from_a_damaged_network(root: Path) -> str:
    (root / "out" / "round-01" / "summary.json").unlink()
    network = root / "out" / "round-00" / "network.npz"
    network.write_bytes(network.read_bytes()[:100])
    return str(network)


SUMMARY = "round-01/summary.json"
EDITS = {
    "config not JSON": _text("out/config.json", '{"rounds": '),
    "config a list": _text("out/config.json", "[1, 2]"),
    "config a FIFO": _fifo("out/config.json"),
    "config of a newer release": _json_edit("config.json", lambda c: c | {"run_folder_version": 9}),
    "config of other settings": _json_edit("config.json", lambda c: c | {"sims": 64}),
    "summary not JSON": _text(f"out/{SUMMARY}", '{"round": 1, "ga'),
    "summary a FIFO": _fifo(f"out/{SUMMARY}"),
    "summary of another round": _json_edit(SUMMARY, lambda s: s | {"round": 5}),
    "summary without games": _json_edit(SUMMARY, lambda s: s | {"games": None}),
    "summary's CPU text": _json_edit(SUMMARY, lambda s: s | {"fit": {"fit_cpu_seconds": "1"}}),
    "summary's levels": _json_edit(SUMMARY, lambda s: s | {"net": {"levels": {"2": {}}}}),
    "summary's win rate": _json_edit(
        SUMMARY,
        lambda s: s | {"search": {"levels": {k: {"games": 1, "win_rate": 7} for k in "14"}}},
    ),
    "start not JSON": _text("out/start.json", "nothing"),
    "start without net": _json_edit("start.json", lambda s: {"search": s["search"]}),
    "network cut short": _the_next_round_from_a_damaged_network,
    "games: index of no deal": _game_lines("teacher", lambda g: [g[0] | {"index": 5}, *g[1:]]),
    "games: level not played": _game_lines("student", lambda g: [g[0] | {"level": 3}, *g[1:]]),
    "games: a game twice": _game_lines("teacher", lambda g: [g[0], *g]),
    "games: won text": _game_lines("teacher", lambda g: [g[0] | {"won": "no"}, *g[1:]]),
    "games: seconds negative": _game_lines("student", lambda g: [g[0] | {"seconds": -1}, *g[1:]]),
    "games: not an object": _game_lines("teacher", lambda g: [[1], *g[1:]]),
    "games: a FIFO": _fifo("data/round-00/student.jsonl"),
}


@pytest.mark.parametrize("case", EDITS)
def test_a_bad_run_file_is_refused_in_one_line_naming_it(copy, capsys, case):
    names = EDITS[case](copy)
    _refused(copy, capsys, names)


def test_a_damaged_decision_cache_is_rebuilt_and_the_run_goes_on(finished, copy):
    """R2: the cache was written in place, and one cut short stopped every later resume."""
    (copy / "out" / "round-01" / "summary.json").unlink()  # round 1 is fitted again
    caches = sorted((copy / "data").rglob("*.decisions.npz"))
    assert len(caches) == 4
    caches[0].write_bytes(caches[0].read_bytes()[:200])  # cut short
    caches[1].write_bytes(b"")
    with np.load(caches[2]) as data:  # whole, but its pointers point past its entries
        arrays = dict(data)
    arrays["obs_ptr"] = arrays["obs_ptr"] + 1
    np.savez(caches[2], **arrays)
    assert _distill(copy) == 0
    for cache in caches[:3]:
        with np.load(cache) as data:
            assert dataset._consistent(
                dataset.Decisions(**{k: data[k] for k in data.files if k != "stamp"})
            )
    mine = load_policy_network(copy / "out" / "round-01" / "network.npz")
    theirs = load_policy_network(finished / "out" / "round-01" / "network.npz")
    for (w1, b1), (w2, b2) in zip(mine.layers, theirs.layers, strict=True):
        assert np.array_equal(w1, w2) and np.array_equal(b1, b2)
    assert not list((copy / "data").rglob(".*.tmp*")), "no temporary file left behind"


@pytest.mark.parametrize("folder", ["out", "data"])
def test_a_second_session_on_the_runs_folders_is_refused(copy, capsys, folder):
    """R3: two sessions on one run stored every game twice."""
    with RunFolderLock() as other:
        other.take(copy / folder)
        err = _refused(copy, capsys, str(copy / folder))
    assert "in use by another friday command" in err


def test_an_untouched_run_and_a_config_of_the_release_before_continue(finished, copy):
    config = json.loads((copy / "out" / "config.json").read_text())
    assert config.pop("run_folder_version") == 1
    (copy / "out" / "config.json").write_text(json.dumps(config))
    before = _tree(copy / "data")
    assert _distill(copy) == 0
    assert _tree(copy / "data") == before  # nothing played again


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"tau": "warm"}, "tau must be float, got 'warm'"),
        ({"rounds": 2.5}, "rounds must be int, got 2.5"),
        ({"levels": 1}, "levels must be tuple[int, ...], got 1"),
        ({"hidden": ["8"]}, "hidden's items must be int, got '8'"),
        ({"seed": True}, "seed must be int, got True"),
        ({"value_scale": "big"}, "value_scale must be tuple[float, ...]"),
    ],
)
def test_a_study_setting_of_the_wrong_type_is_refused_in_one_line(tmp_path, capsys, change, words):
    """A study file's values are checked against their settings' types (a text ``tau`` was a
    traceback)."""
    (tmp_path / "study.json").write_text(json.dumps(TINY | change))
    assert _distill(tmp_path) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and words in err and "study.json" in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["study.json"]
