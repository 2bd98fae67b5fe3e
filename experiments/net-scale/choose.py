"""`net` at scale: the plan's rules for stages 2-4 (PLAN.md), applied to committed results.

    python experiments/net-scale/choose.py round       # stage 2: which round is fine-tuned
    python experiments/net-scale/choose.py selection   # stage 3: which network becomes `net`
    python experiments/net-scale/choose.py evaluation  # stage 4: the evaluation against the targets

``round`` reads each finished round's ``summary.json`` in ``results/distill/`` (the network alone
on validation deals 0-499 of levels 1-4, measured by ``friday distill``), picks the highest mean
win rate over the four levels (ties: the later round), writes ``results/distill/chosen.json`` and
prints the chosen network's path (``run.sh`` reads it).

``selection`` reads stage 3's ``friday eval --deals validation`` run (``results/selection``: every
candidate on validation deals 0-499 of each level), picks the highest mean win rate over the four
levels (ties: the later candidate, in the plan's order: today's `net`, the rounds, the level-1 and
level-4 fine-tuned networks), writes ``results/selection/choice.json`` and prints the chosen spec.

``evaluation`` reads stage 4's run (``results/eval``: the chosen network on 1,000 evaluation deals
per level) and writes ``results/eval/summary.json``: win rates with Wilson 95 % intervals against
the targets (>= 85 % on level 1, >= 40 % on level 4), each missed target's gap, and the time per
decision (wall seconds over actions: on a shared machine, an upper bound on the CPU) against 1 ms.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from friday_agents.harness.games_file import GAMES_FILE, read_games
from friday_agents.harness.paths import plain_or_compressed
from friday_agents.harness.stats import wilson_interval
from friday_agents.players.resolved import played_specs

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
RESULTS = HERE / "results"
LEVELS = (1, 2, 3, 4)
#: The network-alone targets (the issue's, fixed in PLAN.md) and the time limit per decision.
TARGETS = {1: 0.85, 4: 0.40}
MS_PER_DECISION = 1.0
#: "Today's `net`" of the plan: the network `net` named when it was written, `net-v1` since
#: amendment 10 installed the chosen one as `net` (the committed games name it `net`).
TODAYS_NET = "net:model=net-v1"
#: The fine-tuning runs of stage 2, in the plan's order (level 1, then level 4).
RL_RUNS = ("rl-l1", "rl-l4")


def _mean_win_rate(by_level: dict[int, float]) -> float:
    return float(np.mean([by_level[level] for level in LEVELS]))


def _mean_of(rates: dict[int, dict]) -> float:
    return round(_mean_win_rate({level: rate["win_rate"] for level, rate in rates.items()}), 4)


def choose_round(distill: Path) -> dict:
    rounds = sorted(distill.glob("round-*/summary.json"))
    if not rounds:
        sys.exit(f"choose.py: no finished round in {distill} (run stage 1 first)")
    table = {}
    for path in rounds:
        levels = json.loads(path.read_text())["net"]["levels"]
        by_level = {level: levels[str(level)]["win_rate"] for level in LEVELS}
        table[path.parent.name] = {
            "win_rate": by_level,
            "mean_win_rate": round(_mean_win_rate(by_level), 4),
            "network": (path.parent / "network.npz").relative_to(ROOT).as_posix(),
        }
    best = max(row["mean_win_rate"] for row in table.values())
    chosen = [name for name, row in table.items() if row["mean_win_rate"] == best][-1]
    return {
        "rule": "highest mean validation win rate of the network alone over levels 1-4 "
        "(500 deals each); ties: the later round",
        "rounds": table,
        "chosen": chosen,
        "network": table[chosen]["network"],
    }


def candidates() -> list[str]:
    """Stage 3's candidates as ``friday eval`` specs, in the plan's order (ties go to the later)."""
    relative = RESULTS.relative_to(ROOT)
    specs = [TODAYS_NET]
    specs += [
        f"net:model={(relative / 'distill' / path.parent.name / 'network.npz').as_posix()}"
        for path in sorted((RESULTS / "distill").glob("round-*/network.npz"))
    ]
    specs += [f"net:model={(relative / run / 'policy.npz').as_posix()}" for run in RL_RUNS]
    return specs


def _rows_by_agent(directory: Path) -> dict[str, list[dict]]:
    path = plain_or_compressed(directory / GAMES_FILE)  # over 1 MB: committed as .gz
    if not path.exists():
        sys.exit(f"choose.py: no {path} (run that stage first)")
    # each spec as it played: the run's resolved specs (its `net` played before amendment 10
    # installed the chosen network as `net`, so it is `net:model=net-v1`)
    played = played_specs(json.loads((directory / "results.json").read_text()))
    rows: dict[str, list[dict]] = {}
    for row in read_games(path):
        rows.setdefault(played[row["agent"]], []).append(row)
    return rows


def _rate(rows: list[dict]) -> dict:
    wins = sum(bool(row["won"]) for row in rows)
    low, high = wilson_interval(wins, len(rows))
    return {"games": len(rows), "wins": wins, "win_rate": wins / len(rows), "wilson95": [low, high]}


def choose_network(directory: Path) -> dict:
    rows = _rows_by_agent(directory)
    order = [spec for spec in candidates() if spec in rows]
    missing = [spec for spec in candidates() if spec not in rows]
    if missing or len(order) < 2 + len(RL_RUNS):
        sys.exit(f"choose.py: stage 3 needs every candidate on the same deals; missing {missing}")
    table = {}
    for spec in order:
        by_level = {
            level: _rate([row for row in rows[spec] if row["level"] == level]) for level in LEVELS
        }
        table[spec] = {
            "by_level": by_level,
            "mean_win_rate": _mean_of(by_level),
        }
    best = max(row["mean_win_rate"] for row in table.values())
    chosen = [spec for spec in order if table[spec]["mean_win_rate"] == best][-1]
    return {
        "rule": "highest mean validation win rate of the network alone over levels 1-4 (deals "
        "0-499 each); ties: the later candidate (net, the rounds, rl-l1, rl-l4)",
        "candidates": table,
        "chosen": chosen,
    }


def evaluation_summary(directory: Path) -> dict:
    rows = _rows_by_agent(directory)
    if len(rows) != 1:
        sys.exit(f"choose.py: stage 4 plays one network, {directory} holds {sorted(rows)}")
    ((spec, games),) = rows.items()
    levels = {}
    for level in LEVELS:
        mine = [row for row in games if row["level"] == level]
        rate = _rate(mine)
        target = TARGETS.get(level)
        if target is not None:
            rate |= {"target": target, "met": rate["win_rate"] >= target}
            rate["gap_points"] = round(100 * (rate["win_rate"] - target), 1)
        levels[level] = rate
    seconds = sum(row["seconds"] for row in games)
    milliseconds = 1000 * seconds / sum(row["actions"] for row in games)
    return {
        "agent": spec,
        "deals": "evaluation deals 0-999 of each level, played once",
        "levels": levels,
        "mean_win_rate": _mean_of(levels),
        "ms_per_decision": round(milliseconds, 4),
        "ms_per_decision_note": "wall seconds of the games over their actions (every decision, "
        "the game's own steps included): on a shared machine, an upper bound on the CPU",
        "time_met": milliseconds <= MS_PER_DECISION,
    }


def _write(path: Path, report: dict) -> None:
    path.write_text(json.dumps(report, indent=1) + "\n")
    print(f"wrote {path}", file=sys.stderr)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.split("\n\n")[0])
    parser.add_argument("stage", choices=("round", "selection", "evaluation"))
    args = parser.parse_args(argv)
    if args.stage == "round":
        report = choose_round(RESULTS / "distill")
        _write(RESULTS / "distill" / "chosen.json", report)
        print(report["network"])
    elif args.stage == "selection":
        report = choose_network(RESULTS / "selection")
        _write(RESULTS / "selection" / "choice.json", report)
        print(report["chosen"])
    else:
        report = evaluation_summary(RESULTS / "eval")
        _write(RESULTS / "eval" / "summary.json", report)
        print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
