"""The flags and help text every ``friday`` subcommand shares.

- Help text is plain: docstrings written for the API docs lose their reStructuredText
  markup (double backquotes, ``:class:`` roles) before argparse prints them.
- One flag vocabulary: ``--out`` (where results go), ``--progress/--no-progress``. An old
  spelling stays accepted for one release: it sets the same value and prints a deprecation
  note naming the new flag. A flag that is gone (``--readme``: commands write results files,
  and one renderer writes the Markdown) fails with one line naming what to run instead.
- ``true/false`` values read one way everywhere (`parse_bool`).
"""

from __future__ import annotations

import argparse
import re
import sys
import typing
from collections.abc import Callable
from typing import Any

from friday_agents.harness import values

#: The release that drops the deprecated spellings.
REMOVAL = "0.3.0"
_ROLE = re.compile(r":[a-z]+:`~?([^`]+)`")
#: A cross-reference of the docs site, [`Title`][full.path] (or [Title][full.path]).
_CROSS_REFERENCE = re.compile(r"\[`?([^`\]]+)`?\]\[[\w.]+\]")
_LITERAL = re.compile(r"``([^`]+)``|`([^`]+)`")


def plain(text: str) -> str:
    """``text`` as a terminal shows it, without its Markdown or reStructuredText markup: a
    code span ``x`` becomes x, a cross-reference [`Game`][friday_env.Game] becomes Game."""

    def role(match: re.Match[str]) -> str:
        target = match.group(1)
        return target.rsplit(".", 1)[-1] if match.group(0).count("~") else target

    text = _CROSS_REFERENCE.sub(r"\1", _ROLE.sub(role, text))
    return _LITERAL.sub(lambda m: m.group(1) or m.group(2), text)


class _Deprecated(argparse.Action):
    """An old spelling of a flag: stores like the new one and prints a note on stderr."""

    def __init__(
        self, option_strings: list[str], dest: str, new: str, convert: Callable, **kwargs: Any
    ) -> None:
        self.new = new
        self.convert = convert
        super().__init__(option_strings, dest, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        print(
            f"{parser.prog}: {option_string} is deprecated, use {self.new} instead "
            f"(the old spelling goes in {REMOVAL})",
            file=sys.stderr,
        )
        setattr(namespace, self.dest, self.convert(values))


def add_deprecated(
    parser: argparse.ArgumentParser,
    old: str,
    new: str,
    dest: str,
    metavar: str,
    convert: Callable[[str], Any] = str,
) -> None:
    """Accept ``old VALUE`` as a deprecated spelling of ``new`` (same ``dest``)."""
    parser.add_argument(
        old,
        dest=dest,
        action=_Deprecated,
        new=new,
        convert=convert,
        metavar=metavar,
        default=argparse.SUPPRESS,
        help=f"deprecated spelling of {new}, accepted until {REMOVAL}",
    )


class _Removed(argparse.Action):
    """A flag that is gone: using it stops the command with one line saying what instead."""

    def __init__(self, option_strings: list[str], dest: str, instead: str, **kwargs: Any) -> None:
        self.instead = instead
        super().__init__(option_strings, dest, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        print(f"{parser.prog}: error: {option_string} is gone: {self.instead}", file=sys.stderr)
        parser.exit(2)


def add_removed(parser: argparse.ArgumentParser, *flags: str, instead: str) -> None:
    """Refuse ``flags`` (with or without a value), naming what replaces them (``instead``);
    they stay out of the help."""
    parser.add_argument(
        *flags,
        action=_Removed,
        instead=instead,
        nargs="?",
        default=argparse.SUPPRESS,
        help=argparse.SUPPRESS,
    )


def parse_bool(text: str) -> bool:
    """A ``BOOL`` flag's value (`friday_agents.harness.values.parse_bool`), refused as argparse
    refuses a bad value: one line, exit 2."""
    try:
        return values.parse_bool(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def add_progress(
    parser: argparse.ArgumentParser, dest: str = "progress", default: bool | None = True
) -> None:
    """``--progress/--no-progress`` (on unless ``default`` says otherwise; None leaves the
    value to a config file)."""
    parser.add_argument(
        "--progress",
        dest=dest,
        action=argparse.BooleanOptionalAction,
        default=default,
        help="show a progress bar (default: on)",
    )


def add_setting_flags(
    parser: argparse.ArgumentParser, settings: type, helps: dict[str, str], what: str
) -> None:
    """``--name VALUE`` for each field of the dataclass ``settings`` that ``helps`` names
    (with its help text): the value read as the field's real type
    (``typing.get_type_hints``; ``bool`` as true/false), default None so that only the flags
    given override ``what`` (where the settings come from, for the help)."""
    hints = typing.get_type_hints(settings)
    readers: dict[Any, Callable[[str], Any]] = {bool: parse_bool, int: int, float: float}
    for name, text in helps.items():
        parser.add_argument(
            "--" + name.replace("_", "-"),
            dest=name,
            type=readers.get(hints[name], str),
            default=None,
            metavar=name.upper() if hints[name] is str else hints[name].__name__.upper(),
            help=f"{text} (default: {what}'s)",
        )
