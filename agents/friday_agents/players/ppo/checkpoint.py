"""MaskablePPO checkpoints: checked loading, compact policy export, the encoder each records.

A checkpoint names the observation encoder it was trained with: ``friday train`` sets the
model attribute `ENCODER_ATTRIBUTE` before anything is saved, and sb3 stores a model's
attributes in the archive's ``data`` member, so every save (final model, exported policy,
periodic checkpoints) carries it, and loading restores it. `encoder_of` reads it back.

Archives saved before the encoder was recorded (no such entry) are read by one fixed rule:
the encoder whose observation space equals the checkpoint's exactly, and an error when no
encoder, or more than one, matches. The committed policies record their encoder.

Loading never runs code from the file. sb3 keeps some of a model's attributes (the
policy class, the spaces, the schedules) as pickled objects in the archive's ``data``;
`load_model` unpickles none of them: it rebuilds each from what this version knows
(the MaskablePPO classes, the recorded encoder's space, the game's actions, the constant
schedules written beside them in plain text); the episode statistics sb3 logs
(``ep_info_buffer``) are read by an unpickler that builds only a deque of plain values and
numpy scalars. An archive holding any other pickled object is refused. The weights
(``*.pth``) are read by ``torch.load(weights_only=True)``, which builds tensors and plain
values only.

torch and sb3 are imported only inside functions.
"""

from __future__ import annotations

import base64
import io
import pickle
import re
import zipfile
from pathlib import Path
from typing import Any

from friday_agents.harness.errors import BadInputError
from friday_env.actions import NUM_ACTIONS
from friday_env.json_text import parse_json
from friday_env.observation import ENCODERS, make_encoder
from friday_env.regular_file import why_not_a_file

#: The model attribute (and key of the archive's ``data``) naming the observation encoder.
ENCODER_ATTRIBUTE = "friday_encoder"


class CheckpointError(BadInputError):
    """A checkpoint that is missing, not a MaskablePPO model, or does not fit the config."""


def check_checkpoint(path: str | Path) -> None:
    """Raise `CheckpointError` unless ``path`` looks like an sb3 model archive."""
    file = Path(path)
    problem = why_not_a_file(file)
    if problem is not None:
        raise CheckpointError(f"checkpoint {str(path)!r} {problem}")
    try:
        with zipfile.ZipFile(file) as archive:
            names = set(archive.namelist())
            bad = archive.testzip()
    except (zipfile.BadZipFile, OSError) as err:
        raise CheckpointError(f"checkpoint {str(path)!r} is corrupt: {err}") from None
    if bad is not None or not {"data", "policy.pth"} <= names:
        raise CheckpointError(
            f"checkpoint {str(path)!r} is corrupt or not a MaskablePPO model "
            f"(needs 'data' and 'policy.pth', has {sorted(names)})"
        )


def load_model(path: str | Path, env: Any = None, device: str = "cpu") -> Any:
    """``MaskablePPO.load`` (onto ``device``) without unpickling anything that could run
    code (see the module's note), every failure turned into a `CheckpointError`."""
    from sb3_contrib import MaskablePPO

    check_checkpoint(path)
    known = _known_objects(path)
    try:
        return MaskablePPO.load(str(path), env=env, device=device, custom_objects=known)
    except Exception as err:  # sb3 raises many kinds on a broken archive: name the file
        raise CheckpointError(f"cannot load checkpoint {str(path)!r}: {err}") from err


#: The constant schedule sb3 writes beside a pickled schedule, as text.
_CONSTANT = re.compile(r"ConstantSchedule\(val=([-+0-9.eE]+)\)")


def _known_objects(path: str | Path) -> dict[str, Any]:
    """Each pickled attribute of the archive's ``data``, rebuilt from what this version
    knows instead of unpickled; `CheckpointError` for one it does not know."""
    from gymnasium import spaces
    from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
    from stable_baselines3.common.utils import ConstantSchedule, FloatSchedule

    data = _archive_data(path)
    pickled = {
        key for key, item in data.items() if isinstance(item, dict) and ":serialized:" in item
    }
    known: dict[str, Any] = {
        "policy_class": MaskableActorCriticPolicy,
        "rollout_buffer_class": MaskableRolloutBuffer,
        "action_space": spaces.Discrete(NUM_ACTIONS),
        # the rollout in progress when it was saved: a loaded model starts a new one
        # (``set_env`` clears them too)
        "_last_obs": None,
        "_last_episode_starts": None,
        "_last_original_obs": None,
    }
    for key in pickled & {"lr_schedule", "clip_range"}:
        value = _CONSTANT.fullmatch(str(data[key].get("value_schedule", "")))
        if value is None:
            raise CheckpointError(
                f"checkpoint {str(path)!r} has a {key} that is not a constant schedule; only "
                "constant schedules are read (nothing pickled is loaded)"
            )
        known[key] = FloatSchedule(ConstantSchedule(float(value.group(1))))
    for key in pickled & set(_EPISODE_BUFFERS):
        known[key] = _plain_unpickle(data[key][":serialized:"], key, path)
    if "observation_space" in pickled:
        known["observation_space"] = _observation_space(data, path)
    unknown = sorted(pickled - set(known))
    if unknown:
        raise CheckpointError(
            f"checkpoint {str(path)!r} holds pickled objects ({', '.join(unknown)}) that a "
            "MaskablePPO policy of friday train does not: refused (pickled data could run code)"
        )
    space = data.get("action_space", {})
    if str(space.get("n", NUM_ACTIONS)) != str(NUM_ACTIONS):
        raise CheckpointError(
            f"checkpoint {str(path)!r} has {space.get('n')} actions, the game {NUM_ACTIONS}"
        )
    return {key: known[key] for key in pickled}


#: The episode statistics sb3 keeps for its log: deques of dicts of numbers.
_EPISODE_BUFFERS = ("ep_info_buffer", "ep_success_buffer")


class _PlainUnpickler(pickle.Unpickler):
    """Builds deques, plain values and numpy scalars; any other class or function named by
    the data is refused, so nothing in it can run code."""

    ALLOWED = frozenset(
        {
            ("collections", "deque"),
            ("numpy", "dtype"),
            ("numpy.core.multiarray", "scalar"),
            ("numpy._core.multiarray", "scalar"),
        }
    )

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) not in self.ALLOWED:
            raise pickle.UnpicklingError(f"{module}.{name} is not a plain value")
        return super().find_class(module, name)


def _plain_unpickle(text: str, key: str, path: str | Path) -> Any:
    try:
        return _PlainUnpickler(io.BytesIO(base64.b64decode(text))).load()
    except Exception as err:  # refused, or broken: either way not a file friday wrote
        raise CheckpointError(
            f"checkpoint {str(path)!r}: its {key} is not plain data ({err}): refused"
        ) from None


def _archive_data(path: str | Path) -> dict[str, Any]:
    try:
        with zipfile.ZipFile(path) as archive:
            data = parse_json(archive.read("data"))
    except (ValueError, KeyError, zipfile.BadZipFile, OSError) as err:
        raise CheckpointError(f"checkpoint {str(path)!r} has no readable data: {err}") from None
    if not isinstance(data, dict):
        raise CheckpointError(f"checkpoint {str(path)!r} has no readable data")
    return data


def _shape_of(space: Any) -> list[int] | None:
    """A space's shape as sb3 writes it in plain text (None for a dict space)."""
    return None if space.shape is None else list(space.shape)


def _observation_space(data: dict[str, Any], path: str | Path) -> Any:
    """The space of the encoder the archive records (or, for an older archive, of the one
    encoder with its shape), checked against the shape written in plain text."""
    shape = data["observation_space"].get("_shape")
    name = data.get(ENCODER_ATTRIBUTE)
    if name is None:
        matches = [n for n in ENCODERS if _shape_of(make_encoder(n).space) == shape]
        if len(matches) != 1:
            found = "no" if not matches else f"several ({', '.join(matches)})"
            raise CheckpointError(
                f"checkpoint {str(path)!r} records no observation encoder and {found} current "
                "encoder has its observation shape: retrain it"
            )
        name = matches[0]
    if name not in ENCODERS:
        raise CheckpointError(
            f"checkpoint {str(path)!r} was trained with the observation encoder {name!r}, "
            f"which this version does not have (known: {sorted(ENCODERS)})"
        )
    space = make_encoder(name).space
    if _shape_of(space) != shape:
        raise CheckpointError(
            f"checkpoint {str(path)!r} was trained on another observation layout than the "
            f"current {name!r} encoder: retrain it"
        )
    return space


def record_encoder(model: Any, name: str) -> None:
    """Make every later save of ``model`` record that it reads the ``name`` encoder."""
    if name not in ENCODERS:
        raise CheckpointError(f"unknown observation encoder {name!r}; known: {sorted(ENCODERS)}")
    setattr(model, ENCODER_ATTRIBUTE, name)


def encoder_of(model: Any, path: str | Path) -> str:
    """The name of the encoder the loaded ``model`` (from ``path``) was trained with."""
    name = getattr(model, ENCODER_ATTRIBUTE, None)
    if name is None:
        return _legacy_encoder(model.observation_space, path)
    if name not in ENCODERS:
        raise CheckpointError(
            f"checkpoint {str(path)!r} was trained with the observation encoder {name!r}, "
            f"which this version does not have (known: {sorted(ENCODERS)})"
        )
    return str(name)


def _legacy_encoder(space: Any, path: str | Path) -> str:
    """An archive from before encoders were recorded: the one encoder with exactly its space."""
    matches = [name for name in ENCODERS if make_encoder(name).space == space]
    if len(matches) != 1:
        found = "no" if not matches else f"several ({', '.join(matches)})"
        raise CheckpointError(
            f"checkpoint {str(path)!r} records no observation encoder and {found} current "
            "encoder has its observation space: retrain it"
        )
    return matches[0]


def recorded_encoder(path: str | Path) -> str | None:
    """The encoder name stored in the archive at ``path`` (None if it records none), read
    without loading torch."""
    check_checkpoint(path)
    return _archive_data(path).get(ENCODER_ATTRIBUTE)


def export_policy(model: Any, path: Path) -> None:
    """Save ``model`` without the optimiser's moment estimates (two thirds of a full
    checkpoint): enough to act and to load, the size the project commits."""
    policy = model.policy
    trained_optimizer = policy.optimizer
    policy.optimizer = policy.optimizer_class(
        policy.parameters(), lr=model.lr_schedule(1.0), **policy.optimizer_kwargs
    )
    try:
        model.save(str(path), exclude=["ep_info_buffer", "ep_success_buffer"])
    finally:
        policy.optimizer = trained_optimizer
