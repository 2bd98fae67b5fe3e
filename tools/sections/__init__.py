"""Section providers of ``python tools/docs_sections.py``, one module per source of results.

Each module here (except those whose name starts with ``_``) defines

    SECTIONS = {"<section name>": ("<page path relative to the repository>", render)}

where ``render(repo: Path) -> str`` returns the section's body, read from files committed
under ``repo`` (or from the code). The renderer discovers every module, so a new provider
is rendered, checked (``--check``) and tested without being registered anywhere. The helpers
below are the Markdown pieces the providers share.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

#: The command that renders every generated section; the pages name it.
COMMAND = "python tools/docs_sections.py"


def table(header: Sequence[str], rows: Sequence[Sequence[object]], align: str = "") -> list[str]:
    """A Markdown table; ``align`` holds one of ``l``/``r`` per column (default left)."""
    align = align or "l" * len(header)
    rule = ["---:" if a == "r" else "---" for a in align]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(rule) + " |"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return lines


def compact_table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> list[str]:
    """A Markdown table whose rule is ``|---|---|`` (left-aligned columns)."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return lines + ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]


def read_json(repo: Path, path: Path | str) -> Any:
    """The committed JSON file ``path`` (relative to ``repo``)."""
    return json.loads((repo / path).read_text(encoding="utf-8"))


def wilson_cell(summary: dict) -> str:
    """``12.7% [10.8, 14.9]``: a summary row's win rate with its 95 % Wilson interval."""
    low, high = summary["win_rate_ci"]
    return f"{100 * summary['win_rate']:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"
