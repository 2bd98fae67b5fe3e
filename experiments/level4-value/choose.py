"""The level-4 leaf study's selection rules 1-3 (PLAN.md), applied to committed results.

    python experiments/level4-value/choose.py fit       # rule 1: which fit
    python experiments/level4-value/choose.py leaf      # rules 2 and 3: adopt it? which budget?
    python experiments/level4-value/choose.py prior     # amendment 2: net as guided's prior?
    python experiments/level4-value/choose.py evaluation  # stage D against the targets

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
as the runs' seconds per game summed over the same deals). ``prior`` adds the same deals
played with `net` as guided's prior (and 500 validation deals of levels 1-3,
``results/validation-levels1-3``) and writes ``results/validation/prior.json``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from friday_agents.harness.games_file import GAMES_FILE, read_games
from friday_agents.harness.stats import paired_points, win_rate_in_percent

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
        sys.exit(f"choose.py: no fit report in {FITS} (run stage B first)")
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
        sys.exit(f"choose.py: the per-level file would name missing models: {missing}")
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
    rows = _rows_by_label(directory)
    deals = sorted({index for _, index in rows})
    agents = ("guided@32", "leaf@32", "guided@256", "leaf@256")
    missing = [a for a in agents for d in deals if (a, d) not in rows]
    if missing:
        sys.exit(f"choose.py: stage C incomplete ({len(missing)} games missing); resume it first")
    won = {a: [float(rows[(a, d)]["won"]) for d in deals] for a in agents}
    seconds = {a: sum(rows[(a, d)]["seconds"] for d in deals) for a in agents}

    def paired(first: str, second: str) -> dict:
        return paired_points(won[first], won[second])

    wins = {a: int(np.sum(won[a])) for a in agents}
    adopted = (
        paired("guided@32", "leaf@32")["points"] >= 0 and wins["leaf@256"] > wins["guided@256"]
    )
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
    """``[net+]guided|leaf@sims`` of an agent spec of stage C: ``leaf`` when it names the
    per-level file, ``net+`` when `net` is its prior. The committed games name guided's
    defaults of the time (guided's prior, guided-value-per-level) by the bare word ``guided``;
    ``run.sh`` now spells them out (the study changed the defaults afterwards)."""
    sims = "256" if "sims=256" in spec else "32"
    prior = "net+" if "prior=net" in spec else ""
    return prior + ("leaf" if PER_LEVEL.name in spec else "guided") + "@" + sims


def _rows_by_label(directory: Path, level: int | None = None) -> dict[tuple[str, int], dict]:
    return {
        (_label(row["agent"]), row["index"]): row
        for row in read_games(directory / GAMES_FILE)
        if level is None or row["level"] == level
    }


def choose_prior(directory: Path) -> dict:
    """Amendment 2's rule: `net` as guided's prior when its paired win-rate difference,
    averaged over the four levels (500 validation deals each), is above 0 and its CPU per game
    (all four levels together) is within 2x guided's."""
    leaf = json.loads((directory / "decision.json").read_text())
    value = "leaf" if leaf["rule_2_adopted"] else "guided"
    per_level, seconds = {}, {"default": 0.0, "net": 0.0, "guided": 0.0}
    for level in (1, 2, 3, 4):
        folder = directory if level == 4 else Path(f"{directory}-levels1-3")
        rows = _rows_by_label(folder, level)
        base, net = (
            (f"{value}@32", f"net+{value}@32") if level == 4 else ("guided@32", "net+guided@32")
        )
        deals = sorted(i for label, i in rows if label == net)
        if len(deals) < 500 or any((base, d) not in rows for d in deals):
            sys.exit(f"choose.py: level {level}'s prior games are incomplete; resume stage C")
        first = [float(rows[(base, d)]["won"]) for d in deals]
        second = [float(rows[(net, d)]["won"]) for d in deals]
        per_level[level] = {"default": base, "with_net": net, **paired_points(first, second)}
        seconds["default"] += sum(rows[(base, d)]["seconds"] for d in deals)
        seconds["net"] += sum(rows[(net, d)]["seconds"] for d in deals)
        seconds["guided"] += sum(rows[("guided@32", d)]["seconds"] for d in deals)
    mean_points = float(np.mean([r["points"] for r in per_level.values()]))
    cpu_ratio = seconds["net"] / seconds["guided"]
    decision = {
        "rule": "amendment 2: net as prior when the mean paired difference over levels 1-4 is "
        "above 0 and its CPU per game is within 2x guided's",
        "value": value,
        "per_level": per_level,
        "mean_points": round(mean_points, 2),
        "cpu_ratio_to_guided": round(cpu_ratio, 2),
        "adopted": mean_points > 0 and cpu_ratio <= CPU_LIMIT,
    }
    (directory / "prior.json").write_text(json.dumps(decision, indent=1) + "\n")
    return decision


def evaluation_summary(directory: Path) -> dict:
    """Stage D against the plan's targets (``evaluate.sh``'s four runs in ``directory``):
    the chosen agent's win rates per level, paired against guided on level 4, 256 against 32
    simulations on the first 500 level-4 deals, and the curve over the first 300."""
    rows: dict[tuple[str, int, int], dict] = {}
    for run in ("level4", "level4-256", "level4-curve", "levels1-3"):
        for row in read_games(directory / run / GAMES_FILE):
            rows[(row["agent"], row["level"], row["index"])] = row
    # the chosen agent, then guided as it was before the study (named `guided` then)
    chosen, before = json.loads((directory / "level4" / "results.json").read_text())["config"][
        "agents"
    ]

    def spec(sims: int) -> str:
        return chosen if sims == 32 else f"{chosen}:sims={sims}"

    def won(agent: str, level: int, deals: range) -> list[float]:
        missing = [d for d in deals if (agent, level, d) not in rows]
        if missing:
            sys.exit(f"choose.py: {agent} lacks {len(missing)} games of level {level}; resume")
        return [float(rows[(agent, level, d)]["won"]) for d in deals]

    rate, paired = win_rate_in_percent, paired_points
    all_deals, first_500, first_300 = range(1000), range(500), range(300)
    summary = {
        "agent": chosen,
        "per_level": {level: rate(won(chosen, level, all_deals)) for level in (1, 2, 3, 4)},
        "guided_level4": rate(won(before, 4, all_deals)),
        "level4_minus_guided": paired(won(before, 4, all_deals), won(chosen, 4, all_deals)),
        "level4_256_minus_32": paired(won(chosen, 4, first_500), won(spec(256), 4, first_500)),
        "level4_32_first_500": rate(won(chosen, 4, first_500)),
        "level4_256_first_500": rate(won(spec(256), 4, first_500)),
        "curve_first_300": {
            sims: rate(won(spec(sims), 4, first_300)) for sims in (16, 32, 64, 128, 256, 512)
        },
        "seconds_per_game_first_300": {
            sims: round(float(np.mean([rows[(spec(sims), 4, d)]["seconds"] for d in first_300])), 3)
            for sims in (16, 32, 64, 128, 256, 512)
        },
    }
    summary["targets"] = {
        "level4_at_least_60": summary["per_level"][4]["win_rate"] >= 60,
        "level1_at_least_95": summary["per_level"][1]["win_rate"] >= 95,
        "256_not_lower_than_32": summary["level4_256_minus_32"]["points"] >= 0,
    }
    (directory / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    return summary


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "rule",
        choices=("fit", "leaf", "prior", "evaluation"),
        help="fit: rule 1; leaf: rules 2 and 3; prior: amendment 2's prior rule; evaluation: "
        "stage D against the targets (results/evaluation/summary.json)",
    )
    parser.add_argument(
        "--validation",
        type=Path,
        default=RESULTS / "validation",
        help="stage C's eval folder (leaf)",
    )
    args = parser.parse_args(argv)
    rules = {
        "fit": choose_fit,
        "leaf": lambda: decide_leaf(args.validation),
        "prior": lambda: choose_prior(args.validation),
        "evaluation": lambda: evaluation_summary(RESULTS / "evaluation"),
    }
    decision = rules[args.rule]()
    print(json.dumps(decision, indent=1))


if __name__ == "__main__":
    main()
