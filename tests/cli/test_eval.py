"""``friday eval``: end to end on a tiny budget, bad input, determinism, interruption and resume."""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from friday_cli import friday

from friday_agents.cli import main
from friday_agents.evaluation.report import beats_by
from friday_agents.evaluation.runner import EvalConfig
from friday_agents.evaluation.workflow import (
    command_line,
    parse_games,
    parse_levels,
)
from friday_agents.harness.errors import BadInputError
from friday_agents.players.search.guided import BEFORE_LEAF_STUDY
from friday_env import GameRecord, replay

REPO = Path(__file__).resolve().parents[2]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def run_eval(out: Path, *options: str) -> int:
    return main(["eval", "--out", str(out), "--no-progress", *options])


def rows_of(out: Path) -> list[dict]:
    """Per-game rows without timings, in a fixed order."""
    rows = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    for row in rows:
        row.pop("seconds")
    return sorted(rows, key=lambda r: (r["agent"], r["level"], r["index"]))


def test_eval_end_to_end_writes_json_csv_png_and_records(tmp_path, capsys):
    out = tmp_path / "run"
    status = run_eval(
        out, "--agents", "random,heuristic,search", "--levels", "1,4", "--games", "2",
        "--search-sims", "2", "--workers", "1", "--save-games",
    )  # fmt: skip
    assert status == 0
    results = json.loads((out / "results.json").read_text())
    assert results["complete"] and results["games_played"] == 12
    cells = {(s["agent"], s["level"]): s for s in results["summary"]}
    assert set(cells) == {(a, lv) for a in ("random", "heuristic", "search") for lv in (1, 4)}
    for cell in cells.values():
        assert cell["games"] == 2
        assert 0.0 <= cell["win_rate_ci"][0] <= cell["win_rate"] <= cell["win_rate_ci"][1] <= 1
        assert cell["mean_score_ci"][0] <= cell["mean_score"] <= cell["mean_score_ci"][1]
        assert cell["mean_actions"] > 0 and cell["games_per_second"] > 0
    assert {(c["baseline"], c["agent"]) for c in results["comparisons"]} == {
        ("random", "heuristic"),
        ("heuristic", "search"),
    }
    with open(out / "results.csv") as handle:
        table = list(csv.DictReader(handle))
    assert len(table) == 6 and float(table[0]["win_rate_high"]) >= 0
    for picture in ("winrate.png", "scores.png"):
        assert (out / picture).read_bytes().startswith(PNG_MAGIC)
    assert not list(out.glob("*.md")), "friday eval writes results files, never Markdown"
    printed = capsys.readouterr().out
    assert "win rate [95% CI]" in printed and "heuristic" in printed
    for row in rows_of(out):
        game = replay(GameRecord.from_json(json.dumps(row["record"])))
        assert (game.won, game.score()) == (row["won"], row["score"])
        assert row["seed"] == 10_000_000 + row["level"] * 1_000_000 + row["index"]


def test_every_agent_plays_the_same_deals(tmp_path):
    out = tmp_path / "run"
    assert run_eval(out, "--agents", "random,heuristic", "--games", "3", "--workers", "1") == 0
    seeds = {}
    for row in rows_of(out):
        seeds.setdefault(row["agent"], set()).add(row["seed"])
    assert seeds["random"] == seeds["heuristic"] and len(seeds["random"]) == 12


def test_results_do_not_depend_on_workers(tmp_path):
    options = ("--agents", "random,heuristic", "--levels", "1-2", "--games", "6")
    assert run_eval(tmp_path / "one", *options, "--workers", "1") == 0
    assert run_eval(tmp_path / "two", *options, "--workers", "2") == 0
    assert rows_of(tmp_path / "one") == rows_of(tmp_path / "two")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--agents", "random,alphazero"], "unknown agent 'alphazero'"),
        (["--agents", "search:depth=2"], "takes no option 'depth'"),
        (["--levels", "0-2"], "unknown level 0"),
        (["--levels", "5"], "unknown level 5"),
        (["--levels", "one"], "bad level"),
        (["--games", "0"], "must be positive"),
        (["--games", "5,ppo=3"], "not being evaluated"),
        (["--search-sims", "0"], "--search-sims must be positive"),
        (["--workers", "0"], "--workers must be at least 1"),
    ],
)
def test_bad_arguments_exit_2_with_a_clear_message(tmp_path, capsys, options, message):
    assert run_eval(tmp_path / "run", *options) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "run" / "games.jsonl").exists()


def test_unknown_option_exits_2(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["eval", "--gmaes", "3"])
    assert stop.value.code == 2
    assert "unrecognized arguments: --gmaes" in capsys.readouterr().err


def test_out_dir_is_never_mixed_and_resume_needs_a_run(tmp_path, capsys):
    out = tmp_path / "run"
    assert run_eval(out, "--agents", "random", "--games", "1", "--workers", "1") == 0
    assert run_eval(out, "--agents", "random", "--games", "1") == 2
    assert "already holds an evaluation" in capsys.readouterr().err
    assert run_eval(tmp_path / "empty", "--resume") == 2
    assert "nothing to resume" in capsys.readouterr().err
    assert run_eval(out, "--resume", "--games", "5") == 2
    assert "--resume continues the stored run" in capsys.readouterr().err


def test_parsers():
    assert parse_levels("1-4") == (1, 2, 3, 4)
    assert parse_levels("3,1") == (1, 3)
    assert parse_levels("2-3,1") == (1, 2, 3)
    with pytest.raises(BadInputError, match="empty level range"):
        parse_levels("3-2")
    agents = ("random", "heuristic", "search:sims=8")
    assert parse_games("10,search=2", agents) == {
        "random": 10,
        "heuristic": 10,
        "search:sims=8": 2,
    }
    with pytest.raises(BadInputError, match="no count for agent 'random'"):
        parse_games("search=2", agents)
    assert parse_games("7,search=2", ("random",), strict=False) == {"random": 7}


def test_command_line_reproduces_the_config():
    config = EvalConfig(
        agents=("random", "heuristic", "search"),
        levels=(1, 2, 3, 4),
        games={"random": 1000, "heuristic": 1000, "search": 200},
        search_sims=32,
    )
    assert command_line(config, Path("results/x")) == (
        "friday eval --agents random,heuristic,search --levels 1-4 "
        "--games 1000,search=200 --search-sims 32 --out results/x"
    )


def test_command_line_counts_games_by_agent_name_once():
    """``--games`` counts go by agent name: two specs of one name share one count, written
    once; specs of one name with different counts have no command, and say so."""
    agents = ("random", "oracle", "oracle:prior=guided-prior", "guided")
    games = {"random": 1000, "oracle": 200, "oracle:prior=guided-prior": 200, "guided": 1000}
    config = EvalConfig(agents=agents, levels=(1,), games=games, search_sims=32)
    line = command_line(config, Path("r"))
    assert "--games 1000,oracle=200 " in line
    assert parse_games("1000,oracle=200", agents) == games
    uneven = EvalConfig(agents=agents, levels=(1,), games=games | {"oracle": 100}, search_sims=32)
    with pytest.raises(ValueError, match="agents named 'oracle' play different game counts"):
        command_line(uneven, Path("r"))


def test_resume_after_a_cut_short_file_gives_the_uninterrupted_results(tmp_path):
    options = ("--agents", "random,heuristic", "--levels", "1,3", "--games", "5", "--workers", "1")
    assert run_eval(tmp_path / "full", *options) == 0
    partial = tmp_path / "partial"
    partial.mkdir()
    (partial / "run.json").write_text((tmp_path / "full" / "run.json").read_text())
    lines = (tmp_path / "full" / "games.jsonl").read_text().splitlines()
    # seven finished games, then a line cut short by a kill in mid-write
    (partial / "games.jsonl").write_text("\n".join(lines[:7]) + "\n" + lines[7][:25])
    assert run_eval(partial, "--resume", "--workers", "1") == 0
    assert rows_of(partial) == rows_of(tmp_path / "full")
    assert json.loads((partial / "results.json").read_text())["complete"]


@pytest.mark.parametrize("flag", ["--readme", "--update-readme"])
def test_the_readme_flags_are_gone_with_one_line_naming_the_renderer(tmp_path, flag):
    """``friday eval`` writes no Markdown: the old flag stops the run before it plays, on one
    line that names the command rendering the documentation from the results."""
    readme = tmp_path / "README.md"
    readme.write_text("<!-- section:results -->\nold\n<!-- /section:results -->\n")
    out = tmp_path / "run"
    done = friday(
        "eval", "--agents", "random", "--levels", "1", "--games", "1", "--out", str(out),
        flag, str(readme),
    )  # fmt: skip
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"friday eval: error: {flag} is gone")
    assert "python tools/docs_sections.py" in line
    assert not out.exists()
    assert "old" in readme.read_text()


# ------------------------------------------------- the README's results

PUBLISHED = REPO / "experiments" / "results" / "readme_results.json"


def test_the_set_up_run_says_it_is_a_small_sample_and_where_the_full_table_is(
    tmp_path, monkeypatch, capsys
):
    """``friday eval`` with every default (the README's first command) is a small sample:
    its output says so, names the page of the full table and the command that made it."""
    import friday_agents.evaluation.workflow as evaluate

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(evaluate, "DEFAULT_AGENTS", "random")  # the defaults, made fast
    monkeypatch.setattr(evaluate, "DEFAULT_LEVELS", "1")
    monkeypatch.setattr(evaluate, "DEFAULT_GAMES", "2")
    assert main(["eval", "--no-progress", "--workers", "1"]) == 0
    shown = " ".join(capsys.readouterr().out.split())
    assert "small sample" in shown and "docs/results.md" in shown
    published = json.loads(PUBLISHED.read_text())["command"]
    # guided spelled out as it played then (its defaults changed since; see test_readme.py)
    assert published.replace(",guided,", f",{BEFORE_LEAF_STUDY},") in shown
    assert main(["eval", "--no-progress", "--workers", "1", "--games", "3"]) == 0
    assert "small sample" not in capsys.readouterr().out  # a run of the user's own choosing


def test_published_run_shows_each_agent_beating_the_one_before():
    """Heuristic beats Random on every level and Search beats Heuristic on levels 1 and 4,
    each by 95% intervals that do not overlap (win rate, else mean score)."""
    results = json.loads(PUBLISHED.read_text())
    cells = {(s["agent"], s["level"]): s for s in results["summary"]}
    searching = ("search", "guided", "oracle")  # the slow agents play 200 deals per level
    fast = [c for c in cells.values() if c["agent"].split(":")[0] not in searching]
    assert {c["games"] for c in fast} == {1000}
    for level in (1, 2, 3, 4):
        assert beats_by(cells[("random", level)], cells[("heuristic", level)])
    for level in (1, 4):
        assert beats_by(cells[("heuristic", level)], cells[("search", level)])


# ------------------------------------------------- real interruptions


#: Seconds a real interruption may take on the wall clock: generous, for a machine at a load
#: of 10 (each waits on what the run wrote, never on a fixed sleep).
WALL_LIMIT = 600


def _start(out: Path, games: int) -> subprocess.Popen:
    command = [
        sys.executable, "-m", "friday_agents.cli", "eval", "--agents", "heuristic", "--levels", "1",
        "--games", str(games), "--workers", "2", "--out", str(out), "--no-progress",
    ]  # fmt: skip
    return subprocess.Popen(
        command,
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # A shell's background job ignores SIGINT, and a child inherits that: give the run
        # the default handling a user's terminal gives it, wherever the suite is started.
        preexec_fn=_default_sigint,
    )


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _wait_for_games(out: Path, count: int, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + WALL_LIMIT
    path = out / "games.jsonl"
    while time.monotonic() < deadline:
        if path.exists() and path.read_text().count("\n") >= count:
            return
        assert process.poll() is None, "the evaluation ended before it could be interrupted"
        time.sleep(0.05)
    pytest.fail("the evaluation made no progress")


def _finish_and_check(out: Path, games: int) -> None:
    finished = rows_of(out)
    assert run_eval(out, "--resume", "--workers", "2") == 0
    rows = rows_of(out)
    assert [r["index"] for r in rows] == list(range(games))
    assert all(row in rows for row in finished)  # earlier games are kept as they were


def test_ctrl_c_keeps_finished_games_and_resume_completes(tmp_path):
    out, games = tmp_path / "run", 600
    process = _start(out, games)
    _wait_for_games(out, 40, process)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=WALL_LIMIT)
    assert process.returncode == 130, err
    assert "--resume" in err and "Traceback" not in err
    assert 40 <= len(rows_of(out)) < games
    partial = json.loads((out / "results.json").read_text())  # the results say they are partial
    assert not partial["complete"] and partial["games_played"] == len(rows_of(out))
    assert not list(out.glob("*.md"))
    _finish_and_check(out, games)


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
def test_killed_worker_keeps_finished_games_and_resume_completes(tmp_path):
    out, games = tmp_path / "run", 600
    process = _start(out, games)
    _wait_for_games(out, 40, process)
    children = Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text().split()
    assert children, "no worker processes found"
    os.kill(int(children[0]), signal.SIGKILL)
    _, err = process.communicate(timeout=WALL_LIMIT)
    assert process.returncode == 1, err
    assert "worker process died" in err and "--resume" in err
    _finish_and_check(out, games)
