"""Legal actions: what each pending decision allows (R04-R22), ascending action ids.

`LegalActions` adds ``legal_actions()`` and the drawing tests to the state;
[`Game`][friday_env.engine.game.Game] adds the rules that play an action.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from friday_env.actions import Phase
from friday_env.actions import codec as act
from friday_env.cards import (
    ABILITY,
    COPYABLE_ABILITIES,
    DESTROY_COST,
    PLAYER_ABILITIES,
    SPECIAL,
    Ability,
    PirateSpecial,
)
from friday_env.engine.scoring import fight_total, fight_value
from friday_env.engine.state import DOUBLED, DOWN, GREEN, LEFT, PIRATES, USED, State

# Abilities grouped as the rules test them, built once: looking up an ``Ability`` member
# (``Ability.STOP``) costs a fifth of a microsecond in CPython 3.11, too much in the loops
# over the table that run at every decision.
LIFE_ABILITIES = frozenset({Ability.LIFE_1, Ability.LIFE_2})
DRAW_ABILITIES = frozenset({Ability.CARDS_1, Ability.CARDS_2, Ability.SORT_3})
STOP_CARDS = frozenset(c for c, ability in enumerate(ABILITY) if ability == Ability.STOP)


class LegalActions(State):
    """The legal actions of the pending decision."""

    def legal_actions(self) -> list[int]:
        """The legal action ids, ascending, in a new list; empty only when the game is over.

        Read from the fields at each call, never cached: a cached list outlived the state it
        was made for once a field was edited by hand (a copy, a scenario, a pickle), and it
        saved only 3 % of a Friday-v0 step."""
        return self._LEGAL_ACTIONS[self.phase](self)

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
        if may_end and (self.step < PIRATES or fight_total(self) >= fight_value(self)):
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

    def _affordable_destroys(self) -> list[int]:
        return [
            slot
            for slot, card in enumerate(self.table)
            if not self.flags[slot] & DOWN and DESTROY_COST[card] <= self.budget
        ]

    def _sort_actions(self) -> list[int]:
        n = len(self.sort_taken)
        if self.phase == Phase.SORT_TAKE:
            return [act.SORT_TAKE, act.SORT_STOP_TAKING]
        if self.phase == Phase.SORT_DISCARD:
            return [act.SORT_KEEP_ALL] + [act.SORT_DISCARD_0 + k for k in range(n)]
        return [act.SORT_PLACE_0 + k for k in range(n)]

    # What each pending decision allows: one lookup per call instead of a chain of
    # comparisons with ``Phase`` members (slow to look up in CPython).
    _LEGAL_ACTIONS: ClassVar[dict[Phase, Callable[[LegalActions], list[int]]]] = {
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
