"""The level-4 leaf study's selection rules 1-3 (PLAN.md), applied to committed results.

    python experiments/level4-value/select.py fit       # rule 1: which fit
    python experiments/level4-value/select.py leaf      # rules 2 and 3: adopt it? which budget?

``fit`` reads the fit reports in ``results/fits/`` (``friday value fit --report``), picks the
lowest validation log-loss (ties within 0.002: the smaller network; between two fits of one size,
the one on every position, the plan's default), writes ``results/fits/chosen.json`` and, beside
the chosen network, the per-level file the agents play (``results/leaf_per_level.json``: guided's
models on levels 1-3, the network on level 4).

``leaf`` reads stage C's ``friday eval --deals validation`` run (``results/validation``: guided and
``guided:value=<per-level file>`` at 32 and 256 simulations, 500 level-4 validation deals) and
writes ``results/validation/decision.json``: rule 2 (adopted when the paired point difference at
32 simulations is >= 0 and the network wins more deals than guided at 256), rule 3 (the largest
budget that wins more than 32 on the same deals within 2x guided's CPU per game at 32, measured
as the runs' seconds per game summed over the same deals).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from friday_agents.harness.games_file import GAMES_FILE, read_games
from friday_agents.harness.stats import paired_difference_interval

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
RESULTS = HERE / "results"
FITS = RESULTS / "fits"
#: Rule 1's candidates, in the plan's order (the default first).
FIT_NAMES = ("h64", "h128", "h64-base")
TIE = 0.002
PER_LEVEL = RESULTS / "leaf_per_level.json"
GUIDED_MODELS = Path("agents/friday_agents/models")
CPU_LIMIT = 2.0


def choose_fit() -> dict:
    reports = {}
    for name in FIT_NAMES:
        path = FITS / f"{name}.json"
        if path.exists():
            reports[name] = json.loads(path.read_text())
    if not reports:
        sys.exit(f"select.py: no fit report in {FITS} (run stage B first)")
    loss = {name: r["held_out"]["network"]["log_loss"] for name, r in reports.items()}
    size = {name: sum(r["hidden"]) for name, r in reports.items()}
    best = min(loss.values())
    near = [name for name in reports if loss[name] <= best + TIE]
    # smallest network first, then the plan's order (all positions before base-only)
    chosen = min(near, key=lambda name: (size[name], FIT_NAMES.index(name)))
    decision = {
        "rule": "PLAN.md rule 1: lowest validation log-loss; ties within 0.002: the smaller "
        "network; one size twice: the fit on every position",
        "validation_log_loss": loss,
        "constant_log_loss": {n: r["held_out"]["constant"]["log_loss"] for n, r in reports.items()},
        "chosen": chosen,
        "network": f"{chosen}.npz",
    }
    (FITS / "chosen.json").write_text(json.dumps(decision, indent=1) + "\n")
    _write_per_level(FITS / f"{chosen}.npz")
    return decision


def _write_per_level(network: Path) -> None:
    guided = json.loads((ROOT / GUIDED_MODELS / "guided_value_per_level.json").read_text())
    levels = {
        level: str(Path("..", "..", "..", GUIDED_MODELS, name))
        if level != "4"
        else str(network.relative_to(RESULTS))
        for level, name in guided["levels"].items()
    }
    missing = [p for p in levels.values() if not (RESULTS / p).exists()]
    if missing:
        sys.exit(f"select.py: the per-level file would name missing models: {missing}")
    PER_LEVEL.write_text(
        json.dumps(
            {
                "format": "friday-env/value-per-level",
                "levels": levels,
                "note": "guided's models on levels 1-3; level 4: the leaf network chosen by "
                "experiments/level4-value/PLAN.md rule 1 (fits/chosen.json)",
            },
            indent=1,
        )
        + "\n"
    )


def decide_leaf(directory: Path) -> dict:
    rows = {}
    for row in read_games(directory / GAMES_FILE):
        rows[(_label(row["agent"]), row["index"])] = row
    deals = sorted({index for _, index in rows})
    agents = ("guided@32", "leaf@32", "guided@256", "leaf@256")
    missing = [a for a in agents for d in deals if (a, d) not in rows]
    if missing:
        sys.exit(f"select.py: stage C incomplete ({len(missing)} games missing); resume it first")
    won = {a: [float(rows[(a, d)]["won"]) for d in deals] for a in agents}
    seconds = {a: sum(rows[(a, d)]["seconds"] for d in deals) for a in agents}

    def paired(first: str, second: str) -> dict:
        mean, low, high = paired_difference_interval(won[first], won[second])
        return {"points": round(100 * mean, 1), "interval": [round(100 * low, 1), round(100 * high, 1)]}

    wins = {a: int(np.sum(won[a])) for a in agents}
    adopted = paired("guided@32", "leaf@32")["points"] >= 0 and wins["leaf@256"] > wins["guided@256"]
    chosen = "leaf" if adopted else "guided"
    cpu_ratio = seconds[f"{chosen}@256"] / seconds["guided@32"]
    budget = 256 if wins[f"{chosen}@256"] > wins[f"{chosen}@32"] and cpu_ratio <= CPU_LIMIT else 32
    decision = {
        "deals": len(deals),
        "wins": wins,
        "leaf_minus_guided_at_32": paired("guided@32", "leaf@32"),
        "leaf_minus_guided_at_256": paired("guided@256", "leaf@256"),
        "leaf_256_minus_32": paired("leaf@32", "leaf@256"),
        "guided_256_minus_32": paired("guided@32", "guided@256"),
        "seconds_per_game": {a: round(seconds[a] / len(deals), 4) for a in agents},
        "rule_2_adopted": adopted,
        "rule_3_budget": budget,
        "rule_3_cpu_ratio_of_256": round(cpu_ratio, 2),
    }
    (directory / "decision.json").write_text(json.dumps(decision, indent=1) + "\n")
    return decision


def _label(spec: str) -> str:
    sims = "256" if "sims=256" in spec else "32"
    return ("leaf" if "value=" in spec else "guided") + "@" + sims


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rule", choices=("fit", "leaf"), help="fit: rule 1; leaf: rules 2 and 3")
    parser.add_argument("--validation", type=Path, default=RESULTS / "validation",
                        help="stage C's eval folder (leaf)")
    args = parser.parse_args(argv)
    decision = choose_fit() if args.rule == "fit" else decide_leaf(args.validation)
    print(json.dumps(decision, indent=1))


if __name__ == "__main__":
    main()
