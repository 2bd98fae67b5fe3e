"""Checks of C calls run in a child Python: that a long one stops promptly on Ctrl-C (SIGINT),
and that one given a hostile argument neither crashes nor corrupts memory."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

#: Printed by the child just before the long call, so SIGINT is sent while C runs.
READY = "ready"


def assert_interrupted_promptly(code: str, *, delay: float = 0.5, within: float = 5.0) -> None:
    """Run ``code`` (whose last statement is the long call) in a child Python, send it SIGINT
    ``delay`` seconds after it says it is ready, and assert that it ends with a
    KeyboardInterrupt less than ``within`` seconds after the signal."""
    lines = code.rstrip().splitlines()
    script = "\n".join([*lines[:-1], f"print({READY!r}, flush=True)", lines[-1]])
    child = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == READY, child.stderr.read() if child.stderr else ""
        time.sleep(delay)
        child.send_signal(signal.SIGINT)
        sent = time.monotonic()
        _, stderr = child.communicate(timeout=within)
        stopped_after = time.monotonic() - sent
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert "KeyboardInterrupt" in stderr, stderr[-2000:]
    assert stopped_after < within, f"stopped {stopped_after:.1f} s after SIGINT"


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
