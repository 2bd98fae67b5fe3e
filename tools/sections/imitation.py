"""The learned-agent study's ``learned`` section (``experiments/imitation/REPORT.md``), from
its committed result files (``experiments/imitation/results/*.json``).

Everything in the section comes from the result files written by
``python experiments/imitation/study.py evaluate``: win rates with 95 % Wilson intervals, the
paired difference to the heuristic on the same deals (95 % bootstrap interval), the recipe's
CPU minutes per level; the learning curves it shows are drawn by
``python experiments/imitation/study.py plot`` from ``curves/*.csv``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from friday_agents.harness.stats import paired_difference_interval, wilson_interval
from sections import COMMAND

#: The study's result files.
RESULTS = Path("experiments/imitation/results")
BASELINE = "heuristic"


#: Table order: baselines, imitation, DAgger, fine-tuning, the committed agent; others last.
ORDER = (
    "heuristic",
    "ppo-scratch",
    "bc-heuristic",
    "dagger-heuristic",
    "bc-search-212",
    "bc-search",
    "dagger-search-212",
    "dagger-search",
    "ft-progress",
    "ft-warmup",
    "ft-shaped",
    "committed",
)


def load_rows(results: Path) -> list[dict[str, Any]]:
    """Every result file, in `ORDER` (then by name)."""
    files = [p for p in sorted(results.glob("*.json")) if p.name != "comparisons.json"]
    rows = [json.loads(p.read_text()) for p in files]
    rank = {name: i for i, name in enumerate(ORDER)}
    return sorted(rows, key=lambda r: (rank.get(r["name"], len(ORDER)), r["name"]))


def _wins(cell: dict[str, Any]) -> list[int]:
    return [int(c) for c in cell["wins"]]


def _cells(row: dict, level: str, base: dict | None) -> list[str]:
    cell = row["levels"][level]
    wins = _wins(cell)
    low, high = wilson_interval(sum(wins), len(wins))
    rate = f"{sum(wins) / len(wins):.1%} [{low:.1%}, {high:.1%}]"
    paired = "—"
    if base is not None and row["name"] != BASELINE and level in base["levels"]:
        reference = _wins(base["levels"][level])
        n = min(len(reference), len(wins))
        mean, lo, hi = paired_difference_interval(reference[:n], wins[:n])
        paired = f"{mean * 100:+.1f} pts [{lo * 100:+.1f}, {hi * 100:+.1f}] ({n} deals)"
    cost = cell.get("cpu_seconds", {})
    minutes = sum(cost.values()) / 60
    parts = "+".join(f"{v / 60:.1f}" for k, v in cost.items() if v) or "0"
    return [
        row["title"],
        level,
        str(len(wins)),
        rate,
        f"{cell['mean_score']:.1f}",
        paired,
        f"{minutes:.1f} ({parts})",
    ]


def table(rows: list[dict[str, Any]]) -> str:
    base = next((r for r in rows if r["name"] == BASELINE), None)
    head = [
        "| recipe | level | deals | win rate [95% CI] | mean score | vs heuristic, paired "
        "[95% CI] | CPU min per level (collect+fit+train) |",
        "|---|---|---|---|---|---|---|",
    ]
    lines = [
        "| " + " | ".join(_cells(row, level, base)) + " |"
        for row in rows
        for level in sorted(row["levels"])
    ]
    return "\n".join(head + lines)


def _paired(first: dict, second: dict, level: str) -> str:
    a, b = _wins(first["levels"][level]), _wins(second["levels"][level])
    n = min(len(a), len(b))
    mean, low, high = paired_difference_interval(a[:n], b[:n])
    return f"L{level} {mean * 100:+.1f} pts [{low * 100:+.1f}, {high * 100:+.1f}]"


def findings(rows: list[dict[str, Any]], path: Path) -> str:
    """The comparisons listed in ``comparisons.json`` (``[[first, second, question], ...]``):
    the paired win-rate difference second - first on the levels both rows measured."""
    if not path.exists():
        return ""
    by_name = {row["name"]: row for row in rows}
    lines = []
    for first, second, question in json.loads(path.read_text()):
        if first not in by_name or second not in by_name:
            continue
        levels = sorted(set(by_name[first]["levels"]) & set(by_name[second]["levels"]))
        diffs = "; ".join(_paired(by_name[first], by_name[second], lv) for lv in levels)
        lines.append(
            f"- {question} ({by_name[second]['title']} minus {by_name[first]['title']}): {diffs}"
        )
    return "\n".join(lines)


def notes(rows: list[dict[str, Any]]) -> str:
    return "\n".join(f"- **{r['title']}**: {r['note']}" for r in rows if r.get("note"))


def section(results: Path) -> str:
    """The section's text (the plot it shows is drawn by ``study.py plot``)."""
    rows = load_rows(results)
    curves = sorted((results / "curves").glob("*.csv"))
    text = [
        "## Learned agents: what makes Friday learnable",
        "",
        f"Rendered by `{COMMAND}` from `experiments/imitation/results/*.json` (written by "
        "`python experiments/imitation/study.py evaluate`; recipes in `experiments/imitation/`). "
        "Win rates over the first evaluation deals of each level with 95% Wilson intervals; "
        "*vs heuristic* is the paired difference in win rate on the same deals (95% bootstrap "
        "interval); CPU minutes are measured per level: teacher games (summed per-game CPU "
        "times), fitting and PPO training.",
        "",
        table(rows),
        "",
        notes(rows),
    ]
    found = findings(rows, results / "comparisons.json")
    if found:
        text += [
            "",
            "What mattered: paired win-rate differences on the same deals (95% bootstrap "
            "intervals; rows with fewer deals are compared on the deals both played).",
            "",
            found,
        ]
    if curves:
        names = ", ".join(f"`{p.name}`" for p in curves)
        text += [
            "",
            "![learning curves](results/curves.png)",
            "",
            f"Curves: {names} (held-out deals, never the reported ones).",
        ]
    return "\n".join(text) + "\n"


SECTIONS = {"learned": ("experiments/imitation/REPORT.md", lambda repo: section(repo / RESULTS))}
