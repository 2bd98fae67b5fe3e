"""Shared helpers of the Friday the 13th tests."""

from __future__ import annotations

import numpy as np

from friday_env.thirteen import Game13


def snapshot(game: Game13) -> tuple:
    """Every field of a game, to check that a refused action changed nothing."""
    return (
        game.players, game.seed, game.round, game.current_player, game.done,
        [h.copy() for h in game.hands], game.unused.copy(), [p.copy() for p in game.piles],
        game.pile_totals.copy(), [t.copy() for t in game.taken], game.played.copy(),
        [r.copy() for r in game.round_scores],
    )  # fmt: skip


def play_randomly(game: Game13, rng: np.random.Generator, check=None) -> Game13:
    """Random legal moves to the end, calling ``check(game)`` after each."""
    while not game.done:
        legal = game.legal_actions()
        game.apply(legal[int(rng.integers(len(legal)))])
        if check is not None:
            check(game)
    return game


def card(kind: str, value: int, copy: int = 0) -> int:
    """The id of the ``copy``-th card of a type and value: card("cat", 5, 1)."""
    from friday_env.thirteen.cards import CARD_TYPE, CARD_VALUE, TYPE_NAMES

    kind_index = TYPE_NAMES.index(kind)
    ids = [c for c in range(50) if CARD_TYPE[c] == kind_index and CARD_VALUE[c] == value]
    return ids[copy]
