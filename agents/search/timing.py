"""CPU time per decision of search variants, measured on the same states:
``python -m friday_agents.search.timing search search:horizon=2 --states 60 --out FILE``.

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

from friday_agents.heuristic.agent import heuristic_action
from friday_agents.registry import make_agent
from friday_agents.seeds import training_seed
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m friday_agents.search.timing",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("specs", nargs="+", help="agent specs; the first is the baseline")
    parser.add_argument("--states", type=int, default=60, help="decisions to time")
    parser.add_argument("--out", type=Path, help="write the result here (JSON)")
    args = parser.parse_args(argv)
    if args.states < 1:
        parser.error("--states must be positive")
    if len(set(args.specs)) != len(args.specs):
        parser.error("a spec is listed twice (to time one agent twice, spell it differently)")
    per_decision = cpu_seconds_per_decision(args.specs, decision_states(args.states))
    base = per_decision[args.specs[0]]
    result = {
        "command": "python -m friday_agents.search.timing "
        + " ".join(args.specs)
        + f" --states {args.states}",
        "states": args.states,
        "cpu_seconds_per_decision": per_decision,
        "ratio_to_first": {spec: s / base for spec, s in per_decision.items()},
    }
    for spec, seconds in per_decision.items():
        print(f"{spec:60} {1000 * seconds:8.1f} ms CPU/decision  {seconds / base:5.2f}x")
    if args.out:
        args.out.write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
