"""``friday rl`` against SB3's MaskablePPO, side by side: training frames per CPU-second of each
with the same PPO on Friday-v0 level 1 (separate 64-64 tanh actor and critic over the flat
observation, 64 envs x 128 steps per rollout, 4 epochs of 4 minibatches, one torch thread),
the two taking turns within each round (A B, then B A), the ratio taken within each round.
Also where a ``friday rl`` frame's CPU time goes (env / acting / learning / bookkeeping, its
trainer's own accounts).

    python benchmarks/rl_vs_sb3.py --rounds 5 --out benchmarks/rl_vs_sb3.json

This is the one measurement of the ratio: ``friday bench``'s trainer row (n) and the README's
sentence read the committed ``benchmarks/rl_vs_sb3.json``. ``--pause PID ...`` stops other
processes of this machine (SIGSTOP) while it measures and always continues them (SIGCONT) at
the end, on an error too; the load average before and after is recorded either way.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

from bench_measure import (  # noqa: E402
    RL_PARTS,
    RL_SETTING,
    PPOTimer,
    RLTimer,
    sb3_rl_settings,
)

#: Where the committed run is (what ``friday bench`` and the README read).
RESULTS = REPO / "benchmarks" / "rl_vs_sb3.json"


@contextmanager
def paused(pids: list[int]) -> Iterator[None]:
    """``pids`` and every process they started (children, theirs, ...) stopped while the
    block runs, and continued after it whatever happens. A parent is stopped before its
    children (it starts no new one meanwhile) and continued after them."""
    stopped: list[int] = []
    try:
        for pid in pids:
            for member in [pid, *descendants(pid)]:
                if member not in stopped:
                    os.kill(member, signal.SIGSTOP)
                    stopped.append(member)
        yield
    finally:
        for pid in reversed(stopped):
            with suppress(ProcessLookupError):  # it ended meanwhile (killed by someone else)
                os.kill(pid, signal.SIGCONT)


def descendants(pid: int) -> list[int]:
    """The processes below ``pid`` (children first, then theirs), from /proc (none where
    there is no /proc)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:  # it ended while we read
            continue
        parent = int(text[text.rindex(")") + 2 :].split()[1])  # after the command's name
        children.setdefault(parent, []).append(int(stat.parent.name))
    found, queue = [], [pid]
    while queue:
        below = sorted(children.get(queue.pop(0), []))
        found += below
        queue += below
    return found


def add_run_options(parser: argparse.ArgumentParser) -> None:
    """The options every trainer measurement takes: what to pause, a note, where to write."""
    parser.add_argument(
        "--pause", type=int, nargs="*", default=[], metavar="PID",
        help="processes to stop while measuring (always continued at the end)",
    )  # fmt: skip
    parser.add_argument("--note", default="", help="what else ran on the machine")
    parser.add_argument("--out", type=Path, default=None, help="the JSON file to write")


def measured_while_paused(
    args: argparse.Namespace, measure: Callable[[], list[dict[str, Any]]]
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """``measure()``'s rows with ``args.pause`` stopped, and where and when they were taken
    (commit, machine, the load around them, what was paused, the note)."""
    load_before = os.getloadavg()
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    with paused(args.pause):
        rows = measure()
    context = {
        "when": started,
        "commit": commit(),
        "machine": machine(),
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "paused_processes": len(args.pause),  # each with the processes it started
        "note": args.note,
    }
    return rows, context


def spread(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def measure(rounds: int, updates: int, seed: int) -> list[dict[str, Any]]:
    """``rounds`` rounds of ``updates`` rollouts and updates of each trainer, taking turns."""
    import torch

    torch.set_num_threads(1)
    ours = RLTimer(RL_SETTING, seed=seed)
    theirs = PPOTimer("Friday-v0", sb3_rl_settings(RL_SETTING), seed=seed)
    out = []
    try:
        for number in range(rounds):
            if number % 2 == 0:
                friday, parts = ours.fps(updates)
                sb3, sb3_env = theirs.fps(updates)
            else:
                sb3, sb3_env = theirs.fps(updates)
                friday, parts = ours.fps(updates)
            friday, sb3 = round(friday, 1), round(sb3, 1)
            row = {
                "friday_rl_fps": friday,
                "sb3_fps": sb3,
                "ratio": friday / sb3,
                "friday_rl_cpu_us_per_frame": {k: round(v, 3) for k, v in parts.items()},
                "sb3_env_cpu_us_per_frame": round(sb3_env, 3),
            }
            print(f"round {number + 1}: {row['ratio']:.2f}x ({friday:.0f} / {sb3:.0f})")
            out.append(row)
    finally:
        ours.close()
        theirs.close()
    return out


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Medians and ranges over the rounds; the split as each part's median."""
    return {
        "ratio": spread([r["ratio"] for r in rows]),
        "friday_rl_fps": spread([r["friday_rl_fps"] for r in rows]),
        "sb3_fps": spread([r["sb3_fps"] for r in rows]),
        "friday_rl_cpu_us_per_frame": {
            part: round(statistics.median(r["friday_rl_cpu_us_per_frame"][part] for r in rows), 3)
            for part in RL_PARTS
        },
    }


def machine() -> dict[str, Any]:
    import sb3_contrib
    import stable_baselines3
    import torch

    return {
        "cores": os.cpu_count(),
        "processor": platform.processor() or platform.machine(),
        "python": platform.python_version(),
        "torch": torch.__version__,
        "stable_baselines3": stable_baselines3.__version__,
        "sb3_contrib": sb3_contrib.__version__,
    }


def commit() -> str:
    done = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=REPO
    )
    return done.stdout.strip() or "unknown"


def _command(args: argparse.Namespace) -> str:
    """The command that made the run (the paused processes' ids left out: this machine's)."""
    words = ["--rounds", str(args.rounds), "--updates", str(args.updates), "--seed", str(args.seed)]
    words += ["--note", args.note] if args.note else []
    words += ["--out", args.out.as_posix()] if args.out is not None else []
    return "python benchmarks/rl_vs_sb3.py " + shlex.join(words)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], allow_abbrev=False)
    parser.add_argument("--rounds", type=int, default=5, help="rounds of A B / B A (default 5)")
    parser.add_argument(
        "--updates", type=int, default=2, help="rollouts and updates of each per round"
    )
    parser.add_argument("--seed", type=int, default=0, help="both trainers' seed")
    add_run_options(parser)
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.updates < 1:
        parser.error("--rounds and --updates must be at least 1")
    rows, context = measured_while_paused(
        args, lambda: measure(args.rounds, args.updates, args.seed)
    )
    doc = {
        "what": "friday rl / SB3 MaskablePPO training frames per CPU-second, same PPO, "
        "taking turns within each round; friday rl's CPU us per frame by part",
        "command": _command(args),
        **context,
        "setting": {**RL_SETTING, "level": 1, "torch_threads": 1},
        "updates_per_round": args.updates,
        **summary(rows),
        "rounds": rows,
    }
    print(
        f"ratio {doc['ratio']['median']:.2f}x [{doc['ratio']['min']:.2f}-{doc['ratio']['max']:.2f}]"
    )
    if args.out is not None:
        args.out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
