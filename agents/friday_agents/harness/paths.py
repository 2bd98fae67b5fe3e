"""Paths as committed files hold them: relative, never an absolute path of this machine."""

from __future__ import annotations

import gzip
import os
from pathlib import Path


def portable_path(path: str | os.PathLike[str]) -> str:
    """``path`` as a results file or a recorded command may hold it: relative to the working
    directory (the repository root where the studies run), never an absolute path of this
    machine. A relative path is kept as given; an absolute one inside the working directory
    becomes relative to it, and one outside it relative too (``../runs/x``)."""
    given = Path(path)
    if not given.is_absolute():
        return Path(os.path.normpath(given)).as_posix()  # a/../b is b
    here = Path.cwd().resolve()
    resolved = given.resolve()
    if resolved.is_relative_to(here):
        return resolved.relative_to(here).as_posix()
    return Path(os.path.relpath(resolved, here)).as_posix()


#: What a compressed copy's name adds: games and curves over 1 MB are committed gzip-compressed
#: (``NAME.gz``; the results policy in ``docs/developing.md``).
COMPRESSED_SUFFIX = ".gz"


def plain_or_compressed(path: str | os.PathLike[str]) -> Path:
    """``path``, or its compressed copy ``path.gz`` when only that exists: a reader of a games
    file or a curve reads a committed run's compressed one as it reads a live run's."""
    plain = Path(path)
    packed = plain.with_name(plain.name + COMPRESSED_SUFFIX)
    return packed if not plain.exists() and packed.is_file() else plain


def read_maybe_compressed(path: str | os.PathLike[str]) -> str:
    """The UTF-8 text of ``path`` (`plain_or_compressed`), decompressed if it is a ``.gz``."""
    found = plain_or_compressed(path)
    data = found.read_bytes()
    if found.name.endswith(COMPRESSED_SUFFIX):
        data = gzip.decompress(data)
    return data.decode("utf-8")
