"""Readable names of legal actions in context, e.g. "use further/vision (slot 3): sort 3 cards"."""

from __future__ import annotations

from typing import TYPE_CHECKING

from friday_env import actions as act
from friday_env.actions import Phase
from friday_env.cards import ABILITY, ABILITY_NAMES, DESTROY_COST, FREE, HAZARD_VALUES, KEY, Ability

if TYPE_CHECKING:
    from friday_env.engine import Game

_TARGET_VERBS = {
    Ability.DESTROY: "destroy",
    Ability.DOUBLE: "double",
    Ability.COPY: "copy the ability of",
    Ability.EXCHANGE_1: "exchange",
    Ability.EXCHANGE_2: "exchange",
    Ability.BELOW: "put below the stack",
}


def _hazard_text(game: Game, card: int) -> str:
    value = HAZARD_VALUES[card][game.step]
    return f"{KEY[card]} ({FREE[card]} free, value {value})"


def _slot_text(game: Game, slot: int) -> str:
    return f"{KEY[game.table[slot]]} (slot {slot})"


def describe_action(game: Game, action: int) -> str:
    """Name ``action`` as it would act now; falls back to the context-free name when the
    action does not fit the pending decision."""
    try:
        return _describe(game, action)
    except (IndexError, KeyError):
        return act.action_name(action)


def _describe(game: Game, a: int) -> str:
    phase = game.phase
    if phase == Phase.CHOOSE_HAZARD and a in (act.CHOOSE_HAZARD_0, act.CHOOSE_HAZARD_1):
        k = a - act.CHOOSE_HAZARD_0
        chosen, other = game.offer[k], game.offer[1 - k]
        return f"fight {_hazard_text(game, chosen)}, discard {KEY[other]}"
    if phase == Phase.LAST_HAZARD and a == act.FIGHT_LAST_HAZARD:
        return f"fight the last hazard {_hazard_text(game, game.offer[0])}"
    if phase == Phase.LAST_HAZARD and a == act.SKIP_LAST_HAZARD:
        return f"discard the last hazard {KEY[game.offer[0]]} and move on"
    if phase == Phase.CHOOSE_PIRATE and a in (act.CHOOSE_PIRATE_0, act.CHOOSE_PIRATE_1):
        return f"fight {KEY[game.pirates[a - act.CHOOSE_PIRATE_0]]} first"
    if a == act.DRAW_FREE:
        return f"draw a free card ({game.free_used + 1} of {game.free_total})"
    if a == act.DRAW_PAID:
        return f"draw a card for {game.paid_draw_cost()} life"
    if a == act.END_FIGHT and phase == Phase.FIGHT:
        total, value = game.fight_total(), game.fight_value()
        outcome = "win" if total >= value else f"lose by {value - total}"
        return f"end the fight: {total} against {value} ({outcome})"
    if act.USE_0 <= a < act.TARGET_0:
        slot = a - act.USE_0
        return f"use {_slot_text(game, slot)}: {ABILITY_NAMES[ABILITY[game.table[slot]]]}"
    if act.TARGET_0 <= a < act.DESTROY_0 and phase == Phase.TARGET:
        return f"{_TARGET_VERBS[game.resolving]} {_slot_text(game, a - act.TARGET_0)}"
    if act.DESTROY_0 <= a < act.NUM_ACTIONS:
        slot = a - act.DESTROY_0
        cost = DESTROY_COST[game.table[slot]]
        return f"destroy {_slot_text(game, slot)} for {cost} life"
    if act.SORT_DISCARD_0 <= a < act.SORT_PLACE_0:
        return f"sort: discard {KEY[game.sort_taken[a - act.SORT_DISCARD_0]]}"
    if act.SORT_PLACE_0 <= a < act.STOP_EXCHANGING:
        return f"sort: put {KEY[game.sort_taken[a - act.SORT_PLACE_0]]} back next"
    return act.action_name(a)
