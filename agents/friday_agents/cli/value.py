"""``friday value``: the search's learned leaf value, the probability of winning from a turn's
start (friday_agents.players.networks.leaf_net).

Steps:

  friday value data --level 4 --deals 40000 --out data/level4-value
  friday value data --level 4 --deal-set validation --deals 2000 --out data/level4-value-validation
  friday value fit --data data/level4-value --validation data/level4-value-validation \\
      --out leaf.npz --report fit.json

``data`` plays a strong agent (guided by default) on deals of one level and branches
continuations off its games; every turn start is a position labelled by the win (1) or loss (0)
of the game it lies in (friday_agents.learning.leaf_value.positions). It writes chunks of deals,
each whole or not at all: Ctrl-C (or a kill) loses at most the chunks in flight, and the same
command plays only the missing ones. The same settings give the same data with any number of
workers. ``fit`` fits the network on training-deal positions, stopping on the validation-deal
positions' log-loss; the search plays it as ``guided:value=FILE`` (or in a per-level file).

Exit status: 0 done, 2 bad input, 130 interrupted (what is done is kept).
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from friday_agents.cli.arguments import (
    add_device,
    add_network_fit,
    add_progress,
    add_step,
    add_steps,
    add_workers,
)
from friday_agents.harness.errors import BadInputError

#: The first deal index each deal set's data starts at unless told (experiments/level4-value/
#: PLAN.md: training deals of no other study; validation deals that friday eval's choices,
#: which play deals 0 on, do not reach).
FIRST_INDEX = {"training": 300_000, "validation": 50_000}
#: The largest leaf network ``friday value fit`` makes: what the compiled search plays
#: (players.networks.leaf_net's MAX_LAYERS counts the output too), as LeafFit checks it.
MOST_LAYERS, LARGEST = 3, 512


def add_arguments(parser: argparse.ArgumentParser) -> None:
    steps = add_steps(parser, __doc__)
    data = add_step(
        steps,
        "data",
        "play and label positions, in chunks that resume",
        "Play an agent on deals of one level, branch continuations off its games, and label "
        "every turn start by the win (1) or loss (0) of the game it lies in; chunks of deals "
        "are written whole, and the same command plays only the missing ones.",
    )
    data.add_argument("--level", type=int, default=4, help="the level (default 4)")
    data.add_argument("--deals", type=int, required=True, help="how many deals to play")
    data.add_argument(
        "--deal-set",
        choices=sorted(FIRST_INDEX),
        default="training",
        help="training deals (to fit on, default) or validation deals (to stop the fit on)",
    )
    data.add_argument(
        "--first-index",
        type=int,
        help="first deal index (default: 300000 for training, 50000 for validation deals)",
    )
    data.add_argument("--agent", default="guided", help="the agent that plays (default guided)")
    data.add_argument(
        "--continuations",
        type=int,
        default=2,
        help="continuations branched off each game at drawn decisions (default 2)",
    )
    data.add_argument("--chunk-size", type=int, default=250, help="deals per chunk (default 250)")
    data.add_argument("--out", type=Path, required=True, help="the data folder (resumes)")
    add_workers(data)
    add_progress(data)
    data.set_defaults(out_is_folder=True)
    fit = add_step(
        steps,
        "fit",
        "fit the leaf network on a data folder",
        "Fit the network of the probability of winning on a training-deal data folder, keeping "
        "the epoch with the lowest log-loss on a validation-deal folder; writes the network "
        "(.npz, played as value=FILE) and a report (JSON).",
    )
    fit.add_argument("--data", type=Path, required=True, help="training-deal data folder")
    fit.add_argument("--validation", type=Path, required=True, help="validation-deal folder")
    add_network_fit(
        fit,
        (64, 64),
        report="the fit's report (JSON; default OUT.json)",
        most_layers=MOST_LAYERS,
        largest=LARGEST,
    )
    fit.add_argument("--max-epochs", type=int, default=20, help="at most (default 20)")
    fit.add_argument(
        "--patience", type=int, default=3, help="epochs without a better validation loss (3)"
    )
    fit.add_argument(
        "--sources",
        choices=("all", "base"),
        default="all",
        help="fit on every position (default) or on the agent's own games' only",
    )
    add_device(fit)


def run(args: argparse.Namespace) -> int:
    if args.step == "data":
        return _data(args)
    return _fit(args)


def _data_settings(args: argparse.Namespace):
    """The data folder's settings from the flags, checked as a stored ``dataset.json`` is
    (`DataSettings.validate`), and the agent built once: bad input stops before any file."""
    from friday_agents.learning.leaf_value.chunks import DataSettings
    from friday_agents.players.registry import make_agent

    if args.workers < 1:
        raise BadInputError(f"--workers must be at least 1, got {args.workers}")
    first = FIRST_INDEX[args.deal_set] if args.first_index is None else args.first_index
    settings = DataSettings(
        args.agent,
        args.level,
        args.deal_set,
        first,
        args.deals,
        args.continuations,
        args.chunk_size,
    ).validate()
    make_agent(args.agent)  # a bad spec is refused before anything is written
    return settings


def _data(args: argparse.Namespace) -> int:
    from friday_agents.learning.leaf_value.chunks import check_settings
    from friday_agents.learning.run_folder import held

    with held(args.out) as lock:  # another session on the folder would write its chunks too
        settings = _data_settings(args)
        lock.take(args.out)
        check_settings(args.out, settings)
        return _play(args, settings)


def _play(args: argparse.Namespace, settings) -> int:
    from friday_agents.harness.parallel import GamesInterrupted
    from friday_agents.learning.leaf_value.chunks import missing_chunks, play_chunks

    left = len(missing_chunks(args.out, settings))
    last = settings.first_index + settings.deals - 1
    print(
        f"friday value data: {settings.agent} on level {settings.level}, {settings.deal_set} "
        f"deals {settings.first_index}-{last}, {settings.continuations} continuations each; "
        f"chunks of {settings.chunk_size} deals to {args.out} ({left} to play) on "
        f"{args.workers} worker{'s' * (args.workers != 1)}",
        flush=True,
    )
    bar = _deal_bar(args, settings)
    try:
        for _ in play_chunks(args.out, settings, args.workers, bar.update):
            pass
    except GamesInterrupted as why:
        print(
            f"\nfriday value data: {why.reason}; every finished chunk is in {args.out}. "
            f"Continue with: {_again(args, settings)}",
            file=sys.stderr,
        )
        return 130 if why.reason == "interrupted" else 1
    finally:
        bar.close()
    print(
        f"friday value data: every chunk of deals {settings.first_index}-{last} is in "
        f"{args.out} ({bar.positions} positions played now)"
    )
    return 0


def _again(args: argparse.Namespace, settings) -> str:
    """The command that plays the rest (the same settings, the first index spelled out)."""
    words = [
        "friday value data",
        f"--level {settings.level} --deals {settings.deals} --deal-set {settings.deal_set}",
        f"--first-index {settings.first_index} --agent {shlex.quote(settings.agent)}",
        f"--continuations {settings.continuations} --chunk-size {settings.chunk_size}",
        f"--out {shlex.quote(str(args.out))} --workers {args.workers}",
    ]
    return " ".join(words) + ("" if args.progress else " --no-progress")


class _DealBar:
    """Deals played and positions labelled (a tqdm bar, or nothing)."""

    def __init__(self, bar) -> None:
        self.bar, self.positions, self.cpu = bar, 0, 0.0

    def update(self, result: dict) -> None:
        self.positions += len(result["won"])
        self.cpu += result["cpu_seconds"]
        if self.bar is not None:
            self.bar.update()
            self.bar.set_postfix_str(
                f"{self.positions} positions, {self.cpu / self.bar.n:.2f} CPU-s/deal"
            )

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _deal_bar(args: argparse.Namespace, settings) -> _DealBar:
    from friday_agents.learning.leaf_value.chunks import missing_chunks

    if not args.progress:
        return _DealBar(None)
    from tqdm import tqdm

    from friday_agents.harness.progress import BAR_FORMAT

    todo = sum(len(settings.chunk_jobs(s)) for s in missing_chunks(args.out, settings))
    return _DealBar(tqdm(total=todo, desc="deals", unit="deal", bar_format=BAR_FORMAT))


def _fit(args: argparse.Namespace) -> int:
    from friday_agents.learning.leaf_value.workflow import LeafFit, fit_leaf_value

    settings = LeafFit(
        data=args.data,
        validation=args.validation,
        out=args.out,
        report=args.report,
        hidden=args.hidden,
        max_epochs=args.max_epochs,
        patience=args.patience,
        sources=args.sources,
        seed=args.seed,
        device=args.device,
    )
    fit_leaf_value(settings)
    return 0
