"""Where a generated section is published, wherever the documentation keeps it.

A generated section (``<!-- section:NAME -->`` ... ``<!-- /section:NAME -->``) is rendered
from committed results; the tests check what it says, not which page holds it: the README,
a page under ``docs/`` or a study's ``REPORT.md`` under ``experiments/``. Every copy must
be the same.
"""

from __future__ import annotations

from pathlib import Path

from splice import markers, section_body

REPO = Path(__file__).resolve().parents[1]


def _pages() -> list[Path]:
    pages = [REPO / "README.md"]
    for folder in ("docs", "experiments"):
        pages += sorted((REPO / folder).rglob("*.md"))
    return [page for page in pages if page.is_file()]


def published_section(name: str) -> str:
    """The body of the generated section ``name`` (as ``section_body`` returns it), from
    whichever pages hold it; fails if none does or if two copies differ."""
    begin, _ = markers(name)
    found = {}
    for page in _pages():
        text = page.read_text(encoding="utf-8")
        if begin in text:
            found[page.relative_to(REPO)] = section_body(text, name)
    assert found, f"no page publishes the {name!r} section"
    assert len(set(found.values())) == 1, f"the {name!r} section differs between {sorted(found)}"
    return next(iter(found.values()))
