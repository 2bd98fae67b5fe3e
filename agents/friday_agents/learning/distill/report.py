"""The expert-iteration curve: each round's strength against the CPU hours spent so far,
network alone and guiding the search, written as ``curve.json`` and ``curve.png``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from friday_agents.learning.distill.rounds import rows_of


def write_curve(out: Path, summaries: list[dict]) -> dict[str, Any]:
    start = json.loads((out / "start.json").read_text())
    curve = {
        "start": {
            "net": {lv: r["win_rate"] for lv, r in start["net"]["levels"].items()},
            "search": {lv: r["win_rate"] for lv, r in start["search"]["levels"].items()},
        },
        "rows": list(rows_of(summaries)),
    }
    (out / "curve.json").write_text(json.dumps(curve, indent=1) + "\n")
    _plot(curve, out / "curve.png")
    return curve


def _plot(curve: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = curve["rows"]
    levels = sorted(curve["start"]["net"])
    figure, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for axis, who, title in (
        (axes[0], "net", "network alone"),
        (axes[1], "search", "guided by it"),
    ):
        for level in levels:
            hours = [0.0] + [r["cpu_hours"] for r in rows]
            rates = [curve["start"][who][level]] + [r[who][level] for r in rows]
            axis.plot(hours, [100 * x for x in rates], marker="o", label=f"level {level}")
        axis.set_title(title)
        axis.set_xlabel("CPU hours (games and fits, cumulative)")
        axis.grid(alpha=0.3)
    axes[0].set_ylabel("validation win rate (%)")
    axes[0].legend()
    figure.suptitle("Expert iteration: round 0 starts at 0 h")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
