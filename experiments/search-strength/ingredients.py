"""Paired comparisons of search variants against one baseline, on the deals both played:
``python experiments/search-strength/ingredients.py DIR [DIR ...] --baseline search --out FILE``.

Each ``DIR`` is a ``friday eval --out`` directory; their ``games.jsonl`` rows are pooled (the
same agent spec on the same deal gives the same game, so rows from different runs pair up).
For every other agent and level: the deals both played, both win rates, the paired
difference of win rate and of score with 95% bootstrap intervals, and the ratio of seconds
per game (a ratio, since the machine's load changes between runs: read it as a rough guide).
A cheating agent (:data:`friday_agents.players.registry.CHEATING_AGENTS`) is marked as such: its
difference is a ceiling, not a ranking. Writes ``FILE`` (JSON) and ``FILE`` with ``.md``;
``--readme README.md`` also writes the table into the README's ``search-ingredients``
section, and ``python experiments/search-strength/ingredients.py --check FILE --readme README.md``
checks it is there.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from friday_agents.evaluation.report import agent_label
from friday_agents.evaluation.stats import paired_difference_interval
from friday_agents.games_file import GAMES_FILE, read_games
from friday_agents.players.registry import is_cheating
from friday_agents.sections import replace_section, section_body
from friday_agents.seeds import is_evaluation_seed

#: The README section the table is written into.
README_SECTION = "search-ingredients"


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


def markdown(comparisons: list[dict], command: str) -> str:
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python experiments/search-strength/ingredients.py",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("directories", type=Path, nargs="*", help="friday eval --out dirs")
    parser.add_argument("--baseline", default="search", help="agent spec compared against")
    parser.add_argument("--out", type=Path, help="JSON file (and .md beside)")
    parser.add_argument("--readme", type=Path, help="write the table into this README too")
    parser.add_argument("--check", type=Path, help="check --readme holds this JSON's table")
    args = parser.parse_args(argv)
    if args.check:
        if not args.readme:
            parser.error("--check needs --readme")
        stored = json.loads(args.check.read_text())
        fresh = readme_table(args.readme) == markdown(stored["comparisons"], stored["command"])
        print(f"{args.readme} {README_SECTION} section is {'up to' if fresh else 'out of'} date")
        return 0 if fresh else 1
    if not args.directories or not args.out:
        parser.error("give the friday eval directories and --out")
    comparisons = compare_to(pooled_rows(args.directories), args.baseline)
    if args.readme and any(c["deals"] == "validation" for c in comparisons):
        parser.error("--readme takes evaluation-deal runs only, not validation ones")
    if not comparisons:
        print(f"no agent shares deals with {args.baseline!r}", file=sys.stderr)
        return 1
    names = " ".join(str(d) for d in args.directories)
    command = (
        f"python experiments/search-strength/ingredients.py {names} "
        f"--baseline {args.baseline} --out {args.out}"
    )
    args.out.write_text(json.dumps({"command": command, "comparisons": comparisons}, indent=1))
    text = markdown(comparisons, command)
    args.out.with_suffix(".md").write_text(text)
    print(text)
    if args.readme:
        args.readme.write_text(replace_section(args.readme.read_text(), README_SECTION, text))
        print(f"updated the {README_SECTION} section of {args.readme}")
    return 0


def readme_table(path: Path) -> str:
    return section_body(path.read_text(), README_SECTION) + "\n"


if __name__ == "__main__":
    sys.exit(main())
