"""``friday explore`` on tiny budgets: both cores explore alike, archived states replay exactly,
a found win replays to a win (and ``friday replay``/``view`` open it), an interrupted run
resumed ends with the files of an uninterrupted one, and bad input stops in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from friday_agents.cli import main
from friday_agents.harness.deals import training_seed
from friday_agents.learning.explore import run as explore_run
from friday_agents.learning.explore.archive import LIFE_WEIGHT, Settings, cell_key, explore
from friday_env import Game
from friday_env.record import state_digest

kernels = pytest.importorskip("friday_agents.players._kernels", reason="the kernels are not built")

#: A level-1 training deal (outside the study's) whose exploration wins within WIN_BUDGET.
WON_INDEX, WIN_BUDGET = 500_081, 1_400_000
SMALL = 20_000


@pytest.fixture
def compiled_core(monkeypatch):
    """The runs below test the archive and the run folder, not the cores' equivalence (the
    first test does): they walk on the compiled core even under ``FRIDAY_CORE=python``,
    where a deal's WIN_BUDGET walks would take minutes."""
    monkeypatch.setenv("FRIDAY_CORE", "c")


@pytest.mark.parametrize(("level", "index"), [(1, 500_000), (1, 500_001), (4, 500_000)])
def test_both_cores_explore_the_same_cells_paths_and_counts(level, index):
    settings = Settings(level=level, budget=SMALL)
    compiled = explore(settings, training_seed(level, index), core="c")
    python = explore(settings, training_seed(level, index), core="python")
    assert compiled.cells == python.cells
    assert (compiled.frames, compiled.walks, compiled.win) == (
        python.frames,
        python.walks,
        python.win,
    )
    assert compiled.frames >= SMALL and len(compiled.cells) > 10


def test_the_run_seed_changes_the_exploration():
    seed = training_seed(1, 500_000)
    one, other = (explore(Settings(level=1, budget=SMALL, seed=s), seed, core="c") for s in (0, 1))
    assert one.cells != other.cells


def test_archived_states_replay_exactly_from_the_deals_start():
    seed = training_seed(1, 500_002)
    found = explore(Settings(level=1, budget=SMALL), seed, core="python")
    assert len(found.games) == len(found.cells) > 10
    for cell, archived in zip(found.cells, found.games, strict=True):
        game = Game.new(1, seed, core="python")
        for action in cell.path:
            game.apply(action)
        assert state_digest(game) == state_digest(archived)
        assert cell_key(game) == cell.key
        assert game.score() + LIFE_WEIGHT * game.life == cell.value
    compiled = explore(Settings(level=1, budget=SMALL), seed, core="c")
    for cell in compiled.cells:  # the C archive's paths, replayed on the compiled core
        game = Game.new(1, seed, core="c")
        for action in cell.path:
            game.apply(action)
        assert (cell_key(game), game.score() + LIFE_WEIGHT * game.life) == (cell.key, cell.value)


@pytest.mark.usefixtures("compiled_core")
def test_a_found_win_replays_to_a_win_and_the_viewers_open_it(tmp_path, capsys):
    from friday_agents.cli.replay import load_record
    from friday_env import replay

    out = tmp_path / "run"
    argv = ["explore", "--level", "1", "--first-index", str(WON_INDEX), "--deals", "1"]
    assert main([*argv, "--budget", str(WIN_BUDGET), "--no-progress", "--out", str(out)]) == 0
    (game,) = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    replayed = Game.new(1, training_seed(1, WON_INDEX))
    for action in game["actions"]:
        replayed.apply(action)
    assert replayed.won and game["won"] and game["record"]["result"]["won"]
    record, _ = load_record(out / "games.jsonl")
    assert replay(record).won
    assert main(["view", str(out / "games.jsonl"), "--out", str(tmp_path / "v.html")]) == 0
    summary = json.loads((out / "results.json").read_text())["summary"]
    assert (summary["wins"], summary["deals"], summary["frames_of_each_win"]) == (
        1,
        1,
        [game["frames"]],
    )
    assert "1 of 1 deals won" in capsys.readouterr().out


def _explore(out: Path, *extra: str) -> int:
    argv = ["explore", "--level", "1", "--first-index", str(WON_INDEX - 1), "--deals", "3"]
    return main([*argv, "--budget", str(WIN_BUDGET), *extra, "--no-progress", "--out", str(out)])


def _without_timings(path: Path) -> dict:
    results = json.loads(path.read_text())
    results.pop("command")
    results["summary"] = {
        k: v for k, v in results["summary"].items() if not k.startswith(("cpu", "frames_per_cpu"))
    }
    results["deals"] = [{k: v for k, v in d.items() if k != "cpu_s"} for d in results["deals"]]
    return results


@pytest.mark.usefixtures("compiled_core")
def test_an_interrupted_run_resumed_ends_as_an_uninterrupted_one(tmp_path, monkeypatch, capsys):
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    assert _explore(whole) == 0
    play, calls = explore_run.play_deal, []

    def interrupted(job):
        calls.append(job)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return play(job)

    monkeypatch.setattr(explore_run, "play_deal", interrupted)
    assert _explore(cut) == 130
    assert "--resume --out" in capsys.readouterr().err
    assert len((cut / "deals.jsonl").read_text().splitlines()) == 1  # the finished deal kept
    with open(cut / "deals.jsonl", "a") as journal:
        journal.write('{"index": 500081, "won"')  # a line cut short by a kill
    monkeypatch.setattr(explore_run, "play_deal", play)
    assert main(["explore", "--resume", "--out", str(cut), "--no-progress"]) == 0
    assert (cut / "games.jsonl").read_bytes() == (whole / "games.jsonl").read_bytes()
    assert _without_timings(cut / "results.json") == _without_timings(whole / "results.json")
    assert json.loads((whole / "results.json").read_text())["summary"]["wins"] == 1


@pytest.mark.usefixtures("compiled_core")
def test_workers_do_not_change_the_results(tmp_path):
    argv = ["explore", "--level", "4", "--deals", "3", "--budget", str(SMALL), "--no-progress"]
    assert main([*argv, "--out", str(tmp_path / "one")]) == 0
    assert main([*argv, "--workers", "2", "--out", str(tmp_path / "two")]) == 0
    one, two = (_without_timings(tmp_path / name / "results.json") for name in ("one", "two"))
    assert one == two


BAD = {
    "unknown level": (["--level", "5"], "level must be 1, 2, 3 or 4, got 5"),
    "no level": (["--deals", "2"], "--level is required"),
    "bad budget": (["--level", "1", "--budget", "0"], "budget must be at least 1, got 0"),
    "no deals": (["--level", "1", "--deals", "0"], "deals must be at least 1, got 0"),
    "negative deal": (["--level", "1", "--first-index", "-1"], "leave the training range"),
    "validation deals": (
        ["--level", "1", "--first-index", "899999", "--deals", "2"],
        "from 900,000 on they are validation deals",
    ),
    "bad workers": (["--level", "1", "--workers", "0"], "--workers must be at least 1"),
    "out holds files": (["--level", "1", "--out", "full"], "already holds files"),
    "out is a file": (["--level", "1", "--out", "a-file"], "is a file, not a folder"),
    "resume without out": (["--resume"], "--resume needs --out"),
    "resume no run": (["--resume", "--out", "full"], "holds no friday explore run"),
    "resume new settings": (
        ["--resume", "--level", "1", "--out", "full"],
        "nothing may change, not --level",
    ),
}


@pytest.mark.parametrize("case", BAD)
def test_bad_input_is_refused_in_one_line_and_writes_nothing(case, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "notes.txt").write_text("someone's\n")
    (tmp_path / "a-file").write_text("a file\n")
    before = sorted(tmp_path.rglob("*"))
    args, text = BAD[case]
    assert main(["explore", *args, "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith("friday explore: error: ") and text in err, err
    assert sorted(tmp_path.rglob("*")) == before


def test_the_kernel_refuses_bad_arguments():
    game = Game.new(1, 3, core="c")
    with pytest.raises(TypeError, match="compiled game"):
        kernels.explore_deal(Game.new(1, 3, core="python"), 10, 50, 1, 2)
    with pytest.raises(ValueError, match="budget"):
        kernels.explore_deal(game, -1, 50, 1, 2)
    with pytest.raises(ValueError, match="walk"):
        kernels.explore_deal(game, 10, 0, 1, 2)
    with pytest.raises(OverflowError):
        kernels.explore_deal(game, 10, 50, -1, 2)
