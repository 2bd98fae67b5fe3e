"""``torchrun --nproc_per_node 2 friday rl``: data-parallel training on the CPU (gloo), on a
tiny budget. Each process steps its own vector env on its own deals; the gradients are
averaged, so the weights are the same in both after every update (the curve's
``weights_spread``, measured across the processes at each update, is 0); one checkpoint,
and the run resumes with as many processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from friday_cli import REPO  # noqa: E402

TINY = (
    "--level", "1", "--num-envs", "4", "--num-steps", "16", "--hidden", "8,8",
    "--minibatches", "2", "--epochs", "2", "--eval-deals", "2", "--eval-every", "2",
    "--checkpoint-every", "2", "--no-progress",
)  # fmt: skip


def torchrun(out: Path, *flags: str) -> subprocess.CompletedProcess:
    paths = [str(REPO), str(REPO / "agents"), os.environ.get("PYTHONPATH", "")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in paths if p)}
    env["OMP_NUM_THREADS"] = "1"
    command = [sys.executable, "-m", "torch.distributed.run", "--standalone"]
    command += ["--nproc_per_node", "2", "-m", "friday_agents.cli", "rl", *flags]
    return subprocess.run(
        [*command, "--out", str(out)], capture_output=True, text=True, env=env, timeout=240
    )


def rows(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "curve.jsonl").read_text().splitlines()]


def test_two_processes_keep_one_set_of_weights_and_resume(tmp_path):
    out = tmp_path / "run"
    done = torchrun(out, *TINY, "--frames", str(2 * 64 * 2))  # two updates of two processes
    assert done.returncode == 0, done.stderr[-3000:]
    updates = [row for row in rows(out) if row["phase"] == "ppo"]
    assert [row["frames"] for row in updates] == [128, 256]  # each update: 2 x 64 frames
    assert all(row["processes"] == 2 and row["weights_spread"] == 0.0 for row in updates)
    state = torch.load(out / "checkpoint.pt", weights_only=True)
    assert state["world"] == 2 and len(state["ranks"]) == 1
    # each process its own deals
    assert state["episodes"]["seeds"] != state["ranks"][0]["episodes"]["seeds"]
    assert sorted(p.name for p in out.iterdir()) == [
        "checkpoint.pt", "config.json", "curve.jsonl", "policy.npz",
    ]  # fmt: skip
    more = torchrun(out, "--resume", "--no-progress", "--frames", str(3 * 128))
    assert more.returncode == 0, more.stderr[-3000:]
    updates = [row for row in rows(out) if row["phase"] == "ppo"]
    assert [row["updates"] for row in updates] == [1, 2, 3]
    assert updates[-1]["weights_spread"] == 0.0
