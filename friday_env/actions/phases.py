"""The pending decisions ([`Phase`][friday_env.Phase]) and the action ids each one may ever
offer."""

from __future__ import annotations

from enum import IntEnum

from friday_env.actions import codec as act


class Phase(IntEnum):
    """The pending decision."""

    CHOOSE_HAZARD = 0  # two hazards drawn: fight one (R04)
    LAST_HAZARD = 1  # one hazard left: fight it or skip it (R04)
    CHOOSE_PIRATE = 2  # which pirate to fight first (R22)
    FIGHT = 3  # draw, use an ability or end the fight
    TARGET = 4  # choose the target of destroy/double/copy/exchange/below
    DRAW_MORE = 5  # "+2 cards": draw the second card or stop
    SORT_TAKE = 6  # "sort 3 cards": take another card or stop
    SORT_DISCARD = 7  # "sort 3 cards": discard one taken card or none
    SORT_ORDER = 8  # "sort 3 cards": which taken card goes back next
    LOSS_DESTROY = 9  # lost fight: choose cards to destroy within the budget (R20)
    GAME_OVER = 10


PHASE_NAMES = {
    Phase.CHOOSE_HAZARD: "choose a hazard",
    Phase.LAST_HAZARD: "last hazard of the step",
    Phase.CHOOSE_PIRATE: "choose a pirate",
    Phase.FIGHT: "fight",
    Phase.TARGET: "choose a target",
    Phase.DRAW_MORE: "+2 cards: another?",
    Phase.SORT_TAKE: "sort 3 cards: take",
    Phase.SORT_DISCARD: "sort 3 cards: discard",
    Phase.SORT_ORDER: "sort 3 cards: order",
    Phase.LOSS_DESTROY: "lost fight: destroy",
    Phase.GAME_OVER: "game over",
}


#: The fight's decisions: a hazard or pirate is being fought.
FIGHT_PHASES = frozenset(
    {
        Phase.FIGHT,
        Phase.TARGET,
        Phase.DRAW_MORE,
        Phase.SORT_TAKE,
        Phase.SORT_DISCARD,
        Phase.SORT_ORDER,
        Phase.LOSS_DESTROY,
    }
)

#: The action ids each pending decision may ever offer (the codec's ranges per decision).
PHASE_ACTIONS: dict[Phase, frozenset[int]] = {
    Phase.CHOOSE_HAZARD: frozenset({act.CHOOSE_HAZARD_0, act.CHOOSE_HAZARD_1}),
    Phase.LAST_HAZARD: frozenset({act.FIGHT_LAST_HAZARD, act.SKIP_LAST_HAZARD}),
    Phase.CHOOSE_PIRATE: frozenset({act.CHOOSE_PIRATE_0, act.CHOOSE_PIRATE_1}),
    Phase.FIGHT: frozenset({act.DRAW_FREE, act.DRAW_PAID, act.END_FIGHT})
    | frozenset(range(act.USE_0, act.TARGET_0)),
    Phase.TARGET: frozenset(range(act.TARGET_0, act.DESTROY_0)) | {act.STOP_EXCHANGING},
    Phase.DRAW_MORE: frozenset({act.DRAW_ANOTHER, act.STOP_DRAWING}),
    Phase.SORT_TAKE: frozenset({act.SORT_TAKE, act.SORT_STOP_TAKING}),
    Phase.SORT_DISCARD: frozenset({act.SORT_KEEP_ALL})
    | frozenset(range(act.SORT_DISCARD_0, act.SORT_PLACE_0)),
    Phase.SORT_ORDER: frozenset(range(act.SORT_PLACE_0, act.STOP_EXCHANGING)),
    Phase.LOSS_DESTROY: frozenset(range(act.DESTROY_0, act.NUM_ACTIONS)) | {act.FINISH_DESTROYING},
    Phase.GAME_OVER: frozenset(),
}
