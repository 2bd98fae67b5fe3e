"""Details of the docs site a reader trips over: each API page's table of contents names its
modules apart (four entries read "agent"), code wider than the page wraps or scrolls instead
of being cut at its edge, and the error a page names is the one raised."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from friday_env import Game

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"
#: A mkdocstrings block: the object, then its indented options (toc_label among them).
BLOCK = re.compile(r"^::: (\S+)\n((?:    .*\n)*)", re.MULTILINE)


def _toc_labels(page: Path) -> list[str]:
    """The table-of-contents label of each object the page renders: its ``toc_label``
    option, else the last part of its dotted name (what mkdocstrings shows)."""
    labels = []
    for name, options in BLOCK.findall(page.read_text(encoding="utf-8")):
        given = re.search(r"^\s+toc_label:\s*(.+)$", options, re.MULTILINE)
        labels.append(given.group(1).strip() if given else name.rsplit(".", 1)[-1])
    return labels


@pytest.mark.parametrize("page", sorted((DOCS / "api").glob("*.md")), ids=lambda p: p.name)
def test_an_api_pages_contents_name_each_module_once(page: Path) -> None:
    labels = _toc_labels(page)
    twice = sorted({label for label in labels if labels.count(label) > 1})
    assert labels and not twice, f"{page.name}: several entries read {twice}"


def test_the_contents_labels_are_read_as_mkdocstrings_reads_them() -> None:
    labels = _toc_labels(DOCS / "api" / "agents.md")
    assert "heuristic.agent" in labels and "registry" in labels


def _loader() -> type:
    """A YAML loader that reads mkdocs.yml's ``!!python/name:`` tags as plain text."""

    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda *_: None)
    return Loader


def test_wide_code_wraps_and_wide_tables_scroll_on_the_site() -> None:
    config = yaml.load((REPO / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_loader())
    sheets = [DOCS / name for name in config.get("extra_css", [])]
    assert sheets and all(sheet.is_file() for sheet in sheets), sheets
    text = "".join(sheet.read_text(encoding="utf-8") for sheet in sheets)
    css = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    rules = dict(re.findall(r"([^{}]+)\{([^}]*)\}", css))
    code_block = next(body for selector, body in rules.items() if "pre > code" in selector)
    assert "white-space: pre-wrap" in code_block or "overflow-x: auto" in code_block
    table = next(body for selector, body in rules.items() if "md-typeset__table" in selector)
    assert "overflow-x: auto" in table


def test_the_error_the_environment_page_names_for_an_unknown_core_is_raised() -> None:
    text = " ".join((DOCS / "environment.md").read_text(encoding="utf-8").split())
    named = re.search(r"naming a core that is unknown or not built raises \[?`(\w+)`", text)
    assert named, "the environment page no longer says what an unknown core raises"
    with pytest.raises(Exception) as raised:
        Game.new(1, 0, core="no-such-core")
    assert type(raised.value).__name__ == named.group(1)


def test_no_page_says_an_unknown_core_raises_env_option_error() -> None:
    for page in DOCS.rglob("*.md"):
        text = " ".join(page.read_text(encoding="utf-8").split())
        wrong = re.search(r"core[^.]{0,60}(?:not built|unknown)[^.]{0,30}EnvOptionError", text)
        assert not wrong, f"{page.relative_to(REPO)}: {wrong.group(0)}"
