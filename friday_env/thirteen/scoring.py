"""Scoring a round and the game's end (rulebook: Scoring a Round, Game End)."""

from __future__ import annotations

from collections.abc import Sequence

from friday_env.thirteen.cards import CARD_POINTS, FRIDAY13, NUM_PILES, TYPE_OF


def type_counts(stack: Sequence[int]) -> list[int]:
    """How many cards of each type (cat, mirror, ladder, Friday the 13th) ``stack`` holds."""
    counts = [0, 0, 0, 0]
    for card in stack:
        counts[TYPE_OF[card]] += 1
    return counts


def discarding_player(counts: Sequence[Sequence[int]], omen: int) -> int | None:
    """The player who holds strictly more cards of ``omen`` than every other player (and so
    discards them), or None on a tie for most (nobody discards)."""
    held = [row[omen] for row in counts]
    most = max(held)
    if most == 0 or held.count(most) > 1:
        return None
    return held.index(most)


def round_points(taken: Sequence[Sequence[int]]) -> list[int]:
    """Each player's bad luck for a round from their taken stacks: for each omen type the
    player with strictly the most cards discards them; every other omen card is 1 point and
    every Friday the 13th card 2 (never discarded); values do not count."""
    counts = [type_counts(stack) for stack in taken]
    discards = [discarding_player(counts, omen) for omen in range(NUM_PILES)]
    points = []
    for player, stack in enumerate(taken):
        kept = [
            card for card in stack if TYPE_OF[card] == FRIDAY13 or discards[TYPE_OF[card]] != player
        ]
        points.append(int(sum(int(CARD_POINTS[card]) for card in kept)))
    return points


def win_shares(totals: Sequence[int]) -> list[float]:
    """The win each player gets from the final totals: the fewest bad luck points win, and
    players tied for fewest share the win equally (a ruling: the rulebook names no
    tie-break)."""
    best = min(totals)
    winners = [player for player, total in enumerate(totals) if total == best]
    return [1.0 / len(winners) if player in winners else 0.0 for player in range(len(totals))]
