"""Ctrl-C under ``torchrun --nproc_per_node 2 friday rl``: the terminal sends SIGINT to
torchrun's process group; torchrun starts each worker in a session of its own and passes the
signal on to them. Every process stops after the same update, rank 0 saves the one
checkpoint of the run, and the run resumes from it with as many processes. Signals that come
after the first (torchrun may repeat one, or send SIGTERM) do not stop a worker before the
save: the second case sends each worker a SIGINT and a SIGTERM more."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from friday_cli import REPO  # noqa: E402

TINY = (
    "--level", "1", "--num-envs", "4", "--num-steps", "16", "--hidden", "8,8",
    "--minibatches", "2", "--epochs", "2", "--eval-deals", "2", "--eval-every", "0",
    "--checkpoint-every", "1000", "--no-progress",
)  # fmt: skip


def torchrun_command(out: Path, *flags: str) -> tuple[list[str], dict[str, str]]:
    paths = [str(REPO), str(REPO / "agents"), os.environ.get("PYTHONPATH", "")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in paths if p)}
    env["OMP_NUM_THREADS"] = "1"
    command = [sys.executable, "-m", "torch.distributed.run", "--standalone"]
    command += ["--nproc_per_node", "2", "-m", "friday_agents.cli", "rl", *flags]
    return [*command, "--out", str(out)], env


def curve_rows(out: Path) -> list[dict]:
    path = out / "curve.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.endswith("}")]


def workers_of(pid: int) -> list[int]:
    """The processes torchrun ``pid`` started (its children)."""
    tasks = Path(f"/proc/{pid}/task")
    return [int(c) for task in tasks.iterdir() for c in (task / "children").read_text().split()]


@pytest.mark.slow
@pytest.mark.parametrize("more_signals", [False, True], ids=["ctrl-c", "ctrl-c-then-more"])
def test_ctrl_c_under_torchrun_saves_one_resumable_checkpoint(tmp_path, more_signals):
    out = tmp_path / "run"
    command, env = torchrun_command(out, *TINY, "--frames", str(10**8))
    run = subprocess.Popen(
        command, env=env, start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 180
        # a condition, polled: the run has trained (the signal never races its start)
        while len(curve_rows(out)) < 3 and time.monotonic() < deadline and run.poll() is None:
            time.sleep(0.2)
        assert len(curve_rows(out)) >= 3, "the run did not start training"
        workers = workers_of(run.pid)
        assert len(workers) == 2
        os.killpg(run.pid, signal.SIGINT)  # what Ctrl-C in a terminal does
        for worker in workers if more_signals else []:
            for repeated in (signal.SIGINT, signal.SIGTERM):
                os.kill(worker, repeated)
        _, stderr = run.communicate(timeout=180)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
    assert (out / "checkpoint.pt").exists(), stderr.decode()[-3000:]
    assert b"interrupted after update" in stderr
    state = torch.load(out / "checkpoint.pt", weights_only=True)
    assert state["world"] == 2 and len(state["ranks"]) == 1
    saved = state["updates"]
    assert saved >= 2 and [row["updates"] for row in curve_rows(out)] == list(range(saved + 1))
    assert sorted(p.name for p in out.iterdir()) == [
        "checkpoint.pt", "config.json", "curve.jsonl", "policy.npz",
    ]  # fmt: skip
    frames = (saved + 1) * 2 * 64
    command, env = torchrun_command(out, "--resume", "--no-progress", "--frames", str(frames))
    resumed = subprocess.run(command, env=env, capture_output=True, text=True, timeout=240)
    assert resumed.returncode == 0, resumed.stderr[-20000:]
    rows = curve_rows(out)
    assert [row["updates"] for row in rows] == list(range(saved + 2))
    assert rows[-1]["frames"] == frames and rows[-1]["weights_spread"] == 0.0
