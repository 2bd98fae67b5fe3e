"""``friday rl``: masked PPO on Friday-v0's native vector env (see ``docs/rl.md``).

Fine-tune a network:   friday rl --init agents/friday_agents/models/net.npz --out runs/rl-ft
From scratch:          friday rl --method reverse --level 1 --frames 50000000 --out runs/rl-rev
Continue a run:        friday rl --resume --out runs/rl-rev [--frames 100000000]
On a GPU:              friday rl --device cuda --out runs/rl-gpu ...
Several processes:     torchrun --nproc_per_node 4 $(which friday) rl --out runs/rl-4 ...

A run folder gets config.json, checkpoint.pt, curve.jsonl (a row per update: frames, CPU
and wall seconds, losses, KL, held-out win rate and mean score on validation deals) and
policy.npz (play it with ``friday eval --agents net:model=RUN/policy.npz``).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from contextlib import nullcontext
from pathlib import Path

from friday_agents.cli.arguments import add_progress, add_renamed, add_setting_flags, plain
from friday_agents.harness.errors import BadInputError, require
from friday_agents.learning.config import RENAMED
from friday_agents.learning.rl.config import RLConfig, RLConfigError
from friday_agents.learning.run_folder import ResumeRule, held, load_run_config, taken


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = plain(__doc__)
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    add_setting_flags(parser, RLConfig)  # None unless given: --resume must know which
    parser.add_argument(
        "--resume",
        action="store_true",
        help="continue the run in --out from its checkpoint (only --frames and --device may "
        "change)",
    )
    add_progress(parser)
    add_renamed(parser, RLConfig, RENAMED)
    parser.set_defaults(out_is_folder=True)


#: What a resumed run may set anew: its folder, a larger budget, the machine it runs on.
RESUME = ResumeRule("friday rl --resume", ("out", "frames", "device"))


def config_from_args(args: argparse.Namespace) -> tuple[RLConfig, bool]:
    """The run's configuration and whether it resumes;
    [`RLConfigError`][friday_agents.learning.rl.config.RLConfigError] for flags that do not fit
    together."""
    given = {
        f.name: getattr(args, f.name)
        for f in dataclasses.fields(RLConfig)
        if getattr(args, f.name, None) is not None
    }
    if not args.resume:
        if given.get("levels") and "level" not in given:  # the curve's first: the first named
            given["level"] = RLConfig(levels=given["levels"]).trained_levels()[0]
        return RLConfig(**given).resolved().validate().whole_rollouts(), False
    if "out" not in given:
        raise RLConfigError("--resume needs --out, the folder of the run to continue")
    RESUME.check_flags(given, given["out"])
    config = load_run_config(Path(given["out"]), RLConfig)
    config = dataclasses.replace(config, **given)
    return config.validate().whole_rollouts(), True


def run(args: argparse.Namespace) -> int:
    require("friday rl", "torch", *(("tqdm",) if args.progress else ()))
    # the run folder is this session's (torchrun's first process holds it for all of them)
    # before its configuration is read: a second session would double its curve
    with held(args.out if _first_process() else None) as lock:
        config, resume = config_from_args(args)
        from friday_agents.learning.rl.trainer import Trainer

        with taken(lock, Path(config.out)) if _first_process() else nullcontext():
            try:
                trainer = Trainer(config, resume=resume, progress=args.progress)
            except (FileNotFoundError, ValueError) as err:  # a model file --init cannot use
                raise BadInputError(str(err)) from None
        return _train(args, config, trainer)


def _first_process() -> bool:
    """Whether this is a one-process run or torchrun's first process (``RANK`` 0)."""
    return os.environ.get("RANK", "0") == "0"


def _train(args: argparse.Namespace, config: RLConfig, trainer) -> int:
    from friday_agents.learning.rl.trainer import TrainingInterrupted

    say = print if trainer.group.main else _silent  # one voice for a torchrun run
    where = f"{trainer.device}" + (
        f" x {trainer.group.world} processes" if trainer.group.world > 1 else ""
    )
    say(
        f"friday rl: {_announce(trainer.config, trainer.updates, args.frames)} on {where}",
        flush=True,
    )
    try:
        row = trainer.run()
    except TrainingInterrupted as stop:
        print(
            f"\nfriday rl: interrupted after update {stop.updates} ({stop.frames} of "
            f"{config.frames} frames); saved {config.out}/checkpoint.pt. Continue with: "
            f"friday rl --resume --out {config.out}",
            file=sys.stderr,
        )
        return 130
    held = row.get("heldout_win_rate")
    say(
        f"friday rl: {row.get('frames', 0)} frames, {row.get('updates', 0)} updates; "
        f"held-out win rate {held if held is None else format(held, '.1%')} on "
        f"{row.get('heldout_deals', 0)} validation deals; wrote {config.out}/policy.npz"
    )
    return 0


def _silent(*args: object, **kwargs: object) -> None:
    """What the processes other than rank 0 say."""


def _announce(config: RLConfig, updates: int, asked: int | None) -> str:
    """What the run is about to do, in a line (and the frames asked, where they were
    rounded up to whole rollouts)."""
    start = f"from {config.init}" if config.init else "from scratch"
    if updates:
        start = f"continuing from update {updates}"
    levels = ",".join(map(str, config.trained_levels()))
    where = f"levels {levels} mixed" if "," in levels else f"level {levels}"
    return (
        f"{config.method} on {where}, {start}, {_frames(config, asked)}, seed "
        f"{config.seed}; writing to {config.out}"
    )


def _frames(config: RLConfig, asked: int | None) -> str:
    if asked is None or asked == config.frames:
        return f"{config.frames} frames"
    return (
        f"{config.frames} frames (--frames {asked} rounded up to whole rollouts of "
        f"{config.batch} = num_envs x num_steps, times the processes)"
    )
