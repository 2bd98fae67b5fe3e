"""Levels 1-4 (R24) as command lines name them: ``"1-4"``, ``"2"``, ``"3,1"``, ``"2-3,1"``.

The one parser of level lists for every tool: [`level_sequence`][friday_env.levels.level_sequence]
keeps the order written (a training curriculum), [`parse_levels`][friday_env.levels.parse_levels]
gives the distinct levels ascending (an evaluation or a soak run).
"""

from __future__ import annotations

from friday_env.errors import InvalidLevelError

LEVELS = (1, 2, 3, 4)


def level_sequence(text: str) -> list[int]:
    """The levels named by ``text`` (numbers, ranges and lists) in the order written, ranges
    expanded. Raises [`InvalidLevelError`][friday_env.errors.InvalidLevelError] naming the bad
    part."""
    levels: list[int] = []
    for part in text.split(","):
        part = part.strip()
        low, sep, high = part.partition("-")
        try:
            span = range(int(low), int(high) + 1) if sep else range(int(part), int(part) + 1)
        except ValueError:
            raise InvalidLevelError(
                f"bad levels {part!r}: use numbers, ranges and lists like 1-4, 2 or 1,3"
            ) from None
        if not span:
            raise InvalidLevelError(f"empty level range {part!r}")
        for level in span:
            if level not in LEVELS:
                raise InvalidLevelError(f"unknown level {level}: levels are 1, 2, 3, 4")
            levels.append(level)
    return levels


def parse_levels(text: str) -> tuple[int, ...]:
    """The distinct levels named by ``text``, ascending (see
    [`level_sequence`][friday_env.levels.level_sequence])."""
    return tuple(sorted(set(level_sequence(text))))
