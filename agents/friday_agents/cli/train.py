"""``friday train``: MaskablePPO on Friday-v0 (`friday_agents.learning.sb3.train`), its
settings from defaults, then ``--config FILE``, then the flags given."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Callable
from dataclasses import fields
from typing import Any

from friday_agents.cli.arguments import add_deprecated, add_progress, parse_bool
from friday_agents.harness.errors import require
from friday_agents.harness.files import check_out_path
from friday_agents.learning.sb3.config import TrainConfig, load_config_file
from friday_agents.learning.sb3.train import TrainingInterrupted, resume_command, train
from friday_agents.players.ppo.checkpoint import check_checkpoint


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_arguments(parser)


#: What training needs beyond friday-env's own dependencies.
LIBRARIES = ("torch", "stable_baselines3", "sb3_contrib", "matplotlib")


def run(args: argparse.Namespace) -> int:
    config = config_from_args(args)
    require("friday train", *LIBRARIES, *(("tqdm",) if config.progress_bar else ()))
    for checkpoint in (config.resume, config.init):
        if checkpoint:
            check_checkpoint(checkpoint)
    if config.out_dir:
        check_out_path(config.out_dir, folder=True)
    try:
        result = train(config)
    except TrainingInterrupted as stop:
        print(
            f"\nfriday train: interrupted at {stop.timesteps} of {stop.config.total_timesteps} "
            f"timesteps; saved {stop.checkpoint} and the policy so far in "
            f"{stop.config.out_dir}/policy.zip. Continue with: {resume_command(stop)}",
            file=sys.stderr,
        )
        return 130
    print(
        f"trained {result.timesteps} timesteps in {result.seconds:.0f} s ({result.fps:.0f} steps/s)"
    )
    print(f"policy: {result.policy}\ncurve:  {result.curve_png}")
    return 0


#: Fields whose flag follows the vocabulary shared by every friday command, with the old
#: spelling (the field's own name) still accepted for one release.
SHARED_FLAGS = {"out_dir": "--out", "progress_bar": "--progress"}


def add_config_arguments(parser: argparse.ArgumentParser) -> None:
    """One ``--flag`` per field, its help from the field's doc and default. Flags default to
    None so that only the ones given override the config file."""
    parser.add_argument("--config", help="JSON or TOML file of settings (flags override it)")
    parsers: dict[str, Callable[[str], Any]] = {
        "int": int,
        "float": float,
        "str": str,
        "bool": parse_bool,
    }
    for spec in fields(TrainConfig):
        kind = parsers[str(spec.type)]
        flag = "--" + spec.name.replace("_", "-")
        if spec.name in SHARED_FLAGS:
            _add_shared_flag(parser, spec, kind)
            continue
        metavar = "BOOL" if spec.type == "bool" else None
        parser.add_argument(
            flag,
            dest=spec.name,
            type=kind,
            default=None,
            metavar=metavar,
            help=f"{spec.metadata['help']} (default: {spec.default!r})",
        )


def _add_shared_flag(
    parser: argparse.ArgumentParser, spec: dataclasses.Field, kind: Callable[[str], Any]
) -> None:
    """``--out DIR`` and ``--progress/--no-progress``, and their deprecated spellings."""
    old = "--" + spec.name.replace("_", "-")
    new = SHARED_FLAGS[spec.name]
    if spec.type == "bool":
        add_progress(parser, dest=spec.name, default=None)
        add_deprecated(parser, old, "--progress/--no-progress", spec.name, "BOOL", kind)
        return
    parser.add_argument(
        new,
        dest=spec.name,
        type=kind,
        default=None,
        metavar="DIR",
        help=f"{spec.metadata['help']} (default: {spec.default!r})",
    )
    add_deprecated(parser, old, new, spec.name, "DIR", kind)


def config_from_args(args: argparse.Namespace) -> TrainConfig:
    """Defaults, then ``--config``, then explicit flags; validated."""
    values: dict[str, Any] = {}
    if getattr(args, "config", None):
        values.update(load_config_file(args.config))
    for spec in fields(TrainConfig):
        given = getattr(args, spec.name, None)
        if given is not None:
            values[spec.name] = given
    return TrainConfig.from_dict(values).validate()
