"""`net` at scale in one table and one plot (PLAN.md's stages 1-4, as far as they have run).

    python experiments/net-scale/report.py

Reads ``results/distill/`` (``start.json``, each finished round's ``summary.json``), the
fine-tuning runs' ``curve.jsonl`` (``results/rl-l1``, ``results/rl-l4``), stage 3's
``selection/choice.json`` and stage 4's ``eval/summary.json``, when they exist. Writes
``results/summary.json`` and ``results/curves.png`` and prints the round table in Markdown.

Per round: the labelling search's own games (win rate per level), the labelled decisions and
their CPU, the fit (decisions seen, CPU, held-out agreement with the search's best action), and
the validation win rates of the network alone (500 deals per level) and of ``guided`` with it
as prior (200 deals per level).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
LEVELS = ("1", "2", "3", "4")
RL_RUNS = {"rl-l1": "PPO on level 1", "rl-l4": "PPO on level 4"}


def _rates(levels: dict) -> dict[str, float]:
    return {level: levels[level]["win_rate"] for level in LEVELS}


def _mean(rates: dict[str, float]) -> float:
    return round(float(np.mean(list(rates.values()))), 4)


def round_rows(distill: Path) -> list[dict]:
    rows = []
    start = distill / "start.json"
    if start.exists():
        data = json.loads(start.read_text())
        rows.append(
            {
                "name": "start (net-v1)",
                "network": _rates(data["net"]["levels"]),
                "guided": _rates(data["search"]["levels"]),
            }
        )
    for path in sorted(distill.glob("round-*/summary.json")):
        data = json.loads(path.read_text())
        games = data["games"]
        teacher = games["teacher"]
        rows.append(
            {
                "name": f"round {data['round']}",
                "teacher": {
                    level: teacher["won_by_level"][level] / (teacher["games"] / len(LEVELS))
                    for level in LEVELS
                },
                "labelled": sum(part["labelled_decisions"] for part in games.values()),
                "games_cpu_seconds": round(sum(part["cpu_seconds"] for part in games.values()), 1),
                "fit_decisions": data["fit"]["decisions"],
                "fit_cpu_seconds": data["fit"]["fit_cpu_seconds"],
                "agreement": data["fit"]["held_out"]["all"]["network_picks_search_best"],
                "network": _rates(data["net"]["levels"]),
                "guided": _rates(data["search"]["levels"]),
            }
        )
    for row in rows:
        row["network_mean"] = _mean(row["network"])
        row["guided_mean"] = _mean(row["guided"])
    return rows


def rl_runs(results: Path) -> dict[str, dict]:
    runs = {}
    for name, what in RL_RUNS.items():
        curve = results / name / "curve.jsonl"
        if not curve.exists():
            continue
        rows = [json.loads(line) for line in curve.read_text().splitlines() if line.strip()]
        points = [row for row in rows if row.get("heldout_by_level")]
        runs[name] = {
            "what": what,
            "frames": rows[-1]["frames"] if rows else 0,
            "cpu_hours": round(rows[-1]["cpu_seconds"] / 3600, 2) if rows else 0.0,
            "curve": [
                {
                    "frames": row["frames"],
                    **{
                        level: row["heldout_by_level"][level]["heldout_win_rate"]
                        for level in LEVELS
                    },
                }
                for row in points
            ],
        }
    return runs


def _percent(rates: dict[str, float] | None) -> str:
    if not rates:
        return "-"
    return " / ".join(f"{100 * rates[level]:.1f}" for level in LEVELS)


def markdown(rows: list[dict]) -> str:
    lines = [
        "| | search's own games, L1-4 % | labelled decisions | fit: decisions seen, "
        "agreement | network alone, L1-4 % (mean) | guided with it, L1-4 % (mean) |",
        "| --- | --- | ---: | --- | --- | --- |",
    ]
    for row in rows:
        fit = (
            f"{row['fit_decisions']:,}, {100 * row['agreement']:.1f} %"
            if "fit_decisions" in row
            else "-"
        )
        labelled = f"{row['labelled']:,}" if "labelled" in row else "-"
        lines.append(
            f"| {row['name']} | {_percent(row.get('teacher'))} | {labelled} | {fit} | "
            f"{_percent(row['network'])} ({100 * row['network_mean']:.2f}) | "
            f"{_percent(row['guided'])} ({100 * row['guided_mean']:.2f}) |"
        )
    return "\n".join(lines)


def rl_markdown(runs: dict[str, dict]) -> str:
    """Each fine-tuning run's held-out curve: start, best and last point, L1-4 %."""
    lines = [
        "| run | frames | CPU-h | held-out L1-4 % at the start | at the end |",
        "| --- | ---: | ---: | --- | --- |",
    ]
    for run in runs.values():
        if not run["curve"]:
            continue
        first, last = run["curve"][0], run["curve"][-1]
        lines.append(
            f"| {run['what']} | {run['frames']:,} | {run['cpu_hours']} | {_percent(first)} | "
            f"{_percent(last)} |"
        )
    return "\n".join(lines)


def selection_markdown(choice: dict) -> str:
    """Stage 3: every candidate's validation win rates, the chosen one in bold."""
    lines = ["| candidate | validation L1-4 % | mean |", "| --- | --- | ---: |"]
    for spec, row in choice["candidates"].items():
        rates = {level: row["by_level"][level]["win_rate"] for level in LEVELS}
        # choose.py names each candidate as it played (the run's resolved specs)
        name = f"**`{spec}`**" if spec == choice["chosen"] else f"`{spec}`"
        lines.append(f"| {name} | {_percent(rates)} | {100 * row['mean_win_rate']:.2f} |")
    return "\n".join(lines)


def evaluation_markdown(evaluation: dict) -> str:
    """Stage 4: the chosen network on the evaluation deals, against the targets."""
    lines = [
        "| level | games | win rate | Wilson 95 % | target | gap (points) |",
        "| ---: | ---: | ---: | --- | ---: | ---: |",
    ]
    for level in LEVELS:
        row = evaluation["levels"][level]
        low, high = row["wilson95"]
        target = f"{100 * row['target']:.0f} %" if "target" in row else "-"
        gap = f"{row['gap_points']:+.1f}" if "gap_points" in row else "-"
        lines.append(
            f"| {level} | {row['games']:,} | {100 * row['win_rate']:.1f} % | "
            f"[{100 * low:.1f}, {100 * high:.1f}] | {target} | {gap} |"
        )
    milliseconds = evaluation["ms_per_decision"]
    lines.append(f"\n{milliseconds} ms per decision (wall, an upper bound on the CPU).")
    return "\n".join(lines)


def plot(rows: list[dict], runs: dict[str, dict], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = 1 + len(runs)
    figure, axes = plt.subplots(1, panels, figsize=(5 * panels, 4), squeeze=False)
    names = [row["name"] for row in rows]
    for level in LEVELS:
        rates = [100 * row["network"][level] for row in rows]
        axes[0][0].plot(names, rates, "o-", label=f"L{level}")
    axes[0][0].set_title("network alone, by round (validation)")
    axes[0][0].set_ylabel("win rate %")
    axes[0][0].legend()
    for axis, run in zip(axes[0][1:], runs.values(), strict=True):
        frames = [point["frames"] / 1e6 for point in run["curve"]]
        for level in LEVELS:
            axis.plot(frames, [100 * point[level] for point in run["curve"]], label=f"L{level}")
        axis.set_title(f"{run['what']}: held-out win rate")
        axis.set_xlabel("frames (M)")
        axis.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--results", type=Path, default=HERE / "results", help="the study's results folder"
    )
    args = parser.parse_args(argv)
    rows = round_rows(args.results / "distill")
    runs = rl_runs(args.results)
    summary: dict = {"rounds": rows, "rl": runs}
    for name, file in (("selection", "selection/choice.json"), ("evaluation", "eval/summary.json")):
        if (args.results / file).exists():
            summary[name] = json.loads((args.results / file).read_text())
    (args.results / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    plot(rows, runs, args.results / "curves.png")
    print(markdown(rows))
    if runs:
        print("\n" + rl_markdown(runs))
    if "selection" in summary:
        print("\n" + selection_markdown(summary["selection"]))
    if "evaluation" in summary:
        print("\n" + evaluation_markdown(summary["evaluation"]))


if __name__ == "__main__":
    main()
