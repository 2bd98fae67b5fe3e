"""What a player can work out from public information (R26): card worths and the draw pile.

Everything here reads only what the rulebook lets the player see: the multiset of the
Robinson stack (with unseen aging cards counted, not named), the known top cards after a
sort, the discard piles, the aging pool, the table. The hand-written agents and the search
agent's evaluation share these numbers, so they are tuned in one place.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from friday_env.cards import ABILITY, CARD_TYPE, IS_AGING, VALUE, Ability
from friday_env.engine import LEFT
from friday_env.information import known_top_cards, stack_known_cards, unknown_aging_pool

if TYPE_CHECKING:
    from friday_env import Game

#: Long-term worth of an ability in Robinson's deck, on top of the card's fighting value.
ABILITY_WORTH = {
    Ability.NONE: 0.0,
    Ability.LIFE_1: 0.6,
    Ability.LIFE_2: 1.2,
    Ability.CARDS_1: 1.2,
    Ability.CARDS_2: 1.8,
    Ability.DESTROY: 1.2,
    Ability.DOUBLE: 1.8,
    Ability.COPY: 1.2,
    Ability.STEP_DOWN: 0.6,
    Ability.SORT_3: 1.2,
    Ability.EXCHANGE_1: 0.8,
    Ability.EXCHANGE_2: 1.2,
    Ability.BELOW: 0.8,
    # aging abilities hurt: roughly the fighting points or life they cost per draw
    Ability.HIGHEST_ZERO: -2.5,
    Ability.LOSE_LIFE_1: -1.5,
    Ability.LOSE_LIFE_2: -3.0,
    Ability.STOP: -2.0,
}

#: A zero-value card with no ability dilutes the deck: it is worth less than nothing.
DILUTION = 0.6
#: Aging cards cost extra: they count -5 at scoring and more come with every reshuffle.
AGING_EXTRA = 1.0

#: What an unseen aging card is assumed to add to a fight when the pool is unknown.
UNKNOWN_AGING_VALUE = -1.5


def fight_points(card: int) -> float:
    """What a card adds to a fight total on average, aging effects priced in points."""
    ability = ABILITY[card]
    if ability == Ability.HIGHEST_ZERO:
        return -2.0
    if ability == Ability.LOSE_LIFE_1:
        return -1.0
    if ability == Ability.LOSE_LIFE_2:
        return -2.0
    return float(VALUE[card])


#: ``FIGHT_POINTS[card]``: `fight_points` as a table (the hot paths index it).
FIGHT_POINTS: tuple[float, ...] = tuple(fight_points(c) for c in range(len(VALUE)))


def _card_worth(card: int) -> float:
    worth = VALUE[card] + ABILITY_WORTH[ABILITY[card]]
    if VALUE[card] == 0 and ABILITY[card] == Ability.NONE:
        worth -= DILUTION
    if IS_AGING[card]:
        worth -= AGING_EXTRA
    return worth


#: ``WORTH[card]``: how much having the card in Robinson's deck is worth, in fighting points.
WORTH: tuple[float, ...] = tuple(_card_worth(c) for c in range(len(VALUE)))


class DrawPile:
    """The player's belief about the next cards drawn: the known top cards in order, then
    the rest of the stack as a multiset (unseen aging cards as the average of the aging pool),
    then — after a reshuffle — the discard pile plus one aging card."""

    def __init__(self, game: Game) -> None:
        self.known_top = known_top_cards(game)
        known = Counter(stack_known_cards(game))
        known.subtract(self.known_top)
        self.rest = sorted(known.elements())
        self.unseen = len(game.stack) - len(self.known_top) - len(self.rest)
        self.pool = unknown_aging_pool(game)
        self.aging_mean = (
            sum(FIGHT_POINTS[c] for c in self.pool) / len(self.pool)
            if self.pool
            else UNKNOWN_AGING_VALUE
        )
        self.discard = list(game.discard)
        self.aging_left = len(game.aging)

    def rest_mean(self) -> float:
        """Mean fighting points of a draw from the unknown part of the stack."""
        count = len(self.rest) + self.unseen
        if count == 0:
            return self.reshuffle_mean()
        return (sum(FIGHT_POINTS[c] for c in self.rest) + self.unseen * self.aging_mean) / count

    def reshuffle_mean(self) -> float:
        cards = len(self.discard) + (1 if self.aging_left else 0)
        if cards == 0:
            return 0.0
        total = sum(FIGHT_POINTS[c] for c in self.discard)
        if self.aging_left:
            total += self.aging_mean
        return total / cards

    def expected_points(self, draws: int) -> float:
        """Expected fighting points of the next ``draws`` cards."""
        points = 0.0
        for card in self.known_top[:draws]:
            points += FIGHT_POINTS[card]
        draws -= min(draws, len(self.known_top))
        from_rest = min(draws, len(self.rest) + self.unseen)
        points += from_rest * self.rest_mean() if from_rest else 0.0
        draws -= from_rest
        return points + draws * self.reshuffle_mean()

    def next_cards(self) -> list[tuple[float, int]]:
        """``(probability, card)`` for the next card drawn, one entry per distinct card type;
        an unseen aging card is spread over the unknown aging pool."""
        if self.known_top:
            return [(1.0, self.known_top[0])]
        weighted: list[tuple[float, int]]
        if len(self.rest) + self.unseen:
            weighted = [(1.0, c) for c in self.rest]
            if self.unseen and self.pool:
                weighted += [(self.unseen / len(self.pool), c) for c in self.pool]
        else:
            weighted = [(1.0, c) for c in self.discard]
            if self.aging_left and self.pool:
                weighted += [(1.0 / len(self.pool), c) for c in self.pool]
        return _grouped(weighted)


def _grouped(weighted: list[tuple[float, int]]) -> list[tuple[float, int]]:
    total = sum(w for w, _ in weighted)
    by_type: dict[int, list] = {}
    for weight, card in weighted:
        entry = by_type.setdefault(CARD_TYPE[card], [0.0, card])
        entry[0] += weight / total
    return [(prob, card) for prob, card in by_type.values()]


def table_badness(game: Game, slot: int) -> float:
    """How much a table card hurts the current fight (higher is worse), for choosing what to
    destroy, exchange or put below."""
    card = game.table[slot]
    ability = ABILITY[card]
    if ability == Ability.HIGHEST_ZERO:
        return max(1.0, float(max(VALUE[c] for c in game.table)))
    if ability == Ability.STOP and game.flags[slot] & LEFT:
        return 2.0  # it blocks the free draws (R07)
    return -FIGHT_POINTS[card]
