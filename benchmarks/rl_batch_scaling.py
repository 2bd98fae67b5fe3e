"""``friday rl``'s CPU cost per frame as the batch of envs grows: for each setting of envs per
process (64 to 8,192) the trainer at the study's networks (64-64 tanh actor and critic, level
1, 4 epochs of minibatches of 2,048 frames, one torch thread) is built, warmed up by one
update, and timed over ``--updates`` updates; each part of a frame (env / acting / learning /
bookkeeping) in CPU µs, from its trainer's own accounts. The settings take turns within each
round.

    python benchmarks/rl_batch_scaling.py --out benchmarks/rl_batch_scaling.json

A rollout of N envs is N x steps frames; the larger settings take fewer steps per rollout so
that an update stays within 8k-32k frames (`SETTINGS`). The minibatch keeps the default
setting's size (64 x 128 / 4 = 2,048 frames), so every setting takes as many optimizer steps
per frame: with a fixed count instead (``--minibatches 4``, the first version of this
measurement) a larger batch takes fewer, larger steps, and learned worse per frame
(experiments/large-batch). Speed only: the learning is that study's held-out curve.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

from bench_measure import RL_PARTS, RLTimer  # noqa: E402
from rl_vs_sb3 import add_run_options, measured_while_paused  # noqa: E402

#: (envs per process, steps per rollout): 8k to 32k frames an update.
SETTINGS = ((64, 128), (256, 64), (1024, 16), (4096, 8), (8192, 4))
#: Frames per minibatch: the default setting's (64 envs x 128 steps in 4 minibatches).
MINIBATCH_FRAMES = 2048


def minibatch_count(envs: int, steps: int, fixed: int | None) -> int:
    """``fixed`` if given, else as many minibatches as keep each at `MINIBATCH_FRAMES`."""
    return fixed if fixed is not None else envs * steps // MINIBATCH_FRAMES


def setting(envs: int, steps: int, minibatches: int) -> dict[str, Any]:
    return {
        "n_envs": envs,
        "n_steps": steps,
        "n_epochs": 4,
        "minibatches": minibatches,
        "net_arch": [64, 64],
    }


def measure(rounds: int, updates: int, fixed: int | None) -> list[dict[str, Any]]:
    """Each setting's CPU µs per frame by part, ``rounds`` times, the settings in turn."""
    import torch

    torch.set_num_threads(1)
    counts = {(n, s): minibatch_count(n, s, fixed) for n, s in SETTINGS}
    timers = {key: RLTimer(setting(*key, counts[key]), seed=0) for key in SETTINGS}
    parts: dict[tuple[int, int], list[dict[str, float]]] = {key: [] for key in timers}
    try:
        for number in range(rounds):
            for key in SETTINGS[number % len(SETTINGS) :] + SETTINGS[: number % len(SETTINGS)]:
                fps, split = timers[key].fps(updates)
                parts[key].append({"frames_per_cpu_s": fps, **split})
                print(f"round {number + 1}: {key[0]} envs x {key[1]} steps: {fps:,.0f} frames/s")
    finally:
        for timer in timers.values():
            timer.close()
    rows = []
    for (envs, steps), runs in parts.items():
        rows.append(
            {
                "num_envs": envs,
                "num_steps": steps,
                "frames_per_update": envs * steps,
                "minibatches": counts[(envs, steps)],
                "minibatch_frames": envs * steps // counts[(envs, steps)],
                "frames_per_cpu_s": round(statistics.median(r["frames_per_cpu_s"] for r in runs)),
                "cpu_us_per_frame": {
                    part: round(statistics.median(r[part] for r in runs), 3) for part in RL_PARTS
                },
                "rounds": runs,
            }
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], allow_abbrev=False)
    parser.add_argument("--rounds", type=int, default=3, help="rounds (default 3)")
    parser.add_argument("--updates", type=int, default=1, help="updates timed per setting")
    parser.add_argument(
        "--minibatches", type=int, default=None, metavar="N",
        help=f"N minibatches in every setting (default: each of {MINIBATCH_FRAMES} frames)",
    )  # fmt: skip
    add_run_options(parser)
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.updates < 1:
        parser.error("--rounds and --updates must be at least 1")
    if args.minibatches is not None and args.minibatches < 1:
        parser.error(f"--minibatches must be at least 1, not {args.minibatches}")
    rows, context = measured_while_paused(
        args, lambda: measure(args.rounds, args.updates, args.minibatches)
    )
    fixed = f" --minibatches {args.minibatches}" if args.minibatches is not None else ""
    doc = {
        "what": "friday rl's CPU us per frame by part as the envs per process grow (speed only)",
        "command": f"python benchmarks/rl_batch_scaling.py --rounds {args.rounds} "
        f"--updates {args.updates}{fixed}" + (f" --out {args.out.as_posix()}" if args.out else ""),
        **context,
        "settings": rows,
    }
    for row in rows:
        split = ", ".join(f"{k} {v:.2f}" for k, v in row["cpu_us_per_frame"].items())
        print(
            f"{row['num_envs']:>5} envs, {row['minibatches']:>2} minibatches: "
            f"{row['frames_per_cpu_s']:>7,} frames/s ({split} us)"
        )
    if args.out is not None:
        args.out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
