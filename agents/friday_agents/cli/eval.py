"""``friday eval``: benchmark agents on the evaluation deals of every level.

Every agent plays the same deals ([`friday_agents.harness.deals`][friday_agents.harness.deals]: deal
``i`` of level ``L`` has seed ``10_000_000 + L * 1_000_000 + i``; training never uses seeds that
high). Results per
agent and level — win rate with a 95% Wilson interval, mean and median score with 95% bootstrap
intervals, game length, games/s (games per second of play, summed over the games: building
the agents and loading their models come before the clock starts) — are printed as a table
and written to ``--out``:
``results.json`` (``"complete": false`` while games are missing), ``results.csv``,
``winrate.png``, ``scores.png``, and ``games.jsonl`` with one line per game (with its
replayable record under ``--save-games``). The documentation's tables are rendered from a
committed ``results.json`` by ``python tools/docs_sections.py``, not by this command.

``--deals validation`` plays the validation deals instead (training deals 900000 on, which no
fit reads:
[`friday_agents.harness.deals.validation_seed`][friday_agents.harness.deals.validation_seed]), for
choosing between variants without looking at the evaluation deals; such results never go into the
README.

Without ``--out`` each run gets a new folder under ``results/eval``, named by its agents,
levels and start time (printed when the run starts), so runs never clash; an explicit
``--out`` that already holds an evaluation is refused unless ``--resume`` continues it.

Each game's result is saved as soon as it finishes: after Ctrl-C or a killed worker,
``friday eval --out DIR --resume`` plays only the missing games. ``--backend ray`` plays
them as Ray tasks, on a local Ray or on the cluster at ``--address`` (``ray start --head``
on one node, ``ray start --address HEAD_IP:6379`` on the others); the results are the same.
A session holds its ``--out`` with an exclusive lock until it ends: a second ``friday eval`` on the
same folder is refused (exit 2) instead of playing the same games twice
([`run_lock`][friday_agents.harness.run_lock]; not on Windows, which has no ``fcntl``).

From Python, without the command line: ``run_evaluation(EvalSettings(...))``
(friday_agents.evaluation.workflow, which this command calls).

Exit status: 0 done, 2 bad arguments (unknown agent, level or option), 130 interrupted by
Ctrl-C, 1 a worker died (resume to continue).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from friday_agents.cli.arguments import add_progress, add_removed, plain
from friday_agents.evaluation.workflow import (
    DEFAULT_AGENTS,
    DEFAULT_GAMES,
    DEFAULT_LEVELS,
    DEFAULT_OUT,
    DEFAULT_SEARCH_SIMS,
    EvalSettings,
    run_evaluation,
)
from friday_agents.harness.deals import DEAL_SETS
from friday_agents.harness.errors import README_GONE
from friday_agents.harness.parallel import BACKENDS, RAY_INSTALL


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = plain(__doc__.split("\n\n", 1)[1])
    parser.set_defaults(out_is_folder=True)
    parser.add_argument(
        "--agents",
        help="comma-separated agent specs, e.g. heuristic,search:sims=64 "
        f"(default {DEFAULT_AGENTS})",
    )
    parser.add_argument(
        "--levels", help=f"levels as ranges and lists, e.g. 1-4 or 1,3 (default {DEFAULT_LEVELS})"
    )
    parser.add_argument(
        "--games",
        help="games per level: N, optionally with per-agent counts, e.g. 1000,search=200 "
        f"(default {DEFAULT_GAMES})",
    )
    parser.add_argument(
        "--search-sims",
        type=int,
        help=f"simulations per decision for agents that search (default {DEFAULT_SEARCH_SIMS})",
    )
    parser.add_argument(
        "--save-games", action="store_true", default=None, help="store every game's record"
    )
    parser.add_argument(
        "--deals",
        choices=DEAL_SETS,
        help="which deals: the evaluation deals (default) or the validation deals, training "
        "deals 900000 on that no fitting reads, for choosing a variant without looking at "
        "the evaluation deals (friday_agents.harness.deals.validation_seed)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        help="processes, or the CPUs of a local Ray (default: all cores); with --address, "
        "the most games played at once (default: every CPU of the cluster)",
    )
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        default="process",
        help="where games are played: a local process pool (default) or Ray tasks "
        f"(needs {RAY_INSTALL})",
    )
    parser.add_argument(
        "--address",
        help="with --backend ray: a running Ray cluster (auto, or HEAD_IP:6379); "
        "default: a local Ray started for the run",
    )
    parser.add_argument(
        "--out",
        type=Path,
        help=f"output directory (default: a new folder under {DEFAULT_OUT} named by the agents, "
        "levels and start time)",
    )
    parser.add_argument(
        "--resume", action="store_true", help="continue the interrupted evaluation in --out"
    )
    add_removed(parser, "--readme", "--update-readme", instead=README_GONE)
    parser.add_argument("--bootstrap-seed", type=int, default=0, help="seed of the bootstrap")
    add_progress(parser)


def run(args: argparse.Namespace) -> int:
    settings = EvalSettings(
        agents=args.agents,
        levels=args.levels,
        games=args.games,
        search_sims=args.search_sims,
        save_games=args.save_games,
        deals=args.deals,
        out=args.out,
        resume=args.resume,
        workers=args.workers,
        backend=args.backend,
        address=args.address,
        bootstrap_seed=args.bootstrap_seed,
        progress=args.progress,
    )
    return run_evaluation(settings).status
