"""``friday imitate``: a MaskablePPO policy learnt from an agent's games (cloning, DAgger).

Steps (each resumable or cheap to redo):

  friday imitate collect --teacher search:sims=32 --games 2000 --out data/search32.jsonl
  friday imitate encode data/search32.jsonl --out data/search32.npz
  friday imitate fit --dataset data/search32.npz --levels 1 --out runs/bc-l1/policy.zip
  friday imitate dagger --student runs/bc-l1/policy.zip --teacher heuristic --level 1 \\
      --games 500 --games-file data/dagger-l1.jsonl --data data/heuristic.jsonl \\
      --out runs/dagger-l1/policy.zip

``collect`` plays the teacher on training deals only (friday_agents.harness.deals.training_seed)
and appends one line per game; running it again plays only the missing games. One session at
a time writes a games file (``collect``'s --out, ``dagger``'s --games-file): a second is
refused in one line. ``fit`` writes a policy that ``friday eval --agents ppo:model=PATH`` plays
and ``friday train --init PATH`` fine-tunes, plus ``fit.json`` (settings, per-epoch losses and
held-out agreement, CPU seconds) beside it.

Exit status: 0 done, 2 bad input (unknown teacher, missing or empty dataset, a dataset of
another observation mode, bad settings).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from friday_agents.cli.arguments import add_device, add_renamed_flags, add_step, add_steps
from friday_agents.harness.errors import BadInputError
from friday_agents.harness.parallel import BACKENDS, RAY_INSTALL, GamesInterrupted

if TYPE_CHECKING:
    from _typeshed import DataclassInstance
from friday_agents.learning.config import SHARED_HELP


def add_arguments(parser: argparse.ArgumentParser) -> None:
    steps = add_steps(parser, __doc__)
    collect = add_step(steps, "collect", "play a teacher on training deals")
    collect.add_argument("--teacher", required=True, help="agent spec, e.g. search:sims=32")
    collect.add_argument("--levels", default="1-4", help="levels, e.g. 1-4 or 1,3")
    _add_games(collect)
    collect.add_argument("--out", type=Path, required=True, help="games file (appended)")
    encode = add_step(steps, "encode", "games files -> dataset (.npz)")
    encode.add_argument("games_files", nargs="+", type=Path, help="games files to encode")
    encode.add_argument("--observation", default="flat", help="observation encoder (flat)")
    encode.add_argument("--levels", default="1-4", help="levels to keep, e.g. 1 or 1-4")
    encode.add_argument("--out", type=Path, required=True, help="dataset file (.npz)")
    fit = add_step(steps, "fit", "fit a MaskablePPO policy to a dataset")
    fit.add_argument("--dataset", type=Path, required=True, help="dataset from `encode`")
    _add_fit(fit)
    dagger = add_step(steps, "dagger", "one DAgger round: student plays, teacher labels")
    dagger.add_argument("--student", type=Path, required=True, help="policy.zip to roll out")
    dagger.add_argument("--teacher", required=True, help="agent spec labelling the states")
    _add_games(dagger)
    dagger.add_argument("--label-share", type=float, default=1.0, help="share of states labelled")
    dagger.add_argument("--games-file", type=Path, required=True, help="DAgger games (appended)")
    dagger.add_argument("--data", type=Path, nargs="*", default=[], help="more games to refit on")
    _add_fit(dagger)


def _add_games(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, required=True, help="games per level")
    parser.add_argument("--first-index", type=int, default=0, help="first training deal index")
    parser.add_argument(
        "--workers", type=int, default=2, help="processes, or the CPUs of a local Ray"
    )
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        default="process",
        help=f"a local process pool (default) or Ray tasks (needs {RAY_INSTALL})",
    )
    parser.add_argument(
        "--address", help="with --backend ray: a running Ray cluster (auto, or HEAD_IP:6379)"
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def _add_fit(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--levels", default="1", help="levels of the dataset to fit on")
    parser.add_argument("--level", type=int, help="one level (instead of --levels)")
    parser.add_argument("--out", type=Path, required=True, help="policy file to write")
    parser.add_argument("--config", help="friday train config (net, PPO settings kept for --init)")
    parser.add_argument("--hidden", default="256,256", help="hidden layers (default 256,256)")
    add_device(parser)
    parser.add_argument("--init", type=Path, help="start from this policy instead of new weights")
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--batch-size", type=int, default=512)
    parser.add_argument(
        "--learning-rate",
        type=float,
        default=1e-3,
        help=SHARED_HELP["learning_rate"] + " (default: 0.001)",
    )
    parser.add_argument("--soft-tau", type=float, default=0.0, help="soft targets (0 = hard)")
    parser.add_argument("--seed", type=int, default=0)
    add_renamed_flags(parser)  # --lr, --net-arch, ... refused naming the new flag


def run(args: argparse.Namespace) -> int:
    from friday_agents.learning.imitation import steps as imitate_steps

    try:
        return imitate_steps.STEPS[args.step](_settings(args))
    except ValueError as err:  # a setting the step's libraries refuse (net sizes, shares)
        raise BadInputError(str(err)) from None
    except GamesInterrupted as why:  # every finished game is in the games file
        print(
            f"friday imitate {args.step}: {why}; the games played are saved: run the same "
            "command again to continue",
            file=sys.stderr,
        )
        return 130 if why.reason == "interrupted" else 1


def _settings(args: argparse.Namespace):
    """The step's typed settings (`friday_agents.learning.imitation.settings`) from its flags."""
    from friday_agents.learning.imitation import settings as imitate

    def fields(settings: type[DataclassInstance], **given: Any) -> dict[str, Any]:
        named = settings.__dataclass_fields__.keys() - given.keys()
        return {name: getattr(args, name) for name in named} | given

    if args.step == "encode":
        return imitate.Encode(**fields(imitate.Encode, games_files=tuple(args.games_files)))
    play = None
    if args.step in ("collect", "dagger"):
        play = imitate.Games(**fields(imitate.Games, progress=not args.no_progress))
    if args.step == "collect":
        return imitate.Collect(**fields(imitate.Collect, play=play))
    policy = imitate.PolicyFit(**fields(imitate.PolicyFit))
    if args.step == "fit":
        return imitate.Fit(args.dataset, policy)
    return imitate.Dagger(**fields(imitate.Dagger, play=play, policy=policy, data=tuple(args.data)))
