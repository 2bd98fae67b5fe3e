"""A value estimate for the search agent: the final score expected from a turn's start.

Between two fights the game is summed up by a few public numbers (R26) — life, the step and
how far into it, the size and quality of Robinson's deck, the aging cards still to come —
and `ValueModel` maps them to the final score the heuristic would reach from there, by
one linear model per level and step (the pirates' step too: the state before choosing
a pirate). The weights are fitted on games the heuristic plays on training seeds
(``friday fit linear-value``) and stored in ``search_value.json`` beside
this module. The fitting target may add a bonus for a win (a lost game's score hardly
depends on how far Robinson got, so the score alone does not value survival); a finished
game is valued the same way, by its real score and result.

A model is fitted on one of two feature sets (`FEATURE_SETS`, ``value_fit --features``):
``basic`` (`features`) or ``cards`` (`card_features`: the same summary plus how
many of each card type Robinson is known to hold and which pirates he faces), which lets the
model value each knowledge card and each starting or aging card on its own instead of by
their fighting values and ability groups. The file names its features, so a model loads with
the set it was fitted on.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from friday_agents.models import SEARCH_VALUE, check_not_moved
from friday_env import Game, Phase
from friday_env.cards import (
    ABILITY,
    CARD_TYPE,
    CARD_TYPES,
    IS_AGING,
    PIRATE_TYPES,
    VALUE,
    Ability,
    Kind,
)
from friday_env.engine import DOWN
from friday_env.information import stack_known_cards, unseen_aging_count
from friday_env.json_text import JsonTextError, read_json

WEIGHTS_FILE = SEARCH_VALUE
#: A turn's start, before the next hazard or pirate is chosen: the states the model is fitted
#: on (one model per level and step) and meant for.
TURN_START_PHASES = frozenset({Phase.CHOOSE_HAZARD, Phase.LAST_HAZARD, Phase.CHOOSE_PIRATE})

#: Abilities counted as features, grouped by what they do for a fight.
ABILITY_GROUPS: dict[str, tuple[Ability, ...]] = {
    "double_copy": (Ability.DOUBLE, Ability.COPY),
    "draws": (Ability.CARDS_1, Ability.CARDS_2, Ability.SORT_3),
    "fixes": (Ability.DESTROY, Ability.EXCHANGE_1, Ability.EXCHANGE_2, Ability.BELOW),
    "life": (Ability.LIFE_1, Ability.LIFE_2),
    "step_down": (Ability.STEP_DOWN,),
}
GROUP_OF = {ability: i for i, group in enumerate(ABILITY_GROUPS.values()) for ability in group}

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
    *(f"ability_{name}" for name in ABILITY_GROUPS),
)


#: Robinson's card types counted one by one by the ``cards`` feature set (every type that can
#: be in his deck: starting, aging and knowledge cards).
DECK_TYPES: tuple[int, ...] = tuple(
    i for i, t in enumerate(CARD_TYPES) if t.kind not in (Kind.PIRATE, Kind.STEP)
)
#: The ``cards`` feature set: the summary above, how many of each card type Robinson is
#: known to hold, and which pirates wait (public from the start).
CARD_FEATURE_NAMES: tuple[str, ...] = (
    *FEATURE_NAMES,
    *(f"holds {CARD_TYPES[t].key}" for t in DECK_TYPES),
    *(f"faces {CARD_TYPES[t].key}" for t in PIRATE_TYPES),
)
DECK_COLUMN = {t: i for i, t in enumerate(DECK_TYPES)}
PIRATE_COLUMN = {t: i for i, t in enumerate(PIRATE_TYPES)}


def known_cards(game: Game) -> list[int]:
    """Robinson's cards the player knows of (R26): known stack cards, discard, table."""
    known = stack_known_cards(game) + game.discard + game.sort_taken
    return known + [c for s, c in enumerate(game.table) if not game.flags[s] & DOWN]


def card_features(game: Game) -> np.ndarray:
    """The ``cards`` feature set of a game at a turn's start (`CARD_FEATURE_NAMES`)."""
    known = known_cards(game)
    holds = np.zeros(len(DECK_TYPES))
    for card in known:
        holds[DECK_COLUMN[CARD_TYPE[card]]] += 1.0
    faces = np.zeros(len(PIRATE_TYPES))
    for pirate in game.pirates + game.beaten:
        faces[PIRATE_COLUMN[CARD_TYPE[pirate]]] = 1.0
    return np.concatenate([_summary(game, known), holds, faces])


def features(game: Game) -> np.ndarray:
    """The public summary of a game at a turn's start (see `FEATURE_NAMES`)."""
    return _summary(game, known_cards(game))


def _summary(game: Game, known: list[int]) -> np.ndarray:
    """`features` of ``game`` whose known cards are ``known`` (computed once by the
    caller: the ``cards`` set reads them twice)."""
    values = [VALUE[c] for c in known if not IS_AGING[c]]
    groups = [0.0] * len(ABILITY_GROUPS)
    aging = 0
    for card in known:
        group = GROUP_OF.get(ABILITY[card])
        if group is not None:
            groups[group] += 1.0
        aging += IS_AGING[card]
    unseen = unseen_aging_count(game)
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
            aging,
            unseen,
            len(game.aging),
            len(game.stack),
            len(game.hazard_stack),
            len(game.hazard_discard),
            *groups,
        ]
    )


#: The feature sets a linear model can be fitted on, by name: their names and how a game's
#: row is computed.
FEATURE_SETS = {"basic": (FEATURE_NAMES, features), "cards": (CARD_FEATURE_NAMES, card_features)}


@dataclass(frozen=True)
class ValueModel:
    """Fitted linear models by (level, step), and the bonus a win adds to the score in
    their target (a finished game is valued the same way)."""

    models: dict[tuple[int, int], np.ndarray]
    win_bonus: float
    feature_set: str = "basic"

    def value(self, game: Game) -> float:
        """Expected final score (plus the win bonus times the chance of winning)."""
        if game.done:
            return game.score() + self.win_bonus * game.won
        row = FEATURE_SETS[self.feature_set][1](game)
        return float(row @ self.models[(game.level, game.step)])


@lru_cache(maxsize=8)
def load_value_model(path: Path = WEIGHTS_FILE) -> ValueModel:
    """The value model fitted into ``path`` by
    ``friday fit linear-value``."""
    check_not_moved(path)
    if not Path(path).exists():
        raise FileNotFoundError(f"{path} is missing: fit it with `friday fit linear-value`")
    try:
        data = read_json(path)
    except JsonTextError as err:
        raise ValueError(f"{path} cannot be read: {err}") from None
    feature_set = next(
        (name for name, (names, _) in FEATURE_SETS.items() if tuple(data["features"]) == names),
        None,
    )
    if feature_set is None:
        raise ValueError(f"{path} was fitted for other features: refit it")
    models = {
        (int(level), int(step)): np.array(w)
        for level, steps in data["weights"].items()
        for step, w in steps.items()
    }
    return ValueModel(models, float(data.get("win_bonus", 0.0)), feature_set)


def state_value(game: Game) -> float:
    """The default model's value of ``game`` (see `ValueModel`). Meant for the
    states of `TURN_START_PHASES` and finished games."""
    return load_value_model().value(game)
