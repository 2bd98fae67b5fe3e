"""CPU seconds per searched action of the search whose rollouts a policy network plays, on the
compiled path (the rollouts in C, ``policy_net.c``) and on the Python path, beside the default
search (the heuristic's rollouts in C).

    python benchmarks/network_rollouts.py --out benchmarks/network_rollouts.json

Each setting plays the first ``--games`` level-1 evaluation deals in this process (the agent
seeded by the deal, as ``play_game`` seeds it); only its ``act`` calls are timed, on this
process's CPU time, and divided by the decisions it searched (forced moves and decisions its
prior settles cost no rollout and are not counted). The Python path is the same agent with its
compiled search turned off (``compiled_search`` returning None, as for an ingredient with no C
version). Both paths of the network search choose alike (tests/agents/test_network_rollouts.py),
so they play the same games.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
#: The no-teacher expert iteration's search: prior, anchor and rollouts are ``scratch``.
NETWORK_SEARCH = "search:anchor=prior:prior=scratch:top=2:rollout=scratch"
#: (row name, agent spec, whether the compiled search may play)
SETTINGS = (
    ("network rollouts, compiled", NETWORK_SEARCH, True),
    ("network rollouts, Python", NETWORK_SEARCH, False),
    ("heuristic rollouts, compiled (search)", "search", True),
)
LEVEL = 1


def measure(name: str, spec: str, compiled: bool, games: int) -> dict[str, Any]:
    """One setting's CPU seconds per searched action over the first ``games`` deals."""
    from friday_agents.harness.deals import evaluation_seed
    from friday_agents.players.registry import make_agent
    from friday_env import Game

    agent = make_agent(spec)
    if not compiled:
        agent.compiled_search = lambda game: None
    seconds, searched, c_calls, wins = 0.0, 0, 0, 0
    for index in range(games):
        seed = evaluation_seed(LEVEL, index)
        game = Game.new(LEVEL, seed)
        agent.reset(seed)
        while not game.done:
            start = time.process_time()
            action = agent.act(game)
            seconds += time.process_time() - start
            if agent.last_values is not None:
                searched += 1
                c_calls += compiled and agent.compiled_search(game) is not None
            game.apply(action)
        wins += game.won
    if compiled and c_calls != searched:
        raise RuntimeError(f"{name}: {searched - c_calls} decisions left the compiled path")
    return {
        "setting": name,
        "spec": spec,
        "compiled_path": compiled,
        "games": games,
        "wins": wins,
        "searched_actions": searched,
        "cpu_seconds": round(seconds, 3),
        "cpu_ms_per_searched_action": round(1000 * seconds / max(searched, 1), 3),
    }


def commit() -> str:
    done = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=REPO
    )
    return done.stdout.strip() or "unknown"


def run(games: int, note: str, out: Path | None) -> dict[str, Any]:
    load_start = os.getloadavg()
    rows = []
    for name, spec, compiled in SETTINGS:
        rows.append(measure(name, spec, compiled, games))
        print(f"{name}: {rows[-1]['cpu_ms_per_searched_action']} ms of CPU per searched action "
              f"({rows[-1]['searched_actions']} actions)", flush=True)  # fmt: skip
    python_ms = rows[1]["cpu_ms_per_searched_action"]
    return {
        "command": f"python benchmarks/network_rollouts.py --games {games}"
        + (f" --out {out}" if out is not None else ""),
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": commit(),
        "level": LEVEL,
        "timing": "CPU time of this process in the agent's act calls (time.process_time)",
        "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} logical cores",
        "python": platform.python_version(),
        "load_average": {"start": load_start[0], "end": os.getloadavg()[0]},
        "note": note,
        "python_path_over_compiled": round(python_ms / rows[0]["cpu_ms_per_searched_action"], 2),
        "rows": rows,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description="CPU per searched action of the search with network rollouts, compiled "
        "vs Python, beside the default search (level-1 evaluation deals).",
        allow_abbrev=False,
    )
    parser.add_argument("--games", type=int, default=20, help="level-1 deals per setting")
    parser.add_argument("--note", default="", help="what else ran on the machine")
    parser.add_argument("--out", type=Path, default=None, help="the JSON file to write")
    args = parser.parse_args()
    if args.games < 1:
        parser.error(f"--games must be at least 1, got {args.games}")
    result = run(args.games, args.note, args.out)
    text = json.dumps(result, indent=2) + "\n"
    if args.out is None:
        print(text, end="")
    else:
        args.out.write_text(text)
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
