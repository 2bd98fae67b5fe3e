"""Where games are played: in this process, in a pool of processes, or as Ray tasks.

[`run_games`][friday_agents.harness.parallel.run_games] is the one interface every collector
calls (``friday eval``, imitation and expert-iteration data collection): it plays ``play(job)`` for
every job and yields the results *as they finish*, in whatever order that is. ``play`` and ``setup``
must be module-level functions (they travel to other processes and machines by name), jobs and
results plain picklable values; ``setup(*setup_args)`` runs once in each worker before its first job
(to build agents once, say). A job must not depend on which worker plays it or when: then the
results are the same on every backend and with any number of workers.

Backends:

- ``"process"`` — a local ``ProcessPoolExecutor`` of ``workers`` processes, at most one per
  CPU this process may use (`usable_cpus`; ``workers=1``: this process, no pool). The workers
  end with the process that started them, even after a ``kill -9`` of it
  (``friday_agents.harness.parent_watch``).
- ``"ray"`` — Ray tasks (one CPU each) on a running cluster (``address="auto"`` or
  ``"HOST:6379"``; every node needs the same friday-env installed), or on a local Ray
  started for the run with ``workers`` CPUs when ``address`` is None (default: all cores).
  On a cluster, ``workers`` caps the games played at once (default: every CPU of the
  cluster, with a second game queued for each). Needs ``pip install "friday-env[ray]"``.

Ctrl-C, or a worker or node that dies, raises
[`GamesInterrupted`][friday_agents.harness.parallel.GamesInterrupted] after stopping the games in
flight; every result yielded before it is final, so a caller that saved them can resume with the
jobs that are left.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
import uuid
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from friday_agents.harness.parent_watch import exit_with_parent

Job = TypeVar("Job")
Result = TypeVar("Result")

BACKENDS = ("process", "ray")
RAY_INSTALL = "pip install 'friday-env[ray]'"


class GamesInterrupted(RuntimeError):
    """Playing stopped early; ``reason`` is ``"interrupted"`` (Ctrl-C) or says what died."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class BackendError(ValueError):
    """A backend that does not exist or cannot start (Ray missing, no cluster at address)."""


def run_games(
    play: Callable[[Job], Result],
    jobs: Iterable[Job],
    *,
    backend: str = "process",
    workers: int | None = None,
    setup: Callable[..., None] | None = None,
    setup_args: tuple = (),
    address: str | None = None,
) -> Iterator[Result]:
    """Yield ``play(job)`` for every job as each finishes (see the module docstring)."""
    if backend not in BACKENDS:
        raise BackendError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    if workers is not None and workers < 1:
        raise BackendError(f"workers must be at least 1, got {workers}")
    if address is not None and backend != "ray":
        raise BackendError("an address is for the ray backend (a Ray cluster)")
    if backend == "ray":
        if address is None and workers:  # a local Ray: its CPUs are this machine's
            workers = min(workers, usable_cpus())
        return _ray_games(play, jobs, workers, setup, setup_args, address)
    count = min(workers or usable_cpus(), usable_cpus())  # more would only queue for a CPU
    if count == 1:
        return _here(play, jobs, setup, setup_args)
    return _pool(play, jobs, count, setup, setup_args)


def usable_cpus() -> int:
    """The CPUs this process may run on: its affinity where the system tells it (a container
    or ``taskset`` may allow fewer than the machine has), else every CPU."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # no affinity on macOS and Windows
        return os.cpu_count() or 1


# ------------------------------------------------------------------- local processes


def _worker_start(
    parent: int, parent_on_main_thread: bool, setup: Callable[..., None] | None, *args: Any
) -> None:
    """A pool worker's start: it ends with ``parent`` (a killed ``friday eval`` leaves no
    workers behind), then as `_ignoring_interrupts`."""
    exit_with_parent(parent, parent_on_main_thread)
    _ignoring_interrupts(setup, *args)


def _ignoring_interrupts(setup: Callable[..., None] | None, *args: Any) -> None:
    """A worker's start: Ctrl-C is the main process's to handle, then the caller's setup."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    if setup is not None:
        setup(*args)


def _here(play, jobs, setup, setup_args) -> Iterator:
    if setup is not None:
        setup(*setup_args)
    try:
        for job in jobs:
            yield play(job)
    except KeyboardInterrupt:
        raise GamesInterrupted("interrupted") from None


def _pool(play, jobs, workers: int, setup, setup_args) -> Iterator:
    on_main = threading.current_thread() is threading.main_thread()  # forks the workers too
    pool = ProcessPoolExecutor(
        workers, initializer=_worker_start, initargs=(os.getpid(), on_main, setup, *setup_args)
    )
    queue = iter(jobs)
    pending: set[Future] = set()
    try:
        _refill(lambda job: pool.submit(play, job), queue, pending, workers * 2)
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                pending.discard(future)
                yield future.result()
            _refill(lambda job: pool.submit(play, job), queue, pending, workers * 2)
    except KeyboardInterrupt:
        _stop(pool)
        raise GamesInterrupted("interrupted") from None
    except BrokenProcessPool:
        _stop(pool)
        raise GamesInterrupted("a worker process died") from None
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


def _refill(submit: Callable[[Any], Any], queue: Iterator, pending: set, size: int) -> None:
    while len(pending) < size:
        job = next(queue, _END)
        if job is _END:
            return
        pending.add(submit(job))


_END = object()


def _stop(pool: ProcessPoolExecutor) -> None:
    """Stop at once: the games in flight are lost, the finished ones were yielded."""
    for process in list(getattr(pool, "_processes", {}).values()):
        process.terminate()
    pool.shutdown(wait=False, cancel_futures=True)


# -------------------------------------------------------------------------------- Ray

_SETUP_DONE: set[str] = set()  # in a Ray worker: the runs whose setup ran in this process


def _ray_job(run: str, setup, setup_args: tuple, play, job):
    """One job in a Ray worker, after the run's setup (once per worker process and run)."""
    if setup is not None and run not in _SETUP_DONE:
        setup(*setup_args)
        _SETUP_DONE.clear()
        _SETUP_DONE.add(run)
    return play(job)


def import_ray():
    """The ``ray`` module, or a [`BackendError`][friday_agents.harness.parallel.BackendError]
    saying what to install."""
    try:
        import ray
    except ImportError:
        raise BackendError(
            f"the ray backend needs ray, which is not installed; install it with: {RAY_INSTALL}"
        ) from None
    return ray


def connect_ray(address: str | None = None, workers: int | None = None) -> bool:
    """Join the Ray cluster at ``address``, or start a local Ray with ``workers`` CPUs (None:
    all cores). True when this call started Ray, so the caller shuts it down again; False
    when Ray was running already in this process."""
    ray = import_ray()
    if ray.is_initialized():
        return False
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # nothing leaves the machine
    options: dict[str, Any] = {"logging_level": logging.WARNING, "log_to_driver": False}
    try:
        if address is None:
            ray.init(num_cpus=workers, include_dashboard=False, **options)
        else:
            ray.init(address=address, **options)
    except ConnectionError as err:
        raise BackendError(f"no Ray cluster at {address!r}: {err}") from None
    return True


def _ray_games(play, jobs, workers, setup, setup_args, address) -> Iterator:
    ray = import_ray()
    started = connect_ray(address, workers)
    try:
        task = ray.remote(num_cpus=1, max_retries=0)(_ray_job)
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        # a local Ray has exactly ``workers`` CPUs: queue a second game for each; on a
        # cluster, ``workers`` caps the games played at once
        in_flight = workers if workers and address else 2 * cpus
        run, args_ref = uuid.uuid4().hex, ray.put(setup_args)

        def submit(job):
            return task.remote(run, setup, args_ref, play, job)

        pending: set = set()
        queue = iter(jobs)
        try:
            _refill(submit, queue, pending, in_flight)
            while pending:
                done, _ = ray.wait(list(pending), num_returns=1)
                pending.discard(done[0])
                yield ray.get(done[0])
                _refill(submit, queue, pending, in_flight)
        except KeyboardInterrupt:
            _cancel(ray, pending)
            raise GamesInterrupted("interrupted") from None
        except ray.exceptions.RayTaskError as err:
            _cancel(ray, pending)
            raise err.as_instanceof_cause() from None  # the game's own error
        except ray.exceptions.RayError as err:
            _cancel(ray, pending)
            raise GamesInterrupted(f"a Ray worker or node died ({type(err).__name__})") from None
    finally:
        if started:
            ray.shutdown()


def _cancel(ray, pending: set) -> None:
    for ref in pending:
        ray.cancel(ref, force=True)
