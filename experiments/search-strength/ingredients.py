"""Paired comparisons of search variants against one baseline, on the deals both played:
``python experiments/search-strength/ingredients.py DIR [DIR ...] --baseline search --out FILE``.

Each ``DIR`` is a ``friday eval --out`` directory; their ``games.jsonl`` rows are pooled (the
same agent spec on the same deal gives the same game, so rows from different runs pair up).
For every other agent and level: the deals both played, both win rates, the paired
difference of win rate and of score with 95% bootstrap intervals, and the ratio of seconds
per game (a ratio, since the machine's load changes between runs: read it as a rough guide).
A cheating agent (`friday_agents.players.registry.CHEATING_AGENTS`) is marked as such: its
difference is a ceiling, not a ranking. Writes ``FILE`` (JSON) and prints the comparisons;
``python tools/docs_sections.py`` renders the REPORT's ``search-ingredients`` table from the
committed ``results/ingredients.json``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from friday_agents.cli.arguments import add_removed
from friday_agents.evaluation.report import agent_label, aligned_table
from friday_agents.harness.deals import is_evaluation_seed
from friday_agents.harness.errors import README_GONE
from friday_agents.harness.games_file import GAMES_FILE, read_games
from friday_agents.harness.stats import paired_difference_interval
from friday_agents.players.registry import is_cheating


def pooled_rows(directories: list[Path]) -> dict[tuple[str, int, int], dict]:
    """Every game of the directories by (agent, level, deal index); a deal played twice
    must have given the same result, and all must be of one deal set (evaluation or
    validation: ``friday eval --deals``)."""
    rows: dict[tuple[str, int, int], dict] = {}
    for directory in directories:
        for row in read_games(directory / GAMES_FILE):
            key = (row["agent"], row["level"], row["index"])
            if rows and deal_set(row) != deal_set(next(iter(rows.values()))):
                raise ValueError(f"{directory}: mixes evaluation and validation deals")
            if key in rows and (rows[key]["won"], rows[key]["score"]) != (row["won"], row["score"]):
                raise ValueError(f"{directory}: {key} differs from an earlier run of that game")
            rows.setdefault(key, row)
    return rows


def deal_set(row: dict) -> str:
    """``"evaluation"`` or ``"validation"``: which deals a game row was played on."""
    return "evaluation" if is_evaluation_seed(row["seed"]) else "validation"


def compare_to(rows: dict[tuple[str, int, int], dict], baseline: str, seed: int = 0) -> list[dict]:
    """One comparison per (agent, level) that shares deals with ``baseline``."""
    cells = sorted({(agent, level) for agent, level, _ in rows})
    comparisons = []
    for agent, level in cells:
        if agent == baseline:
            continue
        common = sorted(
            i for a, lv, i in rows if a == agent and lv == level and (baseline, level, i) in rows
        )
        if not common:
            continue
        base = [rows[(baseline, level, i)] for i in common]
        other = [rows[(agent, level, i)] for i in common]
        comparisons.append(
            {
                "agent": agent,
                "baseline": baseline,
                "level": level,
                "cheats": is_cheating(agent),
                "deals": deal_set(base[0]),
                "common_deals": len(common),
                "deal_indices": [common[0], common[-1]],
                "baseline_win_rate": float(np.mean([g["won"] for g in base])),
                "agent_win_rate": float(np.mean([g["won"] for g in other])),
                "win_rate_difference": list(_paired(base, other, "won", seed)),
                "score_difference": list(_paired(base, other, "score", seed)),
                "seconds_ratio": sum(g["seconds"] for g in other) / sum(g["seconds"] for g in base),
            }
        )
    return comparisons


def _paired(first: list[dict], second: list[dict], key: str, seed: int) -> tuple[float, ...]:
    return paired_difference_interval(
        [float(g[key]) for g in first], [float(g[key]) for g in second], seed=seed
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        allow_abbrev=False,
        prog="python experiments/search-strength/ingredients.py",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("directories", type=Path, nargs="*", help="friday eval --out dirs")
    parser.add_argument("--baseline", default="search", help="agent spec compared against")
    parser.add_argument("--out", type=Path, required=True, help="JSON file to write")
    add_removed(parser, "--readme", "--check", instead=README_GONE)
    args = parser.parse_args(argv)
    if not args.directories:
        parser.error("give the friday eval directories")
    comparisons = compare_to(pooled_rows(args.directories), args.baseline)
    if not comparisons:
        print(f"no agent shares deals with {args.baseline!r}", file=sys.stderr)
        return 1
    names = " ".join(str(d) for d in args.directories)
    command = (
        f"python experiments/search-strength/ingredients.py {names} "
        f"--baseline {args.baseline} --out {args.out}"
    )
    args.out.write_text(json.dumps({"command": command, "comparisons": comparisons}, indent=1))
    print(text_table(comparisons))
    print(f"wrote {args.out}")
    return 0


def text_table(comparisons: list[dict]) -> str:
    """The comparisons as a plain-text table (validation runs say so above it)."""
    header = ["agent", "level", "deals", "baseline wins", "agent wins", "win rate diff", "time"]
    rows = [
        [agent_label(c["agent"]), c["level"], c["common_deals"],
         f"{100 * c['baseline_win_rate']:.0f}%", f"{100 * c['agent_win_rate']:.0f}%",
         f"{100 * c['win_rate_difference'][0]:+.1f} pts", f"{c['seconds_ratio']:.2f}x"]
        for c in comparisons
    ]  # fmt: skip
    validation = any(c["deals"] == "validation" for c in comparisons)
    return ("On the VALIDATION deals.\n" if validation else "") + aligned_table(header, rows)


if __name__ == "__main__":
    sys.exit(main())
