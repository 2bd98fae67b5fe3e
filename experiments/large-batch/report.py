"""The large-batch study's result (PLAN.md beside this file): the held-out level-1 curves of
the large-batch run and of the default setting's run at equal frames, each run's training
time per frame, and the plan's rule; writes ``results/summary.json`` and ``results/curve.png``:

    python experiments/large-batch/report.py
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from friday_agents.harness.paths import read_maybe_compressed

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
#: The large-batch runs (PLAN.md and its amendment 1), by their setting.
LARGE = {
    "1,024 x 16, 4 minibatches (run 1)": HERE / "runs" / "b1024-s1-c0.1-l1",
    "1,024 x 16, 8 minibatches (run 2)": HERE / "runs" / "b1024-mb8-s1-c0.1-l1",
}
DEFAULT_SEEDS = {seed: REPO / f"experiments/no-teacher/runs/s{seed}-c0.1-l1" for seed in (1, 2, 3)}
BUDGET = 25_000_000
PARTS = ("env", "acting", "learning", "communication")


def curve_rows(folder: Path) -> list[dict[str, Any]]:
    text = read_maybe_compressed(folder / "curve.jsonl")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def level1_points(rows: list[dict[str, Any]]) -> list[tuple[int, float]]:
    """(frames, held-out level-1 win rate) of each point at or before the budget."""
    points = []
    for row in rows:
        if "heldout_win_rate" not in row or row["frames"] > BUDGET:
            continue
        by_level = row.get("heldout_by_level")  # absent when level 1 alone is measured
        points.append((row["frames"], (by_level["1"] if by_level else row)["heldout_win_rate"]))
    return points


def last_three_mean(points: list[tuple[int, float]]) -> float:
    if len(points) < 3 or points[-1][0] < BUDGET - 81_920:
        raise SystemExit(f"a curve has not reached {BUDGET:,} frames yet")
    return sum(rate for _, rate in points[-3:]) / 3


def microseconds_per_frame(rows: list[dict[str, Any]]) -> dict[str, float]:
    """Training wall time per frame by part, from the last row at or before the budget (the
    curve's ``part_wall_seconds`` are the run's running totals)."""
    last = [row for row in rows if row["frames"] <= BUDGET and "part_wall_seconds" in row][-1]
    parts = last["part_wall_seconds"]
    return {part: round(1e6 * parts.get(part, 0.0) / last["frames"], 2) for part in PARTS}


def plot(
    large: dict[str, list[tuple[int, float]]], default: list[tuple[int, float]], png: Path
) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, ax = plt.subplots(figsize=(7, 4))
    for label, points in {"64 envs x 128 steps (default)": default, **large}.items():
        ax.plot([f / 1e6 for f, _ in points], [100 * r for _, r in points], label=label)
    ax.set_xlabel("frames (M)")
    ax.set_ylabel("held-out level-1 win rate (%, 200 validation deals)")
    ax.set_title("level 1, progress reward c = 0.1, 64-64, seed 1")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(png, dpi=110)


def large_summary(folder: Path, floor: float) -> dict[str, Any]:
    rows = curve_rows(folder)
    points = level1_points(rows)
    mean = last_three_mean(points)
    return {
        "run": folder.relative_to(REPO).as_posix(),
        "last_three_mean": mean,
        "as_well": mean >= floor,
        "curve": points,
        "us_per_frame": microseconds_per_frame(rows),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], allow_abbrev=False)
    parser.parse_args()
    seeds = {seed: level1_points(curve_rows(folder)) for seed, folder in DEFAULT_SEEDS.items()}
    seed_means = {seed: last_three_mean(points) for seed, points in seeds.items()}
    floor = min(seed_means.values())
    runs = {label: large_summary(folder, floor) for label, folder in LARGE.items()}
    summary = {
        "rule": "a large-batch run learns as well per frame if its last-three-point mean at "
        "<= 25 M is >= the lowest of the default setting's three seeds",
        "large_batch": runs,
        "default": {
            "runs": {s: f.relative_to(REPO).as_posix() for s, f in DEFAULT_SEEDS.items()},
            "last_three_mean": seed_means,
            "curve_seed1": seeds[1],
            "us_per_frame_seed1": microseconds_per_frame(curve_rows(DEFAULT_SEEDS[1])),
        },
    }
    out = HERE / "results"
    out.mkdir(exist_ok=True)
    (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    plot({label: run["curve"] for label, run in runs.items()}, seeds[1], out / "curve.png")
    print("default seeds " + " / ".join(f"{100 * m:.1f}" for m in seed_means.values()) + " %")
    for label, run in runs.items():
        print(f"{label}: {100 * run['last_three_mean']:.1f} %; as well: {run['as_well']}")


if __name__ == "__main__":
    main()
