"""The RL runs of this study in one table and one plot:
``python experiments/rl/report.py`` reads every ``experiments/rl/*/curve.jsonl`` (written by
``friday rl``) and writes ``experiments/rl/summary.json`` and ``experiments/rl/curves.png``.

Per run: frames and CPU hours so far, the held-out (validation deals) win rate and mean
score of the greedy policy at the start, at the last evaluation, and its lowest and highest,
with the start's 95 % Wilson interval: the fine-tuning target is that the curve never falls
below it.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from friday_agents.harness.paths import read_maybe_compressed
from friday_agents.harness.stats import wilson_interval

HERE = Path(__file__).resolve().parent


def evaluations(curve: Path) -> list[dict]:
    text = read_maybe_compressed(curve)  # a curve over 1 MB is committed as curve.jsonl.gz
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    return [row for row in rows if row.get("heldout_win_rate") is not None]


#: What a fine-tuning run started from, in words: its ``--init`` file was
#: ``agents/friday_agents/models/net.npz`` when it ran, and that file has changed since.
STARTS = {"finetune-l1": "expert-iteration round 1"}


def _method(run: str, config: dict) -> str:
    if config.get("init"):
        return f"fine-tune of {STARTS.get(run, config['init'])}"
    method = config["method"]
    if config.get("shaping", "none") == "fights":
        method = "PPO + fights shaping"
    if config.get("bonus", "none") == "counts":
        method = f"PPO + count bonus {config['bonus_coef']:g}"
    reward = config.get("reward") or "score"
    return f"{method} from scratch, {reward}, {config['hidden']} tanh"


def run_summary(folder: Path) -> dict:
    config = json.loads((folder / "config.json").read_text())
    text = read_maybe_compressed(folder / "curve.jsonl")
    rows = [json.loads(line) for line in text.splitlines()]
    points = evaluations(folder / "curve.jsonl")
    start, last = points[0], points[-1]
    deals = start["heldout_deals"]
    low, high = wilson_interval(round(start["heldout_win_rate"] * deals), deals)
    rates = [p["heldout_win_rate"] for p in points]
    return {
        "run": folder.name,
        "method": _method(folder.name, config),
        "level": config["level"],
        "frames": rows[-1]["frames"],
        "cpu_hours": round(rows[-1]["cpu_seconds"] / 3600, 3),
        "heldout_deals": deals,
        "start": {"win_rate": start["heldout_win_rate"], "mean_score": start["heldout_mean_score"]},
        "start_wilson95": [round(low, 4), round(high, 4)],
        "last": {
            "frames": last["frames"],
            "win_rate": last["heldout_win_rate"],
            "mean_score": last["heldout_mean_score"],
        },
        "train_mean_fights": _last_fights(rows),
        "lowest_win_rate": min(rates),
        "highest_win_rate": max(rates),
        "evaluations": len(points),
    }


def _last_fights(rows: list[dict]) -> float | None:
    """Fights per finished training game over the last 10 updates (runs that log it)."""
    fights = [r["train_mean_fights"] for r in rows[-10:] if r.get("train_mean_fights")]
    return round(sum(fights) / len(fights), 1) if fights else None


def plot(folders: list[Path], path: Path) -> None:
    """Fine-tuning runs (validation win rate) beside the from-scratch runs (validation win
    rate and mean score): their frame scales differ tenfold."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, 3, figsize=(15, 4))
    for folder in folders:
        config = json.loads((folder / "config.json").read_text())
        points = evaluations(folder / "curve.jsonl")
        frames = [p["frames"] / 1e6 for p in points]
        wins = [100 * p["heldout_win_rate"] for p in points]
        if config.get("init"):
            axes[0].plot(frames, wins, marker=".", label=folder.name)
            continue
        axes[1].plot(frames, wins, label=folder.name)
        axes[2].plot(frames, [p["heldout_mean_score"] for p in points], label=folder.name)
    axes[1].set_ylim(-0.5, max(5.0, axes[1].get_ylim()[1]))  # a flat 0 % is readable
    axes[0].set_title("fine-tuning")
    axes[1].set_title("from scratch")
    axes[2].set_title("from scratch")
    axes[0].set_ylabel("validation win rate, level 1 (%)")
    axes[1].set_ylabel("validation win rate, level 1 (%)")
    axes[2].set_ylabel("validation mean score, level 1")
    for axis in axes:
        axis.set_xlabel("million frames")
        axis.grid(alpha=0.3)
        axis.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=Path, default=HERE)
    args = parser.parse_args(argv)
    folders = sorted({p.parent for p in args.runs.glob("*/curve.jsonl*")})
    if not folders:
        parser.error(f"no runs (*/curve.jsonl) in {args.runs}")
    summary = [run_summary(folder) for folder in folders]
    (args.runs / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    plot(folders, args.runs / "curves.png")
    print(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
