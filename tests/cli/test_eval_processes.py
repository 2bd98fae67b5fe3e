"""``friday eval`` among other processes: a second session on the same ``--out`` is refused
while the first runs, and a killed session leaves no worker processes behind."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
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


@pytest.mark.skipif(not LINUX_PROC, reason="finds the workers through Linux /proc")
def test_killing_friday_eval_ends_its_workers(tmp_path: Path):
    out = tmp_path / "run"
    process = _start(out, workers=2)
    workers: list[int] = []
    try:
        _wait_for_a_game(out, process)
        children = Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text()
        workers = [int(pid) for pid in children.split()]
        assert len(workers) >= 2, "no worker processes found"
        process.send_signal(signal.SIGKILL)
        process.wait()
        deadline = time.monotonic() + 5
        while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [pid for pid in workers if _alive(pid)], "workers outlived friday eval"
    finally:
        process.kill()
        for pid in workers:  # never leave a worker behind, whatever the test found
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


#: A process that starts a grandchild watching it with the thread alone (no PDEATHSIG, as on
#: macOS or from a thread other than the main one), prints the grandchild's pid, and sleeps.
_ORPHAN = """
import os, sys, time
from friday_agents.harness.parent_watch import exit_with_parent
parent = os.getpid()
child = os.fork()
if child == 0:
    exit_with_parent(parent, parent_on_main_thread=False)
    time.sleep(60)
    os._exit(0)
print(child, flush=True)
time.sleep(60)
"""


@pytest.mark.skipif(not LINUX_PROC or not hasattr(os, "fork"), reason="needs fork and /proc")
def test_the_watching_thread_alone_ends_a_worker_whose_parent_was_killed():
    parent = subprocess.Popen(
        [sys.executable, "-c", _ORPHAN], cwd=REPO, stdout=subprocess.PIPE, text=True
    )
    assert parent.stdout is not None
    worker = int(parent.stdout.readline())
    try:
        assert _alive(worker)
        parent.kill()
        parent.wait()
        deadline = time.monotonic() + 5
        while _alive(worker) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _alive(worker)
    finally:
        parent.kill()
        if _alive(worker):
            os.kill(worker, signal.SIGKILL)
