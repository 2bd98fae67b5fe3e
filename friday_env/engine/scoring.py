"""Read-only rules: what a fight is worth and what a game scores, as functions of a state.

Nothing here changes a game. [`Game`][friday_env.engine.game.Game] exposes each function as a
method (``game.fight_total()``), so agents and encoders may call either form.
"""

from __future__ import annotations

from friday_env.cards import (
    ABILITY,
    HAZARD_VALUES,
    IS_AGING,
    KIND,
    SCORE_VALUE,
    SPECIAL,
    VALUE,
    Ability,
    Kind,
    PirateSpecial,
)
from friday_env.engine.state import DOUBLED, DOWN, GREEN, PIRATES, State

HIGHEST_ZERO_CARDS = frozenset(
    c for c, ability in enumerate(ABILITY) if ability == Ability.HIGHEST_ZERO
)
#: Whether each card is a hazard card (one of the 30, on every level).
IS_HAZARD = tuple(kind == Kind.HAZARD for kind in KIND)
#: Life each card costs at the end of a fight while face up (R19): "-1 life", "-2 life".
END_OF_FIGHT_LIFE = tuple(
    {Ability.LOSE_LIFE_1: 1, Ability.LOSE_LIFE_2: 2}.get(ability, 0) for ability in ABILITY
)


def fight_value(game: State) -> int:
    """The hazard value to reach: the step's value lowered by "step -1" (R15), or the
    pirate's value."""
    if game.step == PIRATES:
        return game.pirate_value
    return HAZARD_VALUES[game.hazard][max(GREEN, game.step - game.step_down)]


def card_values(game: State) -> list[int]:
    """Each table card's value at the end of the fight: doubles (R13), face-down cards
    (R12) and "highest card = 0" (R19) applied."""
    flags = game.flags
    values = []
    scared = 0
    for slot, card in enumerate(game.table):
        if flags[slot] & DOWN:
            values.append(0)
            continue
        if card in HIGHEST_ZERO_CARDS:
            scared += 1
        values.append(VALUE[card] * 2 if flags[slot] & DOUBLED else VALUE[card])
    for _ in range(scared):  # each zeroes the highest positive card not doubled
        best, best_value = -1, 0
        for slot, value in enumerate(values):
            if value > best_value and not flags[slot] & (DOUBLED | DOWN):
                best, best_value = slot, value
        if best >= 0:
            values[best] = 0
    return values


def fight_total(game: State, values: list[int] | None = None) -> int:
    """Robinson's fighting points now, pirate specials included (R23); ``values`` is
    [`card_values`][friday_env.engine.scoring.card_values] when the caller has it already."""
    if values is None:
        values = card_values(game)
    if game.step < PIRATES:
        return sum(values)
    special = SPECIAL[game.hazard]
    if special == PirateSpecial.PLUS_ONE_PER_CARD:
        return sum(values) + len(values)
    if special == PirateSpecial.HALF_COUNT:
        return _half_total(game, values)
    return sum(values)


def _half_total(game: State, values: list[int]) -> int:
    """R23 "half": ceil(n/2) cards count, face-up aging cards first (least harmful
    first), then the best of the others."""
    counted = (len(values) + 1) // 2
    aging: list[int] = []
    others: list[int] = []
    for slot, card in enumerate(game.table):
        face_up_aging = IS_AGING[card] and not game.flags[slot] & DOWN
        (aging if face_up_aging else others).append(values[slot])
    aging.sort(reverse=True)
    others.sort(reverse=True)
    chosen = aging[:counted]
    return sum(chosen) + sum(others[: counted - len(chosen)])


def end_of_fight_penalty(game: State) -> int:
    """Life lost to face-up "-1 life"/"-2 life" aging cards (R19)."""
    flags = game.flags
    face_up = (card for slot, card in enumerate(game.table) if not flags[slot] & DOWN)
    return sum(END_OF_FIGHT_LIFE[card] for card in face_up)


def robinson_cards(game: State) -> list[int]:
    """Robinson's fighting cards: stack, discard pile, sort hand and face-up table cards."""
    on_table = [c for s, c in enumerate(game.table) if not game.flags[s] & DOWN]
    return game.stack + game.discard + game.sort_taken + on_table


def score(game: State) -> int:
    """The score now (R25), for wins and losses alike: the values of Robinson's cards (aging
    cards -5 each), plus 15 per beaten pirate, plus 5 per life point once won, minus 3 per
    card in the hazard discard pile."""
    points = sum(SCORE_VALUE[c] for c in robinson_cards(game))
    points += 15 * len(game.beaten) - 3 * len(game.hazard_discard)
    if game.won:
        points += 5 * game.life
    return points


def hazards_beaten(game: State) -> int:
    """Hazard cards beaten so far: those that joined Robinson's cards as knowledge (R21), in
    his stack, discard pile, sort hand, on the table or destroyed since. A hazard card never
    goes back to the hazard piles, so the count never falls during a game (a beaten hazard
    destroyed later still counts). In a game set up by the rulebook it is the 30 hazard cards
    less those in the hazard stack, the hazard discard pile, the offer and the fight; a
    scenario that deals hazard cards to Robinson counts them from the start."""
    piles = (game.stack, game.discard, game.sort_taken, game.table, game.destroyed)
    return sum(IS_HAZARD[card] for pile in piles for card in pile)


def pirates_beaten(game: State) -> int:
    """Pirates beaten so far (0-2; the game is won at 2, R22)."""
    return len(game.beaten)
