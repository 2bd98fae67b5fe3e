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

import json
from pathlib import Path
from typing import Any

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


class TrackEntryError(ValueError):
    """An entry that does not follow the format, or sits in the wrong budget row."""


def budget_row(frames: int | None) -> str:
    """The row of an entry that used ``frames`` frames (None: not recorded)."""
    if frames is None:
        return "not recorded"
    for limit, row in ((1_000_000, "1 M"), (10_000_000, "10 M"), (100_000_000, "100 M")):
        if frames <= limit:
            return row
    return "over 100 M"


def check_entry(entry: dict[str, Any], where: str) -> None:
    """Raise `TrackEntryError` naming ``where`` and what is wrong with ``entry``."""
    missing = [key for key in ENTRY_KEYS if key not in entry]
    if missing:
        raise TrackEntryError(f"{where}: missing {', '.join(missing)}")
    if (entry["format"], entry["version"]) != (ENTRY_FORMAT, ENTRY_VERSION):
        raise TrackEntryError(
            f"{where}: format {entry['format']!r} version {entry['version']!r}, "
            f"expected {ENTRY_FORMAT!r} version {ENTRY_VERSION}"
        )
    if entry["track"] not in TRACKS:
        raise TrackEntryError(f"{where}: track {entry['track']!r} is not one of a, b, c")
    if entry["budget"] != budget_row(entry["frames"]):
        raise TrackEntryError(
            f"{where}: budget {entry['budget']!r} but {entry['frames']} frames belong in "
            f"{budget_row(entry['frames'])!r}"
        )
    for level, cell in entry["levels"].items():
        if level not in LEVELS or sorted(cell) != sorted(LEVEL_KEYS):
            raise TrackEntryError(f"{where}: level {level!r} must be 1-4 with {LEVEL_KEYS}")


def load_leaderboard(path: Path = TRACKS_FILE) -> dict[str, Any]:
    """The compiled leaderboard: ``{"format", "version", "entries": [...]}``."""
    board = json.loads(path.read_text(encoding="utf-8"))
    if board.get("format") != LEADERBOARD_FORMAT:
        raise TrackEntryError(f"{path}: not a {LEADERBOARD_FORMAT} file")
    for entry in board["entries"]:
        check_entry(entry, f"{path}: entry {entry.get('id')!r}")
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


def leaderboard_rows(entries: list[dict[str, Any]]) -> list[list[str]]:
    """One row of `HEADER` per entry, in `ordered` order."""
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
            ]
        )
    return rows


def markdown_table(entries: list[dict[str, Any]]) -> list[str]:
    """The leaderboard as a Markdown table (what ``friday tracks`` prints and the docs show)."""
    align = ["---", "---", "---", "---:", "---:", *(["---:"] * len(LEVELS)), "---:"]
    lines = ["| " + " | ".join(HEADER) + " |", "| " + " | ".join(align) + " |"]
    return lines + ["| " + " | ".join(row) + " |" for row in leaderboard_rows(entries)]
