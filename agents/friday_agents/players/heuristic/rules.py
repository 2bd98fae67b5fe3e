"""The heuristic's rules of thumb outside the fight itself: which hazard or pirate to take,
what to destroy after a lost fight, how to sort, which card an ability targets.

All functions read public information only (R26) and return a legal action id.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from friday_agents.players.heuristic.card_worth import WORTH, DrawPile, table_badness
from friday_env import Game
from friday_env import actions as act
from friday_env.actions import Phase
from friday_env.cards import (
    ABILITY,
    DESTROY_COST,
    FREE,
    HAZARD_VALUES,
    IS_AGING,
    SPECIAL,
    VALUE,
    Ability,
    PirateSpecial,
)
from friday_env.engine import DOUBLED, DOWN, PIRATES


@dataclass(frozen=True)
class HeuristicParams:
    """The tunable numbers of the heuristic strategy, chosen by measuring settings on
    training deals (``python experiments/heuristic-tuning/tune.py``, 1,000 games per level). The one
    that matters most is ``future_weight``: fighting the hazard that would come back harder
    (and leaving the one that stays easy) took level 1 from no wins to about 10%."""

    #: life a point of deficit is worth when weighing paying against losing
    life_value: float = 1.0
    #: extra worth of a life point when life is low: ``low_life / life``
    low_life: float = 6.0
    #: worth of winning a hazard fight beyond its knowledge card
    win_bonus: float = 1.5
    #: how much destroying a bad card after a lost fight is worth, per point of its worth
    destroy_weight: float = 2.0
    #: fight the last hazard of a step when its expected margin is at least this
    last_hazard_margin: float = -1.0
    #: exchange a table card when it is this much worse than an average draw
    exchange_margin: float = 0.5
    #: how much the hazard left for later (discarded now, fought a step harder) weighs
    future_weight: float = 1.0
    #: fighting points per free card expected in the next step, for judging that burden
    future_mean: float = 0.5
    #: fight the harder pirate first; measured: the easier first wins more often
    hard_pirate_first: bool = False


DEFAULT_PARAMS = HeuristicParams()


#: What dying is worth on the scale of `life_utility` (and of card worths).
DEATH = 100.0


def life_worth(game: Game, params: HeuristicParams) -> float:
    """What one life point is worth now: more when little is left."""
    return params.life_value + params.low_life / (game.life + 1.0)


def life_utility(life: int, params: HeuristicParams) -> float:
    """How good it is to have ``life`` points: concave, so each point lost hurts more when
    little is left (its slope is `life_worth`)."""
    return params.life_value * life + params.low_life * math.log1p(life)


def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


# ----------------------------------------------------------------- hazards


def expected_margin(game: Game, hazard: int) -> float:
    """Expected fighting points of the hazard's free draws minus its value in this step."""
    pile = DrawPile(game)
    return pile.expected_points(FREE[hazard]) - HAZARD_VALUES[hazard][game.step]


def hazard_prospect(game: Game, hazard: int, params: HeuristicParams) -> float:
    """How good fighting ``hazard`` looks: the chance of winning times what winning brings,
    minus the life an expected loss costs."""
    margin = expected_margin(game, hazard)
    win = sigmoid(margin / 2.0)
    reward = WORTH[hazard] + params.win_bonus
    return win * reward - (1.0 - win) * life_worth(game, params) * max(0.0, -margin) * 0.5


def later_burden(game: Game, hazard: int, params: HeuristicParams) -> float:
    """How hard a hazard discarded now will be when it comes back in the next step (it does
    not come back after red, except to the "all remaining hazards" pirate)."""
    if game.step >= PIRATES - 1:
        return 0.0
    later = HAZARD_VALUES[hazard][game.step + 1]
    return max(0.0, later - FREE[hazard] * params.future_mean)


def choose_hazard(game: Game, params: HeuristicParams) -> int:
    """Fight the hazard whose prospect, minus the burden of the other one coming back
    later, is best."""
    first, second = game.offer
    score_first = hazard_prospect(game, first, params)
    score_first -= params.future_weight * later_burden(game, second, params)
    score_second = hazard_prospect(game, second, params)
    score_second -= params.future_weight * later_burden(game, first, params)
    return act.CHOOSE_HAZARD_0 if score_first >= score_second else act.CHOOSE_HAZARD_1


def last_hazard_action(game: Game, params: HeuristicParams) -> int:
    """Fight the step's last hazard if it looks winnable. In red a skipped hazard costs as
    much as a lost one (-3 at scoring), so fight it unless it is hopeless."""
    margin = expected_margin(game, game.offer[0])
    threshold = params.last_hazard_margin - (2.0 if game.step == PIRATES - 1 else 0.0)
    return act.FIGHT_LAST_HAZARD if margin >= threshold else act.SKIP_LAST_HAZARD


def pirate_difficulty(game: Game, pirate: int) -> float:
    """The pirate's value minus the expected points of its free draws (rough for specials)."""
    special = SPECIAL[pirate]
    if special == PirateSpecial.PLUS_TWO_PER_AGING:
        value = 2.0 * (game.aging_total - len(game.aging))
    elif special == PirateSpecial.ALL_HAZARDS:
        value = float(sum(HAZARD_VALUES[h][2] for h in game.hazard_discard))
        return value - DrawPile(game).expected_points(sum(FREE[h] for h in game.hazard_discard))
    else:
        value = float(HAZARD_VALUES[pirate][0])
    return value - DrawPile(game).expected_points(FREE[pirate])


def choose_pirate(game: Game, params: HeuristicParams) -> int:
    difficulty = [pirate_difficulty(game, p) for p in game.pirates]
    first_is_harder = difficulty[0] >= difficulty[1]
    pick_first = first_is_harder == params.hard_pirate_first
    return act.CHOOSE_PIRATE_0 if pick_first else act.CHOOSE_PIRATE_1


# --------------------------------------------------------- after a loss


def destroy_order(cards: list[int], budget: int) -> list[int]:
    """Which cards a loss budget destroys: aging cards first (worst first), then the other
    cards worth less than nothing, worst first, while the budget lasts."""
    chosen = []
    ranked = sorted(range(len(cards)), key=lambda i: (not IS_AGING[cards[i]], WORTH[cards[i]]))
    for i in ranked:
        card = cards[i]
        if WORTH[card] < 0 and DESTROY_COST[card] <= budget:
            chosen.append(i)
            budget -= DESTROY_COST[card]
    return chosen


#: The order in which a loss budget destroys cards: aging first, then the worst.
def _destroy_rank(card: int) -> tuple[bool, float]:
    return (not IS_AGING[card], WORTH[card])


def bad_cards(cards: list[int]) -> tuple[int, ...]:
    """The cards a loss budget would consider destroying, in `destroy_order`'s order
    (a hashable summary: the lookahead of paying or losing caches on it)."""
    return tuple(sorted((c for c in cards if WORTH[c] < 0), key=_destroy_rank))


def with_bad_card(bad: tuple[int, ...], card: int) -> tuple[int, ...]:
    """``bad`` after one more card lands on the table."""
    if WORTH[card] >= 0:
        return bad
    return tuple(sorted((*bad, card), key=_destroy_rank))


@lru_cache(maxsize=1 << 16)
def destroy_gain(bad: tuple[int, ...], budget: int) -> float:
    """Deck worth gained when a loss budget destroys from ``bad`` (see `bad_cards`)."""
    gain = 0.0
    for card in bad:
        if DESTROY_COST[card] <= budget:
            gain -= WORTH[card]
            budget -= DESTROY_COST[card]
    return gain


def face_up_cards(game: Game) -> list[int]:
    return [c for s, c in enumerate(game.table) if not game.flags[s] & DOWN]


def destroy_after_loss(game: Game) -> int:
    """R20: spend the paid points on the first card `destroy_order` picks."""
    slots = [s for s in range(len(game.table)) if not game.flags[s] & DOWN]
    order = destroy_order([game.table[s] for s in slots], game.budget)
    if not order:
        return act.FINISH_DESTROYING
    return act.DESTROY_0 + slots[order[0]]


# --------------------------------------------------------------- sort 3


def sort_action(game: Game) -> int:
    """Take three cards (never forcing a reshuffle), discard the worst if it is negative,
    put the rest back best first."""
    taken = game.sort_taken
    if game.phase == Phase.SORT_TAKE:
        return act.SORT_TAKE if game.stack else act.SORT_STOP_TAKING
    if game.phase == Phase.SORT_DISCARD:
        worst = min(range(len(taken)), key=lambda k: WORTH[taken[k]])
        if WORTH[taken[worst]] < 0:
            return act.SORT_DISCARD_0 + worst
        return act.SORT_KEEP_ALL
    best = max(range(len(taken)), key=lambda k: (VALUE[taken[k]], WORTH[taken[k]]))
    return act.SORT_PLACE_0 + best


# -------------------------------------------------------------- targets


def target_action(game: Game) -> int:
    """The target of the ability being resolved."""
    legal = game.legal_actions()
    slots = [a - act.TARGET_0 for a in legal if a >= act.TARGET_0]
    ability = game.resolving
    if ability == Ability.DOUBLE:
        best = max(slots, key=lambda s: VALUE[game.table[s]])
        return act.TARGET_0 + best
    if ability == Ability.COPY:
        return act.TARGET_0 + best_copy_target(game, slots)
    worst = max(slots, key=lambda s: (table_badness(game, s), -WORTH[game.table[s]]))
    second_exchange = ability == Ability.EXCHANGE_2 and act.STOP_EXCHANGING in legal
    if second_exchange and table_badness(game, worst) <= -DrawPile(game).rest_mean():
        return act.STOP_EXCHANGING
    return act.TARGET_0 + worst


#: Which copied ability helps most, best first.
COPY_PREFERENCE = (
    Ability.DOUBLE,
    Ability.CARDS_2,
    Ability.CARDS_1,
    Ability.DESTROY,
    Ability.EXCHANGE_2,
    Ability.EXCHANGE_1,
    Ability.SORT_3,
    Ability.BELOW,
    Ability.STEP_DOWN,
    Ability.LIFE_2,
    Ability.LIFE_1,
)


def best_copy_target(game: Game, slots: list[int]) -> int:
    rank = {ability: i for i, ability in enumerate(COPY_PREFERENCE)}
    return min(slots, key=lambda s: rank.get(ABILITY[game.table[s]], len(rank)))


def best_double_gain(game: Game) -> int:
    """Points a double would add now: the best positive card not doubled yet."""
    gains = [
        VALUE[c]
        for s, c in enumerate(game.table)
        if not game.flags[s] & (DOWN | DOUBLED) and VALUE[c] > 0
    ]
    return max(gains, default=0)
