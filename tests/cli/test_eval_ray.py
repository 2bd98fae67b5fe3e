"""``friday eval --backend ray`` on a local Ray with 2 CPUs: the same per-game results as the
process pool, and a killed run resumes to the uninterrupted results.

Needs Ray (``pip install -e '.[ray]'``); skips without it, except under ``CI=true``."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from optional import require_modules
from test_eval import rows_of, run_eval

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _ray():
    require_modules("ray", install="pip install -e '.[ray]'")


def test_ray_gives_the_process_pool_results(tmp_path):
    import ray

    options = ("--agents", "random,heuristic", "--levels", "1,3", "--games", "4", "--save-games")
    assert run_eval(tmp_path / "pool", *options, "--workers", "2") == 0
    assert run_eval(tmp_path / "ray", *options, "--backend", "ray", "--workers", "2") == 0
    assert not ray.is_initialized()  # the run shut down the Ray it started
    pool, on_ray = rows_of(tmp_path / "pool"), rows_of(tmp_path / "ray")
    assert len(pool) == 16 and on_ray == pool  # every row, records included


def _session_processes(session: int) -> list[int]:
    """Processes in the session ``session`` leads: the killed run's own Ray processes."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == session:  # field 6 of /proc/PID/stat: the session id
            found.append(int(stat.parent.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
def test_a_killed_ray_run_resumes_to_the_uninterrupted_results(tmp_path):
    out, games = tmp_path / "killed", "60"
    options = ("--agents", "search:sims=2", "--levels", "1,2", "--games", games)
    command = [
        sys.executable,
        "-m",
        "friday_agents.cli",
        "eval",
        "--backend",
        "ray",
        "--workers",
        "2",
    ]
    process = subprocess.Popen(
        [*command, *options, "--out", str(out), "--no-progress"],
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its Ray processes join its session: all of them are killed
    )
    try:
        deadline = time.monotonic() + 240
        path = out / "games.jsonl"
        while not (path.exists() and path.read_text().count("\n") >= 6):
            assert process.poll() is None, process.stderr.read() if process.stderr else ""
            assert time.monotonic() < deadline, "the Ray evaluation made no progress"
            time.sleep(0.1)
    finally:
        process.kill()  # SIGKILL: no cleanup, as when a machine goes down
        process.wait()
        for pid in _session_processes(process.pid):
            os.kill(pid, signal.SIGKILL)
    finished = rows_of(out)
    assert 6 <= len(finished) < 120
    assert run_eval(out, "--resume", "--backend", "ray", "--workers", "2") == 0
    assert run_eval(tmp_path / "pool", *options, "--workers", "2") == 0
    rows = rows_of(out)
    assert rows == rows_of(tmp_path / "pool")
    assert all(row in rows for row in finished)


def test_backend_options_are_checked(tmp_path, capsys, monkeypatch):
    assert run_eval(tmp_path / "a", "--address", "auto") == 2
    assert "--address is for --backend ray" in capsys.readouterr().err
    monkeypatch.setitem(sys.modules, "ray", None)  # as if Ray were not installed
    assert run_eval(tmp_path / "b", "--backend", "ray") == 2
    err = capsys.readouterr().err
    assert "--backend ray needs ray, which is not installed" in err
    assert "pip install 'friday-env[ray]'" in err
    assert not (tmp_path / "b").exists()


def test_imitation_collection_on_ray_gives_the_process_pool_games(tmp_path):
    from friday_agents.cli import main
    from friday_agents.learning.imitation.data import read_games

    collect = ["imitate", "collect", "--teacher", "heuristic", "--levels", "1,4", "--games", "3"]
    pool, on_ray = tmp_path / "pool.jsonl", tmp_path / "ray.jsonl"
    assert main([*collect, "--out", str(pool), "--workers", "2", "--no-progress"]) == 0
    ray_flags = ["--backend", "ray", "--workers", "2", "--no-progress"]
    assert main([*collect, "--out", str(on_ray), *ray_flags]) == 0

    def games(path):
        lines = [{k: v for k, v in g.items() if k != "seconds"} for g in read_games(path)]
        return sorted(lines, key=lambda g: (g["level"], g["index"]))

    assert len(games(pool)) == 6 and games(on_ray) == games(pool)
