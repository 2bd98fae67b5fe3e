"""The targets of a registered no-teacher policy on the evaluation deals (PLAN.md, "Targets"):
per level its win rate, the heuristic's, and the paired difference ``agent − 2 × heuristic``
with a bootstrap interval over the deals (both played the same 1,000 deals), from a
``friday eval`` run's games file:

    python experiments/no-teacher/targets.py \
        --run experiments/no-teacher/results/eval/scratch-run --agent scratch

Writes ``RUN/targets.json`` (``RUN/targets-AGENT.json`` for another agent than ``scratch``;
for ``scratch-search`` also its own targets, 80 % of level 1 and 44.5 % of level 4) and prints
one line per level.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from friday_agents.harness.paths import read_maybe_compressed

RESAMPLES = 10_000
SEED = 42  # the bootstrap's own stream, fixed so the interval is the same on every run
LEVEL_1_TARGET = 0.5
#: scratch-search's own targets (issue 42, part 5): win rates on levels 1 and 4.
SEARCH_TARGETS = {1: 0.80, 4: 0.445}


def read_games(run: Path) -> list[dict]:
    text = read_maybe_compressed(run / "games.jsonl")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def paired_wins(games: list[dict], agent: str, level: int) -> tuple[np.ndarray, np.ndarray]:
    """Per deal index played by both: the agent's and the heuristic's wins (0/1)."""
    won: dict[str, dict[int, int]] = {agent: {}, "heuristic": {}}
    for game in games:
        if game["level"] == level and game["agent"] in won:
            won[game["agent"]][game["index"]] = int(game["won"])
    deals = sorted(set(won[agent]) & set(won["heuristic"]))
    if not deals:
        raise SystemExit(f"no level-{level} deal played by both {agent} and heuristic")
    return (
        np.array([won[agent][d] for d in deals]),
        np.array([won["heuristic"][d] for d in deals]),
    )


def level_target(mine: np.ndarray, theirs: np.ndarray, level: int, agent: str) -> dict:
    rng = np.random.default_rng(SEED + level)
    gap = mine - 2 * theirs
    picks = rng.integers(0, len(gap), size=(RESAMPLES, len(gap)))
    low, high = np.quantile(gap[picks].mean(axis=1), [0.025, 0.975])
    row = {
        "level": level,
        "deals": len(gap),
        "win_rate": float(mine.mean()),
        "heuristic_win_rate": float(theirs.mean()),
        "minus_twice_heuristic": [float(gap.mean()), float(low), float(high)],
        "twice_heuristic_met": bool(low > 0),
    }
    if level == 1:
        row["level_1_target_met"] = bool(mine.mean() >= LEVEL_1_TARGET)
    if agent == "scratch-search" and level in SEARCH_TARGETS:
        row["search_target"] = SEARCH_TARGETS[level]
        row["search_target_met"] = bool(mine.mean() >= SEARCH_TARGETS[level])
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], allow_abbrev=False)
    parser.add_argument("--run", type=Path, required=True, help="a friday eval run folder")
    parser.add_argument("--agent", required=True, help="the registered agent, e.g. scratch")
    args = parser.parse_args()
    games = read_games(args.run)
    levels = sorted({game["level"] for game in games})
    rows = [level_target(*paired_wins(games, args.agent, lv), lv, args.agent) for lv in levels]
    name = "targets.json" if args.agent == "scratch" else f"targets-{args.agent}.json"
    (args.run / name).write_text(
        json.dumps({"agent": args.agent, "resamples": RESAMPLES, "levels": rows}, indent=1) + "\n"
    )
    for row in rows:
        diff, low, high = (100 * x for x in row["minus_twice_heuristic"])
        print(
            f"level {row['level']}: {args.agent} {100 * row['win_rate']:.1f} %, heuristic "
            f"{100 * row['heuristic_win_rate']:.1f} %; {args.agent} - 2 x heuristic "
            f"{diff:+.1f} [{low:+.1f}, {high:+.1f}] points"
        )


if __name__ == "__main__":
    main()
