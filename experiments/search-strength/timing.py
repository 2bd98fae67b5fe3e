"""CPU time per decision of search variants, measured on the same states:
``python experiments/search-strength/timing.py search search:horizon=2 --states 60 --out FILE``.

``friday eval``'s seconds per game are wall-clock time, which a shared machine's load
distorts (runs at different times are not comparable). This measures each agent spec's
process CPU time (:func:`time.process_time`) on one fixed set of decisions — states with two
or more legal actions, reached by the heuristic on training deals — with the specs taking
turns on every state, so all of them see the same states under the same conditions. The
ratio to the first spec is the time cost of a variant. Variants that differ only in the
value model play the same rollouts, and one agent spelled twice (``search`` and
``search:sims=32``) is timed twice, so their ratios show how much of it is noise (CPU time
on a loaded machine still varies with cache and memory contention).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

from friday_agents.harness.deals import evaluation_seed, training_seed
from friday_agents.players.base import play_game
from friday_agents.players.heuristic.agent import heuristic_action
from friday_agents.players.registry import make_agent
from friday_agents.players.resolved import resolve_specs
from friday_env import Game


def decision_states(count: int, seed: int = 0) -> list[Game]:
    """``count`` states with a real choice from heuristic games on training deals, every level."""
    rng = random.Random(seed)
    states = []
    while len(states) < count:
        level = 1 + len(states) % 4
        game = Game.new(level, training_seed(level, 500_000 + rng.randrange(100_000)))
        for _ in range(rng.randint(0, 250)):
            if game.done:
                break
            game.apply(heuristic_action(game))
        if not game.done and len(game.legal_actions()) > 1:
            states.append(game)
    return states


def cpu_seconds_per_decision(specs: list[str], states: list[Game]) -> dict[str, float]:
    """Mean CPU seconds of one decision per spec. Each state is warmed up by one untimed
    decision first (caches the game fills on first use are then no spec's cost), and the
    specs take turns in a rotating order."""
    agents = [(spec, make_agent(spec)) for spec in specs]
    spent = dict.fromkeys(specs, 0.0)
    for index, game in enumerate(states):
        agents[0][1].act(game)
        shift = index % len(agents)
        for spec, agent in agents[shift:] + agents[:shift]:
            agent.reset(index)
            start = time.process_time()
            agent.act(game)
            spent[spec] += time.process_time() - start
    return {spec: seconds / len(states) for spec, seconds in spent.items()}


def cpu_seconds_per_game(specs: list[str], games: int, levels: tuple[int, ...]) -> dict:
    """Mean CPU seconds of one whole game per spec and level, on the first ``games``
    evaluation deals of each level (the games ``friday eval`` plays), the specs taking turns
    on every deal in a rotating order. Also the mean decisions per game: a won game is
    longer, so a variant's seconds per game need not follow its seconds per decision."""
    agents = [(spec, make_agent(spec)) for spec in specs]
    spent = {spec: dict.fromkeys(levels, 0.0) for spec in specs}
    actions = {spec: dict.fromkeys(levels, 0) for spec in specs}
    for level in levels:
        for index in range(games):
            shift = index % len(agents)
            for spec, agent in agents[shift:] + agents[:shift]:
                start = time.process_time()
                game = play_game(agent, level, evaluation_seed(level, index))
                spent[spec][level] += time.process_time() - start
                actions[spec][level] += len(game.history)
    return {
        spec: {
            str(level): {
                "cpu_seconds_per_game": spent[spec][level] / games,
                "actions_per_game": actions[spec][level] / games,
            }
            for level in levels
        }
        for spec in specs
    }


def _game_timing(args: argparse.Namespace) -> dict:
    per_game = cpu_seconds_per_game(args.specs, args.games, (1, 2, 3, 4))
    base = per_game[args.specs[0]]
    for spec, cells in per_game.items():
        ratios = [
            cells[level]["cpu_seconds_per_game"] / base[level]["cpu_seconds_per_game"]
            for level in cells
        ]
        seconds = " ".join(f"{c['cpu_seconds_per_game']:6.2f}" for c in cells.values())
        shown = " ".join(f"{r:4.2f}x" for r in ratios)
        print(f"{spec:40} CPU s/game L1-L4: {seconds}   {shown}")
    return {
        "command": "python experiments/search-strength/timing.py "
        + " ".join(args.specs)
        + f" --games {args.games}",
        "games_per_level": args.games,
        "per_game": per_game,
        "ratio_to_first": {
            spec: {
                level: cell["cpu_seconds_per_game"] / base[level]["cpu_seconds_per_game"]
                for level, cell in cells.items()
            }
            for spec, cells in per_game.items()
        },
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        allow_abbrev=False,
        prog="python experiments/search-strength/timing.py",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("specs", nargs="+", help="agent specs; the first is the baseline")
    parser.add_argument("--states", type=int, default=60, help="decisions to time")
    parser.add_argument(
        "--games",
        type=int,
        help="time whole games instead: CPU seconds per game on the first GAMES evaluation "
        "deals of every level, the specs taking turns on each deal",
    )
    parser.add_argument("--out", type=Path, help="write the result here (JSON)")
    args = parser.parse_args(argv)
    if args.states < 1:
        parser.error("--states must be positive")
    if args.games is not None and args.games < 1:
        parser.error("--games must be positive")
    if len(set(args.specs)) != len(args.specs):
        parser.error("a spec is listed twice (to time one agent twice, spell it differently)")
    if args.games is not None:
        result = _game_timing(args) | {"resolved": resolve_specs(args.specs)}
        if args.out:
            args.out.write_text(json.dumps(result, indent=1) + "\n")
        return 0
    per_decision = cpu_seconds_per_decision(args.specs, decision_states(args.states))
    base = per_decision[args.specs[0]]
    result = {
        "command": "python experiments/search-strength/timing.py "
        + " ".join(args.specs)
        + f" --states {args.states}",
        "states": args.states,
        "cpu_seconds_per_decision": per_decision,
        "ratio_to_first": {spec: s / base for spec, s in per_decision.items()},
        "resolved": resolve_specs(args.specs),  # what each spec played, whole
    }
    for spec, seconds in per_decision.items():
        print(f"{spec:60} {1000 * seconds:8.1f} ms CPU/decision  {seconds / base:5.2f}x")
    if args.out:
        args.out.write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
