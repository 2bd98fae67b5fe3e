"""The model files the agents load, named by role, in one folder.

Every file here is loaded by an agent spec (``manifest.json`` beside this module says which
spec loads which file, and from which committed data and by which command it was fitted);
the wheel ships exactly these files. Models fitted for a study but loaded by no agent live
with their study under ``experiments/``.

A file moved here from its old place (``agents/friday_agents/players/search/value_weights.json`` and the like) is
refused with an error naming its new path
([`check_not_moved`][friday_agents.models.check_not_moved]), so an old spec such as
``search:value=agents/friday_agents/players/search/value_weights.json`` says where the file went.
"""

from __future__ import annotations

from pathlib import Path

MODELS_DIR = Path(__file__).resolve().parent

#: ``search``'s leaf value: the linear model fitted on heuristic games.
SEARCH_VALUE = MODELS_DIR / "search_value.json"
#: ``guided``'s (and ``search:value=levels``') per-level choice of leaf value.
GUIDED_VALUE_PER_LEVEL = MODELS_DIR / "guided_value_per_level.json"
#: ``search:value=net``: the value network.
VALUE_NET = MODELS_DIR / "value_net.npz"
#: ``search:prior=net`` and ``guided``: the policy prior.
POLICY_PRIOR = MODELS_DIR / "policy_prior.npz"
#: ``ppo`` on every level: the committed learned policy.
PPO_ALL_LEVELS = MODELS_DIR / "ppo_all_levels.zip"
#: ``net``: the policy network that plays without search (the last expert-iteration round).
NET = MODELS_DIR / "net.npz"
#: The manifest (in a checkout; not shipped in the wheel).
MANIFEST = MODELS_DIR / "manifest.json"

#: Old file name (where it lay before the models folder) -> its path now, relative to the
#: repository root. Files loaded by no agent moved to their study.
MOVED = {
    "agents/friday_agents/players/search/value_weights.json": "agents/friday_agents/models/search_value.json",
    "agents/friday_agents/players/search/value_weights_search.json": "agents/friday_agents/models/guided_value_level4.json",
    "agents/friday_agents/players/search/value_cards.json": "agents/friday_agents/models/guided_value_cards.json",
    "agents/friday_agents/players/search/value_per_level.json": "agents/friday_agents/models/guided_value_per_level.json",
    "agents/friday_agents/players/search/value_per_level_basic.json": (
        "experiments/search-strength/models/guided_value_per_level_basic.json"
    ),
    "agents/friday_agents/players/search/value_net.npz": "agents/friday_agents/models/value_net.npz",
    "agents/friday_agents/players/search/policy_net.npz": "agents/friday_agents/models/policy_prior.npz",
    "agents/friday_agents/players/ppo/checkpoints/ppo-all-levels.zip": "agents/friday_agents/models/ppo_all_levels.zip",
}


class ModelMovedError(ValueError):
    """A model file named by the path it had before the models folder."""


def moved_to(path: Path | str) -> str | None:
    """The new path of a model file that ``path`` names by its old location, or None."""
    text = Path(path).as_posix()
    for old, new in MOVED.items():
        if text == old or text.endswith("/" + old):
            return new
    return None


def check_not_moved(path: Path | str) -> None:
    """Raise [`ModelMovedError`][friday_agents.models.ModelMovedError] naming the new location when
    ``path`` is a missing model file at its old location."""
    if Path(path).exists():
        return
    new = moved_to(path)
    if new is not None:
        raise ModelMovedError(
            f"model file {str(path)!r} has moved to {new!r} (the models are named by role "
            "in one folder; see agents/friday_agents/models/manifest.json)"
        )
