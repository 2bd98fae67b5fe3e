"""A game of *Friday the 13th* as text (``render_mode="ansi"``, ``friday thirteen play``)."""

from __future__ import annotations

from friday_env.thirteen.cards import PILE_NAMES, card_name
from friday_env.thirteen.game import Game13
from friday_env.thirteen.scoring import round_points


def cards_text(cards: list[int]) -> str:
    return ", ".join(card_name(c) for c in cards) or "-"


def describe(game: Game13, hand_of: int | None = None) -> str:
    """The public table, scores and (if ``hand_of`` is given) that player's hand."""
    if game.done:
        return f"game over: bad luck {game.scores}, win shares {game.win_shares()}"
    lines = [f"round {game.round + 1} of 4, player {game.current_player} to play"]
    for pile, name in enumerate(PILE_NAMES):
        total = game.pile_totals[pile]
        lines.append(f"  {name:6} pile ({total:2}): {cards_text(game.piles[pile])}")
    standing = round_points(game.taken)
    for player in range(game.players):
        lines.append(
            f"  player {player}: {len(game.hands[player]):2} cards, took "
            f"{cards_text(sorted(game.taken[player]))} (now {standing[player]}), "
            f"total {game.scores[player]}"
        )
    if hand_of is not None:
        lines.append(f"  hand of player {hand_of}: {cards_text(game.hands[hand_of])}")
    return "\n".join(lines)
