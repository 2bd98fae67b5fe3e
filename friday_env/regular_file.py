"""Files a user names are read only if they are regular files.

Opening a FIFO for reading waits for a writer that may never come, and a device such as
``/dev/zero`` never ends: a command handed one would hang. Every reader of a file named on a
command line or in a run folder goes through [`read_bytes`][friday_env.regular_file.read_bytes]
or checks the name first with
[`check_regular_file`][friday_env.regular_file.check_regular_file] or
[`why_not_a_file`][friday_env.regular_file.why_not_a_file] (for readers that open the file
themselves: numpy, zipfile, gzip, torch).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from friday_env.errors import FridayError

_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class NotRegularFileError(FridayError):
    """A name that is not a regular file (a FIFO, a device, a socket): reading it would
    wait or never end. The message is the reason, a phrase (``a FIFO (named pipe), not a
    regular file``) that the caller puts after the file's name."""


def _refuse(mode: int) -> None:
    if stat.S_ISREG(mode):
        return
    kind = next((name for test, name in _KINDS if test(mode)), "not a file")
    raise NotRegularFileError(f"{kind}, not a regular file")


def check_regular_file(path: str | os.PathLike[str]) -> None:
    """Refuse ``path`` if it names something other than a regular file; a name that does
    not exist, or cannot be read, is left to the reader (it says so in its own words)."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return
    if not stat.S_ISDIR(mode):
        _refuse(mode)


def why_not_a_file(path: str | os.PathLike[str]) -> str | None:
    """None if ``path`` names a regular file; else why not, as words to put after its name:
    ``does not exist``, ``is a folder``, ``is a FIFO (named pipe), not a regular file``."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "does not exist"
    except (OSError, ValueError) as err:
        return f"cannot be read ({getattr(err, 'strerror', None) or err})"
    try:
        _refuse(mode)
    except NotRegularFileError as err:
        return f"is {err}" if not stat.S_ISDIR(mode) else "is a folder"
    return None


def read_bytes(path: str | os.PathLike[str]) -> bytes:
    """The bytes of the regular file ``path`` (`NotRegularFileError` for anything else). The
    file is opened without waiting (a FIFO with no writer would block ``open`` itself) and
    checked by what was opened, so a file swapped for a FIFO between a check and the open is
    refused too; ``OSError`` as ``open`` raises it."""
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        _refuse(os.fstat(descriptor).st_mode)
    except NotRegularFileError:
        os.close(descriptor)
        raise
    with open(descriptor, "rb") as file:
        return file.read()


def read_text(path: str | os.PathLike[str]) -> str:
    """The UTF-8 text of the regular file ``path`` (see `read_bytes`)."""
    return read_bytes(Path(path)).decode("utf-8")


__all__ = ["NotRegularFileError", "check_regular_file", "read_bytes", "read_text", "why_not_a_file"]
