"""The heuristic: the rulebook's strategy tips as a one-move rule.

"Try to guess whether you can take majority in a type. Try to take the majority of a type of
bad luck with as few cards as you can." Each legal move is scored by what it does to the
round's standings if the round ended now: the change in the player's own bad luck minus the
change in the others' mean (a take that wins a majority discards the player's whole stack of
that type and can hand the others points), plus a caution per omen card taken whose majority
is not yet safe. A move that takes nothing sheds the highest card that fits, keeping low
cards for the tight piles later in the round.
"""

from __future__ import annotations

from friday_env.thirteen.cards import FRIDAY13, LIMIT, TYPE_OF, VALUE_OF
from friday_env.thirteen.game import Game13
from friday_env.thirteen.scoring import type_counts

#: Extra cost per omen card taken whose majority the taker does not hold by 2 or more.
CAUTION = 0.5
#: Per point of the card's value, the preference for shedding high cards when nothing is taken.
SHED = 0.05


def distinct_moves(game: Game13) -> list[int]:
    """The legal actions, one per (type, value, pile): equal cards are the same move."""
    seen: dict[tuple[int, int, int], int] = {}
    for action in game.legal_actions():
        card, pile = divmod(action, 3)
        seen.setdefault((TYPE_OF[card], VALUE_OF[card], pile), action)
    return list(seen.values())


def points_of(counts: list[list[int]]) -> list[int]:
    """Each player's round points from their cards per type (``scoring.round_points``
    computed from counts alone, as the heuristic weighs many takes per move)."""
    points = [2 * row[FRIDAY13] for row in counts]
    for omen in range(3):
        held = [row[omen] for row in counts]
        most = max(held)
        sole = held.index(most) if held.count(most) == 1 else -1
        for player, count in enumerate(held):
            if player != sole:
                points[player] += count
    return points


def take_cost(game: Game13, player: int, cards: list[int]) -> float:
    """What taking ``cards`` costs ``player``: own standing change minus the others' mean
    change, plus caution on omen cards whose majority is not safe."""
    counts = [type_counts(stack) for stack in game.taken]
    before = points_of(counts)
    gained = type_counts(cards)
    counts[player] = [have + more for have, more in zip(counts[player], gained, strict=True)]
    after = points_of(counts)
    others = [p for p in range(game.players) if p != player]
    relative = (after[player] - before[player]) - sum(after[p] - before[p] for p in others) / len(
        others
    )
    caution = 0.0
    for kind in range(3):
        lead = counts[player][kind] - max(counts[p][kind] for p in others)
        if lead < 2:
            caution += CAUTION * gained[kind]
    return relative + caution


def move_cost(game: Game13, action: int) -> float:
    card, pile = divmod(action, 3)
    if game.pile_totals[pile] + VALUE_OF[card] > LIMIT:
        return take_cost(game, game.current_player, game.piles[pile])
    return -SHED * VALUE_OF[card]


def heuristic_action(game: Game13) -> int:
    """The heuristic's move: the cheapest distinct move (ties: the lowest action id)."""
    moves = distinct_moves(game)
    costs = [move_cost(game, action) for action in moves]
    return moves[costs.index(min(costs))]
