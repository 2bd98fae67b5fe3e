"""MaskablePPO checkpoints: checked loading, compact policy export, the encoder each records.

A checkpoint names the observation encoder it was trained with: ``friday train`` sets the
model attribute `ENCODER_ATTRIBUTE` before anything is saved, and sb3 stores a model's
attributes in the archive's ``data`` member, so every save (final model, exported policy,
periodic checkpoints) carries it, and loading restores it. `encoder_of` reads it back.

Archives saved before the encoder was recorded (no such entry) are read by one fixed rule:
the encoder whose observation space equals the checkpoint's exactly, and an error when no
encoder, or more than one, matches. The committed policies record their encoder.

torch and sb3 are imported only inside functions.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

from friday_env.errors import FridayError
from friday_env.observation import ENCODERS, make_encoder

#: The model attribute (and key of the archive's ``data``) naming the observation encoder.
ENCODER_ATTRIBUTE = "friday_encoder"


class CheckpointError(FridayError):
    """A checkpoint that is missing, not a MaskablePPO model, or does not fit the config."""


def check_checkpoint(path: str | Path) -> None:
    """Raise `CheckpointError` unless ``path`` looks like an sb3 model archive."""
    file = Path(path)
    if not file.is_file():
        raise CheckpointError(f"checkpoint {str(path)!r} does not exist")
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


def load_model(path: str | Path, env: Any = None) -> Any:
    """``MaskablePPO.load`` with every failure turned into a `CheckpointError`."""
    from sb3_contrib import MaskablePPO

    check_checkpoint(path)
    try:
        return MaskablePPO.load(str(path), env=env, device="cpu")
    except Exception as err:  # sb3 raises many kinds on a broken archive: name the file
        raise CheckpointError(f"cannot load checkpoint {str(path)!r}: {err}") from err


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
    with zipfile.ZipFile(path) as archive:
        data = json.loads(archive.read("data"))
    return data.get(ENCODER_ATTRIBUTE)


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
