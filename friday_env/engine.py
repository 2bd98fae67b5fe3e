"""The rules of *Friday* as a mutable game state with a decision-point API.

A :class:`Game` is always waiting for one decision (:attr:`Game.phase`). ``legal_actions()``
lists the legal action ids (see :mod:`friday_env.actions`), ``describe(action)`` names one in
context, and ``apply(action)`` plays it. Nothing else changes the state. An illegal action
raises :class:`~friday_env.errors.IllegalActionError` before anything is touched.

Representation. The state is a plain mutable object whose piles are lists of card ids
(``friday_env.cards``) with the top of a stack at the *end* of its list. pgx keeps its state
immutable, which suits JAX; in CPython a mutable object with a handful of short lists is
what makes ``clone()`` a few microseconds and a random action a few microseconds, which
search agents need (they clone thousands of times per decision). The rules still read as
one small method per rule.

Randomness. A game holds one integer seed. The k-th shuffle of the game uses a generator
seeded with ``(seed, k)``, so ``(setup, seed, actions)`` rebuilds any game exactly, a clone
carries its future without copying a generator object, and :meth:`Game.determinized`
can give a search agent a fresh seed and a resampled hidden order (R26).

Rulings R01-R26 and the decisions D01-D11 for what they leave open are in
``docs/rulings.md``, and cited where they apply.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from friday_env import actions as act
from friday_env.actions import Phase
from friday_env.cards import (
    ABILITY,
    ABILITY_NAMES,
    AGING_IDS,
    COPYABLE_ABILITIES,
    DESTROY_COST,
    FREE,
    HAZARD_IDS,
    HAZARD_VALUES,
    IS_AGING,
    KEY,
    PIRATE_IDS,
    PLAYER_ABILITIES,
    SCORE_VALUE,
    SPECIAL,
    STARTING_IDS,
    VALUE,
    VERY_STUPID_ID,
    Ability,
    PirateSpecial,
    card_label,
)
from friday_env.describe import describe_action
from friday_env.errors import IllegalActionError, check_level

# Table slot flags.
LEFT = 1  # a free card, drawn on the left side of the hazard
USED = 2  # its ability has been used (turned 90 degrees)
DOWN = 4  # destroyed: face down, value 0, ability gone (R12)
DOUBLED = 8  # its value counts twice (R13)

GREEN, YELLOW, RED, PIRATES = 0, 1, 2, 3
STEP_NAMES = ("green", "yellow", "red", "pirates")
MAX_SORT = act.SORT_SIZE
_GAME_OVER = Phase.GAME_OVER  # ``done`` runs after every decision: skip the Enum lookup

# Abilities grouped as the rules test them, built once: looking up an ``Ability`` member
# (``Ability.STOP``) costs a fifth of a microsecond in CPython 3.11, too much in the loops
# over the table that run at every decision.
LIFE_ABILITIES = frozenset({Ability.LIFE_1, Ability.LIFE_2})
DRAW_ABILITIES = frozenset({Ability.CARDS_1, Ability.CARDS_2, Ability.SORT_3})
STOP_CARDS = frozenset(c for c, ability in enumerate(ABILITY) if ability == Ability.STOP)
HIGHEST_ZERO_CARDS = frozenset(
    c for c, ability in enumerate(ABILITY) if ability == Ability.HIGHEST_ZERO
)
#: Life each card costs at the end of a fight while face up (R19): "-1 life", "-2 life".
END_OF_FIGHT_LIFE = tuple(
    {Ability.LOSE_LIFE_1: 1, Ability.LOSE_LIFE_2: 2}.get(ability, 0) for ability in ABILITY
)


def level_life(level: int) -> int:
    """Robinson's starting life (R01, R24)."""
    return 18 if level == 4 else 20


def level_aging_cards(level: int) -> list[int]:
    """Aging cards in the game at this level: "very stupid" only on levels 3-4 (R24)."""
    return [c for c in AGING_IDS if level >= 3 or c != VERY_STUPID_ID]


def seed_from(seed: int | np.random.Generator) -> int:
    """A game seed from an int or a numpy ``Generator`` (which advances by one draw)."""
    if isinstance(seed, np.random.Generator):
        return int(seed.integers(0, 2**63 - 1))
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be an int or numpy Generator, not {type(seed).__name__}")
    if seed < 0:
        raise ValueError(f"seed must be non-negative, got {seed}")
    return int(seed)


class Game:
    """One game of Friday. Create with :meth:`new` or :func:`friday_env.scenario.scenario`."""

    # Everything a clone must copy; lists are copied, the rest is immutable.
    _LIST_FIELDS = (
        "stack", "discard", "hazard_stack", "hazard_discard", "aging", "destroyed", "box",
        "pirates", "beaten", "offer", "table", "flags", "sort_taken", "unseen", "history",
        "spent",
    )  # fmt: skip

    def __init__(self) -> None:
        self.level = 1
        self.seed = 0
        self.shuffles = 0  # shuffles done so far: the k of the k-th shuffle's generator
        self.origin: dict[str, Any] = {}  # how the game was set up (for records)
        self.phase = Phase.CHOOSE_HAZARD
        self.step = GREEN
        self.life = 20
        self.reserve = 2
        self.aging_total = 10  # aging cards at the start (R23 "+2 per aging card")
        self.won = False
        self.fights = 0  # fights finished
        # piles (top of a stack = end of its list)
        self.stack: list[int] = []
        self.discard: list[int] = []
        self.hazard_stack: list[int] = []
        self.hazard_discard: list[int] = []
        self.aging: list[int] = []
        self.destroyed: list[int] = []
        self.box: list[int] = []  # out of this game (unused pirates, "very stupid" on 1-2)
        self.pirates: list[int] = []  # undefeated pirates, face up (R22)
        self.beaten: list[int] = []  # defeated pirates
        self.offer: list[int] = []  # hazard cards drawn, waiting for the choice
        # the fight
        self.hazard = -1  # the hazard or pirate fought, -1 outside a fight
        self.pirate_value = 0  # a pirate's value, fixed when its fight starts
        self.free_total = 0
        self.free_used = 0
        self.step_down = 0  # uses of "step -1" in this fight (R15)
        self.table: list[int] = []
        self.spent: list[int] = []  # cards whose ability was used in this fight (D11)
        self.flags: list[int] = []
        # the ability being resolved
        self.source = -1  # table slot of the card whose ability is resolving
        self.resolving = Ability.NONE
        self.exchanges_left = 0
        self.sort_taken: list[int] = []
        self.sort_placed = 0  # sorted cards already put back on top
        self.budget = 0  # lost fight: destroy points left (R20)
        # what the player knows of the Robinson stack (R26)
        self.known_top = 0  # this many top cards are known in order
        self.unseen: list[int] = []  # aging cards in the stack whose identity is unseen
        self.history: list[int] = []
        self._legal: list[int] | None = None

    # ------------------------------------------------------------------ setup

    @classmethod
    def new(cls, level: int, seed: int | np.random.Generator) -> Game:
        """A new game at ``level`` (1-4), set up as the rulebook says (R24)."""
        game = cls()
        game.level = check_level(level)
        game.seed = seed_from(seed)
        game.origin = {"level": game.level, "seed": game.seed}
        aging = level_aging_cards(level)
        game.box = [] if level >= 3 else [VERY_STUPID_ID]
        game.aging_total = len(aging)
        normal = game._shuffled([c for c in aging if not _is_difficult(c)])
        difficult = game._shuffled([c for c in aging if _is_difficult(c)])
        game.aging = difficult + normal  # normal cards on top of the difficult ones
        game.stack = list(STARTING_IDS)
        if level >= 2:  # one unseen aging card joins the starting cards
            card = game.aging.pop()
            game.stack.append(card)
            game.unseen.append(card)
        game._shuffle(game.stack)
        game.hazard_stack = game._shuffled(HAZARD_IDS)
        pirates = game._shuffled(PIRATE_IDS)
        game.pirates = sorted(pirates[:2])
        game.box += pirates[2:]
        game.life = level_life(level)
        game.reserve = 2
        game._next_turn()
        return game

    def clone(self) -> Game:
        """An independent copy of the whole state, hidden order and future shuffles included."""
        other = Game.__new__(Game)
        other.__dict__.update(self.__dict__)
        for name in self._LIST_FIELDS:
            setattr(other, name, getattr(self, name)[:])
        return other

    # ------------------------------------------------------------- randomness

    def _shuffle(self, cards: list[int]) -> None:
        # A string key is hashed (SHA-512) into the generator's seed. An integer key such as
        # ``seed << 32 | k`` is not: Mersenne Twister adds each key word's index to it, so
        # seed 0's k-th shuffle equalled seed k-1's (seeds 0 and 1 dealt the same stack).
        random.Random(f"{self.seed}:{self.shuffles}").shuffle(cards)
        self.shuffles += 1

    def _shuffled(self, cards: list[int]) -> list[int]:
        out = list(cards)
        self._shuffle(out)
        return out

    # ------------------------------------------------------------- public API

    @property
    def done(self) -> bool:
        return self.phase == _GAME_OVER

    @property
    def in_pirate_fight(self) -> bool:
        return self.step == PIRATES and self.hazard >= 0

    def legal_actions(self) -> list[int]:
        """The legal action ids, ascending; empty only when the game is over.
        The list is cached: do not modify it."""
        if self._legal is None:
            self._legal = self._LEGAL_ACTIONS[self.phase](self)
        return self._legal

    def apply(self, action: int) -> None:
        """Play one legal action. Raises :class:`IllegalActionError` (state untouched)."""
        # an int is checked by the membership test alone; numpy integers become ints first
        a = action if type(action) is int else _action_id(action)
        if a is None or a not in self.legal_actions():
            raise IllegalActionError(self._illegal_message(action))
        self._legal = None
        self.history.append(a)
        self._ACTION_HANDLERS[self.phase](self, a)
        self._legal = None
        if self.step == PIRATES and self.phase == Phase.FIGHT and not self.legal_actions():
            self._lose()  # no action can still win this pirate fight (R22)

    def _illegal_message(self, action: object) -> str:
        legal = ", ".join(f"{a} ({self.describe(a)})" for a in self.legal_actions())
        a = _action_id(action)
        name = "not an action id" if a is None else act.action_name(a)
        return (
            f"illegal action {action!r} ({name}) in phase {self.phase.name} "
            f"({act.PHASE_NAMES[self.phase]}); legal actions: {legal or 'none, the game is over'}"
        )

    # --------------------------------------------------------- turn sequence

    def _next_turn(self) -> None:
        """Start the next turn: draw hazards (R04), or move on to the next step/pirates."""
        while True:
            if self.step == PIRATES:
                self.phase = Phase.CHOOSE_PIRATE
                return
            if len(self.hazard_stack) >= 2:
                self.offer = [self.hazard_stack.pop(), self.hazard_stack.pop()]
                self.phase = Phase.CHOOSE_HAZARD
                return
            if len(self.hazard_stack) == 1:
                self.offer = [self.hazard_stack.pop()]
                self.phase = Phase.LAST_HAZARD
                return
            self._advance_step()

    def _advance_step(self) -> None:
        self.step += 1
        if self.step < PIRATES:  # the discarded hazards become the new pile (R04)
            self.hazard_stack = self.hazard_discard
            self.hazard_discard = []
            self._shuffle(self.hazard_stack)

    def _start_fight(self, card: int) -> None:
        self.hazard = card
        self.offer = []
        self.free_used = 0
        self.step_down = 0
        self.spent = []
        self.phase = Phase.FIGHT
        if self.step < PIRATES:
            self.free_total = FREE[card]
            return
        special = SPECIAL[card]
        if special == PirateSpecial.PLUS_TWO_PER_AGING:  # value fixed now (R23)
            self.free_total = FREE[card]
            self.pirate_value = 2 * (self.aging_total - len(self.aging))
        elif special == PirateSpecial.ALL_HAZARDS:
            self.free_total = sum(FREE[h] for h in self.hazard_discard)
            self.pirate_value = sum(HAZARD_VALUES[h][RED] for h in self.hazard_discard)
        else:
            self.free_total = FREE[card]
            self.pirate_value = HAZARD_VALUES[card][0]

    # ------------------------------------------------------------ dispatching

    def _choose_hazard_action(self, a: int) -> None:
        """R04: fight one of the two hazards drawn; the other goes to the discard pile."""
        chosen = self.offer[a - act.CHOOSE_HAZARD_0]
        self.hazard_discard.append(self.offer[1 - (a - act.CHOOSE_HAZARD_0)])
        self._start_fight(chosen)

    def _last_hazard_action(self, a: int) -> None:
        """R04: the last hazard of a step is fought, or skipped to the next step."""
        if a == act.FIGHT_LAST_HAZARD:
            self._start_fight(self.offer[0])
        else:
            self.hazard_discard.append(self.offer.pop())
            self._advance_step()
            self._next_turn()

    def _choose_pirate_action(self, a: int) -> None:
        self._start_fight(self.pirates[a - act.CHOOSE_PIRATE_0])

    def _draw_more_action(self, a: int) -> None:
        """ "+2 cards": the second card is optional."""
        if a == act.DRAW_ANOTHER:
            self._place(self._draw(), left=False)
        self.phase = Phase.FIGHT

    def _target_action(self, a: int) -> None:
        if a == act.STOP_EXCHANGING:
            self.phase = Phase.FIGHT
        else:
            self._resolve_target(a - act.TARGET_0)

    def _fight_action(self, a: int) -> None:
        if a == act.DRAW_FREE:
            self.free_used += 1
            self._place(self._draw(), left=True)
        elif a == act.DRAW_PAID:
            self._pay(self.paid_draw_cost())
            self._place(self._draw(), left=False)
        elif a == act.END_FIGHT:
            self._end_fight()
        else:
            slot = a - act.USE_0
            self.flags[slot] |= USED
            self.spent.append(self.table[slot])
            self._resolve(ABILITY[self.table[slot]], slot)

    # ------------------------------------------------------- legal actions

    def _choose_hazard_actions(self) -> list[int]:
        return [act.CHOOSE_HAZARD_0, act.CHOOSE_HAZARD_1]

    def _last_hazard_actions(self) -> list[int]:
        return [act.FIGHT_LAST_HAZARD, act.SKIP_LAST_HAZARD]

    def _choose_pirate_actions(self) -> list[int]:
        return [act.CHOOSE_PIRATE_0 + i for i in range(len(self.pirates))]

    def _draw_more_actions(self) -> list[int]:
        return [act.DRAW_ANOTHER, act.STOP_DRAWING]

    def _loss_destroy_actions(self) -> list[int]:
        return [act.FINISH_DESTROYING] + [act.DESTROY_0 + s for s in self._affordable_destroys()]

    def _game_over_actions(self) -> list[int]:
        return []

    def _fight_actions(self) -> list[int]:
        legal = []
        can_draw = self.can_draw()
        if can_draw:
            if self.free_draw_available():
                legal.append(act.DRAW_FREE)
            elif self.life >= self.paid_draw_cost():
                legal.append(act.DRAW_PAID)
        # R06: a card first; D01 when nothing can be drawn; D10 when no card is free
        may_end = self.table or not can_draw or not self.free_total
        if may_end and (self.step < PIRATES or self.fight_total() >= self.fight_value()):
            legal.append(act.END_FIGHT)
        flags = self.flags
        for slot, card in enumerate(self.table):
            ability = ABILITY[card]
            if (
                not flags[slot] & (USED | DOWN)
                and ability in PLAYER_ABILITIES
                and self._has_effect(ability, slot)
            ):
                legal.append(act.USE_0 + slot)
        return legal

    def _has_effect(self, ability: Ability, source: int) -> bool:
        """R09: an ability is offered only when it can change something."""
        if ability in LIFE_ABILITIES:
            return self.reserve > 0
        if ability in DRAW_ABILITIES:
            return self.can_draw()
        if ability == Ability.STEP_DOWN:
            return self.step < PIRATES and self.step - self.step_down > GREEN
        return bool(self._targets(ability, source))

    def _targets(self, ability: Ability, source: int) -> list[int]:
        """Slots an ability from ``source`` may target (R10, R13, R14)."""
        flags = self.flags
        doubling, copying = ability == Ability.DOUBLE, ability == Ability.COPY
        targets = []
        for slot, card in enumerate(self.table):
            if slot == source or flags[slot] & DOWN:
                continue
            if doubling and flags[slot] & DOUBLED:
                continue
            if copying and not (
                ABILITY[card] in COPYABLE_ABILITIES and self._has_effect(ABILITY[card], source)
            ):
                continue
            targets.append(slot)
        return targets

    def _target_actions(self) -> list[int]:
        legal = [act.TARGET_0 + s for s in self._targets(self.resolving, self.source)]
        if self.resolving == Ability.EXCHANGE_2 and self.exchanges_left == 1:
            legal.insert(0, act.STOP_EXCHANGING)  # the lowest id: the list stays ascending
        return legal

    # ------------------------------------------------------------- drawing

    def can_draw(self) -> bool:
        """Whether a card can come from the Robinson stack, reshuffling if needed (R08)."""
        return bool(self.stack or self.discard or self.aging)

    def free_draw_available(self) -> bool:
        """A free draw is left and no face-up "stop" card lies on the left (R05, R07)."""
        if self.free_used >= self.free_total:
            return False
        flags = self.flags
        for slot, card in enumerate(self.table):
            if card in STOP_CARDS and flags[slot] & LEFT and not flags[slot] & DOWN:
                return False
        return True

    def paid_draw_cost(self) -> int:
        """Life per additional card: 2 against the "2 life per card" pirate (R23), else 1."""
        if self.step == PIRATES and SPECIAL[self.hazard] == PirateSpecial.TWO_LIFE_PER_CARD:
            return 2
        return 1

    def _draw(self) -> int:
        """Take the top card of the Robinson stack, reshuffling first if it is empty."""
        if not self.stack:
            self._reshuffle()
        card = self.stack.pop()
        if self.known_top:
            self.known_top -= 1
        if self.unseen and card in self.unseen:
            self.unseen.remove(card)
        return card

    def _reshuffle(self) -> None:
        """R08: the top aging card (unseen) joins the discard pile, which becomes the stack."""
        if self.aging:
            card = self.aging.pop()
            self.discard.append(card)
            self.unseen.append(card)
        self.stack = self.discard
        self.discard = []
        self._shuffle(self.stack)
        self.known_top = 0

    def _place(self, card: int, left: bool) -> None:
        self.table.append(card)
        self.flags.append(self._arrival_flags(card, LEFT if left else 0))

    def _arrival_flags(self, card: int, side: int) -> int:
        """Flags of a card arriving on the table: its side, and USED if its ability was
        already used in this fight before it left (D11: once per fight, R09)."""
        return side | USED if card in self.spent else side

    # ------------------------------------------------------- life tokens

    def _pay(self, points: int) -> None:
        """Pay life to the reserve (R01); the caller has checked it is affordable (R02)."""
        self.life -= points
        self.reserve += points

    def _gain(self, points: int) -> None:
        """Take up to ``points`` life from the reserve (R01)."""
        points = min(points, self.reserve)
        self.life += points
        self.reserve -= points

    # ------------------------------------------------------------ abilities

    def _resolve(self, ability: Ability, source: int) -> None:
        """Carry out an ability used by the card in slot ``source`` (R09-R18)."""
        self.phase = Phase.FIGHT
        if ability == Ability.LIFE_1:
            self._gain(1)
        elif ability == Ability.LIFE_2:
            self._gain(2)  # "up to 2": taking both is never worse (D02)
        elif ability == Ability.CARDS_1:
            self._place(self._draw(), left=False)
        elif ability == Ability.CARDS_2:
            self._place(self._draw(), left=False)
            if self.can_draw():
                self.phase = Phase.DRAW_MORE
        elif ability == Ability.STEP_DOWN:
            self.step_down += 1
        elif ability == Ability.SORT_3:
            self.sort_taken = [self._draw()]
            self._after_sort_take()
        else:  # destroy, double, copy, exchange, below: choose a target next
            self.phase = Phase.TARGET
            self.source = source
            self.resolving = ability
            self.exchanges_left = 2 if ability == Ability.EXCHANGE_2 else 1

    def _resolve_target(self, slot: int) -> None:
        ability = self.resolving
        self.phase = Phase.FIGHT
        if ability == Ability.DESTROY:
            self.flags[slot] |= DOWN
        elif ability == Ability.DOUBLE:
            self.flags[slot] |= DOUBLED
        elif ability == Ability.COPY:
            self._resolve(ABILITY[self.table[slot]], self.source)
        elif ability == Ability.BELOW:
            self._put_below(slot)
        else:
            self._exchange(slot)

    def _exchange(self, slot: int) -> None:
        """R17: the target goes to the discard pile, a new card takes its place and side."""
        self.discard.append(self.table[slot])
        card = self._draw()
        self.table[slot] = card
        self.flags[slot] = self._arrival_flags(card, self.flags[slot] & LEFT)
        self.exchanges_left -= 1
        if self.exchanges_left > 0:
            self.phase = Phase.TARGET

    def _put_below(self, slot: int) -> None:
        """R18: the target goes under the stack; a free card gives its free draw back."""
        if not self.stack:
            self._reshuffle()
        if self.known_top == len(self.stack):  # whole stack known: so is its new bottom
            self.known_top += 1
        self.stack.insert(0, self.table.pop(slot))
        if self.flags.pop(slot) & LEFT:
            self.free_used -= 1

    # -------------------------------------------------------------- sort 3

    def _after_sort_take(self) -> None:
        if len(self.sort_taken) < MAX_SORT and self.can_draw():
            self.phase = Phase.SORT_TAKE
        else:
            self.phase = Phase.SORT_DISCARD

    def _sort_actions(self) -> list[int]:
        n = len(self.sort_taken)
        if self.phase == Phase.SORT_TAKE:
            return [act.SORT_TAKE, act.SORT_STOP_TAKING]
        if self.phase == Phase.SORT_DISCARD:
            return [act.SORT_KEEP_ALL] + [act.SORT_DISCARD_0 + k for k in range(n)]
        return [act.SORT_PLACE_0 + k for k in range(n)]

    def _sort_action(self, a: int) -> None:
        """R16: take up to 3, discard at most 1, put the rest back in a chosen order."""
        if a == act.SORT_TAKE:
            self.sort_taken.append(self._draw())
            self._after_sort_take()
            return
        if a == act.SORT_STOP_TAKING:
            self.phase = Phase.SORT_DISCARD
            return
        if act.SORT_DISCARD_0 <= a < act.SORT_PLACE_0:
            self.discard.append(self.sort_taken.pop(a - act.SORT_DISCARD_0))
        elif a != act.SORT_KEEP_ALL:  # SORT_PLACE_k: the next card from the top down
            self._return_to_top(self.sort_taken.pop(a - act.SORT_PLACE_0))
        self.phase = Phase.SORT_ORDER
        if len(self.sort_taken) <= 1:
            for card in self.sort_taken:
                self._return_to_top(card)
            self.sort_taken = []
            self.sort_placed = 0
            self.phase = Phase.FIGHT

    def _return_to_top(self, card: int) -> None:
        """Put a sorted card back under the ones already put back (R16), known to the player."""
        self.stack.insert(len(self.stack) - self.sort_placed, card)
        self.sort_placed += 1
        self.known_top += 1

    # ---------------------------------------------------------- fight result

    def fight_value(self) -> int:
        """The hazard value to reach: the step's value lowered by "step -1" (R15), or the
        pirate's value."""
        if self.step == PIRATES:
            return self.pirate_value
        return HAZARD_VALUES[self.hazard][max(GREEN, self.step - self.step_down)]

    def card_values(self) -> list[int]:
        """Each table card's value at the end of the fight: doubles (R13), face-down cards
        (R12) and "highest card = 0" (R19) applied."""
        flags = self.flags
        values = []
        scared = 0
        for slot, card in enumerate(self.table):
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

    def fight_total(self, values: list[int] | None = None) -> int:
        """Robinson's fighting points now, pirate specials included (R23); ``values`` is
        :meth:`card_values` when the caller has it already."""
        if values is None:
            values = self.card_values()
        if self.step < PIRATES:
            return sum(values)
        special = SPECIAL[self.hazard]
        if special == PirateSpecial.PLUS_ONE_PER_CARD:
            return sum(values) + len(values)
        if special == PirateSpecial.HALF_COUNT:
            return self._half_total(values)
        return sum(values)

    def _half_total(self, values: list[int]) -> int:
        """R23 "half": ceil(n/2) cards count, face-up aging cards first (least harmful
        first), then the best of the others."""
        counted = (len(values) + 1) // 2
        aging: list[int] = []
        others: list[int] = []
        for slot, card in enumerate(self.table):
            face_up_aging = IS_AGING[card] and not self.flags[slot] & DOWN
            (aging if face_up_aging else others).append(values[slot])
        aging.sort(reverse=True)
        others.sort(reverse=True)
        chosen = aging[:counted]
        return sum(chosen) + sum(others[: counted - len(chosen)])

    def end_of_fight_penalty(self) -> int:
        """Life lost to face-up "-1 life"/"-2 life" aging cards (R19)."""
        flags = self.flags
        face_up = (card for slot, card in enumerate(self.table) if not flags[slot] & DOWN)
        return sum(END_OF_FIGHT_LIFE[card] for card in face_up)

    def _end_fight(self) -> None:
        """R03, R06, R20, R21: compare, pay everything owed at once, then clean up."""
        total, value = self.fight_total(), self.fight_value()
        penalty = self.end_of_fight_penalty()
        if total >= value:
            if penalty > self.life:
                self._lose()
                return
            self._pay(penalty)
            self._win_fight()
            return
        difference = value - total
        if difference + penalty > self.life:
            self._lose()
            return
        self._pay(difference + penalty)
        self.budget = difference
        self.phase = Phase.LOSS_DESTROY
        if not self._affordable_destroys():
            self._finish_lost_fight()

    def _clear_table(self) -> None:
        for slot, card in enumerate(self.table):
            (self.destroyed if self.flags[slot] & DOWN else self.discard).append(card)
        self.table = []
        self.flags = []
        self.fights += 1

    def _win_fight(self) -> None:
        self._clear_table()
        card, self.hazard = self.hazard, -1
        if self.step < PIRATES:
            self.discard.append(card)  # R21: it joins Robinson's cards as knowledge
            self._next_turn()
            return
        self.pirates.remove(card)
        self.beaten.append(card)
        if self.pirates:
            self._start_fight(self.pirates[0])  # the other pirate at once (R22)
        else:
            self.won = True
            self.phase = Phase.GAME_OVER

    def _affordable_destroys(self) -> list[int]:
        return [
            slot
            for slot, card in enumerate(self.table)
            if not self.flags[slot] & DOWN and DESTROY_COST[card] <= self.budget
        ]

    def _loss_destroy_action(self, a: int) -> None:
        if a == act.FINISH_DESTROYING:
            self._finish_lost_fight()
            return
        slot = a - act.DESTROY_0
        self.flags[slot] |= DOWN
        self.budget -= DESTROY_COST[self.table[slot]]
        if not self._affordable_destroys():
            self._finish_lost_fight()

    def _finish_lost_fight(self) -> None:
        """R20: points left over are lost; cards to the discard pile, hazard to its pile."""
        self.budget = 0
        self._clear_table()
        self.hazard_discard.append(self.hazard)
        self.hazard = -1
        self._next_turn()

    def _lose(self) -> None:
        self.won = False
        self.phase = Phase.GAME_OVER

    # --------------------------------------------------------------- score

    def robinson_cards(self) -> list[int]:
        """Robinson's fighting cards: stack, discard pile, sort hand and face-up table cards."""
        on_table = [c for s, c in enumerate(self.table) if not self.flags[s] & DOWN]
        return self.stack + self.discard + self.sort_taken + on_table

    def score(self) -> int:
        """R25, for wins and losses alike."""
        points = sum(SCORE_VALUE[c] for c in self.robinson_cards())
        points += 15 * len(self.beaten) - 3 * len(self.hazard_discard)
        if self.won:
            points += 5 * self.life
        return points

    # ---------------------------------------------------------- descriptions

    def describe(self, action: int) -> str:
        """A readable name of ``action`` in the current situation."""
        return describe_action(self, action)

    def __repr__(self) -> str:
        return (
            f"Game(level={self.level}, step={STEP_NAMES[self.step]}, life={self.life}, "
            f"phase={self.phase.name}, "
            f"hazard={card_label(self.hazard) if self.hazard >= 0 else None}, "
            f"table={[KEY[c] for c in self.table]})"
        )

    # ------------------------------------------------------------ dispatch tables

    # What each pending decision allows, and how each answers an action: one lookup per call
    # instead of a chain of comparisons with ``Phase`` members (slow to look up in CPython).
    _LEGAL_ACTIONS: ClassVar[dict[Phase, Callable[[Game], list[int]]]] = {
        Phase.CHOOSE_HAZARD: _choose_hazard_actions,
        Phase.LAST_HAZARD: _last_hazard_actions,
        Phase.CHOOSE_PIRATE: _choose_pirate_actions,
        Phase.FIGHT: _fight_actions,
        Phase.TARGET: _target_actions,
        Phase.DRAW_MORE: _draw_more_actions,
        Phase.SORT_TAKE: _sort_actions,
        Phase.SORT_DISCARD: _sort_actions,
        Phase.SORT_ORDER: _sort_actions,
        Phase.LOSS_DESTROY: _loss_destroy_actions,
        Phase.GAME_OVER: _game_over_actions,
    }
    _ACTION_HANDLERS: ClassVar[dict[Phase, Callable[[Game, int], None]]] = {
        Phase.CHOOSE_HAZARD: _choose_hazard_action,
        Phase.LAST_HAZARD: _last_hazard_action,
        Phase.CHOOSE_PIRATE: _choose_pirate_action,
        Phase.FIGHT: _fight_action,
        Phase.TARGET: _target_action,
        Phase.DRAW_MORE: _draw_more_action,
        Phase.SORT_TAKE: _sort_action,
        Phase.SORT_DISCARD: _sort_action,
        Phase.SORT_ORDER: _sort_action,
        Phase.LOSS_DESTROY: _loss_destroy_action,
    }


def _is_difficult(card: int) -> bool:
    return KEY[card] in ("moronic", "suicidal", "very hungry")


def _action_id(action: object) -> int | None:
    """The action id ``action`` stands for, as an int: ints and numpy integers (bools not)
    within the action layout; None for anything else."""
    is_integer = isinstance(action, (int, np.integer)) and not isinstance(action, bool)
    if is_integer and 0 <= int(action) < act.NUM_ACTIONS:  # type: ignore[call-overload]
        return int(action)  # type: ignore[call-overload]
    return None


__all__ = ["ABILITY_NAMES", "STEP_NAMES", "Game"]
