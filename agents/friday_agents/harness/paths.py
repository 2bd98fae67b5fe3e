"""Paths as committed files hold them: relative, never an absolute path of this machine."""

from __future__ import annotations

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
