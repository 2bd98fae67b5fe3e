"""End-to-end ``friday rl`` throughput on this machine: wall frames per second of the real
command, with 1 process and with N data-parallel processes (``torchrun``), and where each
update's wall time goes (env / acting / learning / communication), written to a result file
that names the machine (device, cores, CPU, processes).

    python benchmarks/rl_throughput.py --processes 1,2 --out benchmarks/rl_throughput_cpu.json
    python benchmarks/rl_throughput.py --device cuda --processes 1,16 \\
        --out benchmarks/rl_throughput_cuda.json

Each run trains from scratch on level 1 at the study's setting (64 envs x 128 steps per
process, 64-64 networks, 4 epochs of 4 minibatches) with no held-out evaluation between the
ends; the figure is the median over the updates after the first of (frames of one update of
every process) / (its wall seconds), read from the run's own curve (``part_wall_seconds``, the
trainer's timers). The ratio of N processes to 1 is taken within each round, the counts
taking turns (1 2, then 2 1), on one machine: ``--pause PID ...`` stops other work on it
(each process with its children, SIGSTOP) while it measures and continues it at the end
whatever happens; the JSON records the commit, the load before and after and how many
processes were paused.

    python benchmarks/rl_throughput.py --processes 1,2 --updates 30 --rounds 5 --ceiling \\
        --pause PID ... --out benchmarks/rl_throughput_cpu.json

``--ceiling`` adds, to every round, the largest count as that many independent one-process
runs started at once (no torchrun, nothing averaged): their summed frames/s over one
process's is the most the machine's cores give (shared caches and memory, the hypervisor),
the bound the data-parallel ratio is read against.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import shlex
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

from rl_vs_sb3 import add_run_options, measured_while_paused  # noqa: E402

SETTING = {
    "level": 1,
    "num_envs": 64,
    "num_steps": 128,
    "hidden": "64,64",
    "epochs": 4,
    "minibatches": 4,
    "eval_every": 0,
    "eval_deals": 10,
    "checkpoint_every": 1000,
}
PARTS = ("env", "acting", "learning", "communication")


def rl_command(processes: int, updates: int, device: str, out: Path, seed: int = 1) -> list[str]:
    """``friday rl`` at `SETTING` (under torchrun for more than one process)."""
    frames = updates * SETTING["num_envs"] * SETTING["num_steps"] * processes
    flags = [f"--{k.replace('_', '-')}={v}" for k, v in SETTING.items()]
    flags += [f"--frames={frames}", f"--device={device}", f"--seed={seed}"]
    flags += ["--no-progress", f"--out={out}"]
    if processes == 1:
        return [sys.executable, "-m", "friday_agents.cli", "rl", *flags]
    command = [sys.executable, "-m", "torch.distributed.run", "--standalone"]
    return [*command, f"--nproc_per_node={processes}", "-m", "friday_agents.cli", "rl", *flags]


def run_rl(processes: int, updates: int, device: str, out: Path) -> list[dict]:
    """``friday rl`` with ``processes`` processes; its curve's rows."""
    return run_at_once([rl_command(processes, updates, device, out)], [out])[0]


def run_at_once(commands: list[list[str]], outs: list[Path]) -> list[list[dict]]:
    """The commands started together and waited for; each run's curve rows."""
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    started = [
        subprocess.Popen(command, env=env, cwd=REPO, stdout=subprocess.DEVNULL)
        for command in commands
    ]
    codes = [process.wait() for process in started]
    for command, code in zip(commands, codes, strict=True):
        if code != 0:
            raise subprocess.CalledProcessError(code, command)
    return [
        [json.loads(line) for line in (out / "curve.jsonl").read_text().splitlines()]
        for out in outs
    ]


def independent_runs(processes: int, updates: int, device: str, scratch: Path) -> dict:
    """The machine's ceiling for ``processes`` processes: as many one-process runs at
    once, nothing shared between them (no torchrun, no averaging; seeds 1, 2, ...), their
    frames/s summed: what the cores give when the processes never wait for each other."""
    outs = [scratch / f"alone{k}" for k in range(processes)]
    commands = [rl_command(1, updates, device, out, k + 1) for k, out in enumerate(outs)]
    each = [measure(rows, 1)["frames_per_s"] for rows in run_at_once(commands, outs)]
    return {"processes": processes, "frames_per_s": round(sum(each), 1), "each": each}


def measure(rows: list[dict], processes: int) -> dict:
    """Median frames/s over the updates after the first (the last one, which ends with the
    held-out evaluation, excluded), and the median wall µs per frame of each part."""
    updates = [row for row in rows if row["phase"] == "ppo"]
    frames = SETTING["num_envs"] * SETTING["num_steps"] * processes
    steady = list(itertools.pairwise(updates[1:-1]))
    walls = [b["wall_seconds"] - a["wall_seconds"] for a, b in steady]
    split = {
        part: statistics.median(
            1e6 * (b["part_wall_seconds"][part] - a["part_wall_seconds"][part]) / frames
            for a, b in steady
        )
        for part in PARTS
    }
    return {
        "processes": processes,
        "frames_per_update": frames,
        "updates_timed": len(walls),
        "frames_per_s": round(frames / statistics.median(walls), 1),
        "wall_us_per_frame": {part: round(value, 2) for part, value in split.items()},
    }


def median_run(runs: list[dict]) -> dict:
    """One process count over the rounds: the median frames/s and the median of each part."""
    return {
        "processes": runs[0]["processes"],
        "frames_per_update": runs[0]["frames_per_update"],
        "updates_timed": runs[0]["updates_timed"],
        "frames_per_s": round(statistics.median(r["frames_per_s"] for r in runs), 1),
        "wall_us_per_frame": {
            part: round(statistics.median(r["wall_us_per_frame"][part] for r in runs), 2)
            for part in PARTS
        },
    }


def scaling_of(rounds: list[list[dict]]) -> dict:
    """Each count's frames/s over one process's in the same round: the median and the range
    over the rounds (empty without a one-process run)."""
    ratios: dict[str, list[float]] = {}
    for runs in rounds:
        runs = [r for r in runs if "ceiling" not in r]
        one = next((r for r in runs if r["processes"] == 1), None)
        for run in runs if one else []:
            ratios.setdefault(str(run["processes"]), []).append(
                run["frames_per_s"] / one["frames_per_s"]
            )
    return {
        "scaling": {n: round(statistics.median(r), 2) for n, r in ratios.items()},
        "scaling_range": {n: [round(min(r), 2), round(max(r), 2)] for n, r in ratios.items()},
    }


def measure_rounds(args: argparse.Namespace, counts: list[int]) -> list[list[dict]]:
    """Every process count once per round (the ratio is taken within a round), in turns:
    the given order in even rounds, the reverse in odd ones; with ``--ceiling``, the
    largest count's independent runs last in even rounds and first in odd ones (after each
    round's runs, as ``{"ceiling": ...}``)."""
    rounds = []
    with tempfile.TemporaryDirectory() as scratch:
        for number in range(args.rounds):
            runs: dict = {}
            order: list = [*counts, "ceiling"] if args.ceiling else list(counts)
            for n in order if number % 2 == 0 else order[::-1]:
                folder = Path(scratch) / f"r{number}p{n}"
                if n == "ceiling":
                    runs[n] = independent_runs(max(counts), args.updates, args.device, folder)
                else:
                    runs[n] = measure(run_rl(n, args.updates, args.device, folder), n)
                print(json.dumps({"round": number, "run": n, **runs[n]}), flush=True)
            kept = [runs[n] for n in counts]
            if args.ceiling:
                kept.append({"ceiling": runs["ceiling"]})
            rounds.append(kept)
    return rounds


def ceiling_of(rounds: list[list[dict]]) -> dict:
    """The independent runs' summed frames/s over one process's, and the largest count's
    frames/s over theirs (how much of the ceiling the data-parallel run reaches), each
    taken within a round: the median and the range over the rounds."""
    found = [(runs[0], runs[-2], runs[-1]["ceiling"]) for runs in rounds if "ceiling" in runs[-1]]
    if not found or found[0][0]["processes"] != 1:
        return {}
    over_one = [ceiling["frames_per_s"] / one["frames_per_s"] for one, _, ceiling in found]
    reached = [most["frames_per_s"] / ceiling["frames_per_s"] for _, most, ceiling in found]
    return {
        "ceiling": {
            "what": "independent one-process runs at once, their frames/s summed",
            "processes": found[0][2]["processes"],
            "frames_per_s": round(statistics.median(c["frames_per_s"] for _, _, c in found), 1),
            "scaling": round(statistics.median(over_one), 2),
            "scaling_range": [round(min(over_one), 2), round(max(over_one), 2)],
            "data_parallel_of_ceiling": round(statistics.median(reached), 3),
            "data_parallel_of_ceiling_range": [round(min(reached), 3), round(max(reached), 3)],
        }
    }


def _arguments(argv: list[str] | None) -> str:
    """The command's arguments, the paused processes' ids left out (this machine's)."""
    words, skipping = [], False
    for word in argv if argv is not None else sys.argv[1:]:
        if word == "--pause" or word.startswith("--pause="):
            skipping = word == "--pause"
            continue
        if skipping and word.isdigit():
            continue
        skipping = False
        words.append(word)
    return shlex.join(words)


def machine(device: str) -> dict:
    import torch

    info = {
        "device": device,
        "cores": os.cpu_count(),
        "cpu": platform.processor() or platform.machine(),
        "torch": torch.__version__,
    }
    try:
        model = next(
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        )
        info["cpu"] = model
    except (OSError, StopIteration):
        pass
    if device == "cuda":
        info["gpu"] = torch.cuda.get_device_name(0)
    return info


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        allow_abbrev=False, description=" ".join(__doc__.split("\n\n")[0].split())
    )
    parser.add_argument("--processes", default="1,2", help="process counts, e.g. 1,2")
    parser.add_argument("--updates", type=int, default=12, help="updates per run")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of every count (default 3)")
    parser.add_argument("--device", default="cpu", choices=("cpu", "cuda"))
    parser.add_argument(
        "--ceiling", action="store_true",
        help="each round also runs the largest count as independent one-process runs at "
        "once (no averaging): the machine's bound on the ratio",
    )  # fmt: skip
    add_run_options(parser)
    args = parser.parse_args(argv)
    if args.out is None:
        parser.error("--out is required: the result file (.json)")
    counts = [int(n) for n in args.processes.split(",")]
    rounds, context = measured_while_paused(args, lambda: measure_rounds(args, counts))
    result = {
        "what": "friday rl end to end: wall frames/s, and wall µs per frame of each part",
        "command": "python benchmarks/rl_throughput.py " + _arguments(argv),
        "machine": machine(args.device),
        "note": args.note,
        "when": context["when"],
        "commit": context["commit"],
        "load_average_before": context["load_average_before"],
        "load_average_after": context["load_average_after"],
        "paused_processes": context["paused_processes"],
        "setting": SETTING,
        "runs": [median_run([runs[i] for runs in rounds]) for i in range(len(counts))],
        "rounds": rounds,
        **scaling_of(rounds),
        **ceiling_of(rounds),
    }
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps({**result["scaling"], **result.get("ceiling", {})}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
