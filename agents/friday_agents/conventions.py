"""What every ``friday`` subcommand shares.

- Help text is plain: docstrings written for the API docs lose their reStructuredText
  markup (double backquotes, ``:class:`` roles) before argparse prints them.
- One flag vocabulary: ``--out`` (where results go), ``--progress/--no-progress``,
  ``--readme FILE``. An old spelling stays accepted for one release: it sets the same value
  and prints a deprecation note naming the new flag.
- A missing optional library is named together with the extra that installs it, instead of
  a ``ModuleNotFoundError`` traceback.
- Durations are shown in a unit that fits (`format_duration`): a small run is
  "12.3 s", not "0.2 min".
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import sys
from collections.abc import Callable
from typing import Any

from friday_env.errors import FridayError

#: The optional libraries and the extra of friday-env that installs each.
EXTRA_OF = {
    "tqdm": "eval",
    "matplotlib": "eval",
    "torch": "rl",
    "stable_baselines3": "rl",
    "sb3_contrib": "rl",
    "ray": "ray",
}
#: The release that drops the deprecated spellings.
REMOVAL = "0.3.0"


class MissingExtraError(FridayError):
    """An optional library a command needs is not installed."""

    def __init__(self, module: str, purpose: str) -> None:
        self.module = module
        self.extra = EXTRA_OF[module]
        super().__init__(
            f"{purpose} needs {module}, which is not installed; install it with: "
            f"pip install 'friday-env[{self.extra}]'"
        )


def require(purpose: str, *modules: str) -> None:
    """Raise `MissingExtraError` for the first of ``modules`` that cannot be imported
    (checked without importing it)."""
    for module in modules:
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):  # a blocked or broken module counts as missing
            found = False
        if not found:
            raise MissingExtraError(module, purpose)


def missing_extra(err: ModuleNotFoundError, purpose: str) -> MissingExtraError | None:
    """The `MissingExtraError` behind ``err`` if it is an optional library's."""
    top = (err.name or "").partition(".")[0]
    return MissingExtraError(top, purpose) if top in EXTRA_OF else None


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


def format_duration(seconds: float) -> str:
    """``seconds`` for people: ``4 ms``, ``12.3 s``, ``1.5 min``, ``1.5 h``."""
    if seconds < 0.1:
        return f"{seconds * 1000:.0f} ms"
    if seconds < 60:
        return f"{seconds:.1f} s"
    if seconds < 3600:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h"


def parse_bool(text: str) -> bool:
    """``true/false``, ``yes/no``, ``on/off``, ``1/0``."""
    lowered = text.lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off"):
        return False
    raise argparse.ArgumentTypeError(f"expected true or false, got {text!r}")


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
