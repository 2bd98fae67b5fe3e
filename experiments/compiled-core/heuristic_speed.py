"""Measures the heuristic's speed on each core (a study tool of the compiled-core study).

``python experiments/compiled-core/heuristic_speed.py [--games N]`` prints:

- CPU microseconds per decision of the Python heuristic and of the compiled one (called from
  Python, one decision per call) on the same states: those of N heuristic games per level;
- whole heuristic games per CPU second: the Python heuristic on the Python engine, and the C
  heuristic playing inside the compiled core (``friday_agents.players._kernels.heuristic_play``).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from friday_agents.harness.deals import evaluation_seed
from friday_agents.players import _kernels as core
from friday_agents.players.heuristic.agent import python_heuristic_action
from friday_env import Game
from friday_env.core import CompiledGame

LEVELS = (1, 2, 3, 4)


def collect_states(games: int) -> tuple[list[Game], list[CompiledGame]]:
    """Every state with a decision to make in ``games`` heuristic games per level, on each
    core (the two games of a deal are played in lockstep)."""
    states: list[Game] = []
    compiled_states: list[CompiledGame] = []
    for level in LEVELS:
        for index in range(games):
            seed = evaluation_seed(level, index)
            game, compiled = Game.new(level, seed, core="python"), CompiledGame.new(level, seed)
            while game.legal_actions():
                states.append(game.clone())
                compiled_states.append(compiled.clone())
                action = python_heuristic_action(game)
                game.apply(action)
                compiled.apply(action)
    return states, compiled_states


def per_decision_us(states: list[Game], compiled: list[CompiledGame]) -> tuple[float, float]:
    """CPU time, the best of three passes over the states (the machine may be shared)."""
    for game in states + compiled:
        game.legal_actions()  # both engines cache the legal actions: time only the decision
    python_s = min(timed(python_heuristic_action, states) for _ in range(3))
    c_s = min(timed(core.heuristic_action, compiled) for _ in range(3))
    return 1e6 * python_s / len(states), 1e6 * c_s / len(states)


def timed(decide: Callable[[Any], int], games: list) -> float:
    start = time.process_time()
    for game in games:
        decide(game)
    return time.process_time() - start


def games_per_second(games: int) -> tuple[float, float]:
    start = time.process_time()
    for level in LEVELS:
        for index in range(games):
            game = Game.new(level, evaluation_seed(level, index), core="python")
            while game.legal_actions():
                game.apply(python_heuristic_action(game))
    python_s = time.process_time() - start
    c_games = games * 20
    start = time.process_time()
    for level in LEVELS:
        for index in range(c_games):
            core.heuristic_play(CompiledGame.new(level, evaluation_seed(level, index)), 100_000)
    c_s = time.process_time() - start
    return len(LEVELS) * games / python_s, len(LEVELS) * c_games / c_s


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="games per level (Python)")
    args = parser.parse_args(argv)
    states, compiled = collect_states(args.games)
    python_us, c_us = per_decision_us(states, compiled)
    print(
        f"{len(states)} states: Python heuristic {python_us:.1f} us/decision, "
        f"C heuristic {c_us:.2f} us/decision (x{python_us / c_us:.0f})"
    )
    python_gps, c_gps = games_per_second(args.games)
    print(
        f"whole heuristic games: Python core {python_gps:.0f}/s, "
        f"compiled core (heuristic_play) {c_gps:.0f}/s (x{c_gps / python_gps:.0f})"
    )


if __name__ == "__main__":
    main()
