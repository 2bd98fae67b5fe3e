"""The model files the agents load, named by role, in one folder.

Agent specs name a model file by its **role**, never by its path: the file's name with
hyphens (``guided_prior.npz`` is ``guided-prior``), e.g. ``guided:prior=net-v1`` (guided's
default prior) or ``search:value=value-net``. ``manifest.json`` beside
this module lists every role: its file, which specs load it, what it is, and from which
committed data and by which command it was fitted; ``docs/agents.md`` lists them for users.
A file of one's own (a fit of one's own, a study's) is still named by its path.

The role ``net`` changed meaning with the net-scale study (``experiments/net-scale/PLAN.md``,
amendment 10): from that study on, ``net`` names the network it chose, and the network that
``net`` named before is ``net-v1``, guided's default prior. The results committed before the
change that name ``net`` were measured with ``net-v1``: each results file stores what played,
every model by role and SHA-256
([`friday_agents.players.resolved`][friday_agents.players.resolved]).

The wheel ships the files a default agent loads, and those of ``guided``'s defaults before the
level-4 leaf study (``guided:prior=guided-prior:value=guided-value-per-level:top=1``, the spec its
earlier results were measured with). `CHECKOUT_ONLY` are not shipped: a role among them says,
in an installed wheel, that its file comes with a source checkout.
Models fitted for a study but loaded by no agent live with their study under ``experiments/``.

Old names are refused with an error naming the new one: a word that meant another file
(``value=net``, ``value=levels``: `RENAMED_WORDS`), a model file named by its path in
this folder (the role instead), and a path from before this folder (`MOVED`).
"""

from __future__ import annotations

from pathlib import Path

MODELS_DIR = Path(__file__).resolve().parent

#: ``search``'s leaf value: the linear model fitted on heuristic games.
SEARCH_VALUE = MODELS_DIR / "search_value.json"
#: ``guided``'s per-level leaf value: ``guided-value-cards`` on levels 1-3, the leaf network
#: ``guided-leaf-level4`` on level 4 (the level-4 leaf study, ``experiments/level4-value/``).
GUIDED_VALUE_LEAF = MODELS_DIR / "guided_value_leaf.json"
#: The network of the probability of winning, level 4's leaf value in ``guided-value-leaf``.
GUIDED_LEAF_LEVEL4 = MODELS_DIR / "guided_leaf_level4.npz"
#: ``guided``'s per-level leaf value before the level-4 leaf study (naming the two files below):
#: kept, so that the committed results measured with it keep their meaning.
GUIDED_VALUE_PER_LEVEL = MODELS_DIR / "guided_value_per_level.json"
#: The linear value on the ``cards`` features (levels 1-3 of guided's choice).
GUIDED_VALUE_CARDS = MODELS_DIR / "guided_value_cards.json"
#: The linear value refitted on the search's games (level 4 of guided's choice).
GUIDED_VALUE_LEVEL4 = MODELS_DIR / "guided_value_level4.json"
#: ``search:value=value-net``: the value network (a study's, not shipped in the wheel).
VALUE_NET = MODELS_DIR / "value_net.npz"
#: ``guided``'s policy prior before the level-4 leaf study (``net-v1`` since): the network fitted
#: on the search's own action values.
GUIDED_PRIOR = MODELS_DIR / "guided_prior.npz"
#: ``ppo`` on every level: the committed learned policy.
PPO_ALL_LEVELS = MODELS_DIR / "ppo_all_levels.zip"
#: ``net``: the policy network that plays without search (the net-scale study's choice from
#: that study on; the network before it is ``net-v1``).
NET = MODELS_DIR / "net.npz"
#: ``net-v1``: ``guided``'s policy prior, the ``net`` network before the net-scale study
#: (expert iteration, then RL), kept so that guided and the results measured with it keep
#: their meaning when ``net`` changes.
NET_V1 = MODELS_DIR / "net_v1.npz"
#: ``scratch``: the best search-free policy learned from nothing (no teacher): the no-teacher
#: study's choice on validation deals, copied by ``experiments/no-teacher/register.py``.
SCRATCH = MODELS_DIR / "scratch.npz"
#: ``scratch-search``'s leaf value: the four per-level leaf networks below, fitted on
#: ``scratch``'s own games.
SCRATCH_SEARCH_VALUE = MODELS_DIR / "scratch_search_value.json"
SCRATCH_LEAF_LEVELS = tuple(MODELS_DIR / f"scratch_leaf_level{level}.npz" for level in (1, 2, 3, 4))
#: ``scratch-distilled``: the last network of the no-teacher study's expert iteration, also
#: ``scratch-search``'s prior, anchor and rollout policy (its stage-6 choice).
SCRATCH_DISTILLED = MODELS_DIR / "scratch_distilled.npz"
#: The manifest (in a checkout; not shipped in the wheel).
MANIFEST = MODELS_DIR / "manifest.json"

#: Role -> file: one name per file, the file's name with hyphens.
ROLES: dict[str, Path] = {
    path.stem.replace("_", "-"): path
    for path in (
        SEARCH_VALUE,
        GUIDED_VALUE_LEAF,
        GUIDED_LEAF_LEVEL4,
        GUIDED_VALUE_PER_LEVEL,
        GUIDED_VALUE_CARDS,
        GUIDED_VALUE_LEVEL4,
        VALUE_NET,
        GUIDED_PRIOR,
        PPO_ALL_LEVELS,
        NET,
        NET_V1,
        SCRATCH,
        SCRATCH_SEARCH_VALUE,
        *SCRATCH_LEAF_LEVELS,
        SCRATCH_DISTILLED,
    )
}
#: Roles whose file no default agent loads: in a source checkout, not in the wheel.
CHECKOUT_ONLY = frozenset({"value-net"})
#: A spec option's old word -> the role that now names its file (``prior=net`` and
#: ``rollout=net`` named guided's prior; ``net`` now names the ``net`` agent's network).
RENAMED_WORDS: dict[tuple[str, str], str] = {
    ("value", "net"): "value-net",
    ("value", "levels"): "guided-value-per-level",
}
#: A model file's old name in this folder -> its role now.
RENAMED_FILES = {"policy_prior.npz": "guided-prior"}

#: Old file name (where it lay before the models folder) -> its path now, relative to the
#: repository root. Files loaded by no agent moved to their study.
_OLD, _NEW = "agents/friday_agents/players/search/", "agents/friday_agents/models/"
MOVED = {
    _OLD + "value_weights.json": _NEW + "search_value.json",
    _OLD + "value_weights_search.json": _NEW + "guided_value_level4.json",
    _OLD + "value_cards.json": _NEW + "guided_value_cards.json",
    _OLD + "value_per_level.json": _NEW + "guided_value_per_level.json",
    _OLD + "value_per_level_basic.json": (
        "experiments/search-strength/models/guided_value_per_level_basic.json"
    ),
    _OLD + "value_net.npz": _NEW + "value_net.npz",
    _OLD + "policy_net.npz": _NEW + "guided_prior.npz",
    "agents/friday_agents/players/ppo/checkpoints/ppo-all-levels.zip": _NEW + "ppo_all_levels.zip",
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


class ModelNameError(ValueError):
    """A spec naming a model file by an old word or by its path in the models folder."""


def model_file(name: str, option: str) -> Path:
    """The file a spec's ``option`` (``value``, ``prior``, ``rollout``, ``model``) names by
    ``name``: a role (`ROLES`), or the path of a file of one's own. An old word, a
    path into this folder or a path from before it raises an error naming the new name."""
    renamed = RENAMED_WORDS.get((option, name))
    if renamed is not None:
        raise ModelNameError(
            f"{option}={name} is now {option}={renamed} (models are named by role)"
        )
    if name in ROLES:
        return _role_file(name)
    path = Path(name)
    moved = None if path.exists() else moved_to(path)
    role = _role_of_path(Path(moved) if moved else path)
    if role is not None:
        raise ModelNameError(
            f"{option}={name} names a model file by its path: name it by its role, "
            f"{option}={role} (see agents/friday_agents/models/manifest.json)"
        )
    check_not_moved(path)
    return path


def _role_file(role: str) -> Path:
    path = ROLES[role]
    if role in CHECKOUT_ONLY and not path.exists():
        raise ModelNameError(
            f"model {role!r} ({path.name}) comes with a source checkout of friday-env, not "
            "with the wheel (no default agent loads it)"
        )
    return path


def _role_of_path(path: Path) -> str | None:
    """The role of a model file of this folder named by its path (old names included)."""
    if path.resolve().parent != MODELS_DIR and not path.as_posix().startswith(
        "agents/friday_agents/models/"
    ):
        return None
    by_file = {file.name: role for role, file in ROLES.items()} | RENAMED_FILES
    return by_file.get(path.name)
