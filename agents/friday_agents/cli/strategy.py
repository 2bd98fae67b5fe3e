"""``friday strategy``: what strong play looks like, a recorded player's games against the
heuristic's on the same deals.

  friday strategy --games experiments/data/guided-best-train-400.jsonl.gz --name guided \\
      --out results/strategy.json

Reads a games file (one JSON line per game with its level, seed and actions, .jsonl or
.jsonl.gz, as friday imitate collect writes them), replays every game, plays the heuristic on
the same deals, and counts per level and player which hazards are fought and which discarded, the
fights lost on purpose, what is destroyed, which knowledge cards are won, and the life left at
the pirates; per-game measures are compared on the same deals with 95% bootstrap intervals
(friday_agents.evaluation.strategy.strategy). Writes the results file and prints the outcomes
per level; the docs' tables are rendered from a committed results file by
python tools/docs_sections.py.

Exit status: 0 done, 2 bad input (a missing or malformed games file, a game that does not
replay as recorded, bad settings).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from friday_agents.cli.arguments import add_progress, add_removed
from friday_agents.harness.errors import README_GONE


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = __doc__.split("\n\n", 1)[1]
    parser.add_argument("--games", type=Path, required=True, help="games file (.jsonl[.gz])")
    parser.add_argument("--out", type=Path, required=True, help="results file to write (JSON)")
    parser.add_argument(
        "--name", default="search", help="the recorded player's name (default search)"
    )
    parser.add_argument(
        "--per-level", type=int, help="only the first N games of each level (default: all)"
    )
    add_removed(parser, "--readme", instead=README_GONE)
    add_progress(parser)


def run(args: argparse.Namespace) -> int:
    from friday_agents.evaluation.strategy.strategy import StrategySettings, run_analysis

    settings = StrategySettings(args.games, args.out, args.name, args.per_level, args.progress)
    run_analysis(settings)
    return 0
