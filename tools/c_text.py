"""C text for the generated headers: arrays and enums wrapped to readable lines.

Used by the generators (``generate_headers.py``, ``flat_tables.py``) only; not part of the
installed package.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum
from pathlib import Path

#: Where the generated headers live: beside the compiled core's C that includes them.
CORE_DIR = Path(__file__).resolve().parents[1] / "friday_env" / "_core"

#: Longest line a generated header holds.
WIDTH = 100
INDENT = "    "


def wrapped(items: Iterable[object], indent: str = INDENT) -> list[str]:
    """``items`` comma-separated over lines of at most WIDTH characters (an item is never
    split)."""
    lines: list[str] = []
    line = ""
    for item in map(str, items):
        if line and len(indent) + len(line) + len(item) + 3 > WIDTH:  # ", item,"
            lines.append(indent + line + ",")
            line = ""
        line = f"{line}, {item}" if line else item
    return [*lines, indent + line] if line else lines


def c_array(ctype: str, name: str, values: Iterable[object]) -> str:
    """``static const ctype name[n] = {...};`` with the values wrapped."""
    items = list(values)
    body = "\n".join(wrapped(items))
    return f"static const {ctype} {name}[{len(items)}] = {{\n{body}\n}};"


def c_array_2d(ctype: str, name: str, rows: Iterable[Iterable[object]]) -> str:
    """A two-dimensional ``static const`` array, one brace per row, each row wrapped."""
    table = [list(row) for row in rows]
    lines = [f"static const {ctype} {name}[{len(table)}][{len(table[0])}] = {{"]
    for row in table:
        inner = wrapped(row, INDENT * 2)
        lines += [INDENT + "{", *inner, INDENT + "},"]
    return "\n".join([*lines, "};"])


def c_enum(members: type[IntEnum] | dict[str, int], prefix: str, count: str = "") -> str:
    """An anonymous C enum of ``members`` (an IntEnum or names to values), one per line:
    ``PREFIX_NAME = value``, then ``count = number of members`` when ``count`` names it."""
    pairs = members.items() if isinstance(members, dict) else [(m.name, m.value) for m in members]
    items = [f"{prefix}{name} = {int(value)}" for name, value in pairs]
    if count:
        items.append(f"{count} = {len(items)}")
    return "enum {\n" + ",\n".join(INDENT + item for item in items) + "\n};"
