"""``--pause PID`` of the trainer measurements (``benchmarks/rl_vs_sb3.py``'s `paused`): the
process and every process below it are stopped while the block runs (a script's workers
would otherwise keep the cores busy), and all are continued after it, on an error too."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest
from bench_scripts import REPO, _load

if not Path("/proc/self/stat").exists():
    pytest.skip("reads process states from /proc", allow_module_level=True)

rl_vs_sb3 = _load("rl_vs_sb3", REPO / "benchmarks" / "rl_vs_sb3.py")


def state(pid: int) -> str:
    text = Path(f"/proc/{pid}/stat").read_text()
    return text[text.rindex(")") + 2]


def settled(pids: list[int], condition) -> bool:  # type: ignore[no-untyped-def]
    """Whether the processes' states meet ``condition`` within a few seconds (a signal is
    delivered when the kernel next schedules its process, not at once)."""
    deadline = time.monotonic() + 10
    while not condition([state(pid) for pid in pids]):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def test_a_paused_process_is_stopped_with_its_children_and_continued():
    # three generations: a shell whose child shell has a child of its own
    parent = subprocess.Popen(["bash", "-c", "bash -c 'sleep 60 & wait' & wait"])
    try:
        deadline = time.monotonic() + 30
        while len(rl_vs_sb3.descendants(parent.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        family = [parent.pid, *rl_vs_sb3.descendants(parent.pid)]
        assert len(family) == 3
        with pytest.raises(RuntimeError), rl_vs_sb3.paused([parent.pid]):
            assert settled(family, lambda states: states == ["T", "T", "T"])
            raise RuntimeError("the measurement failed")
        assert settled(family, lambda states: "T" not in states)
    finally:
        for pid in [parent.pid, *rl_vs_sb3.descendants(parent.pid)][::-1]:
            subprocess.run(["kill", "-9", str(pid)], check=False)
        parent.wait()
