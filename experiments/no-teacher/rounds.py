"""Stage 6's rounds in one table and one figure (the rounds' curve):
``python experiments/no-teacher/rounds.py`` reads each expert-iteration folder's
``start.json`` and ``round-NN/summary.json`` (``runs/s6-distill``: amendment 3's search;
``runs/s6m-distill``: amendment 4's, with the margin) and writes ``results/stage6-rounds.json``,
``results/stage6-rounds.png`` and the Markdown table it prints (REPORT.md quotes it).

Per point (START, then each round's network): the network alone on the first 500 validation
deals of each level, the search with it as prior, anchor and rollout policy on the first 200,
and the CPU the round's games and fit took (the validation play not included).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
RUNS = HERE / "runs"
RESULTS = HERE / "results"
STUDIES = {"s6-distill": "amendment 3, margin 0", "s6m-distill": "amendment 4, margin 0.1"}
LEVELS = ("1", "2", "3", "4")


def rates(measured: dict[str, Any]) -> dict[str, float]:
    return {level: measured["levels"][level]["win_rate"] for level in LEVELS}


def round_cpu(summary: dict[str, Any]) -> float:
    games = sum(part["cpu_seconds"] for part in summary["games"].values())
    fit = summary["fit"]
    return games + fit.get("read_cpu_seconds", 0.0) + fit.get("fit_cpu_seconds", 0.0)


def points(folder: Path) -> list[dict[str, Any]]:
    """START, then each finished round: the network's and the search's validation win rates."""
    start = json.loads((folder / "start.json").read_text())
    rows = [{"point": "START", "net": rates(start["net"]), "search": rates(start["search"])}]
    for summary_file in sorted(folder.glob("round-*/summary.json")):
        summary = json.loads(summary_file.read_text())
        rows.append(
            {
                "point": f"round {summary['round']}",
                "net": rates(summary["net"]),
                "search": rates(summary["search"]),
                "cpu_hours": round(round_cpu(summary) / 3600, 3),
            }
        )
    return rows


def markdown(studies: dict[str, list[dict[str, Any]]]) -> str:
    lines = [
        "| study | point | network alone, L1-L4 (500 deals) | search, L1-L4 (200 deals) | CPU-h |",
        "| --- | --- | --- | --- | ---: |",
    ]
    for name, rows in studies.items():
        for row in rows:
            net = " / ".join(f"{100 * row['net'][lv]:.1f}" for lv in LEVELS)
            search = " / ".join(f"{100 * row['search'][lv]:.1f}" for lv in LEVELS)
            cpu = f"{row['cpu_hours']:.2f}" if "cpu_hours" in row else "–"
            lines.append(f"| {name} | {row['point']} | {net} % | {search} % | {cpu} |")
    return "\n".join(lines)


def plot(studies: dict[str, list[dict[str, Any]]], png: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, len(LEVELS), figsize=(14, 3.6), sharey=True)
    for ax, level in zip(axes, LEVELS, strict=True):
        for name, rows in studies.items():
            x = range(len(rows))
            ax.plot(x, [r["net"][level] for r in rows], "o--", label=f"{name}: network")
            ax.plot(x, [r["search"][level] for r in rows], "s-", label=f"{name}: search")
        ax.set_title(f"level {level}")
        ax.set_xlabel("START, then rounds 0, 1, ...")
        ax.set_ylim(0, 1)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("validation win rate")
    axes[-1].legend(fontsize=7, loc="lower right")
    figure.tight_layout()
    figure.savefig(png, dpi=110)
    plt.close(figure)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], allow_abbrev=False)
    parser.parse_args()
    studies = {
        f"{name} ({what})": points(RUNS / name)
        for name, what in STUDIES.items()
        if (RUNS / name / "start.json").exists()
    }
    (RESULTS / "stage6-rounds.json").write_text(json.dumps(studies, indent=1) + "\n")
    plot(studies, RESULTS / "stage6-rounds.png")
    print(markdown(studies))


if __name__ == "__main__":
    main()
