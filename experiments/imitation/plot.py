"""The learned-agent study's learning curves (``results/curves/*.csv``) drawn into
``results/curves.png`` (``python experiments/imitation/study.py plot``). The study's REPORT
table is rendered from the result files by ``python tools/docs_sections.py``.
"""

from __future__ import annotations

import csv
from pathlib import Path


def _read_curve(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as handle:
        return list(csv.DictReader(handle))


def plot_curves(results: Path, png: Path) -> list[Path]:
    """Held-out win rate against each curve's x: one row of panels per x quantity (teacher
    games, PPO timesteps...), one panel per level, one line per curve file."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    files = sorted((results / "curves").glob("*.csv"))
    curves = {file: _read_curve(file) for file in files}
    labels = sorted({p["x_label"] for points in curves.values() for p in points})
    if not labels:
        return []
    figure, axes = plt.subplots(len(labels), 4, figsize=(15, 3.4 * len(labels)), squeeze=False)
    for row, label in enumerate(labels):
        for file, points in curves.items():
            for level in range(1, 5):
                mine = [p for p in points if int(p["level"]) == level and p["x_label"] == label]
                if mine:
                    xs = [float(p["x"]) for p in mine]
                    ys = [float(p["win_rate"]) for p in mine]
                    axes[row][level - 1].plot(xs, ys, marker="o", label=file.stem)
        for level, axis in enumerate(axes[row], 1):
            axis.set_title(f"level {level}")
            axis.set_xlabel(label)
            axis.set_ylabel("held-out win rate")
            axis.grid(alpha=0.3)
            if axis.lines:
                axis.legend(fontsize=7)
    figure.tight_layout()
    figure.savefig(png, dpi=80)
    plt.close(figure)
    return files
