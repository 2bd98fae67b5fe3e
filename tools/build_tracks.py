"""Compile the track entries into the leaderboard the wheel ships.

Reads every ``experiments/tracks/entries/*.json`` (one entry each, written by
``experiments/tracks/make_entries.py`` or by hand for an outside result), checks each one (the
format, its budget row against its frames, its run, results file and policy in the repository,
and its per-level numbers against the ``friday eval`` results file it names) and writes
``agents/friday_agents/evaluation/tracks.json``, which ``friday tracks`` prints. How an outside
result is submitted: docs/benchmark.md. Run from the repository root::

    python tools/build_tracks.py            # write the leaderboard
    python tools/build_tracks.py --check    # exit status 1 if it differs from the entries
"""

from __future__ import annotations

import argparse
import json
import subprocess
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


def check_in_repository(entry: dict, repo: Path) -> None:
    """Raise `TrackEntryError` unless every path the entry names (its run folders, its results
    file, the model file its agent spec names by path) is a relative path inside ``repo`` that
    exists there and, in a git checkout, that git holds (tracked or added): an entry whose
    evidence is not in the repository cannot be checked by anyone else."""
    tracked = _tracked_files(repo)
    for what, path in _named_paths(entry):
        place = (repo / path).resolve()
        if Path(path).is_absolute() or not place.is_relative_to(repo.resolve()):
            problem = "is outside the repository"
        elif not place.exists():
            problem = "does not exist"
        elif tracked is not None and not _held(place.relative_to(repo.resolve()), tracked):
            problem = "is not in git (git add it with the entry)"
        else:
            continue
        raise TrackEntryError(f"entry {entry['id']!r}: its {what} {path!r} {problem}")


def _named_paths(entry: dict) -> list[tuple[str, str]]:
    """(what, path) for each path ``entry`` names."""
    runs = entry["run"] if isinstance(entry["run"], list) else [entry["run"]]
    named = [("run", run) for run in runs if run is not None]
    named.append(("results file", entry["result"]["file"]))
    for option in entry["result"]["agent"].split(":")[1:]:
        key, _, value = option.partition("=")
        if key == "model" and "/" in value:  # a file of one's own (a role has no slash)
            named.append(("model", value))
    return named


def _tracked_files(repo: Path) -> set[str] | None:
    """The files git holds under ``repo`` (its index), or None where ``repo`` is no git
    checkout's top folder (a copy of the sources: only existence is checked)."""
    top = _git(repo, "rev-parse", "--show-toplevel")
    if top is None or Path(top.strip()).resolve() != repo.resolve():
        return None
    listed = _git(repo, "ls-files", "-z")
    return set(filter(None, (listed or "").split("\0")))


def _git(repo: Path, *command: str) -> str | None:
    try:
        done = subprocess.run(
            ["git", "-C", str(repo), *command], capture_output=True, text=True, check=False
        )
    except OSError:  # no git on this machine
        return None
    return done.stdout if done.returncode == 0 else None


def _held(path: Path, tracked: set[str]) -> bool:
    """Whether git holds the file ``path`` or, for a folder, a file under it."""
    text = path.as_posix()
    return text in tracked or any(name.startswith(text + "/") for name in tracked)


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
        check_in_repository(entry, repo)
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
