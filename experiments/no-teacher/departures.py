"""How often a search anchored on its prior departs from it: plays the search on validation
deals and counts, over its searched decisions (two or more candidates), those where it played
another action than its prior's best (PLAN.md, amendment 4):

    python experiments/no-teacher/departures.py --agent SPEC --levels 1,4 --deals 50 \
        --out experiments/no-teacher/results/stage6-departures/NAME.json

Never reads an evaluation deal.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from friday_agents.harness.deals import validation_seed
from friday_agents.players.registry import make_agent
from friday_env import Game


def play_counting(agent, level: int, index: int) -> dict:
    """One validation game; its searched decisions and departures from the prior's best."""
    seed = validation_seed(level, index)
    game = Game.new(level, seed)
    agent.reset(seed)
    searched = departed = 0
    while not game.done:
        action = agent.act(game)
        if agent.last_values is not None and len(agent.last_values) > 1:
            searched += 1
            departed += action != agent.prior.best(game)
        game.apply(action)
    return {"won": bool(game.won), "searched": searched, "departed": departed}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], allow_abbrev=False)
    parser.add_argument("--agent", required=True, help="a search spec with anchor=prior")
    parser.add_argument("--levels", default="1,4", help="comma-separated levels (default 1,4)")
    parser.add_argument("--deals", type=int, default=50, help="validation deals per level")
    parser.add_argument("--out", type=Path, required=True, help="the JSON file to write")
    args = parser.parse_args()
    agent = make_agent(args.agent)
    if getattr(agent, "anchor", None) != "prior":
        raise SystemExit(f"{args.agent}: departures are counted for a search with anchor=prior")
    by_level = {}
    for level in (int(text) for text in args.levels.split(",")):
        games = [play_counting(agent, level, index) for index in range(args.deals)]
        searched = sum(g["searched"] for g in games)
        departed = sum(g["departed"] for g in games)
        by_level[str(level)] = {
            "games": len(games),
            "won": sum(g["won"] for g in games),
            "searched_decisions": searched,
            "departures": departed,
            "departure_share": departed / searched if searched else 0.0,
        }
        print(f"level {level}: {departed} of {searched} searched decisions depart")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    record = {"agent": args.agent, "deals": "validation", "by_level": by_level}
    args.out.write_text(json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    main()
