"""``friday COMMAND --help`` shows plain text: the docstrings and help strings it is built
from lose their Markdown and reStructuredText markup (``x``, `x`, [`x`][y], :class:`x`)."""

from __future__ import annotations

import argparse
import re

MARKUP = re.compile(r"`|\]\[|:(?:py:)?(?:class|meth|func|mod|attr|data|exc|obj):")


def parsers(parser: argparse.ArgumentParser, prog: str = "friday"):
    """``parser`` and every subcommand's parser below it, nested ones included."""
    yield prog, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from parsers(sub, f"{prog} {name}")


def test_no_help_text_shows_markup():
    from friday_agents.cli import build_parser

    helps = dict(parsers(build_parser("*")))
    assert {"friday view", "friday imitate fit", "friday rl"} <= set(helps)
    shown = {prog: MARKUP.findall(parser.format_help()) for prog, parser in helps.items()}
    assert {prog: marks for prog, marks in shown.items() if marks} == {}
