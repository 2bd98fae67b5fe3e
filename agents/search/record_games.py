"""Record a search agent's games on training deals, the data its value and policy are fitted on:
``python -m friday_agents.search.record_games --agent search --levels 1-4 --games 500 --out F``.

Plays ``--games`` deals per level (training deals ``--start`` onwards,
:func:`friday_agents.seeds.training_seed`; never an evaluation deal) and appends one JSON line
per finished game to ``--out``: ``{"level", "seed", "index", "agent", "actions", "won",
"score", "q"}``, where ``q`` maps the index of every searched decision (its position in
``actions``) to the ``[action, mean rollout value]`` pairs the search compared — policy
targets for a next round. Resumable: deals already in ``--out`` are skipped, so an
interrupted run continues where it stopped. This is one round of expert iteration's data:
fit a value (``value_net_fit``/``value_fit --data``) on it, play the new agent, record again.
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from friday_agents.registry import make_agent
from friday_agents.seeds import training_seed
from friday_env import Game
from friday_env.levels import parse_levels


def play_recorded(spec: str, level: int, index: int) -> dict:
    """One game of the search agent ``spec`` on training deal ``index`` of ``level``."""
    seed = training_seed(level, index)
    agent = make_agent(spec)
    if not hasattr(agent, "last_values"):
        raise ValueError(f"agent {spec!r} is not a search agent: it reports no action values")
    agent.reset(seed)
    game = Game.new(level, seed)
    values: dict[str, list[list[float]]] = {}
    while not game.done:
        action = agent.act(game)
        if agent.last_values is not None:
            values[str(len(game.history))] = [[a, round(v, 3)] for a, v in agent.last_values]
        game.apply(action)
    return {
        "level": level,
        "seed": seed,
        "index": index,
        "agent": spec,
        "actions": [int(a) for a in game.history],
        "won": bool(game.won),
        "score": int(game.score()),
        "q": values,
    }


def recorded_deals(path: Path) -> set[tuple[int, int]]:
    if not path.exists():
        return set()
    lines = path.read_text().splitlines()
    return {(row["level"], row["index"]) for row in map(json.loads, lines)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m friday_agents.search.record_games",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--agent", default="search", help="search agent spec (default search)")
    parser.add_argument("--levels", default="1-4", help="levels, e.g. 1-4 or 1,4")
    parser.add_argument("--games", type=int, required=True, help="deals per level")
    parser.add_argument("--start", type=int, default=0, help="first training deal index")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True, help="JSON lines, appended to")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    if args.games < 1 or args.start < 0 or args.workers < 1:
        parser.error("--games and --workers must be positive, --start non-negative")
    make_agent(args.agent)  # a bad spec fails here, before any game
    done = recorded_deals(args.out)
    jobs = [
        (level, index)
        for index in range(args.start, args.start + args.games)
        for level in parse_levels(args.levels)
        if (level, index) not in done
    ]
    from tqdm import tqdm

    with ProcessPoolExecutor(args.workers) as pool, args.out.open("a") as out:
        specs = [args.agent] * len(jobs)
        levels, indices = [j[0] for j in jobs], [j[1] for j in jobs]
        games = pool.map(play_recorded, specs, levels, indices)
        for game in tqdm(games, total=len(jobs), disable=args.no_progress, unit="game"):
            out.write(json.dumps(game) + "\n")
            out.flush()
    print(f"recorded {len(jobs)} games into {args.out} ({len(done)} were there already)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
