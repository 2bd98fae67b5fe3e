"""What every ``friday`` subcommand shares.

- Help text is plain: docstrings written for the API docs lose their reStructuredText
  markup (double backquotes, ``:class:`` roles) before argparse prints them.
- One flag vocabulary: ``--out`` (where results go), ``--progress/--no-progress``. An old
  spelling stays accepted for one release: it sets the same value and prints a deprecation
  note naming the new flag. A flag that is gone (``--readme``: commands write results files,
  and one renderer writes the Markdown) fails with one line naming what to run instead.
- A missing optional library is named together with the extra that installs it, instead of
  a ``ModuleNotFoundError`` traceback.
- Durations are shown in a unit that fits (`format_duration`): a small run is
  "12.3 s", not "0.2 min".
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import os
import re
import signal
import sys
import tempfile
import threading
import time
import zipfile
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from friday_env.errors import FridayError

T = TypeVar("T")

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
#: The one writer of generated Markdown: it renders every section of the README, the docs
#: pages and the study reports from the committed results files (a script of the repository).
RENDERER = "python tools/docs_sections.py"

#: The search's simulation budget per decision wherever none is asked for: the search
#: agents' default, ``friday eval --search-sims``' default and the headline results table's
#: setting (here, on the floor, so that evaluation need not import the search for it).
DEFAULT_SEARCH_SIMS = 32


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


#: What replaces ``--readme FILE``, for `add_removed`.
README_GONE = (
    "commands write results files only; render the Markdown sections from the committed "
    f"results with {RENDERER}"
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


class BadInputError(FridayError):
    """Input a command refuses before it writes anything: ``friday`` prints the message as
    one line and exits with status 2."""


def check_out_path(path: str | os.PathLike[str], folder: bool, flag: str = "--out") -> None:
    """Raise `BadInputError` unless ``path`` can be written as an output ``folder``
    (or, with ``folder=False``, a file), checked without leaving anything behind: an
    existing path must be of that kind, and the folder that will hold the new entries (the
    nearest existing one) must take one (tried by making a folder there and removing it)."""
    out = Path(path)
    kind = "folder" if folder else "file"
    try:
        if out.exists() and out.is_dir() != folder:
            raise BadInputError(
                f"{flag} {out} is {'a file' if folder else 'a folder'}, not a {kind}"
            )
        if out.exists():  # new entries go into the folder, or beside the file
            holder = out if folder else out.absolute().parent
        else:
            holder = next(p for p in out.absolute().parents if p.exists())
        if not holder.is_dir():
            raise BadInputError(f"{flag} {out} cannot be made: {holder} is a file")
        os.rmdir(tempfile.mkdtemp(prefix=".friday-write-test-", dir=holder))
    except (OSError, ValueError) as err:  # unwritable, or a name the system refuses
        if isinstance(err, BadInputError):
            raise
        reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        raise BadInputError(f"{flag} {out} cannot be written: {reason}") from None


def read_model_file(load: Callable[[Path], T], path: str | os.PathLike[str], what: str) -> T:
    """``load(path)`` for a model file a user named, each way it can be wrong said in one
    line (`BadInputError`): missing, truncated, not the expected format, lacking an
    array, or holding pickled objects (which numpy's ``allow_pickle=False`` never loads)."""
    file = Path(path)
    if not file.is_file():
        raise BadInputError(
            f"{what} {file} does not exist" + (" (it is a folder)" if file.is_dir() else "")
        )
    try:
        return load(file)
    except KeyError as err:  # numpy: "'x' is not a file in the archive"
        missing = err.args[0] if err.args else err
        raise BadInputError(
            f"{what} {file} is not a model file this version wrote: {missing}"
        ) from None
    except (EOFError, OSError, zipfile.BadZipFile, zlib.error) as err:
        raise BadInputError(f"{what} {file} is truncated or not an .npz archive ({err})") from None
    except ValueError as err:
        if "pickle" in str(err):  # numpy's advice to load it anyway is the wrong one here
            raise BadInputError(
                f"{what} {file} is not an .npz archive of plain arrays (reading it would mean "
                "unpickling it, which could run code: refused)"
            ) from None
        raise BadInputError(f"{what} {file}: {str(err).splitlines()[0]}") from None


def new_run_folder(parent: Path, name: str) -> Path:
    """Create and return a new folder for a run without ``--out``, CleanRL-style:
    ``parent/<name>__<YYYYmmdd-HHMMSS>`` (``-2``, ``-3``... if two runs start in the same
    second). ``name`` must be safe in a folder name (`path_safe`)."""
    stem = f"{name}__{time.strftime('%Y%m%d-%H%M%S')}"
    parent.mkdir(parents=True, exist_ok=True)
    for attempt in range(1, 1000):
        path = parent / (stem if attempt == 1 else f"{stem}-{attempt}")
        try:
            path.mkdir()
        except FileExistsError:
            continue
        return path
    raise BadInputError(f"could not create a new run folder in {parent}")


def path_safe(text: str) -> str:
    """``text`` usable in a folder name on every system: agent specs hold ``:``, ``/``..."""
    return re.sub(r"[^A-Za-z0-9.=+-]+", "-", text).strip("-") or "run"


@contextlib.contextmanager
def children_ignore_ctrl_c() -> Iterator[None]:
    """Within: Ctrl-C is ignored, so the processes started here inherit that and leave it
    to the main process (which saves and says how to resume) instead of each printing a
    traceback. Only on the main thread; the main process's own handling comes back after."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


class CtrlC:
    """Whether Ctrl-C was pressed inside `stop_at_a_boundary`'s block."""

    requested = False


@contextlib.contextmanager
def stop_at_a_boundary() -> Iterator[CtrlC]:
    """Within: the first Ctrl-C only sets ``requested`` (the loop stops at its next
    boundary, where its state can be saved whole); a second one stops at once
    (``KeyboardInterrupt``). Only where Python handles Ctrl-C: on the main thread, with
    SIGINT not ignored; elsewhere ``requested`` stays false."""
    flag = CtrlC()
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(
        signal.SIGINT
    ) in (signal.SIG_IGN, None):
        yield flag
        return

    def remember(signum: int, frame: object) -> None:
        if flag.requested:
            raise KeyboardInterrupt
        flag.requested = True

    previous = signal.signal(signal.SIGINT, remember)
    try:
        yield flag
    finally:
        signal.signal(signal.SIGINT, previous)
