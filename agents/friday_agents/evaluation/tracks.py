"""The benchmark's tracks: what a method may use, at what budget, and how it did.

Three tracks, defined by what a method may touch (``docs/benchmark.md``):

- ``a``: from nothing, interaction only: the env's ``reset`` / ``step`` and its reward;
- ``b``: from nothing with state restore: (a) plus ``clone`` / ``set_game`` of exact states
  (exploration, search);
- ``c``: teacher allowed: the heuristic, search labels, demonstrations.

A **frame** is one decision applied to any copy of a game by any part of the method. An entry
sits in the row of the smallest budget (1 M, 10 M, 100 M frames) at or above the frames it
used, else in "over 100 M" (`budget_row`): a method over a budget is never listed in a
smaller one. Each entry is one JSON file under ``experiments/tracks/entries/`` (format
`ENTRY_FORMAT`, version `ENTRY_VERSION`); ``python tools/build_tracks.py`` checks them
against the results they cite and compiles them into ``tracks.json`` beside this module,
which the wheel ships, so ``friday tracks`` works without a source checkout.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from friday_agents.evaluation.game_ends import END_PLACES
from friday_agents.harness.errors import BadInputError
from friday_env.json_text import JsonTextError, read_json

#: The compiled leaderboard the wheel ships (written by ``tools/build_tracks.py``).
TRACKS_FILE = Path(__file__).resolve().parent / "tracks.json"
ENTRY_FORMAT = "friday-env/track-entry"
ENTRY_VERSION = 1
LEADERBOARD_FORMAT = "friday-env/tracks"
TRACKS = {
    "a": "from nothing, interaction only (reset / step)",
    "b": "from nothing, with state restore (clone / set_game)",
    "c": "teacher allowed (heuristic, search labels, demonstrations)",
}
#: Budget rows in order; "not recorded" for an entry whose frames nobody counted.
BUDGETS = ("1 M", "10 M", "100 M", "over 100 M", "not recorded")
LEVELS = ("1", "2", "3", "4")
#: The keys every entry holds (``frames`` and ``cpu_hours`` may be null: not recorded).
ENTRY_KEYS = (
    "format",
    "version",
    "id",
    "track",
    "budget",
    "algorithm",
    "frames",
    "frames_counted",
    "cpu_hours",
    "cpu_measured",
    "levels",
    "result",
    "run",
    "command",
    "notes",
)
LEVEL_KEYS = ("games", "wins", "win_rate", "wilson_95", "mean_score")
#: What a level's cell also holds where its results' games recorded it (both or neither): the
#: mean hazards beaten and the share of games ending in each step or won
#: (`friday_agents.evaluation.game_ends`), so methods that win nothing still compare.
PROGRESS_KEYS = ("mean_hazards_beaten", "ends")


class TrackEntryError(BadInputError):
    """An entry that does not follow the format, or sits in the wrong budget row (a damaged
    leaderboard or entry is said in one line, never a traceback)."""


def _count(value: Any) -> bool:
    return type(value) is int and value >= 0


def _number(value: Any) -> bool:
    return type(value) in (int, float) and math.isfinite(value)


def _rate(value: Any) -> bool:
    return _number(value) and 0 <= value <= 1


def _text(value: Any) -> bool:
    return isinstance(value, str)


def _or_null(test: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda value: value is None or test(value)


def _interval(value: Any) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(map(_rate, value))


def _paths(value: Any) -> bool:
    """A run folder's path, or the paths of a method's several runs (in the order they ran)."""
    return _text(value) or (isinstance(value, list) and bool(value) and all(map(_text, value)))


def _source(value: Any) -> bool:
    return isinstance(value, dict) and _text(value.get("file")) and _text(value.get("agent"))


#: (key, test, what it must be): the entry's values beyond its format and row.
_ENTRY_VALUES: tuple[tuple[str, Callable[[Any], bool], str], ...] = (
    ("id", _text, "a string"),
    ("algorithm", _text, "a string"),
    ("frames", _or_null(_count), "a whole number of frames, or null"),
    ("frames_counted", _text, "a string"),
    ("cpu_hours", _or_null(lambda v: _number(v) and v >= 0), "a number of hours, or null"),
    ("cpu_measured", _text, "a string"),
    ("levels", lambda v: isinstance(v, dict), "an object of levels"),
    ("result", _source, "an object naming a results file and an agent"),
    ("run", _or_null(_paths), "a path, a list of paths, or null"),
    ("command", _text, "a string"),
    ("notes", _text, "a string"),
)
_CELL_VALUES: tuple[tuple[str, Callable[[Any], bool], str], ...] = (
    ("games", _count, "a whole number"),
    ("wins", _count, "a whole number"),
    ("win_rate", _rate, "a number from 0 to 1"),
    ("wilson_95", _interval, "two numbers from 0 to 1"),
    ("mean_score", _number, "a number"),
)
_PROGRESS_VALUES: tuple[tuple[str, Callable[[Any], bool], str], ...] = (
    ("mean_hazards_beaten", lambda v: _number(v) and 0 <= v <= 30, "a number from 0 to 30"),
    (
        "ends",
        lambda v: (
            isinstance(v, dict) and sorted(v) == sorted(END_PLACES) and all(map(_rate, v.values()))
        ),
        f"the share of games ending in each of {', '.join(END_PLACES)}",
    ),
)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _check_values(
    values: dict[str, Any], tests: tuple[tuple[str, Callable[[Any], bool], str], ...], where: str
) -> None:
    for key, test, what in tests:
        if not test(values[key]):
            raise TrackEntryError(f"{where}: {key} must be {what}, got {_short(values[key])}")


def budget_row(frames: int | None) -> str:
    """The row of an entry that used ``frames`` frames (None: not recorded)."""
    if frames is None:
        return "not recorded"
    for limit, row in ((1_000_000, "1 M"), (10_000_000, "10 M"), (100_000_000, "100 M")):
        if frames <= limit:
            return row
    return "over 100 M"


def curve_cpu_seconds(row: dict[str, Any], where: str) -> float:
    """The CPU seconds of every process of a ``friday rl`` run up to its curve row ``row``.

    A data-parallel run (``torchrun``: the row's ``processes`` above 1) counts its frames over
    every process, and an entry must count its CPU the same way: ``cpu_seconds`` is taken as
    the sum over the processes only where the row says it is (``cpu_processes``: how many
    processes' CPU it sums, equal to ``processes``). A row of several processes without that
    counted its first process's CPU alone: refused (`TrackEntryError` naming ``where``), never
    multiplied out into a guess."""
    processes = row.get("processes", 1)
    if processes == 1:
        return float(row["cpu_seconds"])
    summed = row.get("cpu_processes", 1)
    if summed != processes:
        raise TrackEntryError(
            f"{where}: the row at {row.get('frames')} frames ran {processes} processes but its "
            f"cpu_seconds counts {summed} of them; an entry needs the CPU of every process"
        )
    return float(row["cpu_seconds"])


def check_entry(entry: dict[str, Any], where: str) -> None:
    """Raise `TrackEntryError` naming ``where`` and what is wrong with ``entry``."""
    if not isinstance(entry, dict):
        raise TrackEntryError(f"{where}: not a JSON object")
    missing = [key for key in ENTRY_KEYS if key not in entry]
    if missing:
        raise TrackEntryError(f"{where}: missing {', '.join(missing)}")
    if (entry["format"], entry["version"]) != (ENTRY_FORMAT, ENTRY_VERSION):
        raise TrackEntryError(
            f"{where}: format {entry['format']!r} version {entry['version']!r}, "
            f"expected {ENTRY_FORMAT!r} version {ENTRY_VERSION}"
        )
    _check_values(entry, _ENTRY_VALUES, where)
    if entry["track"] not in TRACKS:
        raise TrackEntryError(f"{where}: track {entry['track']!r} is not one of a, b, c")
    if entry["budget"] != budget_row(entry["frames"]):
        raise TrackEntryError(
            f"{where}: budget {entry['budget']!r} but {entry['frames']} frames belong in "
            f"{budget_row(entry['frames'])!r}"
        )
    for level, cell in entry["levels"].items():
        if level not in LEVELS or not isinstance(cell, dict) or not _cell_keys(cell):
            raise TrackEntryError(
                f"{where}: level {level!r} must be 1-4 with {LEVEL_KEYS} (and {PROGRESS_KEYS} "
                "where its games recorded them)"
            )
        _check_values(cell, _CELL_VALUES, f"{where}: level {level}")
        if "ends" in cell:
            _check_values(cell, _PROGRESS_VALUES, f"{where}: level {level}")
        if cell["wins"] > cell["games"]:
            raise TrackEntryError(f"{where}: level {level}: more wins than games")


def _cell_keys(cell: dict[str, Any]) -> bool:
    """A level cell's keys: `LEVEL_KEYS`, and `PROGRESS_KEYS` all or none."""
    return sorted(cell) in (sorted(LEVEL_KEYS), sorted(LEVEL_KEYS + PROGRESS_KEYS))


def load_leaderboard(path: Path | None = None) -> dict[str, Any]:
    """The compiled leaderboard (default `TRACKS_FILE`): ``{"format", "version", "entries":
    [...]}``; `TrackEntryError` naming the file for a damaged one."""
    path = TRACKS_FILE if path is None else path
    try:
        board = read_json(path)
    except JsonTextError as err:
        raise TrackEntryError(f"leaderboard {path} cannot be read: {err}") from None
    if not isinstance(board, dict) or board.get("format") != LEADERBOARD_FORMAT:
        raise TrackEntryError(f"{path}: not a {LEADERBOARD_FORMAT} file")
    if not isinstance(board.get("entries"), list):
        raise TrackEntryError(f"{path}: 'entries' must be a list of entries")
    for number, entry in enumerate(board["entries"], 1):
        name = entry.get("id") if isinstance(entry, dict) else None
        check_entry(entry, f"{path}: entry {number}" + (f" {name!r}" if _text(name) else ""))
    return board


def ordered(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """By track, then budget row, then level-1 win rate (best first), then id."""

    def key(entry: dict[str, Any]) -> tuple:
        level1 = entry["levels"].get("1", {}).get("win_rate", -1.0)
        return (entry["track"], BUDGETS.index(entry["budget"]), -level1, entry["id"])

    return sorted(entries, key=key)


def win_cell(cell: dict[str, Any] | None) -> str:
    """``12.7 [10.8, 14.9]`` (per cent), or ``–`` for a level not played."""
    if cell is None:
        return "–"
    low, high = cell["wilson_95"]
    return f"{100 * cell['win_rate']:.1f} [{100 * low:.1f}, {100 * high:.1f}]"


def _frames_cell(frames: int | None) -> str:
    return "not recorded" if frames is None else f"{frames / 1e6:,.2f} M"


def _cpu_cell(hours: float | None) -> str:
    return "not recorded" if hours is None else f"{hours:.2f}"


HEADER = (
    "track",
    "budget",
    "algorithm",
    "frames",
    "CPU h",
    *(f"level {level} win % [95 % CI]" for level in LEVELS),
    "mean score L1",
)


#: The column added where an entry has `PROGRESS_KEYS`.
PROGRESS_HEADER = "hazards beaten L1"


def leaderboard_rows(entries: list[dict[str, Any]], progress: bool = False) -> list[list[str]]:
    """One row of `HEADER` per entry, in `ordered` order (with ``progress``, then the level-1
    mean hazards beaten, ``–`` where not recorded)."""
    rows = []
    for entry in ordered(entries):
        level1 = entry["levels"].get("1")
        rows.append(
            [
                f"({entry['track']})",
                entry["budget"],
                entry["algorithm"],
                _frames_cell(entry["frames"]),
                _cpu_cell(entry["cpu_hours"]),
                *(win_cell(entry["levels"].get(level)) for level in LEVELS),
                "–" if level1 is None else f"{level1['mean_score']:.1f}",
                *([_hazards_cell(level1)] if progress else []),
            ]
        )
    return rows


def _hazards_cell(cell: dict[str, Any] | None) -> str:
    if cell is None or "mean_hazards_beaten" not in cell:
        return "–"
    return f"{cell['mean_hazards_beaten']:.1f}"


def has_progress(entries: list[dict[str, Any]]) -> bool:
    """Whether any entry's level cells hold `PROGRESS_KEYS`."""
    return any("ends" in cell for entry in entries for cell in entry["levels"].values())


def markdown_table(entries: list[dict[str, Any]]) -> list[str]:
    """The leaderboard as a Markdown table (what ``friday tracks`` prints and the docs show),
    with the level-1 hazards beaten where an entry recorded them."""
    progress = has_progress(entries)
    header = [*HEADER, *([PROGRESS_HEADER] if progress else [])]
    align = ["---", "---", "---", "---:", "---:", *(["---:"] * (len(header) - 5))]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(align) + " |"]
    return lines + ["| " + " | ".join(row) + " |" for row in leaderboard_rows(entries, progress)]
