"""A learning command's run folder: held by one session, its configuration written and read
back one way, continued by one rule per command.

Every command that writes a run folder (``friday rl``, ``friday train``, ``friday distill``,
``friday value data``, ``friday explore``, ``friday thirteen train``) goes through this module:

- **one session at a time** ([`held`][friday_agents.learning.run_folder.held]): the folder is
  locked ([`run_lock`][friday_agents.harness.run_lock], as ``friday eval`` locks its
  ``--out``) before anything there is read or written, so a second session on the same folder
  is refused in one line instead of storing every game twice or doubling a curve;
- **the configuration** (``config.json``): the command's settings, a flat JSON object as
  before, plus ``run_folder_version`` (`VERSION`).
  A file without it was written before the key existed (version 0) and is read in today's
  vocabulary through the settings class's ``migrate``, so committed run folders still load; a
  file of a newer version is refused, not guessed at;
- **continuing a run**: each command states once, as data, which settings a continued run may
  set anew ([`ResumeRule`][friday_agents.learning.run_folder.ResumeRule]); any other
  difference is refused with one message;
- **files replaced whole**: every file rewritten in a run folder (configuration, summaries,
  caches) goes through `write_json` or `friday_agents.harness.files.replace_atomically`: a
  temporary file of its own name, forced to disk, then renamed over the old one;
- **files read back checked**: a file a command reads back from a run folder must be a regular
  file (a FIFO would hang the reader) holding a JSON object; each way it can be wrong is a
  [`RunFolderError`][friday_agents.learning.run_folder.RunFolderError], one line naming the
  file, exit status 2.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from friday_agents.harness.errors import BadInputError
from friday_agents.harness.files import write_text_atomically
from friday_agents.harness.paths import portable_path
from friday_agents.harness.run_lock import RunFolderLock
from friday_agents.learning.config import VERSION_KEY, LearningConfig
from friday_env.json_text import JsonTextError, read_json

CONFIG_FILE = "config.json"
#: The run folder layout this release writes (``run_folder_version`` in ``config.json``).
#: 0: before the key (read through the settings' ``migrate``); 1: settings in today's names.
VERSION = 1

Settings = TypeVar("Settings", bound=LearningConfig)


class RunFolderError(BadInputError):
    """A run folder that cannot be continued: a file missing, damaged, of another kind, or
    settings other than those the run started with."""


@contextmanager
def held(folder: str | Path | None) -> Iterator[RunFolderLock]:
    """A session's hold on its run folder for the block: ``folder`` (a command's ``--out``),
    if it exists, is held at once, before its configuration is read; a folder made later is
    held by ``lock.take(folder)`` once the settings are checked (nothing is written for bad
    input). Another session holding it is refused naming it
    ([`RunFolderBusy`][friday_agents.harness.run_lock.RunFolderBusy], a bad input: exit 2)."""
    with RunFolderLock() as lock:
        if folder is not None and str(folder):
            lock.take(Path(folder), create=False)
        yield lock


@contextmanager
def taken(lock: RunFolderLock, folder: Path) -> Iterator[Path]:
    """``lock.take(folder)`` (made if missing) for a block that may still refuse its input:
    if the block fails and the folder was made here and is still empty, it is removed, so
    bad input leaves nothing behind."""
    made = not folder.exists()
    lock.take(folder)
    try:
        yield folder
    except BaseException:
        if made and folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
        raise


def require_regular_file(path: Path, what: str) -> None:
    """Refuse ``path`` if it exists and is not a regular file: a FIFO would block its reader
    forever, a folder or a device cannot be what a run wrote."""
    if path.exists() and not path.is_file():
        raise RunFolderError(f"{what} {path} is not a regular file")


def read_json_object(path: Path, what: str) -> dict[str, Any]:
    """The JSON object in the run file ``path``, or a `RunFolderError` naming it and why not
    (missing, not a regular file, not UTF-8, not JSON, not an object)."""
    if not path.exists():
        raise RunFolderError(f"{what} {path} does not exist")
    require_regular_file(path, what)
    try:
        data = read_json(path)
    except JsonTextError as err:
        raise RunFolderError(f"cannot read the {what} {path}: {err}") from None
    if not isinstance(data, dict):
        raise RunFolderError(f"the {what} {path} must hold a JSON object")
    return data


def write_json(path: Path, record: Any, indent: int = 1) -> None:
    """``record`` as JSON in ``path``, whole or not at all."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomically(path, json.dumps(record, indent=indent) + "\n")


def write_config(folder: Path, settings: dict[str, Any]) -> None:
    """The run's ``config.json``: ``settings`` and the layout's version; the run folder
    (``out``) as a path relative to the working directory, never one of this machine."""
    if isinstance(settings.get("out"), str) and settings["out"]:
        settings = {**settings, "out": portable_path(settings["out"])}
    write_json(folder / CONFIG_FILE, {**settings, VERSION_KEY: VERSION})


def read_config(folder: Path) -> tuple[dict[str, Any], int]:
    """The settings stored in ``folder``'s ``config.json`` and the version that wrote them
    (`RunFolderError`: nothing to resume, a damaged file, a version this release does not
    know)."""
    path = Path(folder) / CONFIG_FILE
    if not path.exists():
        raise RunFolderError(f"nothing to resume: {path} does not exist")
    data = read_json_object(path, "run's configuration")
    version = data.pop(VERSION_KEY, 0)
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise RunFolderError(f"{path}: {VERSION_KEY} must be a whole number, got {version!r}")
    if version > VERSION:
        raise RunFolderError(
            f"{path} was written by a newer release (run folder version {version}; this one "
            f"reads up to {VERSION}): continue it with that release"
        )
    return data, version


def load_run_config(folder: Path, settings: type[Settings], complete: bool = False) -> Settings:
    """The settings the run in ``folder`` started with, as ``settings``: a version-0 file in
    today's vocabulary first (``settings.migrate``), every value checked against its field's
    type (with ``complete``, every field present), then the values themselves (the class's
    ``validate``, where it has one); a `RunFolderError` naming the file otherwise. The one
    reader of every command's ``config.json``."""
    data, version = read_config(folder)
    source = str(Path(folder) / CONFIG_FILE)
    if version == 0:
        data = settings.migrate(data)
    try:
        if complete:
            settings.check_keys(data, source, complete=True)
        config = settings.from_dict(data, source)
        validate = getattr(config, "validate", None)
        return validate() if validate is not None else config
    except BadInputError as err:
        message = str(err)
        named = message if message.startswith(source) else f"{source}: {message}"
        raise RunFolderError(named) from None


@dataclass(frozen=True)
class ResumeRule:
    """What a continued run of ``command`` may set anew (``may_change``: settings' names);
    every other setting is the run's own. A refusal is an ``error`` (a `RunFolderError`, or
    the command's own kind of it)."""

    command: str
    may_change: tuple[str, ...]
    error: type[BadInputError] = RunFolderError

    def check_flags(self, given: Iterable[str], folder: Path | str) -> None:
        """Refuse flags given with ``--resume`` that set anything but `may_change`."""
        other = sorted(set(given) - set(self.may_change))
        if other:
            flags = ", ".join(_flag(name) for name in other)
            raise self.error(f"{self._continues(folder, _flag)}, not {flags}")

    def check_settings(
        self,
        stored: dict[str, Any],
        wanted: dict[str, Any],
        source: Path,
        same: Callable[[str, Any, Any], bool] | None = None,
    ) -> None:
        """Refuse to continue the run whose ``source`` file stored ``stored`` with the
        settings ``wanted`` where they differ outside `may_change` (``same(name, stored,
        wanted)`` where two values can be equal without being ``==``)."""
        equal = same or (lambda name, old, new: old == new)
        differ = sorted(
            name
            for name in wanted
            if name not in self.may_change and not equal(name, stored.get(name), wanted[name])
        )
        if differ:
            raise self.error(
                f"{source.parent} was started with other settings ({', '.join(differ)}; see "
                f"{source}): {self._continues(source.parent, str)}; a new run needs another "
                "folder"
            )

    def _continues(self, folder: Path | str, name_of: Callable[[str], str]) -> str:
        """The rule in words, each setting as ``name_of`` writes it (the one message of
        every refusal)."""
        may = [name_of(name) for name in self.may_change if name != "out"]
        if not may:
            changes = "nothing may change"
        elif len(may) == 1:
            changes = f"only {may[0]} may change"
        else:
            changes = f"only {', '.join(may[:-1])} and {may[-1]} may change"
        return f"{self.command} continues the run in {folder} with its own settings; {changes}"


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")
