"""``friday eval`` among other processes: a second session on the same ``--out`` is refused
while the first runs."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from friday_cli import REPO, friday

LINUX_PROC = Path("/proc/self/task").exists()


def _start(out: Path, workers: int) -> subprocess.Popen:
    """A long evaluation (the heuristic on 20,000 deals) writing to ``out``; its output is
    not read (a pipe would stay open in workers that outlive it)."""
    command = [
        sys.executable, "-m", "friday_agents.cli", "eval", "--agents", "heuristic", "--levels",
        "1", "--games", "20000", "--workers", str(workers), "--out", str(out), "--no-progress",
    ]  # fmt: skip
    return subprocess.Popen(command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _wait_for_a_game(out: Path, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 120
    games = out / "games.jsonl"
    while not (games.exists() and games.read_text().count("\n") >= 2):
        assert process.poll() is None, "the evaluation ended early"
        assert time.monotonic() < deadline, "the evaluation made no progress"
        time.sleep(0.05)


def _alive(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie, dead but not yet reaped, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


def test_a_second_session_on_the_same_out_is_refused_while_the_first_runs(tmp_path: Path):
    out = tmp_path / "run"
    first = _start(out, workers=1)
    try:
        _wait_for_a_game(out, first)
        second = friday("eval", "--out", str(out), "--resume", "--no-progress", timeout=120)
        assert second.returncode == 2, second.stderr
        assert "Traceback" not in second.stderr
        assert len(second.stderr.strip().splitlines()) == 1, second.stderr
        assert "in use by another friday command" in second.stderr
        assert first.poll() is None  # the first session plays on
    finally:
        first.kill()
        first.wait()
