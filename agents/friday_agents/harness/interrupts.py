"""Ctrl-C in a run: the main process stops at a boundary where its state can be saved
whole, and the processes it starts leave Ctrl-C to it instead of each printing a traceback.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator


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
def stop_at_a_boundary(
    signals: tuple[signal.Signals, ...] = (signal.SIGINT,), second_stops: bool = True
) -> Iterator[CtrlC]:
    """Within: the first Ctrl-C (or another of ``signals``) only sets ``requested`` (the
    loop stops at its next boundary, where its state can be saved whole); a second one
    stops at once (``KeyboardInterrupt``), unless ``second_stops`` is false: then every
    later one is taken as the same request (a process whose launcher passes signals on
    and may repeat them, and which must reach its save). Only where Python handles Ctrl-C:
    on the main thread, with SIGINT not ignored; elsewhere ``requested`` stays false."""
    flag = CtrlC()
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(
        signal.SIGINT
    ) in (signal.SIG_IGN, None):
        yield flag
        return

    def remember(signum: int, frame: object) -> None:
        if flag.requested and second_stops:
            raise KeyboardInterrupt
        flag.requested = True

    previous = {number: signal.signal(number, remember) for number in signals}
    try:
        yield flag
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
