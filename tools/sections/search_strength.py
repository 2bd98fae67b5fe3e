"""The search study's ``search-ingredients`` table (``experiments/search-strength/REPORT.md``),
from the committed pairing of its runs (``experiments/search-strength/ingredients.py`` writes
``results/ingredients.json``)."""

from __future__ import annotations

import json
from pathlib import Path

from friday_agents.evaluation.report import agent_label

#: The committed comparisons of every variant against ``search`` on the evaluation deals.
RESULTS = Path("experiments/search-strength/results/ingredients.json")


def markdown(comparisons: list[dict], command: str) -> str:
    """The comparisons as a Markdown table, under a line naming the command that paired them."""
    validation = any(c.get("deals") == "validation" for c in comparisons)
    lines = [
        ("On the VALIDATION deals (for choosing, not for reporting). " if validation else "")
        + f"Paired against the baseline on the deals both played (`{command}`); 95% bootstrap "
        "intervals; *time* is the ratio of seconds per game (runs at different machine load).",
        "",
        "| agent | level | deals | baseline wins | agent wins | win rate difference | "
        "score difference | time |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for c in comparisons:
        win, score = c["win_rate_difference"], c["score_difference"]
        name = agent_label(c["agent"])
        lines.append(
            f"| {name} | {c['level']} | {c['common_deals']} | {100 * c['baseline_win_rate']:.0f}% "
            f"| {100 * c['agent_win_rate']:.0f}% | {100 * win[0]:+.1f} pts "
            f"[{100 * win[1]:+.1f}, {100 * win[2]:+.1f}] | {score[0]:+.1f} "
            f"[{score[1]:+.1f}, {score[2]:+.1f}] | {c['seconds_ratio']:.2f}x |"
        )
    return "\n".join(lines) + "\n"


def ingredients_section(repo: Path) -> str:
    """The committed comparisons' table; validation-deal runs choose variants, they are
    never published, so a results file holding one is refused."""
    stored = json.loads((repo / RESULTS).read_text(encoding="utf-8"))
    if any(c.get("deals") == "validation" for c in stored["comparisons"]):
        raise ValueError(f"{RESULTS} pairs validation-deal runs: not for publishing")
    return markdown(stored["comparisons"], stored["command"])


SECTIONS = {"search-ingredients": ("experiments/search-strength/REPORT.md", ingredients_section)}
