"""The level-4 breadth study's rules 1 and 2 (PLAN.md), applied to committed results:
``python experiments/level4-breadth/choose.py``.

Reads the validation run (``results/validation``: the candidates on level-4 validation deals
0-499) and ``results/cost.json`` (CPU per game, ``cost.py``), and writes
``results/decision.json``: rule 1 (among the candidates at most 2x guided's CPU per game, the
highest win rate; ties within 1 point: the cheaper) and rule 2 (adopted when the paired
difference against guided on the same deals has a 95 % interval above 0).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from friday_agents.harness.games_file import GAMES_FILE, read_games
from friday_agents.harness.stats import paired_difference_interval, wilson_interval

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
REFERENCE = "guided"
CPU_LIMIT = 2.0
TIE_POINTS = 1.0


def decide(validation: Path, cost: dict) -> dict:
    wins: dict[str, dict[int, bool]] = {}
    for row in read_games(validation / GAMES_FILE):
        wins.setdefault(row["agent"], {})[row["index"]] = bool(row["won"])
    deals = sorted(wins[REFERENCE])
    if any(sorted(games) != deals for games in wins.values()):
        sys.exit("choose.py: the candidates did not all play the same deals")
    ratio = cost["ratio_to_guided"]
    table = {}
    for spec, games in wins.items():
        won = [games[index] for index in deals]
        low, high = wilson_interval(sum(won), len(won))
        table[spec] = {
            "wins": sum(won),
            "win_rate": sum(won) / len(won),
            "wilson95": [low, high],
            "cpu_ratio": ratio[spec],
            "eligible": ratio[spec] <= CPU_LIMIT,
        }
    eligible = {spec: row for spec, row in table.items() if row["eligible"]}
    best = max(row["win_rate"] for row in eligible.values())
    near = [spec for spec, row in eligible.items() if 100 * (best - row["win_rate"]) <= TIE_POINTS]
    chosen = min(near, key=lambda spec: eligible[spec]["cpu_ratio"])
    reference = [float(wins[REFERENCE][index]) for index in deals]
    mine = [float(wins[chosen][index]) for index in deals]
    mean, low, high = paired_difference_interval(reference, mine)
    return {
        "deals": f"level-4 validation deals {deals[0]}-{deals[-1]}",
        "candidates": table,
        "rule_1": f"highest win rate among candidates at most {CPU_LIMIT}x guided's CPU per "
        f"game; ties within {TIE_POINTS} point: the cheaper",
        "rule_1_choice": chosen,
        "paired_difference_points": [round(100 * v, 1) for v in (mean, low, high)],
        "rule_2": "adopted when the paired difference's 95 % interval against guided is above 0",
        "rule_2_adopted": chosen != REFERENCE and low > 0,
        "mean_cpu_seconds": cost["cpu_seconds_per_game"],
    }


def main(argv: list[str] | None = None) -> None:
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args(argv)
    cost_file = RESULTS / "cost.json"
    if not cost_file.exists():
        sys.exit(f"choose.py: no {cost_file} (run cost.py first)")
    report = decide(RESULTS / "validation", json.loads(cost_file.read_text()))
    (RESULTS / "decision.json").write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
