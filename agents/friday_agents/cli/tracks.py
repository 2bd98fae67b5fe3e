"""``friday tracks``: the benchmark's leaderboard, from the committed results.

Three tracks, by what a method may use: (a) from nothing, interaction only (reset / step);
(b) from nothing with state restore (clone / set_game: exploration, search); (c) teacher
allowed (the heuristic, search labels, demonstrations). Budgets: 1 M, 10 M and 100 M frames,
a frame being one decision applied to any copy of a game by any part of the method; a method
over a budget is listed at the frames it used, never in a smaller row. Win rates on the
1,000 evaluation deals of each level, with 95 % Wilson intervals; docs/benchmark.md defines
the tracks.

The leaderboard:        friday tracks
Only track (a):         friday tracks --track a
Every entry, as JSON:   friday tracks --json
"""

from __future__ import annotations

import argparse
import json

from friday_agents.cli.arguments import plain
from friday_agents.evaluation.tracks import TRACKS, load_leaderboard, markdown_table, ordered


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = plain(__doc__)
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument(
        "--json",
        action="store_true",
        help="print the entries as JSON (track, budget, algorithm, frames, CPU-hours, per-level "
        "win rate with its interval and mean score, and where the games recorded them mean "
        "hazards beaten and where games end; source file, command)",
    )
    parser.add_argument(
        "--track", choices=sorted(TRACKS), help="only this track's entries (default: all)"
    )


def run(args: argparse.Namespace) -> int:
    board = load_leaderboard()
    entries = [e for e in board["entries"] if args.track in (None, e["track"])]
    if args.json:
        print(json.dumps({**board, "entries": ordered(entries)}, indent=1))
        return 0
    for track, allowed in TRACKS.items():
        if args.track in (None, track):
            print(f"({track}) {allowed}")
    print()
    print("\n".join(markdown_table(entries)))
    print(
        "\nWin rates (%) on the 1,000 evaluation deals of each level, 95 % Wilson intervals; "
        "frames and CPU-hours of training, every process of a run (docs/benchmark.md). Each "
        "entry's source and the command that reproduces it: friday tracks --json."
    )
    return 0
