"""Observation encoders: a [`Game`][friday_env.engine.game.Game] turned into arrays for a policy.

Each encoder is a pure object of a game (an agent can encode engine states without an env),
built only from what [`friday_env.information`][friday_env.information] calls public (R26), and
registered by name (`registry`):

- ``"flat"``, [`FlatEncoder`][friday_env.observation.FlatEncoder]: one ``float32`` vector made of
  named pieces (`FLAT_LAYOUT`, `layout`), for ``MlpPolicy``;
  `FlatView` names its pieces;
- ``"dict"``, [`DictEncoder`][friday_env.observation.DictEncoder]: the same situation as named
  integer arrays (counts per card type, the table as slot arrays), for structured policies and for
  reading;
- ``"flat_mask"``, [`FlatMaskEncoder`][friday_env.observation.FlatMaskEncoder]: ``{"observation":
  flat, "action_mask": mask}``, the PettingZoo convention for policies that read the mask from the
  observation.

A new encoder: a class with ``name``, ``space`` and ``encode(game)``, decorated with
[`register_encoder`][friday_env.observation.register_encoder]; ``gymnasium.make("Friday-v0",
observation=name)`` then accepts it.
"""

from friday_env.actions.mask import action_mask
from friday_env.observation.flat import FlatEncoder
from friday_env.observation.flat_mask import FlatMaskEncoder
from friday_env.observation.layout import (
    CARD_FEATURES,
    CODE_OF_TYPE,
    FLAT_KNOWN_TOP,
    FLAT_LAYOUT,
    FLAT_SCALARS,
    FLAT_SIZE,
    FLAT_TABLE_SLOTS,
    TABLE_EXTRA_FEATURES,
    TABLE_FEATURES,
    Layout,
    Piece,
    Scalar,
    card_feature_names,
)
from friday_env.observation.registry import (
    ENCODERS,
    Encoder,
    encoder_names,
    make_encoder,
    register_encoder,
)
from friday_env.observation.structured import DICT_KEYS, DICT_NUMBERS, DICT_PILES, DictEncoder
from friday_env.observation.views import FlatView

__all__ = [
    "CARD_FEATURES",
    "CODE_OF_TYPE",
    "DICT_KEYS",
    "DICT_NUMBERS",
    "DICT_PILES",
    "ENCODERS",
    "FLAT_KNOWN_TOP",
    "FLAT_LAYOUT",
    "FLAT_SCALARS",
    "FLAT_SIZE",
    "FLAT_TABLE_SLOTS",
    "TABLE_EXTRA_FEATURES",
    "TABLE_FEATURES",
    "DictEncoder",
    "Encoder",
    "FlatEncoder",
    "FlatMaskEncoder",
    "FlatView",
    "Layout",
    "Piece",
    "Scalar",
    "action_mask",
    "card_feature_names",
    "encoder_names",
    "make_encoder",
    "register_encoder",
]
