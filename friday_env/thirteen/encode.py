"""What one player sees, as a flat float32 vector (numpy only).

The layout (``OBSERVATION_SIZE`` = 309 values in [0, 1]) is the same for 3 to 6 players, so
one network plays every table size. Seats are relative: seat 0 is the observing player, seat
``k`` the ``k``-th player clockwise after them; seats a smaller table lacks are zeros.

| slice | what |
| --- | --- |
| ``hand`` 50 | the player's own hand (one bit per card id) |
| ``piles`` 3 x 50 | the cards on each pile |
| ``pile_totals`` 3 | each pile's total / 13 |
| ``played`` 50 | the cards played this round (public memory: piles and taken stacks) |
| ``taken`` 6 x 4 | each seat's taken cards this round per type (3 omens, Friday 13th) / 14 |
| ``hand_sizes`` 6 | cards in each seat's hand / 13 |
| ``seated`` 6 | 1 for each seat at the table |
| ``standing`` 6 | each seat's bad luck if the round ended now / 20, at most 1 |
| ``scores`` 6 | each seat's total bad luck of earlier rounds / 100, at most 1 |
| ``round`` 4 | the round, one-hot |
| ``players`` 4 | the table size 3-6, one-hot |
"""

from __future__ import annotations

import numpy as np

from friday_env.thirteen.cards import MAX_PLAYERS, MIN_PLAYERS, NUM_CARDS, NUM_PILES, NUM_ROUNDS
from friday_env.thirteen.game import Game13
from friday_env.thirteen.scoring import round_points, type_counts

#: (name, length) of each part of the observation, in order.
LAYOUT = (
    ("hand", NUM_CARDS),
    ("piles", NUM_PILES * NUM_CARDS),
    ("pile_totals", NUM_PILES),
    ("played", NUM_CARDS),
    ("taken", MAX_PLAYERS * 4),
    ("hand_sizes", MAX_PLAYERS),
    ("seated", MAX_PLAYERS),
    ("standing", MAX_PLAYERS),
    ("scores", MAX_PLAYERS),
    ("round", NUM_ROUNDS),
    ("players", MAX_PLAYERS - MIN_PLAYERS + 1),
)
OBSERVATION_SIZE = sum(length for _, length in LAYOUT)
#: name -> slice of the observation vector.
SLICES: dict[str, slice] = {}
_start = 0
for _name, _length in LAYOUT:
    SLICES[_name] = slice(_start, _start + _length)
    _start += _length


def encode(game: Game13, player: int) -> np.ndarray:
    """``player``'s view of ``game`` (see the module docstring for the layout)."""
    out = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    out[SLICES["hand"]][game.hands[player]] = 1.0
    piles = out[SLICES["piles"]].reshape(NUM_PILES, NUM_CARDS)
    for pile, cards in enumerate(game.piles):
        piles[pile, cards] = 1.0
    out[SLICES["pile_totals"]] = np.asarray(game.pile_totals, dtype=np.float32) / 13.0
    out[SLICES["played"]][game.played] = 1.0
    seats = [(player + k) % game.players for k in range(game.players)]
    taken = out[SLICES["taken"]].reshape(MAX_PLAYERS, 4)
    standing = round_points(game.taken)
    scores = game.scores
    n = game.players
    for k, seat in enumerate(seats):
        taken[k] = np.asarray(type_counts(game.taken[seat]), dtype=np.float32) / 14.0
    out[SLICES["hand_sizes"]][:n] = [len(game.hands[s]) / 13.0 for s in seats]
    out[SLICES["seated"]][:n] = 1.0
    out[SLICES["standing"]][:n] = [min(1.0, standing[s] / 20.0) for s in seats]
    out[SLICES["scores"]][:n] = [min(1.0, scores[s] / 100.0) for s in seats]
    out[SLICES["round"]][min(game.round, NUM_ROUNDS - 1)] = 1.0
    out[SLICES["players"]][n - MIN_PLAYERS] = 1.0
    return np.minimum(out, 1.0)
