"""A value estimate for the search agent: the final score expected from a turn's start.

Between two fights the game is summed up by a few public numbers (R26) — life, the step and
how far into it, the size and quality of Robinson's deck, the aging cards still to come —
and :func:`state_value` maps them to the final score the heuristic would reach from there, by
one linear model per level and step (the pirates' step too: the state before choosing
a pirate). The weights are fitted on games the heuristic plays on
training seeds (``python -m agents.value_fit``) and stored in ``value_weights.json`` beside
this module. A finished game is worth its actual score.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path

import numpy as np

from friday_env import Game
from friday_env.cards import ABILITY, IS_AGING, KIND, VALUE, Ability, Kind
from friday_env.engine import DOWN
from friday_env.information import stack_known_cards

WEIGHTS_FILE = Path(__file__).with_name("value_weights.json")

#: Abilities counted as features, grouped by what they do for a fight.
ABILITY_GROUPS: dict[str, tuple[Ability, ...]] = {
    "double_copy": (Ability.DOUBLE, Ability.COPY),
    "draws": (Ability.CARDS_1, Ability.CARDS_2, Ability.SORT_3),
    "fixes": (Ability.DESTROY, Ability.EXCHANGE_1, Ability.EXCHANGE_2, Ability.BELOW),
    "life": (Ability.LIFE_1, Ability.LIFE_2),
    "step_down": (Ability.STEP_DOWN,),
}
_GROUP_OF = {ability: i for i, group in enumerate(ABILITY_GROUPS.values()) for ability in group}

FEATURE_NAMES: tuple[str, ...] = (
    "bias",
    "life",
    "log_life",
    "low_life",
    "cards",
    "value_sum",
    "positive_sum",
    "zero_cards",
    "negative_cards",
    "aging_seen",
    "aging_unseen",
    "aging_left",
    "stack_left",
    "hazards_left",
    "hazard_discard",
    "beaten_knowledge",
    *(f"ability_{name}" for name in ABILITY_GROUPS),
)


def features(game: Game) -> np.ndarray:
    """The public summary of a game between fights (see :data:`FEATURE_NAMES`)."""
    known = stack_known_cards(game) + game.discard + game.sort_taken
    known += [c for s, c in enumerate(game.table) if not game.flags[s] & DOWN]
    values = [VALUE[c] for c in known if not IS_AGING[c]]
    groups = [0.0] * len(ABILITY_GROUPS)
    for card in known:
        group = _GROUP_OF.get(ABILITY[card])
        if group is not None:
            groups[group] += 1.0
    unseen = len(game.stack) - len(stack_known_cards(game))
    return np.array(
        [
            1.0,
            game.life,
            math.log1p(game.life),
            1.0 if game.life <= 3 else 0.0,
            len(known) + unseen,
            sum(values),
            sum(v for v in values if v > 0),
            sum(1 for v in values if v == 0),
            sum(1 for v in values if v < 0),
            sum(1 for c in known if IS_AGING[c]),
            unseen,
            len(game.aging),
            len(game.stack),
            len(game.hazard_stack),
            len(game.hazard_discard),
            sum(1 for c in known if KIND[c] == Kind.HAZARD),
            *groups,
        ]
    )


@lru_cache(maxsize=1)
def _weights() -> dict[tuple[int, int], np.ndarray]:
    if not WEIGHTS_FILE.exists():
        raise FileNotFoundError(
            f"{WEIGHTS_FILE} is missing: fit it with `python -m agents.value_fit`"
        )
    data = json.loads(WEIGHTS_FILE.read_text())
    if tuple(data["features"]) != FEATURE_NAMES:
        raise ValueError(f"{WEIGHTS_FILE} was fitted for other features: refit it")
    return {
        (int(level), int(step)): np.array(w)
        for level, steps in data["weights"].items()
        for step, w in steps.items()
    }


def state_value(game: Game) -> float:
    """Expected final score from ``game`` (its score if the game is over). Meant for states
    between fights; inside a pirate fight the search plays on to the end instead."""
    if game.done:
        return float(game.score())
    return float(features(game) @ _weights()[(game.level, game.step)])
