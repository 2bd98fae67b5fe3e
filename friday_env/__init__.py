"""friday-env: the rules of *Friday* as a seeded engine, and a Gymnasium environment on top.

The engine (``Game``, ``scenario``, ``GameRecord``) imports no gymnasium, torch or rendering
library; see ``README.md`` for the API and the card keys.
"""

from friday_env.actions import NUM_ACTIONS, Phase, action_name
from friday_env.engine import Game
from friday_env.env import FridayEnv
from friday_env.errors import (
    EnvOptionError,
    FridayError,
    IllegalActionError,
    InvalidLevelError,
    RecordError,
    ScenarioError,
)
from friday_env.information import determinized, public_view
from friday_env.observation import DictEncoder, FlatEncoder, FlatMaskEncoder
from friday_env.record import GameRecord, replay
from friday_env.scenario import scenario

__version__ = "0.2.0"


def _register_envs() -> None:
    """Register ``Friday-v0`` with Gymnasium (once, so re-imports do not warn)."""
    from gymnasium.envs.registration import register, registry

    if "Friday-v0" not in registry:
        register(id="Friday-v0", entry_point="friday_env.env:FridayEnv")


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
    "action_name",
    "determinized",
    "public_view",
    "replay",
    "scenario",
]
