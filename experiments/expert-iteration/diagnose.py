"""Where guided loses, with and without the learned prior: the diagnosis of the level-4 gap.

Reads a ``friday eval --save-games`` run on the validation deals (never the evaluation
deals), replays every game and counts, per agent and level: the games that reached the
pirates, Robinson's life and knowledge cards when they came, the win rate against them, and
where the lost games ended (green, yellow, red step, first or second pirate). The committed
diagnoses were played before the level-4 leaf study changed guided's defaults: their
``guided`` is ``guided:prior=guided-prior:value=guided-value-per-level:top=1`` and their
``guided:prior=net`` is ``guided:prior=net:value=guided-value-per-level:top=1`` (name those specs
to play them again).

    friday eval --agents guided,guided:prior=net --levels 1,4 \\
        --games 200 --deals validation --save-games --out results/diag-guided
    python experiments/expert-iteration/diagnose.py results/diag-guided \\
        --out experiments/expert-iteration/results/diagnosis.json
    friday eval --agents guided:prior=net --search-sims 128 --levels 4 \\
        --games 200 --deals validation --save-games --out results/diag-guided-sims128
    python experiments/expert-iteration/diagnose.py results/diag-guided-sims128 \\
        --out experiments/expert-iteration/results/diagnosis-sims128.json
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from pathlib import Path
from statistics import mean

from friday_agents.evaluation.strategy.trace import trace_actions
from friday_env import Game

STEP_NAMES = ("green", "yellow", "red", "pirates")


def game_ending(game: Game) -> str:
    """Where a finished game ended: "won", "green" ... "red", "pirate 1" or "pirate 2"."""
    if game.won:
        return "won"
    if STEP_NAMES[game.step] == "pirates":
        return f"pirate {len(game.beaten) + 1}"
    return STEP_NAMES[game.step]


def summarise(rows: list[dict]) -> dict:
    endings: Counter[str] = Counter()
    arrivals = []
    for row in rows:
        game = Game.new(row["level"], row["seed"])
        trace = trace_actions(game, row["record"]["actions"])  # plays the game to its end
        endings[game_ending(game)] += 1
        if trace.pirates is not None:
            arrivals.append((trace.pirates, trace.won))
    games = len(rows)
    reached = len(arrivals)
    return {
        "games": games,
        "wins": endings["won"],
        "reached_pirates": reached,
        "won_when_reached": round(sum(won for _, won in arrivals) / reached, 4)
        if reached
        else None,
        "life_at_pirates": round(mean(a.life for a, _ in arrivals), 2) if reached else None,
        "knowledge_at_pirates": (
            round(mean(len(a.knowledge) for a, _ in arrivals), 2) if reached else None
        ),
        "aging_at_pirates": round(mean(a.aging for a, _ in arrivals), 2) if reached else None,
        "lost_at": {
            name: endings[name] for name in ("green", "yellow", "red", "pirate 1", "pirate 2")
        },
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path, help="a friday eval --save-games output folder")
    parser.add_argument("--out", type=Path, required=True, help="results file to write (JSON)")
    args = parser.parse_args(argv)
    rows = [json.loads(line) for line in (args.run / "games.jsonl").read_text().splitlines()]
    if any("record" not in row for row in rows):
        parser.error(f"{args.run} was not run with --save-games: no game records to replay")
    run = json.loads((args.run / "run.json").read_text())
    if run.get("config", {}).get("deals") != "validation":
        parser.error(f"{args.run} did not play the validation deals (--deals validation)")
    groups: dict[tuple[str, int], list[dict]] = defaultdict(list)
    for row in rows:
        groups[row["agent"], row["level"]].append(row)
    result = {
        "games_from": {"folder": str(args.run), **run["config"]},
        "by_agent": [
            {"agent": agent, "level": level, **summarise(group)}
            for (agent, level), group in sorted(groups.items(), key=lambda kv: (kv[0][1], kv[0][0]))
        ],
    }
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
