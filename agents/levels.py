"""Levels as the command line writes them, one parser for every tool.

``friday eval --levels``, ``friday train --curriculum`` and the heuristic's tuning all read
``"1-4"``, ``"1,3"`` or ``"2-3,1"`` with :func:`parse_levels`.
"""

from __future__ import annotations

#: The game's difficulty levels.
LEVELS = (1, 2, 3, 4)


class LevelError(ValueError):
    """A level list that is malformed, has an empty range or names an unknown level."""


def parse_levels(text: str) -> list[int]:
    """``"1-4"``, ``"1,3"``, ``"2-3,1"`` -> the levels in the order written, ranges expanded
    (a curriculum keeps its order; callers that want a set sort it). Each must be 1..4."""
    levels: list[int] = []
    for part in text.split(","):
        part = part.strip()
        low, sep, high = part.partition("-")
        try:
            span = range(int(low), int(high) + 1) if sep else range(int(part), int(part) + 1)
        except ValueError:
            raise LevelError(
                f"bad level {part!r}: use numbers, ranges and lists like 1-4 or 1,3"
            ) from None
        if not span:
            raise LevelError(f"empty level range {part!r}")
        for level in span:
            if level not in LEVELS:
                raise LevelError(f"unknown level {level}: levels are 1, 2, 3, 4")
            levels.append(level)
    return levels
