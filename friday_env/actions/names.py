"""Readable names of legal actions in context, e.g. "use further/vision (slot 3): sort 3 cards",
and the message of an illegal action (both cores word it with
``illegal_action_message``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from friday_env.actions import codec as act
from friday_env.actions.phases import PHASE_NAMES, Phase
from friday_env.cards import ABILITY, ABILITY_NAMES, DESTROY_COST, FREE, HAZARD_VALUES, KEY, Ability


class GameView(Protocol):
    """What naming an action reads of a game of either core. A protocol, not the engine's
    class: the engine imports these names, so they must not import it."""

    phase: Phase
    step: int
    offer: list[int]
    pirates: list[int]
    table: list[int]
    sort_taken: list[int]
    free_used: int
    free_total: int
    resolving: Ability

    def legal_actions(self) -> list[int]: ...
    def describe(self, action: int) -> str: ...
    def paid_draw_cost(self) -> int: ...
    def fight_total(self) -> int: ...
    def fight_value(self) -> int: ...


_TARGET_VERBS = {
    Ability.DESTROY: "destroy",
    Ability.DOUBLE: "double",
    Ability.COPY: "copy the ability of",
    Ability.EXCHANGE_1: "exchange",
    Ability.EXCHANGE_2: "exchange",
    Ability.BELOW: "put below the stack",
}


def _hazard_text(game: GameView, card: int) -> str:
    value = HAZARD_VALUES[card][game.step]
    return f"{KEY[card]} ({FREE[card]} free, value {value})"


def _slot_text(game: GameView, slot: int) -> str:
    return f"{KEY[game.table[slot]]} (slot {slot})"


def describe_action(game: GameView, action: int) -> str:
    """Name ``action`` as it would act now; falls back to the context-free name when the
    action does not fit the pending decision."""
    try:
        if type(action) is bool:
            raise TypeError
        describe = _DESCRIBERS[action] if 0 <= action < act.NUM_ACTIONS else None
        text = describe(game, action) if describe is not None else None
    except (IndexError, KeyError):
        text = None
    except TypeError:  # found out only on failure: describing is on the env's hot path
        if type(action) is not bool and hasattr(type(action), "__index__"):
            raise  # an integer id: the error is not the caller's
        raise TypeError(
            f"an action is an integer id 0..{act.NUM_ACTIONS - 1}, "
            f"not {type(action).__name__} {action!r}"
        ) from None
    return act.action_name(action) if text is None else text


def illegal_action_message(game: GameView, action: object) -> str:
    """The message of the ``IllegalActionError`` that ``game.apply(action)`` raises: the
    action, the pending decision and the legal actions named in context. Both cores raise
    it with this text (the compiled core calls this function on its error path)."""
    legal = ", ".join(f"{a} ({game.describe(a)})" for a in game.legal_actions())
    a = act.action_id_of(action)
    name = "not an action id" if a is None else act.action_name(a)
    return (
        f"illegal action {action!r} ({name}) in phase {game.phase.name} "
        f"({PHASE_NAMES[game.phase]}); legal actions: {legal or 'none, the game is over'}"
    )


# Each describer names one kind of action, or returns None when the pending decision is
# not the one the action answers. Phases are module constants: looking up an Enum member
# costs more than the rest of a describer (the env names every action it is given).
_CHOOSE_HAZARD, _LAST_HAZARD = Phase.CHOOSE_HAZARD, Phase.LAST_HAZARD
_CHOOSE_PIRATE, _FIGHT, _TARGET = Phase.CHOOSE_PIRATE, Phase.FIGHT, Phase.TARGET


def _choose_hazard(game: GameView, a: int) -> str | None:
    if game.phase != _CHOOSE_HAZARD:
        return None
    k = a - act.CHOOSE_HAZARD_0
    chosen, other = game.offer[k], game.offer[1 - k]
    return f"fight {_hazard_text(game, chosen)}, discard {KEY[other]}"


def _fight_last_hazard(game: GameView, a: int) -> str | None:
    if game.phase != _LAST_HAZARD:
        return None
    return f"fight the last hazard {_hazard_text(game, game.offer[0])}"


def _skip_last_hazard(game: GameView, a: int) -> str | None:
    if game.phase != _LAST_HAZARD:
        return None
    return f"discard the last hazard {KEY[game.offer[0]]} and move on"


def _choose_pirate(game: GameView, a: int) -> str | None:
    if game.phase != _CHOOSE_PIRATE:
        return None
    return f"fight {KEY[game.pirates[a - act.CHOOSE_PIRATE_0]]} first"


def _draw_free(game: GameView, a: int) -> str:
    return f"draw a free card ({game.free_used + 1} of {game.free_total})"


def _draw_paid(game: GameView, a: int) -> str:
    return f"draw a card for {game.paid_draw_cost()} life"


def _end_fight(game: GameView, a: int) -> str | None:
    if game.phase != _FIGHT:
        return None
    total, value = game.fight_total(), game.fight_value()
    outcome = "win" if total >= value else f"lose by {value - total}"
    return f"end the fight: {total} against {value} ({outcome})"


def _use(game: GameView, a: int) -> str:
    slot = a - act.USE_0
    return f"use {_slot_text(game, slot)}: {ABILITY_NAMES[ABILITY[game.table[slot]]]}"


def _target(game: GameView, a: int) -> str | None:
    if game.phase != _TARGET:
        return None
    return f"{_TARGET_VERBS[game.resolving]} {_slot_text(game, a - act.TARGET_0)}"


def _destroy(game: GameView, a: int) -> str:
    slot = a - act.DESTROY_0
    return f"destroy {_slot_text(game, slot)} for {DESTROY_COST[game.table[slot]]} life"


def _sort_discard(game: GameView, a: int) -> str:
    return f"sort: discard {KEY[game.sort_taken[a - act.SORT_DISCARD_0]]}"


def _sort_place(game: GameView, a: int) -> str:
    return f"sort: put {KEY[game.sort_taken[a - act.SORT_PLACE_0]]} back next"


def _describers() -> list[Callable[[GameView, int], str | None] | None]:
    """Per action id, its describer (None: the context-free name is all there is)."""
    table: list[Callable[[GameView, int], str | None] | None] = [None] * act.NUM_ACTIONS
    table[act.CHOOSE_HAZARD_0] = table[act.CHOOSE_HAZARD_1] = _choose_hazard
    table[act.FIGHT_LAST_HAZARD] = _fight_last_hazard
    table[act.SKIP_LAST_HAZARD] = _skip_last_hazard
    table[act.CHOOSE_PIRATE_0] = table[act.CHOOSE_PIRATE_1] = _choose_pirate
    table[act.DRAW_FREE] = _draw_free
    table[act.DRAW_PAID] = _draw_paid
    table[act.END_FIGHT] = _end_fight
    for first, stop, describer in (
        (act.SORT_DISCARD_0, act.SORT_PLACE_0, _sort_discard),
        (act.SORT_PLACE_0, act.STOP_EXCHANGING, _sort_place),
        (act.USE_0, act.TARGET_0, _use),
        (act.TARGET_0, act.DESTROY_0, _target),
        (act.DESTROY_0, act.NUM_ACTIONS, _destroy),
    ):
        table[first:stop] = [describer] * (stop - first)
    return table


_DESCRIBERS = _describers()
