"""How the from-scratch policies play: what their decisions are, and how far their games get.

Plays each run's last policy greedily (as ``net`` plays it), or each agent named by a spec, on
level-1 validation deals and counts, per run or agent: decisions, finished fights and pirates
beaten per game, the share of games that ended in each step (green, yellow, red, pirates),
and the share of decisions of each kind (an action's description up to its first detail:
"draw a card for 1 life", "draw a free card", "end the fight: ..." counted as "end the fight").

    python experiments/rl/behaviour.py --runs scratch50m-ppo-l1 scratch50m-counts-l1 \\
        scratch50m-shaped-l1 --out experiments/rl/eval/scratch_behaviour.json
    python experiments/rl/behaviour.py --agents scratch heuristic \\
        --out experiments/tracks/eval/scratch_behaviour.json
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from friday_agents.harness.deals import validation_seed
from friday_agents.harness.paths import portable_path
from friday_agents.players.registry import make_agent
from friday_agents.players.resolved import resolve_spec
from friday_env import Game
from friday_env.engine.state import STEP_NAMES

HERE = Path(__file__).resolve().parent


def decision_kind(description: str) -> str:
    """An action's kind: its description without the detail after " (" or ":"."""
    return description.split(" (")[0].split(":")[0].strip()


def behaviour(spec: str, deals: int) -> dict:
    """How the agent ``spec`` plays the first ``deals`` level-1 validation deals."""
    agent = make_agent(spec)
    kinds: Counter[str] = Counter()
    ended_in: Counter[str] = Counter()
    decisions = fights = wins = beaten = 0
    for index in range(deals):
        seed = validation_seed(1, index)
        game = Game.new(1, seed)
        agent.reset(seed)
        while not game.done:
            action = agent.act(game)
            kinds[decision_kind(game.describe(action))] += 1
            game.apply(action)
            decisions += 1
        fights += game.fights
        wins += game.won
        beaten += len(game.beaten)
        ended_in[STEP_NAMES[game.step]] += 1
    total = sum(kinds.values())
    return {
        "deals": deals,
        "wins": wins,
        "decisions_per_game": round(decisions / deals, 2),
        "fights_per_game": round(fights / deals, 2),
        "pirates_beaten_per_game": round(beaten / deals, 3),
        "ended_in_step": {step: round(ended_in[step] / deals, 4) for step in STEP_NAMES},
        "decision_shares": {k: round(v / total, 4) for k, v in kinds.most_common(8)},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    chosen = parser.add_mutually_exclusive_group(required=True)
    chosen.add_argument("--runs", nargs="+", help="run folders under experiments/rl")
    chosen.add_argument("--agents", nargs="+", help="agent specs (scratch, heuristic, ...)")
    parser.add_argument("--deals", type=int, default=200, help="validation deals (level 1)")
    parser.add_argument("--out", type=Path, required=True, help="results file to write (JSON)")
    args = parser.parse_args(argv)
    if args.runs:
        missing = [run for run in args.runs if not (HERE / run / "policy.npz").is_file()]
        if missing:
            parser.error(f"no policy.npz in {', '.join(missing)}")
        specs = {run: f"net:model={portable_path(HERE / run / 'policy.npz')}" for run in args.runs}
    else:
        specs = {spec: spec for spec in args.agents}
    result = {
        name: behaviour(spec, args.deals) | {"resolved": resolve_spec(spec)}  # what played
        for name, spec in specs.items()
    }
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
