"""Files a run reads and writes: output paths checked before anything is written, new run
folders, model files a user named, and files replaced whole (atomically).
"""

from __future__ import annotations

import json
import os
import re
import secrets
import tempfile
import time
import zipfile
import zlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from friday_agents.harness.errors import BadInputError
from friday_env.regular_file import why_not_a_file

T = TypeVar("T")


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


def print_and_write_json(result: dict, out: Path | None) -> None:
    """Print a script's ``result`` as JSON, and write the same text to ``out`` when a result
    file was asked for (the measuring scripts' ``--out``)."""
    text = json.dumps(result, indent=1)
    print(text)
    if out:
        write_text_atomically(out, text + "\n")


def read_model_file(load: Callable[[Path], T], path: str | os.PathLike[str], what: str) -> T:
    """``load(path)`` for a model file a user named, each way it can be wrong said in one
    line (`BadInputError`): missing, truncated, not the expected format, lacking an
    array, or holding pickled objects (which numpy's ``allow_pickle=False`` never loads)."""
    file = Path(path)
    problem = why_not_a_file(file)
    if problem is not None:
        raise BadInputError(f"{what} {file} {problem}")
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


def replace_atomically(path: Path, write: Callable[[Path], object]) -> None:
    """Write ``path`` whole or not at all: ``write`` fills a temporary file beside it, which
    is forced to disk and then replaces ``path`` in one step, so a kill or a power cut
    mid-write leaves the old file, never half of the new one (a resumed run reads either).
    The temporary name is this write's own (two processes writing one path never share
    one) and ends like ``path`` (writers that add a missing suffix add none); it is removed
    if ``write`` fails."""
    temporary = _new_temporary(path)
    try:
        write(temporary)
        _sync(temporary)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    _sync(path.parent)  # the rename itself, on systems that keep it in the folder's entry


def write_text_atomically(path: Path, text: str) -> None:
    """``path`` holds ``text`` whole, or keeps what it held (`replace_atomically`)."""
    replace_atomically(path, lambda temporary: temporary.write_text(text))


def write_npz_atomically(path: Path, arrays: Mapping[str, Any]) -> None:
    """``arrays`` as a compressed ``.npz`` in ``path`` exactly (numpy adds no suffix to an
    open file), whole or not at all (`replace_atomically`); no pickled objects."""
    import numpy as np

    def write(temporary: Path) -> None:
        with temporary.open("wb") as handle:
            np.savez_compressed(handle, allow_pickle=False, **arrays)

    replace_atomically(path, write)


def _new_temporary(path: Path) -> Path:
    """An empty file of a new name beside ``path`` (created with the usual permissions:
    ``mkstemp``'s would make the final file private)."""
    for _ in range(100):
        name = f".{path.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp{path.suffix}"
        try:
            os.close(os.open(path.with_name(name), os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666))
        except FileExistsError:
            continue
        return path.with_name(name)
    raise OSError(f"no free temporary name beside {path}")


def _sync(path: Path) -> None:
    """Force ``path`` (a file, or a folder's entries) to disk where the system allows it."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:  # a folder on a system that cannot sync one
        pass
    finally:
        os.close(fd)
