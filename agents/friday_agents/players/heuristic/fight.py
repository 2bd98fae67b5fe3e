"""The heuristic inside a fight: what to draw, which ability to use, when to pay or give up.

Order of thought, each step only if the earlier ones found nothing to do:

1. moves that cost nothing and never hurt: take life, destroy a harmful card, step -1 when
   behind, put a harmful card below the pile;
2. ahead: thin the deck (destroy a useless card), sort the next cards, then end the fight —
   against a pirate end it at once;
3. behind: sort before drawing, draw free cards, use "+cards", exchange bad cards, double the
   best card, copy the most useful ability; then pay life for a card if a short lookahead
   over the draw pile says paying beats losing now (against a pirate always pay), else end
   the fight and lose on purpose.
"""

from __future__ import annotations

from functools import lru_cache

from friday_agents.players.heuristic.card_worth import FIGHT_POINTS, WORTH, DrawPile, table_badness
from friday_agents.players.heuristic.rules import (
    DEATH,
    HeuristicParams,
    bad_cards,
    best_double_gain,
    destroy_gain,
    face_up_cards,
    life_utility,
    with_bad_card,
)
from friday_env import Game
from friday_env import actions as act
from friday_env.cards import ABILITY, VALUE, Ability
from friday_env.engine import DOWN, PIRATES

_LIFE = (Ability.LIFE_1, Ability.LIFE_2)
_CARDS = (Ability.CARDS_1, Ability.CARDS_2)
_EXCHANGE = (Ability.EXCHANGE_1, Ability.EXCHANGE_2)


def fight_action(game: Game, params: HeuristicParams) -> int:
    legal = game.legal_actions()
    uses = {a - act.USE_0: ABILITY[game.table[a - act.USE_0]] for a in legal if a >= act.USE_0}
    deficit = game.fight_value() - game.fight_total()
    action = _free_improvement(game, uses, deficit)
    if action is None:
        action = _finish(game, legal, uses) if deficit <= 0 else None
    if action is None:
        action = _catch_up(game, legal, uses, deficit, params)
    return action


def _use(uses: dict[int, Ability], *abilities: Ability) -> int | None:
    for slot, ability in uses.items():
        if ability in abilities:
            return act.USE_0 + slot
    return None


def _worst_other(game: Game, source: int) -> float:
    """The highest badness among face-up table cards other than ``source``."""
    return max(
        (
            table_badness(game, s)
            for s in range(len(game.table))
            if s != source and not game.flags[s] & DOWN
        ),
        default=-99.0,
    )


def _use_on_bad_card(game: Game, uses: dict[int, Ability], ability: Ability, bar: float):
    for slot, have in uses.items():
        if have == ability and _worst_other(game, slot) > bar:
            return act.USE_0 + slot
    return None


def _free_improvement(game: Game, uses: dict[int, Ability], deficit: int) -> int | None:
    action = _use(uses, *_LIFE)
    if action is None:
        action = _use_on_bad_card(game, uses, Ability.DESTROY, 0.0)
    if action is None and deficit > 0:
        action = _use(uses, Ability.STEP_DOWN)
    if action is None:
        action = _use_on_bad_card(game, uses, Ability.BELOW, 0.0)
    return action


def _finish(game: Game, legal: list[int], uses: dict[int, Ability]) -> int:
    """Ahead: tidy up, then end the fight."""
    if game.step == PIRATES:
        return act.END_FIGHT
    for slot, ability in uses.items():
        if ability == Ability.DESTROY and _useless_other(game, slot):
            return act.USE_0 + slot
    if len(game.stack) >= 2 and game.known_top == 0:
        action = _use(uses, Ability.SORT_3)
        if action is not None:
            return action
    return act.END_FIGHT if act.END_FIGHT in legal else legal[0]


def _useless_other(game: Game, source: int) -> bool:
    """A face-up card worth less than nothing whose loss keeps the total (value <= 0)."""
    return any(
        s != source and not game.flags[s] & DOWN and WORTH[c] < 0 and VALUE[c] <= 0
        for s, c in enumerate(game.table)
    )


def _catch_up(
    game: Game, legal: list[int], uses: dict[int, Ability], deficit: int, params: HeuristicParams
) -> int:
    """Behind: improve the hand, then pay for cards or give the fight up."""
    pirate = game.step == PIRATES
    will_draw = act.DRAW_FREE in legal or pirate
    if will_draw and game.known_top == 0 and Ability.SORT_3 in uses.values():
        return _use(uses, Ability.SORT_3)  # type: ignore[return-value]
    if act.DRAW_FREE in legal:
        return act.DRAW_FREE
    action = _use(uses, *_CARDS)
    if action is None:
        bar = params.exchange_margin - DrawPile(game).rest_mean()
        action = _use_on_bad_card(game, uses, Ability.EXCHANGE_1, bar)
        action = action or _use_on_bad_card(game, uses, Ability.EXCHANGE_2, bar)
    if action is None and best_double_gain(game) > 0:
        action = _use(uses, Ability.DOUBLE)
    if action is None:
        action = _useful_copy(game, uses)
    if action is not None:
        return action
    if act.DRAW_PAID in legal and (pirate or should_pay(game, deficit, params)):
        if game.known_top == 0 and Ability.SORT_3 in uses.values():
            return _use(uses, Ability.SORT_3)  # type: ignore[return-value]
        return act.DRAW_PAID
    if act.END_FIGHT in legal:
        return act.END_FIGHT
    return legal[0]  # a pirate fight with only unhelpful abilities left


def _useful_copy(game: Game, uses: dict[int, Ability]) -> int | None:
    """Copy an ability worth copying when behind: double, draw, exchange or sort."""
    wanted = {Ability.DOUBLE, *_CARDS, *_EXCHANGE, Ability.SORT_3, Ability.STEP_DOWN}
    for slot, ability in uses.items():
        if ability != Ability.COPY:
            continue
        for other, card in enumerate(game.table):
            if other == slot or game.flags[other] & DOWN or ABILITY[card] not in wanted:
                continue
            if ABILITY[card] == Ability.DOUBLE and best_double_gain(game) <= 0:
                continue
            return act.USE_0 + slot
    return None


def should_pay(game: Game, deficit: int, params: HeuristicParams) -> bool:
    """Pay life for one more card if a two-card lookahead over the draw pile expects more
    than losing now. Life is valued with `life_utility` (concave, death far below), so
    a big loss can make a risky paid draw the better choice."""
    return _pay_beats_losing(
        deficit,
        game.life,
        game.paid_draw_cost(),
        WORTH[game.hazard] + params.win_bonus,
        bad_cards(face_up_cards(game)),
        tuple(DrawPile(game).next_cards()),
        params,
    )


@lru_cache(maxsize=1 << 14)
def _pay_beats_losing(
    deficit: int,
    life: int,
    cost: int,
    reward: float,
    bad: tuple[int, ...],
    next_cards: tuple[tuple[float, int], ...],
    params: HeuristicParams,
) -> bool:
    """`should_pay` on its public inputs (cached: a search asks the same question in
    many sampled worlds)."""

    def lose(gap: int, life: int, bad: tuple[int, ...]) -> float:
        if gap > life:
            return -DEATH
        return life_utility(life - gap, params) + params.destroy_weight * destroy_gain(bad, gap)

    def pay(gap: int, life: int, bad: tuple[int, ...], depth: int) -> float:
        life -= cost
        value = 0.0
        for prob, card in next_cards:
            new_gap = gap - round(FIGHT_POINTS[card])
            if new_gap <= 0:
                value += prob * (life_utility(life, params) + reward)
                continue
            after = with_bad_card(bad, card)
            best = lose(new_gap, life, after)
            if depth > 1 and life >= cost:
                best = max(best, pay(new_gap, life, after, depth - 1))
            value += prob * best
        return value

    return pay(deficit, life, bad, 2) > lose(deficit, life, bad)
