"""Determinized search: guess the hidden hands, play each move out, keep the best on average.

For each of ``worlds`` determinizations (``Game13.determinized``: the cards the player cannot
see dealt again into hands of the same sizes) every distinct legal move is played and the
round finished by rollout players for every seat (the heuristic, or ``safe``: a random card
that takes nothing, else the cheapest take); the move's value is the player's round bad luck
minus the others' mean, averaged over the worlds (the same worlds for every move: a paired
comparison). Rounds are independent, so a round's end is the horizon.
"""

from __future__ import annotations

import numpy as np

from friday_agents.thirteen.heuristic import distinct_moves, heuristic_action
from friday_env.thirteen.cards import CARD_POINTS, LIMIT, VALUE_OF
from friday_env.thirteen.game import Game13


def safe_action(game: Game13, rng: np.random.Generator) -> int:
    """A random legal action that takes nothing; if every one takes, the cheapest take."""
    legal = game.legal_actions()
    safe = [a for a in legal if game.pile_totals[a % 3] + VALUE_OF[a // 3] <= LIMIT]
    if safe:
        return safe[int(rng.integers(len(safe)))]
    costs = [sum(int(CARD_POINTS[c]) for c in game.piles[a % 3]) for a in legal]
    return legal[costs.index(min(costs))]


def finish_round(game: Game13, rounds: int, rng: np.random.Generator, rollout: str) -> list[int]:
    """Play ``game`` until ``rounds + 1`` rounds are scored; the last one's points."""
    while len(game.round_scores) == rounds:
        action = heuristic_action(game) if rollout == "heuristic" else safe_action(game, rng)
        game.apply(action)
    return game.round_scores[rounds]


def relative_points(points: list[int], player: int) -> float:
    others = [p for i, p in enumerate(points) if i != player]
    return points[player] - sum(others) / len(others)


def search_action(game: Game13, rng: np.random.Generator, worlds: int, rollout: str) -> int:
    """The move with the lowest mean relative round bad luck over ``worlds`` guesses."""
    moves = distinct_moves(game)
    if len(moves) == 1:
        return moves[0]
    player, rounds = game.current_player, len(game.round_scores)
    totals = np.zeros(len(moves))
    for _ in range(worlds):
        world = game.determinized(player, rng)
        for i, action in enumerate(moves):
            trial = world.clone()
            trial.apply(action)
            totals[i] += relative_points(finish_round(trial, rounds, rng, rollout), player)
    return moves[int(np.argmin(totals))]
