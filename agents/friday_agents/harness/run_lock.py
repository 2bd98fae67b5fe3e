"""One command at a time in an output folder: an exclusive lock held while it runs.

Two ``friday eval`` sessions on one ``--out`` would both append to its ``games.jsonl`` and
play the same missing games twice. [`RunFolderLock`][friday_agents.harness.run_lock.RunFolderLock]
takes the folder itself with ``fcntl.flock`` (exclusive, non-blocking) before anything is
read or written there, and the second session is refused at once. Nothing is written for the
lock (no lock file to leave behind after a kill): the lock belongs to the open folder, and the
system drops it when the process ends, however it ends.

Where ``fcntl`` does not exist (Windows) the lock is not taken: two sessions on one folder
are then the user's to avoid, as before.
"""

from __future__ import annotations

import os
from pathlib import Path
from types import TracebackType

from friday_agents.harness.errors import BadInputError

try:
    import fcntl
except ImportError:  # Windows: no advisory locks on folders
    fcntl = None  # type: ignore[assignment]


class RunFolderBusy(BadInputError):
    """Another process holds the folder (a bad input: the command refuses it in one line,
    exit status 2)."""


class RunFolderLock:
    """``with RunFolderLock() as lock: lock.take(folder)``: the folder is held until the
    block ends."""

    def __init__(self) -> None:
        self._fd: int | None = None

    def take(self, folder: Path, create: bool = True) -> None:
        """Hold ``folder`` (made first if ``create``; a missing one is not held otherwise),
        or raise `RunFolderBusy` naming it."""
        if fcntl is None or self._fd is not None:
            return
        if create:
            folder.mkdir(parents=True, exist_ok=True)
        elif not folder.is_dir():
            return
        self._hold(os.open(folder, os.O_RDONLY), folder, "--out")

    def take_file(self, path: Path, flag: str = "--out") -> None:
        """Hold the file ``path`` (made empty, with its folder, if missing) that a command
        appends to, or raise `RunFolderBusy` naming it and its ``flag``. The file must keep
        its identity while held: it is cut short in place, never replaced by another."""
        if fcntl is None or self._fd is not None:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        self._hold(os.open(path, os.O_RDONLY | os.O_CREAT, 0o666), path, flag)

    def _hold(self, fd: int, path: Path, flag: str) -> None:
        assert fcntl is not None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise RunFolderBusy(
                f"{path} is in use by another friday command (another session of this run?): "
                f"wait for it to finish, or choose another {flag}"
            ) from None
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the folder drops its lock
            self._fd = None

    def __enter__(self) -> RunFolderLock:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.release()
