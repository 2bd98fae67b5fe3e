"""Worker processes that end when the process that started them ends, however it ends.

A ``kill -9`` of ``friday eval`` gives its process pool no chance to stop the workers, and a
worker waiting for its next game would wait forever (its queue's other end stays open in the
other workers). Each worker calls ``exit_with_parent`` as it starts:

- on Linux, when the pool was started from the main thread, the kernel kills the worker the
  moment its parent dies (``prctl(PR_SET_PDEATHSIG, SIGKILL)``). The signal follows the
  *thread* that forked the worker, so it is asked for only when that thread is the main one,
  whose end is the process's end;
- everywhere, a daemon thread looks every `WATCH_SECONDS` whether the worker's parent is
  still the process that started it (a dead parent's children are handed to another
  process), and ends the worker when it is not. It needs the GIL, so a worker inside one long
  C call ends when that call returns.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys
import threading
import time

#: How often the watching thread checks the parent.
WATCH_SECONDS = 0.5
#: prctl's option that sets the signal a process gets when its parent dies (linux/prctl.h).
PR_SET_PDEATHSIG = 1


def exit_with_parent(parent: int, parent_on_main_thread: bool = False) -> None:
    """End this process when process ``parent`` (the one that started it) ends."""
    if parent_on_main_thread and sys.platform.startswith("linux"):
        _kill_on_parent_death()
    if os.getppid() != parent:  # the parent died before this process was watching it
        os._exit(1)
    threading.Thread(target=_watch, args=(parent,), name="parent-watch", daemon=True).start()


def _kill_on_parent_death() -> None:
    libc_name = ctypes.util.find_library("c")
    if libc_name is None:
        return  # no C library to ask: the watching thread still ends the worker
    libc = ctypes.CDLL(libc_name, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_SECONDS)
    os._exit(1)  # nothing left to report to: the parent and its queues are gone
