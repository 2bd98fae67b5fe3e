"""The evaluation's two pictures: win rate by level, and how scores are spread.

matplotlib is imported here only (with the file-only Agg backend), when a report is drawn.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_win_rates(results: dict[str, Any], path: Path) -> None:
    """Win rate per level with 95% Wilson intervals as error bars, one series per agent."""
    plt = _pyplot()
    agents = list(dict.fromkeys(s["agent"] for s in results["summary"]))
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for k, agent in enumerate(agents):
        cells = [s for s in results["summary"] if s["agent"] == agent]
        offset = (k - (len(agents) - 1) / 2) * 0.08
        levels = [s["level"] + offset for s in cells]
        rates = [100 * s["win_rate"] for s in cells]
        below = [100 * (s["win_rate"] - s["win_rate_ci"][0]) for s in cells]
        above = [100 * (s["win_rate_ci"][1] - s["win_rate"]) for s in cells]
        ax.errorbar(levels, rates, yerr=[below, above], marker="o", capsize=4, label=agent)
    ax.set_xticks(sorted({s["level"] for s in results["summary"]}))
    ax.set_xlabel("level")
    ax.set_ylabel("win rate (%), 95% Wilson interval")
    ax.set_title("Friday: win rate by level")
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def plot_scores(results: dict[str, Any], rows: list[dict[str, Any]], path: Path) -> None:
    """Score distributions: one panel per level, a box per agent (mean as a marker)."""
    plt = _pyplot()
    levels = sorted({s["level"] for s in results["summary"]})
    agents = list(dict.fromkeys(s["agent"] for s in results["summary"]))
    fig, axes = plt.subplots(1, len(levels), figsize=(3.2 * len(levels), 4.2), squeeze=False)
    for ax, level in zip(axes[0], levels, strict=True):
        data = [
            [r["score"] for r in rows if r["agent"] == a and r["level"] == level] for a in agents
        ]
        present = [(a, d) for a, d in zip(agents, data, strict=True) if d]
        ax.boxplot([d for _, d in present], showmeans=True)
        ax.set_xticks(range(1, len(present) + 1), [a for a, _ in present], rotation=30)
        ax.set_title(f"level {level}")
        ax.grid(alpha=0.3, axis="y")
    axes[0][0].set_ylabel("final score")
    fig.suptitle("Friday: score distributions (box: quartiles, triangle: mean)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
