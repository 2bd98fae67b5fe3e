"""Checks of C calls run in a child Python: that a long one stops promptly on Ctrl-C (SIGINT),
and that one given a hostile argument neither crashes nor corrupts memory."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable

#: Printed by the child just before the long call.
READY = "ready"
#: How long a check may take on the wall clock, whatever the machine's load (a safety net: the
#: timing itself is measured in the child's CPU seconds).
WALL_LIMIT = 600.0


def assert_interrupted_promptly(
    code: str, *, cpu_before: float = 0.3, cpu_after: float = 5.0
) -> None:
    """Run ``code`` (whose last statement is the long call) in a child Python; once it says
    it is ready and has spent ``cpu_before`` CPU seconds past that (so it is inside the call),
    send SIGINT, and assert that it ends with a KeyboardInterrupt after spending less than
    ``cpu_after`` CPU seconds more. CPU seconds, not wall seconds: at a load of 10 on two
    cores a child gets a fifth of a CPU, and a wall-clock wait either raced the child to the
    call or timed out its exit; the CPU it spends is the same at any load. (Where ``/proc``
    is missing, wall seconds stand in, ten times as generous.)"""
    lines = code.rstrip().splitlines()
    script = "\n".join([*lines[:-1], f"print({READY!r}, flush=True)", lines[-1]])
    child = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == READY, child.stderr.read() if child.stderr else ""
        spent = _cpu_after_signal(child.pid, cpu_before)
        _, stderr = child.communicate(timeout=WALL_LIMIT)
        if spent is None:  # no /proc: the wall seconds from the signal to the end
            spent = time.monotonic() - _signalled_at[child.pid]
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert "KeyboardInterrupt" in stderr, stderr[-2000:]
    limit = cpu_after if _HAS_PROC else 10 * cpu_after
    assert spent < limit, f"{spent:.1f} s more after SIGINT (at most {limit})"


_HAS_PROC = os.path.exists("/proc/self/stat")
_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
_signalled_at: dict[int, float] = {}


def _cpu_after_signal(pid: int, cpu_before: float) -> float | None:
    """Send SIGINT to ``pid`` once it has spent ``cpu_before`` CPU seconds; the CPU seconds
    it spends after that until it exits (None without ``/proc``, where it is signalled after
    ``cpu_before`` wall seconds). The child is not reaped: a zombie keeps its times."""
    if not _HAS_PROC:
        time.sleep(cpu_before)
        _signalled_at[pid] = time.monotonic()
        os.kill(pid, signal.SIGINT)
        return None
    started = _cpu_seconds(pid)
    _wait_until(lambda: _cpu_seconds(pid) - started >= cpu_before, pid, "the call to start")
    signalled = _cpu_seconds(pid)
    os.kill(pid, signal.SIGINT)
    _wait_until(lambda: _state(pid) == "Z", pid, "the child to stop", exiting=True)
    return _cpu_seconds(pid) - signalled


def _stat(pid: int) -> list[str]:
    """The fields of ``/proc/PID/stat`` after the command name (which may hold spaces)."""
    with open(f"/proc/{pid}/stat") as file:
        return file.read().rsplit(")", 1)[1].split()


def _state(pid: int) -> str:
    return _stat(pid)[0]


def _cpu_seconds(pid: int) -> float:
    fields = _stat(pid)
    return (int(fields[11]) + int(fields[12])) / _TICKS  # utime, stime: fields 14 and 15


def _wait_until(done: Callable[[], bool], pid: int, what: str, exiting: bool = False) -> None:
    deadline = time.monotonic() + WALL_LIMIT
    while not done():
        assert exiting or _state(pid) != "Z", f"the child ended while waiting for {what}"
        assert time.monotonic() < deadline, f"waited {WALL_LIMIT} s for {what}"
        time.sleep(0.01)


def run_with_memory_checks(code: str) -> str:
    """Run ``code`` in a child Python whose allocator checks every block (PYTHONMALLOC=debug:
    a write past a buffer or a read of freed memory aborts it) and return its output; a crash
    or a non-zero exit fails the calling test with the child's error output."""
    env = {**os.environ, "PYTHONMALLOC": "debug"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, f"exit {done.returncode}:\n{done.stderr[-3000:]}"
    return done.stdout
