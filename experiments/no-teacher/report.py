"""The no-teacher study's runs in one table and one figure:
``python experiments/no-teacher/report.py`` reads every ``experiments/no-teacher/runs/*/``
(``friday rl``'s ``config.json`` and ``curve.jsonl``, or ``curve.jsonl.gz``) and writes
``results/summary.json``, ``results/curves.png`` and the Markdown table it prints (REPORT.md
quotes it).

Per run: its settings, frames and CPU-hours so far (the trainer's own count, held-out play
included), the first frames at which it won a held-out game, and the held-out win rate on the
200 validation deals of each level at its last curve point and at its best.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from friday_agents.harness.paths import read_maybe_compressed

HERE = Path(__file__).resolve().parent
RUNS = HERE / "runs"
RESULTS = HERE / "results"
LEVELS = ("1", "2", "3", "4")


def curve_rows(folder: Path) -> list[dict[str, Any]]:
    """The run's curve rows, from ``curve.jsonl`` or its compressed copy."""
    text = read_maybe_compressed(folder / "curve.jsonl")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def heldout_points(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows that measured the validation deals, each as frames and per-level win rates."""
    points = []
    for row in rows:
        by_level = row.get("heldout_by_level")
        if by_level:
            rates = {level: by_level[level]["heldout_win_rate"] for level in by_level}
            points.append({"frames": row["frames"], "win_rate": rates})
    return points


def run_summary(folder: Path) -> dict[str, Any]:
    config = json.loads((folder / "config.json").read_text())
    rows = curve_rows(folder)
    points = heldout_points(rows)
    first_win = next((p["frames"] for p in points if p["win_rate"]["1"] > 0), None)
    last = points[-1] if points else {"frames": 0, "win_rate": {}}
    best = max(points, key=lambda p: p["win_rate"]["1"], default=last)
    return {
        "run": folder.name,
        "level": config["level"],
        "seed": config["seed"],
        "reward": config["reward"],
        "progress_coef": config.get("progress_coef"),
        "hidden": config["hidden"],
        "frames_asked": config["frames"],
        "frames": rows[-1]["frames"],
        "cpu_hours": round(rows[-1]["cpu_seconds"] / 3600, 3),
        "first_heldout_win_frames": first_win,
        "last": last,
        "best_level1": best,
        "train_mean_fights_last": rows[-1].get("train_mean_fights"),
    }


def markdown(summaries: list[dict[str, Any]]) -> str:
    head = (
        "| run | frames (asked) | CPU-h | first held-out win | last: L1 / L2 / L3 / L4 | "
        "best L1 (at frames) |\n|---|---|---|---|---|---|\n"
    )
    lines = []
    for s in summaries:
        last = " / ".join(_percent(s["last"]["win_rate"].get(level)) for level in LEVELS)
        first = _millions(s["first_heldout_win_frames"]) if s["first_heldout_win_frames"] else "-"
        best = s["best_level1"]
        lines.append(
            f"| `{s['run']}` | {_millions(s['frames'])} ({_millions(s['frames_asked'])}) | "
            f"{s['cpu_hours']:.2f} | {first} | {last} | "
            f"{_percent(best['win_rate'].get('1'))} ({_millions(best['frames'])}) |"
        )
    return head + "\n".join(lines) + "\n"


def _percent(rate: float | None) -> str:
    return "-" if rate is None else f"{100 * rate:.1f} %"


def _millions(frames: int) -> str:
    return f"{frames / 1e6:.1f} M"


def plot(folders: list[Path], png: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, 4, figsize=(16, 3.6), sharey=True)
    for folder in folders:
        points = heldout_points(curve_rows(folder))
        frames = [p["frames"] / 1e6 for p in points]
        for ax, level in zip(axes, LEVELS, strict=True):
            ax.plot(
                frames, [100 * p["win_rate"].get(level, 0.0) for p in points], label=folder.name
            )
    for ax, level in zip(axes, LEVELS, strict=True):
        ax.set_title(f"level {level}: held-out win rate (200 validation deals)")
        ax.set_xlabel("frames (M)")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("%")
    axes[0].legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(png, dpi=110)


def _has_curve(folder: Path) -> bool:
    """A friday rl run folder with a curve (stage 6's distill folders have curves of their
    own, drawn by rounds.py)."""
    curve = (folder / "curve.jsonl").exists() or (folder / "curve.jsonl.gz").exists()
    config = folder / "config.json"
    return curve and config.exists() and "num_envs" in json.loads(config.read_text())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], allow_abbrev=False)
    parser.add_argument("--runs", type=Path, default=RUNS, help="the run folders' parent")
    parser.add_argument("--out", type=Path, default=RESULTS, help="where the results go")
    args = parser.parse_args()
    folders = sorted(  # friday rl's run folders (stage 6's distill and value have no curve)
        p for p in args.runs.iterdir() if (p / "config.json").exists() and _has_curve(p)
    )
    summaries = [run_summary(folder) for folder in folders]
    args.out.mkdir(exist_ok=True)
    (args.out / "summary.json").write_text(json.dumps(summaries, indent=1) + "\n")
    plot(folders, args.out / "curves.png")
    print(markdown(summaries), end="")


if __name__ == "__main__":
    main()
