"""friday-env: the rules of *Friday* as a seeded engine, and a Gymnasium environment on top.

``Game`` is a game of either core (the compiled one or the pure-Python reference engine,
``friday_env.engine``) and ``Game.new(level, seed, core=None)`` starts one. The engine
(``Game``, ``scenario``, ``GameRecord``, ``public_view``) needs numpy alone:
``import friday_env`` loads it and nothing of gymnasium. The env and the encoders load on
first use ([`friday_env.FridayEnv`][friday_env.FridayEnv],
[`friday_env.FlatEncoder`][friday_env.FlatEncoder]); ``Friday-v0`` is registered with
Gymnasium when gymnasium is installed. ``docs/`` documents the API and the card keys.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from friday_env.actions import NUM_ACTIONS, Phase, action_name
from friday_env.core import Game, available_cores
from friday_env.errors import (
    EnvOptionError,
    FridayError,
    IllegalActionError,
    InvalidLevelError,
    RecordError,
    ScenarioError,
    StateError,
)
from friday_env.information import determinized, public_view
from friday_env.record import GameRecord, replay
from friday_env.scenario import scenario

if TYPE_CHECKING:
    from friday_env.env import FridayEnv
    from friday_env.observation import DictEncoder, FlatEncoder, FlatMaskEncoder

__version__ = "0.2.0"

#: Names that need gymnasium, loaded on first access (PEP 562): name -> module.
_LAZY = {
    "FridayEnv": "friday_env.env",
    "DictEncoder": "friday_env.observation",
    "FlatEncoder": "friday_env.observation",
    "FlatMaskEncoder": "friday_env.observation",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'friday_env' has no attribute {name!r}")


def _register_envs() -> None:
    """Register ``Friday-v0`` with Gymnasium (once, so re-imports do not warn), if gymnasium
    is installed; its registry stores the entry point as a string, so nothing loads yet."""
    try:
        from gymnasium.envs.registration import register, registry
    except ImportError:  # the engine works without gymnasium
        return

    if "Friday-v0" not in registry:
        register(
            id="Friday-v0",
            entry_point="friday_env.env:FridayEnv",
            # gymnasium.make_vec(..., vectorization_mode="vector_entry_point"): N games in
            # one call (friday_env.vector)
            vector_entry_point="friday_env.vector:FridayVectorEnv",
        )
    if "FridayThe13th-v0" not in registry:  # the second game (friday_env.thirteen)
        register(id="FridayThe13th-v0", entry_point="friday_env.thirteen.env:FridayThe13thEnv")


_register_envs()

__all__ = [
    "NUM_ACTIONS",
    "DictEncoder",
    "EnvOptionError",
    "FlatEncoder",
    "FlatMaskEncoder",
    "FridayEnv",
    "FridayError",
    "Game",
    "GameRecord",
    "IllegalActionError",
    "InvalidLevelError",
    "Phase",
    "RecordError",
    "ScenarioError",
    "StateError",
    "action_name",
    "available_cores",
    "determinized",
    "public_view",
    "replay",
    "scenario",
]
