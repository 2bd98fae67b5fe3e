"""CPU seconds per game of a search agent on each core, and whether the games are the same:
``python benchmarks/core_timing.py guided --levels 1 4 --games 10``.

Each evaluation deal is played once on the Python core and once on the compiled core, the
cores taking turns deal by deal (so both see the same load), each game timed with
`time.process_time`. The two games of a deal must be the same game (the same actions,
score and result): the search chooses alike on either core
(`friday_agents.players.search.compiled`); any deal where they differ is listed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from friday_agents.harness.deals import evaluation_seed
from friday_agents.players.registry import make_agent
from friday_env import Game

CORES = ("python", "c")


def timed_game(spec: str, level: int, seed: int, core: str) -> tuple[float, Game]:
    """One game of agent ``spec`` on deal ``(level, seed)`` on ``core``: its CPU seconds and
    the finished game (the agent is seeded with the deal's seed, as ``friday eval`` does)."""
    agent = make_agent(spec)
    game = Game.new(level, seed, core=core)
    start = time.process_time()
    agent.reset(seed)
    while not game.done:
        game.apply(agent.act(game))
    return time.process_time() - start, game


def compare_cores(spec: str, level: int, games: int) -> dict:
    """CPU seconds per game on each core over ``games`` evaluation deals of ``level``, their
    ratio, and the deals whose games differ between the cores."""
    spent = dict.fromkeys(CORES, 0.0)
    differing = []
    for index in range(games):
        seed = evaluation_seed(level, index)
        order = CORES if index % 2 == 0 else CORES[::-1]
        played = {}
        for core in order:
            seconds, played[core] = timed_game(spec, level, seed, core)
            spent[core] += seconds
        python, compiled = played["python"], played["c"]
        if (python.history, python.score(), python.won) != (
            compiled.history,
            compiled.score(),
            compiled.won,
        ):
            differing.append(index)
    per_game = {core: spent[core] / games for core in CORES}
    return {
        "agent": spec,
        "level": level,
        "games": games,
        "cpu_seconds_per_game": per_game,
        "speedup": per_game["python"] / per_game["c"],
        "differing_deals": differing,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("agent", nargs="?", default="guided", help="agent spec (default guided)")
    parser.add_argument("--levels", type=int, nargs="+", default=[1, 4])
    parser.add_argument("--games", type=int, default=10, help="deals per level (default 10)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    results = [compare_cores(args.agent, level, args.games) for level in args.levels]
    print(json.dumps(results, indent=2))
    return 1 if any(r["differing_deals"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
