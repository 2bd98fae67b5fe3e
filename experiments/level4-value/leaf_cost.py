"""CPU per rollout end of the compiled search with a linear leaf value and with a leaf network:
``python experiments/level4-value/leaf_cost.py NETWORK.npz --out FILE``.

One level-4 decision (training deal 5's first choice, two candidates, 128 worlds) is searched
``--repeats`` times with each leaf value in turn, through the same C call the agents make
(`friday_agents.players.search.compiled.CompiledSearch`); the rollouts are the same, so the
difference per end is the leaf value's own cost: the linear model's row valued in numpy against
the network's forward pass in C. CPU time (`time.process_time`), the two taking turns.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from friday_agents.harness.deals import training_seed
from friday_agents.harness.files import print_and_write_json
from friday_agents.models import GUIDED_VALUE_LEVEL4
from friday_agents.players.networks.leaf_net import load_leaf_network
from friday_agents.players.search import compiled
from friday_agents.players.search.value_levels import load_leaf_value
from friday_env import Game

WORLDS = 128


def microseconds_per_end(model, game: Game, actions: list[int], repeats: int) -> float:
    search = compiled.CompiledSearch(model, 1, 3, False, 400, 40)
    started = time.process_time()
    for _ in range(repeats):
        search.totals(game, actions, list(range(1, WORLDS + 1)))
    return 1e6 * (time.process_time() - started) / (repeats * WORLDS * len(actions))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("network", type=Path, help="a leaf network (.npz, friday value fit)")
    parser.add_argument("--repeats", type=int, default=20, help="searches per leaf and round")
    parser.add_argument("--out", type=Path, help="write the result here (JSON)")
    args = parser.parse_args(argv)
    if compiled._kernels is None:
        parser.error("needs the compiled core")
    game = Game.new(4, training_seed(4, 5), core="c")
    while len(game.legal_actions()) < 2:
        game.apply(game.legal_actions()[0])
    models = {
        "linear": load_leaf_value(GUIDED_VALUE_LEVEL4),
        "network": load_leaf_network(args.network),
    }
    rounds = {name: [] for name in models}
    for _ in range(2):  # taking turns: the load of a shared machine falls on both
        for name, model in models.items():
            rounds[name].append(
                microseconds_per_end(model, game, game.legal_actions()[:2], args.repeats)
            )
    result = {
        "what": "CPU microseconds per rollout end of one level-4 decision (two candidates, "
        f"{WORLDS} worlds, {args.repeats} searches, best of 2 rounds): guided's level-4 linear "
        "value against the network, the same rollouts",
        "network": str(args.network),
        "microseconds_per_end": {name: round(min(v), 2) for name, v in rounds.items()},
    }
    result["ratio"] = round(
        result["microseconds_per_end"]["network"] / result["microseconds_per_end"]["linear"], 3
    )
    print_and_write_json(result, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
