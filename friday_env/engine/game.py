"""The rules of *Friday*: [`Game`][friday_env.engine.game.Game], a state that plays one legal action
at a time.

``Game.new(level, seed)`` sets a game up (R24); ``apply(action)`` plays a legal action
(R03-R23), one small method per rule. Read-only rules (fight values, score) live in
[`friday_env.engine.scoring`][friday_env.engine.scoring], legal actions in
`friday_env.engine.legal`, the fields and seeded shuffles in `friday_env.engine.state`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, Self

import numpy as np

from friday_env.actions import Phase, action_id_of, names
from friday_env.actions import codec as act
from friday_env.cards import (
    ABILITY,
    CARD_TYPE,
    DESTROY_COST,
    DIFFICULT,
    FREE,
    HAZARD_IDS,
    HAZARD_VALUES,
    PIRATE_IDS,
    SPECIAL,
    STARTING_IDS,
    VERY_STUPID_ID,
    Ability,
    PirateSpecial,
)
from friday_env.engine import scoring
from friday_env.engine.legal import LegalActions
from friday_env.engine.state import (
    DOUBLED,
    DOWN,
    LEFT,
    PIRATES,
    RED,
    USED,
    level_aging_cards,
    level_life,
    seed_from,
)
from friday_env.errors import IllegalActionError, check_level

MAX_SORT = act.SORT_SIZE


class Game(LegalActions):
    """One game of Friday. Create with [`new`][friday_env.engine.game.Game.new] or
    [`friday_env.scenario.scenario`][friday_env.scenario.scenario]."""

    # the read-only rules, as methods
    fight_value = scoring.fight_value
    card_values = scoring.card_values
    fight_total = scoring.fight_total
    end_of_fight_penalty = scoring.end_of_fight_penalty
    robinson_cards = scoring.robinson_cards
    score = scoring.score
    hazards_beaten = scoring.hazards_beaten
    pirates_beaten = scoring.pirates_beaten

    # ------------------------------------------------------------------ setup

    @classmethod
    def new(cls, level: int, seed: int | np.random.Generator) -> Self:
        """A new game at ``level`` (1-4) on this reference engine, set up as the rulebook
        says (R24). [`friday_env.Game.new`][friday_env.Game.new] chooses between the cores;
        a subclass of this class extends the reference engine and plays on it."""
        game = cls()
        game.level = check_level(level)
        game.seed = seed_from(seed)
        game.origin = {"level": game.level, "seed": game.seed}
        aging = level_aging_cards(level)
        game.box = [] if level >= 3 else [VERY_STUPID_ID]
        game.aging_total = len(aging)
        normal = game.shuffled([c for c in aging if not DIFFICULT[c]])
        difficult = game.shuffled([c for c in aging if DIFFICULT[c]])
        game.aging = difficult + normal  # normal cards on top of the difficult ones
        game.stack = list(STARTING_IDS)
        if level >= 2:  # one unseen aging card joins the starting cards
            card = game.aging.pop()
            game.stack.append(card)
            game.unseen.append(card)
        game.shuffle(game.stack)
        game.hazard_stack = game.shuffled(HAZARD_IDS)
        pirates = game.shuffled(PIRATE_IDS)
        game.pirates = sorted(pirates[:2])
        game.box += pirates[2:]
        game.life = level_life(level)
        game.reserve = 2
        game._next_turn()
        return game

    def apply(self, action: int) -> None:
        """Play one legal action. Raises
        [`IllegalActionError`][friday_env.errors.IllegalActionError] (state untouched)."""
        # an int is checked by the membership test alone; numpy integers become ints first
        a = action if type(action) is int else action_id_of(action)
        if a is None or a not in self.legal_actions():
            raise IllegalActionError(names.illegal_action_message(self, action))
        self.history.append(a)
        self._ACTION_HANDLERS[self.phase](self, a)
        if self.step == PIRATES and self.phase == Phase.FIGHT and not self.legal_actions():
            self._lose()  # no action can still win this pirate fight (R22)

    # --------------------------------------------------------- turn sequence

    def start_turn(self) -> None:
        """Start the first turn of a game whose piles were laid out by hand
        ([`friday_env.scenario.scenario`][friday_env.scenario.scenario]); play itself goes through
        [`apply`][friday_env.engine.game.Game.apply]."""
        self._next_turn()

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
            self.shuffle(self.hazard_stack)

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

    def _draw(self) -> int:
        """Take the top card of the Robinson stack, reshuffling first if it is empty."""
        if not self.stack:
            self._reshuffle()
        card = self.stack.pop()
        if self.known_top:
            self.known_top -= 1
        if self.unseen and card in self.unseen:
            self._reveal(card)
        return card

    def _reveal(self, card: int) -> None:
        """R26: an unseen aging card came up. If the hidden stack also holds a seen card of
        its type, the player cannot tell which of the two was drawn: that one stays unseen
        in its place, so the open information does not depend on the physical copy drawn
        (it would reveal what the unseen card was, and so what the aging stack holds)."""
        index = self.unseen.index(card)
        kind = CARD_TYPE[card]
        for other in self.stack[: len(self.stack) - self.known_top]:
            if CARD_TYPE[other] == kind and other not in self.unseen:
                self.unseen[index] = other
                return
        del self.unseen[index]

    def _reshuffle(self) -> None:
        """R08: the top aging card (unseen) joins the discard pile, which becomes the stack."""
        if self.aging:
            card = self.aging.pop()
            self.discard.append(card)
            self.unseen.append(card)
        self.stack = self.discard
        self.discard = []
        self.shuffle(self.stack)
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

    # ---------------------------------------------------------- descriptions

    def describe(self, action: int) -> str:
        """A readable name of ``action`` in the current situation."""
        return names.describe_action(self, action)

    # How each pending decision answers an action: one lookup per call.
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
