"""``friday explore``: look for wins on training deals with a Go-Explore archive (no teacher).

For each deal alone: cells from public quantities (step, pirates beaten, fights finished,
life // 3); a cell is chosen (later fights weigh more, often-chosen cells less), the game
returns to its exact state (a copy), and uniform random legal actions explore from there;
a deal stops at its first win or its frame budget. The design is fixed in
experiments/from-nothing/PLAN.md; docs/explore.md says more.

Explore 400 level-1 deals:  friday explore --level 1 --deals 400 --out runs/explore-l1
Continue after Ctrl-C:      friday explore --resume --out runs/explore-l1
Look at a found win:        friday view runs/explore-l1/games.jsonl

The run folder gets config.json, deals.jsonl (a line per finished deal, appended as each
finishes), games.jsonl (the won games: friday replay and friday view open it) and
results.json (wins with a Wilson interval, frames and CPU seconds per deal and per win).
A deal's result depends only on the settings and the deal: any number of workers, any
interruption, and either core give the same results.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from friday_agents.cli.arguments import add_progress, plain
from friday_agents.harness.errors import BadInputError, require
from friday_agents.harness.progress import format_duration

DEFAULTS = {"first_index": 0, "deals": 100, "budget": 5_000_000, "walk": 50, "seed": 0}
#: The flags that make a run's results; --resume takes them from the run.
RUN_FLAGS = ("level", *DEFAULTS)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = plain(__doc__)
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("--level", type=int, default=argparse.SUPPRESS, help="1-4 (required)")
    helps = {
        "first_index": "the first training deal (the index training_seed takes)",
        "deals": "how many consecutive training deals",
        "budget": "frames (actions applied) per deal before it stops unwon",
        "walk": "uniform random actions per exploration, at most",
        "seed": "the run's seed (each deal's generators derive from it and the deal)",
    }
    for name, default in DEFAULTS.items():
        parser.add_argument(
            "--" + name.replace("_", "-"),
            type=int,
            default=argparse.SUPPRESS,  # given flags only: --resume must know which
            help=f"{helps[name]} (default: {default:,})",
        )
    parser.add_argument("--out", type=Path, help="the run folder (default: runs/explore-l<LEVEL>)")
    parser.add_argument(
        "--resume", action="store_true", help="finish the run in --out with its own settings"
    )
    parser.add_argument("--workers", type=int, default=1, help="processes (default: 1)")
    add_progress(parser)
    parser.set_defaults(out_is_folder=True)


def run_config(args: argparse.Namespace):
    """The run's configuration and folder, checked; `BadInputError` for bad input."""
    from friday_agents.learning.explore.run import RESUME, RunConfig, load_config

    given = {name: getattr(args, name) for name in RUN_FLAGS if hasattr(args, name)}
    if args.workers < 1:
        raise BadInputError(f"--workers must be at least 1, got {args.workers}")
    if args.resume:
        if args.out is None:
            raise BadInputError("--resume needs --out, the folder of the run to continue")
        RESUME.check_flags(given, args.out)
        return load_config(args.out), args.out
    if "level" not in given:
        raise BadInputError("--level is required (1, 2, 3 or 4)")
    config = RunConfig(**{**DEFAULTS, **given}).validate()
    out = args.out or Path("runs") / f"explore-l{config.level}"
    if out.exists() and any(out.iterdir()):
        raise BadInputError(
            f"--out {out} already holds files: continue its run with --resume, or choose "
            "another folder"
        )
    return config, out


def run(args: argparse.Namespace) -> int:
    from friday_agents.learning.run_folder import held

    if args.progress:
        require("the progress bar (--no-progress runs without it)", "tqdm")
    with held(args.out) as lock:  # before the run's files are read
        config, out = run_config(args)
        lock.take(out)
        return _explore(args, config, out)


def _explore(args: argparse.Namespace, config, out: Path) -> int:
    from friday_agents.harness.interrupts import stop_at_a_boundary
    from friday_agents.harness.parallel import GamesInterrupted, run_games
    from friday_agents.learning.explore import run as explore_run

    if not args.resume:
        explore_run.save_config(out, config)
    done = explore_run.finished_deals(out, config)
    todo = [job for job in config.jobs() if job[1] not in done]
    print(
        f"friday explore: level {config.level}, {len(todo)} of {config.deals} deals to explore "
        f"({config.budget:,} frames each), {out}",
        flush=True,
    )
    bar = _bar(config.deals, len(done), args.progress)
    wins = sum(row["won"] for row in done.values())
    bar.set_postfix_str(f"{wins} won")
    try:
        for row in run_games(explore_run.play_deal, todo, workers=args.workers):
            with stop_at_a_boundary() as ctrl_c:  # the line is written whole, then it stops
                explore_run.append_deal(out, row)  # kept before anything else can fail
            done[row["index"]] = row
            wins += row["won"]
            bar.set_postfix_str(f"{wins} won", refresh=False)
            bar.update(1)
            if ctrl_c.requested:
                raise GamesInterrupted("interrupted")
    except GamesInterrupted as stop:
        bar.close()
        print(
            f"\nfriday explore: {stop.reason}; {len(done)} of {config.deals} deals kept in "
            f"{out}. Continue with: friday explore --resume --out {out}",
            file=sys.stderr,
        )
        return 130
    bar.close()
    summary = explore_run.write_outputs(out, config, done)["summary"]
    print(_report(summary, out))
    return 0


def _report(summary: dict, out: Path) -> str:
    low, high = summary["wilson_95"]
    per_win, rate = summary["cpu_s_per_win"], summary["frames_per_cpu_s"]
    return (
        f"friday explore: {summary['wins']} of {summary['deals']} deals won "
        f"({summary['wins'] / summary['deals']:.1%}, 95 % interval {low:.1%}-{high:.1%}); "
        f"{f'{rate:,}' if rate else 'n/a'} frames per CPU-second; CPU per win "
        f"{format_duration(per_win) if per_win else 'n/a'}; wrote {out}/results.json and "
        f"{out}/games.jsonl"
    )


class _NoBar:
    """What the loop calls on a bar, doing nothing (--no-progress: tqdm not needed)."""

    def update(self, n: int = 1) -> None: ...
    def set_postfix_str(self, text: str, refresh: bool = True) -> None: ...
    def close(self) -> None: ...


def _bar(total: int, initial: int, enabled: bool):
    """Deals done of all; the postfix counts wins."""
    if not enabled:
        return _NoBar()
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, unit="deal", desc="friday explore")
