"""Actions: the codec (one integer per decision, `codec`), the
pending decisions (`phases`), the legal-action mask
(`mask`) and action names in context
(`names`).

``from friday_env import actions as act`` gives every action id (``act.DRAW_FREE``,
``act.USE_0 + slot``...), [`Phase`][friday_env.actions.Phase] and the names.
"""

from friday_env.actions.codec import (
    ACTION_NAMES,
    CHOOSE_HAZARD_0,
    CHOOSE_HAZARD_1,
    CHOOSE_PIRATE_0,
    CHOOSE_PIRATE_1,
    DESTROY_0,
    DRAW_ANOTHER,
    DRAW_FREE,
    DRAW_PAID,
    END_FIGHT,
    FIGHT_LAST_HAZARD,
    FINISH_DESTROYING,
    MAX_SLOTS,
    NUM_ACTIONS,
    SKIP_LAST_HAZARD,
    SORT_DISCARD_0,
    SORT_KEEP_ALL,
    SORT_PLACE_0,
    SORT_SIZE,
    SORT_STOP_TAKING,
    SORT_TAKE,
    STOP_DRAWING,
    STOP_EXCHANGING,
    TARGET_0,
    USE_0,
    action_id_of,
    action_name,
)
from friday_env.actions.mask import action_mask
from friday_env.actions.names import describe_action, illegal_action_message
from friday_env.actions.phases import FIGHT_PHASES, PHASE_ACTIONS, PHASE_NAMES, Phase

__all__ = [
    "ACTION_NAMES",
    "CHOOSE_HAZARD_0",
    "CHOOSE_HAZARD_1",
    "CHOOSE_PIRATE_0",
    "CHOOSE_PIRATE_1",
    "DESTROY_0",
    "DRAW_ANOTHER",
    "DRAW_FREE",
    "DRAW_PAID",
    "END_FIGHT",
    "FIGHT_LAST_HAZARD",
    "FIGHT_PHASES",
    "FINISH_DESTROYING",
    "MAX_SLOTS",
    "NUM_ACTIONS",
    "PHASE_ACTIONS",
    "PHASE_NAMES",
    "SKIP_LAST_HAZARD",
    "SORT_DISCARD_0",
    "SORT_KEEP_ALL",
    "SORT_PLACE_0",
    "SORT_SIZE",
    "SORT_STOP_TAKING",
    "SORT_TAKE",
    "STOP_DRAWING",
    "STOP_EXCHANGING",
    "TARGET_0",
    "USE_0",
    "Phase",
    "action_id_of",
    "action_mask",
    "action_name",
    "describe_action",
    "illegal_action_message",
]
