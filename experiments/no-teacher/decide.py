"""The decisions of stages 2 and 4 (PLAN.md), read from the runs' held-out curves, and of
stages 3 and 5, read from their ``friday eval`` selections on validation deals; each writes
``results/stageN-decision.json`` and prints it:

    python experiments/no-teacher/decide.py 2    # the coefficient of stages 5-6
    python experiments/no-teacher/decide.py 3    # whether stage 5 ends on a variant
    python experiments/no-teacher/decide.py 4    # whether 256-256 joins the candidates
    python experiments/no-teacher/decide.py 4-select  # whether the wide run wins stage 1's
    python experiments/no-teacher/decide.py 5    # which policy becomes scratch
    python experiments/no-teacher/decide.py 6-margin  # the labelling search's margin
    python experiments/no-teacher/decide.py 6-select  # which search becomes scratch-search

Never reads an evaluation deal.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from report import curve_rows, heldout_points

HERE = Path(__file__).resolve().parent
RUNS = HERE / "runs"
RESULTS = HERE / "results"
BUDGET = 25_000_000  # stages 2 and 4 compare the last three points at or before this
SWEEP = {0.05: "s1-c0.05-l1", 0.1: "s1-c0.1-l1", 0.2: "s1-c0.2-l1"}
KEEP_WITHIN = 0.02  # stage 2: within 2 points of c = 0.1's, 0.1 stays
WIDE_AHEAD = 0.05  # stage 4: the 256-256 run joins if at least 5 points ahead
VARIANT_AHEAD = 0.03  # stage 3: a variant is adopted if at least 3 points over the control
LEVELS = (1, 2, 3, 4)


def last_three_level1(run: str) -> dict[str, Any]:
    """The mean held-out level-1 win rate of the run's last three points at or before 25 M
    frames (600 games of the 200 validation deals)."""
    points = [p for p in heldout_points(curve_rows(RUNS / run)) if p["frames"] <= BUDGET]
    last = points[-3:]
    if len(last) < 3 or last[-1]["frames"] < BUDGET - 81_920:
        raise SystemExit(f"{run}: its curve has not reached {BUDGET:,} frames yet")
    rates = [p["win_rate"]["1"] for p in last]
    return {
        "run": run,
        "frames": [p["frames"] for p in last],
        "rates": rates,
        "mean": sum(rates) / 3,
    }


def stage2() -> dict[str, Any]:
    rows = {str(coef): last_three_level1(run) for coef, run in SWEEP.items()}
    best = max(SWEEP, key=lambda c: (rows[str(c)]["mean"], c == 0.1))
    keep = rows[str(best)]["mean"] - rows["0.1"]["mean"] < KEEP_WITHIN
    chosen = 0.1 if keep else best
    rule = (
        "the highest mean of the last three level-1 points <= 25 M; within 2 points of 0.1's, 0.1"
    )
    return {"rule": rule, "runs": rows, "highest": best, "chosen_coef": chosen}


def stage4() -> dict[str, Any]:
    wide, narrow = last_three_level1("s1-c0.1-l1-w256"), last_three_level1("s1-c0.1-l1")
    ahead = wide["mean"] - narrow["mean"]
    return {
        "rule": "256-256 joins stage 1's selection if >= 5 points ahead of 64-64 (seed 1)",
        "wide": wide,
        "narrow": narrow,
        "ahead": ahead,
        "joins": ahead >= WIDE_AHEAD,
    }


def stage4_select() -> dict[str, Any]:
    """Amendment 2: the wide run at 60 M frames as stage 1's fourth candidate, on the same 500
    level-1 validation deals (the three seeds' games are stage 1's selection's)."""
    seeds = json.loads((RESULTS / "stage1-selection" / "choice.json").read_text())
    wide = validation_rates(RESULTS / "stage4-selection")
    (agent, level), rate = next(iter(wide.items()))
    best = seeds["chosen"]
    return {
        "rule": "the wide run wins stage 1's selection with strictly more of the 500 level-1 "
        "validation deals than the three seeds' best (amendment 2)",
        "seeds_best": {"agent": best["agent"], "win_rate": best["win_rate"]},
        "wide": {"agent": agent, "level": level, "win_rate": rate},
        "wide_wins": rate > best["win_rate"],
    }


def validation_rates(folder: Path) -> dict[tuple[str, int], float]:
    results = json.loads((folder / "results.json").read_text())
    if results["config"].get("deals") != "validation":
        raise SystemExit(f"{folder}: a selection reads validation deals only")
    return {(row["agent"], row["level"]): row["win_rate"] for row in results["summary"]}


def stage3() -> dict[str, Any]:
    rates = validation_rates(RESULTS / "stage3-selection")
    runs = {
        name: f"net:model=experiments/no-teacher/runs/{name}/policy.npz"
        for name in ("s3-c0.1-l1-to80m", "s3-win-loss-20m", "s3-anneal-20m")
    }
    level1 = {name: rates[(agent, 1)] for name, agent in runs.items()}
    control = level1["s3-c0.1-l1-to80m"]
    ahead = {name: level1[name] - control for name in ("s3-win-loss-20m", "s3-anneal-20m")}
    best = max(ahead, key=lambda name: ahead[name])
    adopted = best if ahead[best] >= VARIANT_AHEAD else None
    return {
        "rule": "a variant is adopted if >= 3 points over the control on 500 level-1 "
        "validation deals (the better one if both)",
        "level1": level1,
        "ahead": ahead,
        "adopted": adopted,
    }


def stage5() -> dict[str, Any]:
    rates = validation_rates(RESULTS / "stage5-selection")
    agents = sorted({agent for agent, _ in rates})
    means = {agent: sum(rates[(agent, lv)] for lv in LEVELS) / len(LEVELS) for agent in agents}
    stage1 = "net:model=experiments/no-teacher/runs/s3-c0.1-l1/policy.npz"
    other = next(agent for agent in agents if agent != stage1)
    chosen = other if means[other] > means[stage1] else stage1  # ties: stage 1's
    return {
        "rule": "the higher mean validation win rate over levels 1-4 (ties: stage 1's)",
        "by_level": {a: [rates[(a, lv)] for lv in LEVELS] for a in agents},
        "mean": means,
        "chosen": chosen,
    }


MARGINS = (0.0, 0.02, 0.05, 0.1, 0.2)  # amendment 4's sweep
STAGE6_LEVELS = (1, 4)


def mean_level_1_and_4(rates: dict[tuple[str, int], float], agent: str) -> float:
    return sum(rates[(agent, level)] for level in STAGE6_LEVELS) / len(STAGE6_LEVELS)


def stage6_margin() -> dict[str, Any]:
    rates = validation_rates(RESULTS / "stage6-margin")
    agents = {
        margin: next(a for a, _ in rates if a.endswith(f":margin={margin:g}")) for margin in MARGINS
    }
    means = {str(margin): mean_level_1_and_4(rates, agent) for margin, agent in agents.items()}
    chosen = max(MARGINS, key=lambda margin: (means[str(margin)], margin))  # ties: the larger
    return {
        "rule": "the highest mean of the level-1 and level-4 win rates on 100 validation deals "
        "each (ties: the larger margin)",
        "by_level": {str(m): [rates[(a, lv)] for lv in STAGE6_LEVELS] for m, a in agents.items()},
        "mean": means,
        "chosen_margin": chosen,
    }


def stage6_select() -> dict[str, Any]:
    results = json.loads((RESULTS / "stage6-selection" / "results.json").read_text())
    order = results["config"]["agents"]  # START's search first, then round 0, 1, ...
    rates = validation_rates(RESULTS / "stage6-selection")
    means = {agent: mean_level_1_and_4(rates, agent) for agent in order}
    chosen = max(order, key=lambda agent: (means[agent], -order.index(agent)))  # ties: earlier
    return {
        "rule": "the highest mean of the level-1 and level-4 win rates on 500 validation deals "
        "each (ties: the earlier candidate)",
        "by_level": {a: [rates[(a, lv)] for lv in STAGE6_LEVELS] for a in order},
        "mean": means,
        "chosen": chosen,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], allow_abbrev=False)
    stages = {
        "2": stage2,
        "3": stage3,
        "4": stage4,
        "4-select": stage4_select,
        "5": stage5,
        "6-margin": stage6_margin,
        "6-select": stage6_select,
    }
    parser.add_argument("stage", choices=stages)
    args = parser.parse_args()
    decision = stages[args.stage]()
    text = json.dumps(decision, indent=1) + "\n"
    (RESULTS / f"stage{args.stage}-decision.json").write_text(text)
    print(text, end="")


if __name__ == "__main__":
    main()
