"""The reference engine: the rules of *Friday* in Python, as a mutable game state with a
decision-point API.

This package is one of the two cores and knows nothing of the other: the compiled core and
the choice between them are in [`friday_env.core`][friday_env.core], whose ``friday_env.Game`` is
the type of a game of either core and ``Game.new(level, seed, core=...)`` the door to both. Extend
the rules by subclassing this package's ``Game``; such a subclass plays on this engine.

A [`Game`][friday_env.engine.game.Game] is always waiting for one decision
(`Game.phase`). ``legal_actions()`` lists the legal action ids (see
[`friday_env.actions`][friday_env.actions]), ``describe(action)`` names one in context, and
``apply(action)`` plays it. Nothing else changes the state. An illegal action raises
[`IllegalActionError`][friday_env.errors.IllegalActionError] before anything is touched.

Rulings R01-R26 and the decisions D01-D11 for what they leave open are in
``docs/rulings.md``, and cited where they apply.

The package: `state` (fields, flags, seeded shuffles),
[`scoring`][friday_env.engine.scoring] (read-only: fight values, score),
`legal` (legal actions), [`game`][friday_env.engine.game] (the rules
that play an action). It needs numpy and nothing of gymnasium or presentation.
"""

from friday_env.cards import ABILITY_NAMES
from friday_env.engine.game import Game
from friday_env.engine.state import (
    DOUBLED,
    DOWN,
    GREEN,
    LEFT,
    PIRATES,
    RED,
    STEP_NAMES,
    USED,
    YELLOW,
    State,
    level_aging_cards,
    level_life,
    seed_from,
)

__all__ = [
    "ABILITY_NAMES",
    "DOUBLED",
    "DOWN",
    "GREEN",
    "LEFT",
    "PIRATES",
    "RED",
    "STEP_NAMES",
    "USED",
    "YELLOW",
    "Game",
    "State",
    "level_aging_cards",
    "level_life",
    "seed_from",
]
