"""The level-4 breadth study's rules (PLAN.md), applied to committed results.

    python experiments/level4-breadth/choose.py rules       # rules 1 and 2 (level 4)
    python experiments/level4-breadth/choose.py rules --level 2  # amendment 2: levels 1-3
    python experiments/level4-breadth/choose.py evaluation  # rule 3's runs, summarised

Reads the validation run (``results/validation``: the candidates on level-4 validation deals
0-499) and ``results/cost.json`` (CPU per game, ``cost.py``), and writes
``results/decision.json``: rule 1 (among the candidates at most 2x guided's CPU per game, the
highest win rate; ties within 1 point: the cheaper) and rule 2 (adopted when the paired
difference against guided on the same deals has a 95 % interval above 0).

``evaluation`` reads rule 3's runs (``results/evaluation``) and writes
``results/evaluation/summary.json`` and ``curve.png``: the adopted configuration on 1,000 level-4
evaluation deals, paired against guided's committed games on the same deals (the level-4 leaf
study's), 256 against 32 simulations on the first 500, and the curve over the first 300 beside
guided's (the level-4 leaf study's ``results/evaluation/summary.json``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from friday_agents.harness.games_file import GAMES_FILE, read_games
from friday_agents.harness.stats import (
    paired_difference_interval,
    paired_points,
    wilson_interval,
    win_rate_in_percent,
)
from friday_agents.players.resolved import played_specs

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
#: guided with one candidate: the reference of rule 2 (the committed level-4 runs name it bare
#: ``guided``, its default then; their resolved specs spell that out).
REFERENCE = "guided:top=1"
CPU_LIMIT = 2.0
TIE_POINTS = 1.0
#: Guided's committed level-4 evaluation games (``top=1``), which rule 3 pairs against.
GUIDED_EVALUATION = HERE.parent / "level4-value" / "results" / "evaluation" / "level4"
GUIDED_SPEC = "guided:prior=net:value=experiments/level4-value/results/leaf_per_level.json"
SIMS = (16, 32, 64, 128, 256, 512)


def decide(validation: Path, cost: dict, level: int) -> dict:
    wins: dict[str, dict[int, bool]] = {}
    # each spec as it played (the run's resolved specs); cost.py timed the same specs then
    played = played_specs(json.loads((validation / "results.json").read_text()))
    for row in read_games(validation / GAMES_FILE):
        if row["level"] == level:
            agent = played[row["agent"]]
            wins.setdefault(agent, {})[row["index"]] = bool(row["won"])
    deals = sorted(wins[REFERENCE])
    if any(sorted(games) != deals for games in wins.values()):
        sys.exit("choose.py: the candidates did not all play the same deals")
    ratio = {played[spec]: r for spec, r in cost["ratio_to_guided"].items()}
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
        "deals": f"level-{level} validation deals {deals[0]}-{deals[-1]}",
        "candidates": table,
        "rule_1": f"highest win rate among candidates at most {CPU_LIMIT}x guided's CPU per "
        f"game; ties within {TIE_POINTS} point: the cheaper",
        "rule_1_choice": chosen,
        "paired_difference_points": [round(100 * v, 1) for v in (mean, low, high)],
        "rule_2": "adopted when the paired difference's 95 % interval against guided is above 0",
        "rule_2_adopted": chosen != REFERENCE and low > 0,
        "mean_cpu_seconds": cost["cpu_seconds_per_game"],
    }


def evaluation_summary(directory: Path) -> dict:
    wins: dict[tuple[str, int], float] = {}
    seconds: dict[tuple[str, int], float] = {}
    for run in ("level4", "level4-256", "level4-curve"):
        for row in read_games(directory / run / GAMES_FILE):
            wins[(row["agent"], row["index"])] = float(row["won"])
            seconds[(row["agent"], row["index"])] = row["seconds"]
    for row in read_games(GUIDED_EVALUATION / GAMES_FILE):
        if row["agent"] == GUIDED_SPEC:
            wins[(REFERENCE, row["index"])] = float(row["won"])
    (chosen,) = json.loads((directory / "level4" / "results.json").read_text())["config"]["agents"]
    top = chosen.split("top=")[1]

    def spec(sims: int | None) -> str:
        if sims is None:
            return REFERENCE
        return chosen if sims == 32 else f"guided:sims={sims}:top={top}"

    def won(sims: int | None, deals: range) -> list[float]:
        agent = spec(sims)
        missing = [index for index in deals if (agent, index) not in wins]
        if missing:
            sys.exit(f"choose.py: {agent} lacks {len(missing)} level-4 games; resume evaluate.sh")
        return [wins[(agent, index)] for index in deals]

    every, first_500, first_300 = range(1000), range(500), range(300)
    guided_curve = json.loads((GUIDED_EVALUATION.parent / "summary.json").read_text())
    summary = {
        "agent": chosen,
        "level4": win_rate_in_percent(won(32, every)),
        "guided_level4": win_rate_in_percent(won(None, every)),
        "minus_guided": paired_points(won(None, every), won(32, every)),
        "level4_32_first_500": win_rate_in_percent(won(32, first_500)),
        "level4_256_first_500": win_rate_in_percent(won(256, first_500)),
        "256_minus_32": paired_points(won(32, first_500), won(256, first_500)),
        "curve_first_300": {sims: win_rate_in_percent(won(sims, first_300)) for sims in SIMS},
        "guided_curve_first_300": guided_curve["curve_first_300"],
        "seconds_per_game_first_300": {
            sims: round(sum(seconds[(spec(sims), i)] for i in first_300) / 300, 3) for sims in SIMS
        },
        "seconds_note": "friday eval's wall seconds on the shared machine (one worker, the "
        "net-scale run beside it): a rough cost; cost.py measures the CPU",
    }
    summary["targets"] = {
        "level4_at_least_60": summary["level4"]["win_rate"] >= 60,
        "256_not_lower_than_32": summary["256_minus_32"]["points"] >= 0,
    }
    _plot_curve(summary, directory / "curve.png")
    return summary


def _plot_curve(summary: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(6, 4))
    curves = {
        summary["agent"]: summary["curve_first_300"],
        "guided with top=1 (the level-4 leaf study)": summary["guided_curve_first_300"],
    }
    for label, curve in curves.items():
        points = sorted((int(sims), rate["win_rate"]) for sims, rate in curve.items())
        axis.plot(*zip(*points, strict=True), "o-", label=label)
    axis.set_xscale("log", base=2)
    axis.set_xlabel("simulations per decision")
    axis.set_ylabel("level-4 win rate % (evaluation deals 0-299)")
    axis.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "stage", choices=("rules", "evaluation"), help="rules 1-2, or rule 3's runs"
    )
    parser.add_argument(
        "--level",
        type=int,
        default=4,
        choices=(1, 2, 3, 4),
        help="rules: the level (1-3: amendment 2)",
    )
    args = parser.parse_args(argv)
    if args.stage == "evaluation":
        summary = evaluation_summary(RESULTS / "evaluation")
        (RESULTS / "evaluation" / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
        print(json.dumps(summary, indent=1))
        return
    suffix = "" if args.level == 4 else f"-level{args.level}"
    cost_file = RESULTS / f"cost{suffix}.json"
    if not cost_file.exists():
        sys.exit(f"choose.py: no {cost_file} (run cost.py first)")
    validation = RESULTS / ("validation" if args.level == 4 else "validation-levels1-3")
    report = decide(validation, json.loads(cost_file.read_text()), args.level)
    (RESULTS / f"decision{suffix}.json").write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
