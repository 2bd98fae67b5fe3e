"""Compile the track entries into the leaderboard the wheel ships.

Reads every ``experiments/tracks/entries/*.json`` (one entry each, written by
``experiments/tracks/make_entries.py``), checks each one (the format, its budget row against
its frames, and its per-level numbers against the ``friday eval`` results file it names) and
writes ``agents/friday_agents/evaluation/tracks.json``, which ``friday tracks`` prints. Run from
the repository root::

    python tools/build_tracks.py            # write the leaderboard
    python tools/build_tracks.py --check    # exit status 1 if it differs from the entries
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "agents")]  # the checkout's packages, not an install

from friday_agents.evaluation.tracks import (  # noqa: E402
    LEADERBOARD_FORMAT,
    PROGRESS_KEYS,
    TRACKS,
    TrackEntryError,
    check_entry,
    ordered,
)
from friday_env.json_text import JsonTextError, read_json  # noqa: E402

ENTRIES = Path("experiments/tracks/entries")
LEADERBOARD = Path("agents/friday_agents/evaluation/tracks.json")
COMMAND = "python tools/build_tracks.py"
ABOUT = (
    "The benchmark's leaderboard (docs/benchmark.md), compiled by python tools/build_tracks.py "
    "from experiments/tracks/entries/*.json; friday tracks prints it."
)


def check_against_results(entry: dict, repo: Path) -> None:
    """Raise `TrackEntryError` if the entry's per-level numbers are not its results file's."""
    source = entry["result"]
    check_cells(entry, _result_rows(repo / source["file"], source["agent"]))


def check_cells(entry: dict, rows: dict[str, dict]) -> None:
    """Raise `TrackEntryError` unless each level cell of ``entry`` has the numbers of its
    results summary row in ``rows`` (by level): games, wins, mean score, and the progress
    numbers exactly where the row has them."""
    source = entry["result"]
    compared = ("games", "wins", "mean_score", *PROGRESS_KEYS)
    for level, cell in entry["levels"].items():
        row = rows.get(level)
        mine = tuple(cell.get(key) for key in compared)
        theirs = None if row is None else tuple(row.get(key) for key in compared)
        if mine != theirs:
            raise TrackEntryError(
                f"entry {entry['id']!r} level {level}: {mine} is not {source['file']}'s "
                f"{source['agent']!r} row; run python experiments/tracks/make_entries.py"
            )


def _result_rows(path: Path, agent: str) -> dict[str, dict]:
    """The results file's summary rows of ``agent`` by level; `TrackEntryError` naming the
    file if it cannot be read or holds no summary of rows."""
    results = _read(path)
    summary = results.get("summary") if isinstance(results, dict) else None
    if not isinstance(summary, list) or not all(isinstance(row, dict) for row in summary):
        raise TrackEntryError(f"{path}: not a friday eval results file (no summary rows)")
    return {str(row.get("level")): row for row in summary if row.get("agent") == agent}


def _read(path: Path) -> object:
    try:
        return read_json(path)
    except JsonTextError as err:
        raise TrackEntryError(f"{path} cannot be read: {err}") from None


def compile_entries(repo: Path) -> dict:
    """The leaderboard from the entries under ``repo``, each checked."""
    entries = []
    for path in sorted((repo / ENTRIES).glob("*.json")):
        entry = _read(path)
        check_entry(entry, path.relative_to(repo).as_posix())
        check_against_results(entry, repo)
        entries.append(entry)
    return {
        "format": LEADERBOARD_FORMAT,
        "version": 1,
        "about": ABOUT,
        "tracks": TRACKS,
        "entries": ordered(entries),
    }


def text_of(board: dict) -> str:
    return json.dumps(board, indent=1) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        allow_abbrev=False, prog=COMMAND, description=__doc__.splitlines()[0]
    )
    parser.add_argument(
        "--root", type=Path, default=REPO, help="the repository (default: this one)"
    )
    parser.add_argument("--check", action="store_true", help="only check, write nothing")
    args = parser.parse_args(argv)
    try:
        text = text_of(compile_entries(args.root))
    except (TrackEntryError, OSError) as err:
        print(f"{COMMAND}: error: {err}", file=sys.stderr)
        return 2
    target = args.root / LEADERBOARD
    current = target.read_text(encoding="utf-8") if target.is_file() else ""
    if args.check:
        if current != text:
            print(f"{LEADERBOARD}: out of date with {ENTRIES}/; run {COMMAND}")
            return 1
        print(f"{LEADERBOARD}: up to date")
        return 0
    target.write_text(text, encoding="utf-8")
    print(f"{LEADERBOARD}: {'rewritten' if current != text else 'already up to date'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
