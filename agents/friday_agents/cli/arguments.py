"""The flags and help text every ``friday`` subcommand shares.

- Help text is plain: docstrings written for the API docs lose their reStructuredText
  markup (double backquotes, ``:class:`` roles) before argparse prints them.
- One flag vocabulary: ``--out`` (where results go), ``--progress/--no-progress``, and the
  settings both trainers share (`friday_agents.learning.config.SHARED_HELP`). A flag that is
  gone fails with one line naming what to use instead: an old name of a setting
  (`add_renamed`: ``--total-timesteps`` is now ``--frames``), or ``--readme`` (commands write
  results files, and one renderer writes the Markdown).
- ``true/false`` values read one way everywhere (`parse_bool`).
"""

from __future__ import annotations

import argparse
import functools
import re
import sys
import typing
from collections.abc import Callable, Collection
from pathlib import Path
from typing import TYPE_CHECKING, Any

from friday_agents.harness import values
from friday_agents.harness.device import DEVICES
from friday_agents.learning.config import RENAMED, SHARED_HELP, parse_hidden

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

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


def add_renamed(
    parser: argparse.ArgumentParser, settings: type[DataclassInstance], renamed: dict[str, str]
) -> None:
    """Refuse each old flag of ``renamed`` (old field name -> new) whose new name is a field
    of the dataclass ``settings`` (and is no flag of its own), naming the new flag."""
    _refuse_renamed(parser, settings.__dataclass_fields__, renamed)


def add_renamed_flags(parser: argparse.ArgumentParser) -> None:
    """`add_renamed` for a command without a settings dataclass (``friday imitate fit``): the
    old names (`friday_agents.learning.config.RENAMED`) of the flags ``parser`` already has."""
    _refuse_renamed(parser, {action.dest for action in parser._actions}, RENAMED)


def _refuse_renamed(
    parser: argparse.ArgumentParser, names: Collection[str], renamed: dict[str, str]
) -> None:
    for old, new in renamed.items():
        if new in names and old not in names:
            flag = "--" + new.replace("_", "-")
            add_removed(parser, "--" + old.replace("_", "-"), instead=f"it is now {flag}")


def parse_bool(text: str) -> bool:
    """A ``BOOL`` flag's value (`friday_agents.harness.values.parse_bool`), refused as argparse
    refuses a bad value: one line, exit 2."""
    try:
        return values.parse_bool(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def hidden_sizes(
    text: str, most_layers: int | None = None, largest: int | None = None
) -> tuple[int, ...]:
    """A ``--hidden`` flag's value (`friday_agents.learning.config.parse_hidden`, every
    command's one reader of layer sizes, with its limits); refused as argparse refuses a
    bad value."""
    return parse_hidden(text, argparse.ArgumentTypeError, most_layers=most_layers, largest=largest)


def add_steps(parser: argparse.ArgumentParser, doc: str) -> argparse._SubParsersAction:
    """The steps of a command made of steps (``friday fit``, ``value``, ``imitate``,
    ``thirteen``): one is required (``STEP``), and the help ends with the command module's
    ``doc`` after its first paragraph, laid out as written (its examples and exit status)."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = doc.split("\n\n", 1)[1]
    return parser.add_subparsers(dest="step", required=True, metavar="STEP")


def add_step(
    steps: argparse._SubParsersAction, name: str, help_text: str, description: str | None = None
) -> argparse.ArgumentParser:
    """The parser of step ``name`` (``help_text`` in the command's list of steps,
    ``description`` atop its own help); no flag may be abbreviated."""
    return steps.add_parser(name, help=help_text, description=description, allow_abbrev=False)


def add_network_fit(
    parser: argparse.ArgumentParser,
    hidden: tuple[int, ...],
    report: str,
    most_layers: int | None = None,
    largest: int | None = None,
) -> None:
    """The flags every fit of one of the search's networks takes (``friday fit value-net``
    and ``policy-net``, ``friday value fit``): where the network and its report go, its
    ``hidden`` layer sizes by default (at most ``most_layers`` of at most ``largest`` where
    the network has such limits), and the fit's seed."""
    parser.add_argument("--out", type=Path, required=True, help="where the network goes (.npz)")
    parser.add_argument("--report", type=Path, help=report)
    parser.add_argument(
        "--hidden",
        type=functools.partial(hidden_sizes, most_layers=most_layers, largest=largest),
        default=hidden,
        metavar="SIZES",
        help=f"hidden layer sizes (default {','.join(map(str, hidden))})",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the fit (default 0)")


def add_workers(parser: argparse.ArgumentParser, default: int = 2) -> None:
    """``--workers N``: the processes a command plays its games in."""
    parser.add_argument(
        "--workers", type=int, default=default, help=f"processes (default {default})"
    )


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


def add_device(parser: argparse.ArgumentParser) -> None:
    """``--device auto|cpu|cuda`` (default auto) for a command that is no trainer (``friday
    imitate fit``, ``friday value fit``): the trainers' setting, its name and help; the
    command resolves it with `friday_agents.harness.device.torch_device`."""
    parser.add_argument(
        "--device", default="auto", choices=DEVICES, help=SHARED_HELP["device"] + " (default: auto)"
    )


def add_setting_flags(
    parser: argparse.ArgumentParser,
    settings: type[DataclassInstance],
    helps: dict[str, str] | None = None,
    source: str | None = None,
) -> None:
    """``--name VALUE`` for fields of the dataclass ``settings``: those ``helps`` names (with
    its help text), else every field (help from its ``setting(...)`` metadata). The value is
    read as the field's real type (``typing.get_type_hints``; ``bool`` as true/false). Each
    defaults to None, so that a command knows which flags were given: they override
    ``source`` (a config file or a run's settings, named in the help) or the field's default,
    shown instead where there is no source."""
    hints = typing.get_type_hints(settings)
    fields = settings.__dataclass_fields__
    for name, text in (helps or {n: f.metadata["help"] for n, f in fields.items()}).items():
        kind = hints[name]
        default = f"{source}'s" if source else repr(fields[name].default)
        parser.add_argument(
            "--" + name.replace("_", "-"),
            dest=name,
            type=_READERS.get(kind, str),
            default=None,
            metavar=name.upper() if kind is str else kind.__name__.upper(),
            help=f"{text} (default: {default})",
        )


#: How a flag's text becomes a field's value, by the field's type (text as it is otherwise).
_READERS: dict[Any, Callable[[str], Any]] = {bool: parse_bool, int: int, float: float}
