"""Soak run: play many seeded games and check every invariant after every action.

``python -m friday_env.testing.soak --games 100000 --levels 1-4`` plays that many games per level
with a seeded policy, checks `friday_env.testing.invariants` after every action, and prints
games/s and actions/s per level. ``--no-checks`` measures the engine alone. The first
failure stops the run with exit status 1 and prints how to reproduce it; ``--failures DIR``
also saves it as JSON (origin, actions, error).

The drivers (`policies`, `games`) are
shared with the tests and the golden playthroughs. Every game is seeded from
``(seed, level, index)``, so a run is reproducible and a failing game can be replayed alone.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from friday_env.core import Game
from friday_env.errors import InvalidLevelError
from friday_env.levels import parse_levels
from friday_env.testing.games import (
    DEFAULT_MAX_ACTIONS,
    STARTS,
    PlayStats,
    game_seed,
    make_game,
    play_checked,
)
from friday_env.testing.policies import POLICIES

# ---------------------------------------------------------------- the command


@dataclass
class LevelTotals:
    games: int = 0
    actions: int = 0
    wins: int = 0
    pirates: int = 0
    longest: int = 0
    seconds: float = 0.0  # wall clock
    cpu_seconds: float = 0.0  # this process's CPU time: the rate on a shared machine

    def add(self, stats: PlayStats) -> None:
        self.games += 1
        self.actions += stats.actions
        self.wins += stats.won
        self.pirates += stats.reached_pirates
        self.longest = max(self.longest, stats.actions)


class Progress:
    """One status line on stderr, redrawn in place on a terminal, every 10% otherwise."""

    def __init__(self, label: str, total: int, enabled: bool) -> None:
        self.label, self.total, self.enabled = label, total, enabled
        self.tty = sys.stderr.isatty()
        self.start = time.perf_counter()
        self.last = 0.0
        self.next_tenth = 1

    def update(self, totals: LevelTotals, force: bool = False) -> None:
        if not self.enabled:
            return
        now = time.perf_counter()
        elapsed = max(now - self.start, 1e-9)
        tenth = totals.games * 10 // max(self.total, 1)
        due = now - self.last >= 0.5 if self.tty else tenth >= self.next_tenth
        if not (due or force):
            return
        self.last, self.next_tenth = now, tenth + 1
        rate = totals.games / elapsed
        eta = (self.total - totals.games) / rate if rate else 0.0
        line = (
            f"{self.label}: {totals.games:,}/{self.total:,} games  {rate:,.0f} games/s  "
            f"{totals.actions / elapsed:,.0f} actions/s  eta {eta:,.0f}s"
        )
        sys.stderr.write(f"\r{line}\033[K" if self.tty else line + "\n")
        if self.tty and force:
            sys.stderr.write("\n")
        sys.stderr.flush()


def levels_argument(text: str) -> list[int]:
    """``--levels``: [`friday_env.levels.parse_levels`][friday_env.levels.parse_levels] as an
    argparse type."""
    try:
        return list(parse_levels(text))
    except InvalidLevelError as err:
        raise argparse.ArgumentTypeError(f"--levels: {err}") from None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        allow_abbrev=False,
        prog="python -m friday_env.testing.soak",
        description="Play many seeded games, check every engine invariant after every "
        "action, and report games/s and actions/s per level.",
        epilog="Example: python -m friday_env.testing.soak --games 100000 --levels 1-4",
    )
    parser.add_argument("--games", type=int, default=10_000, help="games per level (10000)")
    parser.add_argument(
        "--levels",
        type=levels_argument,
        default=[1, 2, 3, 4],
        help="levels to play: 1-4, 2 or 1,3 (all)",
    )
    parser.add_argument(
        "--policy",
        choices=sorted(POLICIES),
        default="random",
        help="random: uniform among the legal actions; greedy: a simple player that gets "
        "further (random)",
    )
    parser.add_argument(
        "--start",
        choices=STARTS,
        default="new",
        help="new: new games set up as the rulebook says; deal: random scenario deals at "
        "every step, the pirates included (new)",
    )
    parser.add_argument("--seed", type=int, default=0, help="run seed (0)")
    parser.add_argument(
        "--no-checks",
        action="store_true",
        help="skip the invariant checks: measures the engine alone",
    )
    parser.add_argument(
        "--max-actions",
        type=int,
        default=DEFAULT_MAX_ACTIONS,
        help=f"a game longer than this fails ({DEFAULT_MAX_ACTIONS})",
    )
    parser.add_argument(
        "--failures", type=Path, default=None, help="directory to save the failing game as JSON"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress line")
    return parser


def soak_level(args: argparse.Namespace, level: int) -> LevelTotals:
    """Play ``args.games`` games at ``level``; raises on the first failure."""
    totals = LevelTotals()
    progress = Progress(f"level {level}", args.games, not args.quiet)
    start, cpu_start = time.perf_counter(), time.process_time()
    for index in range(args.games):
        seed = game_seed(args.seed, level, index)
        game, policy = make_game(args.start, args.policy, level, seed)
        try:
            stats = play_checked(game, policy, args.max_actions, checks=not args.no_checks)
        except Exception as err:
            raise SoakFailure(level, seed, game, err) from err
        totals.add(stats)
        progress.update(totals)
    totals.seconds = time.perf_counter() - start
    totals.cpu_seconds = time.process_time() - cpu_start
    progress.update(totals, force=True)
    return totals


class SoakFailure(Exception):
    """A game of the soak run failed: an invariant, the action cap or an engine exception."""

    def __init__(self, level: int, seed: int, game: Game, error: Exception) -> None:
        super().__init__(f"level {level}, game seed {seed}: {type(error).__name__}: {error}")
        self.report = {
            "level": level,
            "game_seed": seed,
            "origin": game.origin,
            "actions": list(game.history),
            "error": f"{type(error).__name__}: {error}",
        }


def print_table(args: argparse.Namespace, results: dict[int, LevelTotals]) -> None:
    """Rates per CPU second of this process, so that other processes sharing the cores do
    not lower them; the wall-clock seconds are shown beside."""
    checks = "no checks" if args.no_checks else "invariants checked after every action"
    print(f"start {args.start}, policy {args.policy}, seed {args.seed}, {checks}")
    print(
        f"{'level':>5} {'games':>9} {'actions':>11} {'wall s':>7} {'cpu s':>7} {'games/s':>8} "
        f"{'actions/s':>10} {'mean len':>8} {'max len':>7} {'pirates':>8} {'wins':>6}"
    )
    for level, t in results.items():
        cpu = max(t.cpu_seconds, 1e-9)
        print(
            f"{level:>5} {t.games:>9,} {t.actions:>11,} {t.seconds:>7.1f} {t.cpu_seconds:>7.1f} "
            f"{t.games / cpu:>8,.0f} {t.actions / cpu:>10,.0f} "
            f"{t.actions / max(t.games, 1):>8.1f} {t.longest:>7} {t.pirates:>8,} {t.wins:>6,}"
        )
    print("games/s and actions/s are per CPU second of this process")


def run(args: argparse.Namespace) -> int:
    if args.games < 1:
        print("--games must be at least 1", file=sys.stderr)
        return 2
    results: dict[int, LevelTotals] = {}
    try:
        for level in args.levels:
            results[level] = soak_level(args, level)
    except SoakFailure as failure:
        print(f"\nFAILED: {failure}", file=sys.stderr)
        print(f"reproduce: {json.dumps(failure.report)}", file=sys.stderr)
        if args.failures:
            args.failures.mkdir(parents=True, exist_ok=True)
            path = args.failures / f"failure-{failure.report['game_seed']}.json"
            path.write_text(json.dumps(failure.report, indent=1) + "\n")
            print(f"saved to {path}", file=sys.stderr)
        return 1
    print_table(args, results)
    return 0


def main(argv: list[str] | None = None) -> int:
    return run(build_parser().parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
