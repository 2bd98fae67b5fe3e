"""``friday train``: MaskablePPO on Friday-v0 (`friday_agents.learning.sb3.train`), its
settings from defaults, then ``--config FILE``, then the flags given; ``--resume --out DIR``
continues the run in DIR with its own settings (only ``--frames`` and ``--device`` may
change)."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path
from typing import Any

from friday_agents.cli.arguments import add_progress, add_renamed, add_setting_flags
from friday_agents.harness.device import torch_device
from friday_agents.harness.errors import require
from friday_agents.harness.files import check_out_path
from friday_agents.learning.config import RENAMED
from friday_agents.learning.run_folder import ResumeRule, held, load_run_config
from friday_agents.learning.sb3.config import TrainConfig, TrainConfigError, load_config_file
from friday_agents.learning.sb3.train import (
    TrainingInterrupted,
    resume_command,
    train,
)
from friday_agents.players.ppo.checkpoint import check_checkpoint

#: What a resumed run may set anew: its folder, a larger budget, the machine it runs on.
RESUME = ResumeRule("friday train --resume", ("out", "frames", "device", "progress"))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_arguments(parser)
    parser.set_defaults(out_is_folder=True)


#: What training needs beyond friday-env's own dependencies.
LIBRARIES = ("torch", "stable_baselines3", "sb3_contrib", "matplotlib")


def run(args: argparse.Namespace) -> int:
    with held(getattr(args, "out", None)) as lock:  # before the run's config is read
        config, resume = config_from_args(args)
        require("friday train", *LIBRARIES, *(("tqdm",) if config.progress else ()))
        if config.init:
            check_checkpoint(config.init)
        torch_device(config.device)  # --device cuda without CUDA: before the folder is made
        if config.out:
            check_out_path(config.out, folder=True)
            lock.take(Path(config.out))
        return _train(config, resume)


def _train(config: TrainConfig, resume: bool) -> int:
    try:
        result = train(config, resume=resume)
    except TrainingInterrupted as stop:
        print(
            f"\nfriday train: interrupted at {stop.timesteps} of {stop.config.frames} "
            f"frames; saved {stop.checkpoint} and the policy so far in "
            f"{stop.config.out}/policy.zip. Continue with: {resume_command(stop)}",
            file=sys.stderr,
        )
        return 130
    print(
        f"trained {result.timesteps} frames in {result.seconds:.0f} s ({result.fps:.0f} frames/s)"
    )
    print(f"policy: {result.policy}\ncurve:  {result.curve} ({result.curve_png})")
    return 0


def add_config_arguments(parser: argparse.ArgumentParser) -> None:
    """One ``--flag`` per field, its help from the field's doc and default. Flags default to
    None so that only the ones given override the config file."""
    parser.add_argument("--config", help="JSON or TOML file of settings (flags override it)")
    own = {f.name: f.metadata["help"] for f in dataclasses.fields(TrainConfig)}
    own.pop("progress")
    add_setting_flags(parser, TrainConfig, own)
    add_progress(parser, default=None)
    parser.add_argument(
        "--resume",
        action="store_true",
        help="continue the run in --out from its newest checkpoint (only --frames and "
        "--device may change)",
    )
    add_renamed(parser, TrainConfig, RENAMED)


def config_from_args(args: argparse.Namespace) -> tuple[TrainConfig, bool]:
    """Defaults, then ``--config``, then explicit flags; validated. With ``--resume``: the
    run's own configuration, with what `RESUME` lets change given."""
    given = {
        spec.name: getattr(args, spec.name)
        for spec in dataclasses.fields(TrainConfig)
        if getattr(args, spec.name, None) is not None
    }
    if getattr(args, "resume", False):
        return _resumed_config(args, given), True
    values: dict[str, Any] = {}
    if getattr(args, "config", None):
        values.update(load_config_file(args.config))
    values.update(given)
    return TrainConfig.from_dict(values).validate(), False


def _resumed_config(args: argparse.Namespace, given: dict[str, Any]) -> TrainConfig:
    if "out" not in given:
        raise TrainConfigError("--resume needs --out, the folder of the run to continue")
    RESUME.check_flags(
        [*given, *(["config"] if getattr(args, "config", None) else [])], given["out"]
    )
    stored = load_run_config(Path(given["out"]), TrainConfig)
    return dataclasses.replace(stored, **given).validate()
