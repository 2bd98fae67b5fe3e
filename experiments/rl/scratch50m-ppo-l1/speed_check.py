"""``friday rl``'s training frames per CPU-second at this run's setting, on two commits in turns.

    python experiments/rl/scratch50m-ppo-l1/speed_check.py e7e749e e66e0b9 --rounds 4

Each commit is checked out in a temporary git worktree and built in place; each round times
``--updates`` updates (after one untimed) of a trainer with this run's settings (level 1,
64-64 networks, 128 envs x 128 steps, 4 minibatches, 2 epochs, no evaluation) once per
commit, the commits taking turns, each in a fresh process with one BLAS/OpenMP thread and
one torch thread. It prints the rates and the machine's load average per round, as in
``speed-check.txt`` beside this file (the run's README reads it).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

#: Times a trainer at the run's setting; works on the layouts before and after the move of
#: the agents to agents/friday_agents (the run's own commit has agents/rl).
TIMER = """
import sys, tempfile, time, torch
torch.set_num_threads(1)
try:
    from friday_agents.learning.rl.config import RLConfig
    from friday_agents.learning.rl.trainer import Trainer
except ImportError:
    from agents.rl.config import RLConfig
    from agents.rl.trainer import Trainer
updates = int(sys.argv[1])
config = RLConfig(out=tempfile.mkdtemp() + "/run", frames=1 << 40, num_envs=128, num_steps=128,
                  epochs=2, minibatches=4, hidden="64,64", eval_every=0, seed=1)
trainer = Trainer(config)
trainer._update(trainer._rollout(), False)  # warm-up
start = time.process_time()
for _ in range(updates):
    trainer._update(trainer._rollout(), False)
print(128 * 128 * updates / (time.process_time() - start))
"""
SINGLE_THREADED = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def checkout(commit: str, parent: Path) -> Path:
    """A built worktree of ``commit`` under ``parent``."""
    folder = parent / commit
    quiet = {"check": True, "capture_output": True}
    subprocess.run(["git", "worktree", "add", "--detach", str(folder), commit], **quiet)
    subprocess.run(
        [sys.executable, "setup.py", "build_ext", "--inplace", "-q"], cwd=folder, **quiet
    )
    return folder


def rate(folder: Path, updates: int) -> float:
    paths = [str(folder), str(folder / "agents")]
    env = {**os.environ, **SINGLE_THREADED, "PYTHONPATH": os.pathsep.join(paths)}
    out = subprocess.run(
        [sys.executable, "-c", TIMER, str(updates)],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return float(out.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.split("\n\n")[0])
    parser.add_argument("commits", nargs="+")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--updates", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as parent:
        folders = {commit: checkout(commit, Path(parent)) for commit in args.commits}
        try:
            for r in range(args.rounds):
                print(f"round {r + 1}, load average {os.getloadavg()[0]:.2f}")
                for commit, folder in folders.items():
                    print(f"  {commit}: {rate(folder, args.updates):,.0f} frames/CPU-s", flush=True)
        finally:
            for folder in folders.values():
                subprocess.run(["git", "worktree", "remove", "--force", str(folder)], check=False)


if __name__ == "__main__":
    main()
