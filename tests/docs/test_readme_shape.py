"""The README a newcomer reads first: short enough to read (at most 350 lines), naming every
``friday`` command, and saying what the test suite costs."""

from __future__ import annotations

import re
from pathlib import Path

from friday_agents.cli import SUBCOMMANDS

README = Path(__file__).resolve().parents[2] / "README.md"
MAX_LINES = 350


def _section(title: str) -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end > 0 else None]


def test_the_readme_is_at_most_350_lines() -> None:
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, f"README.md has {lines} lines (at most {MAX_LINES})"


def test_the_readme_names_every_friday_command() -> None:
    listed = set(re.findall(r"`friday (\w+)`", _section("The `friday` command")))
    missing = sorted(set(SUBCOMMANDS) - listed)
    assert not missing, f"the README's command list lacks {missing}"


def test_the_readme_says_how_long_the_suite_takes_and_how_it_was_measured() -> None:
    developing = _section("Developing")
    stated = re.search(r"python -m pytest -n 2\b.*?(\d+) minutes on 2 idle cores", developing)
    assert stated, "the README no longer says how long the suite takes on 2 cores"
    assert "time python -m pytest -n 2" in developing  # the command that measured it
