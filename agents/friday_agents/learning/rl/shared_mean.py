"""The gradients' mean over the processes of a data-parallel ``friday rl`` run on one machine,
and the update's other message (`SharedMean.exchange`), through shared memory instead of
gloo's sockets.

gloo averages a 64-64 network's gradients (148 k numbers, 0.6 MB) in ~1.6 ms of wall time on
the 2-core machine, most of it passing the bytes through the kernel's loopback sockets and
waking its threads; at 16 minibatches an update that was a quarter of a 2-process update.
Here each process writes its gradients into its own slot of a memory mapping every process
of the machine shares, raises its counter, waits until every counter has reached this call,
and sums the slots in rank order: a copy in, a sum and a copy out, tens of microseconds.

gloo's gather of the update's small message (CPU seconds, finished games, stop requests)
took 1-8 ms too, two collectives each waking gloo's threads: here it is a pickle in the
process's message slot and the others' read back, over the same counters.

Every process adds the same numbers in the same order, so the mean is the same in all of
them, bit for bit; for two processes it is gloo's sum, bit for bit (a + b is b + a). The
slots alternate between two sets from one call to the next: a process writes call k + 1's
set while a slower one may still read call k's, and it reaches call k + 2 (which writes call
k's set again) only after every process has written call k + 1, so has finished reading k.

The counters are read and written as whole aligned 8-byte words, and each process writes its
slot before its counter: on x86-64, whose stores become visible in program order, a process
that sees a counter sees the slot written before it. Elsewhere the run keeps gloo (`usable`).
"""

from __future__ import annotations

import os
import platform
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import torch

#: Where the mapping's file is made (and removed again once every process has mapped it).
SHARED_FOLDER = Path("/dev/shm")
#: How long a process waits for the others before it takes them for dead.
PATIENCE_S = 600.0
#: A process's message slot (`SharedMean.exchange`), in bytes: the mapping's pages are only
#: made where written, so a generous slot costs what the messages use.
MESSAGE_BYTES = 1 << 20


def usable(world: int, local_world: int, device: torch.device) -> bool:
    """Whether the run's processes can average through shared memory: all on this machine,
    on the CPU, on x86-64 (see the module's note on ordering), with a shared-memory folder."""
    return (
        world > 1
        and local_world == world
        and device.type == "cpu"
        and platform.machine().lower() in ("x86_64", "amd64")
        and SHARED_FOLDER.is_dir()
    )


class SharedMean:
    """Process ``rank`` of ``world``'s side of the mapping, for tensors of up to ``capacity``
    float32 numbers. Made by every process at once: rank 0 creates the file, ``share`` (the
    run's broadcast of a value from rank 0) gives its name to the others, and ``barrier``
    waits until all have mapped it, after which rank 0 removes the name."""

    def __init__(
        self,
        rank: int,
        world: int,
        capacity: int,
        share: Callable[[Any], Any],
        barrier: Callable[[], Any],
    ) -> None:
        self.rank, self.world, self.capacity = rank, world, capacity
        self.message_bytes = MESSAGE_BYTES
        slots = 2 * world * capacity * 4
        messages = slots + 2 * world * self.message_bytes
        # the gradients' slots, the message slots, then each message's length, each
        # process's counter and its id
        size = messages + 4 * world * 8
        path = None
        if rank == 0:
            handle, path = tempfile.mkstemp(prefix="friday-rl-grads-", dir=SHARED_FOLDER)
            os.ftruncate(handle, size)
            os.close(handle)
        path = share(path)
        raw = np.memmap(path, dtype=np.uint8, mode="r+", shape=(size,))
        self.messages = raw[slots:messages].reshape(2, world, self.message_bytes)
        words = raw[messages:].view(np.int64)
        self.lengths = words[: 2 * world].reshape(2, world)
        self.counters, self.pids = words[2 * world :].reshape(2, world)
        self.pids[rank] = os.getpid()
        barrier()  # every process has mapped it: the name can go (the mapping stays)
        if rank == 0:
            Path(path).unlink()
        self._raw = raw
        self.slots = torch.from_numpy(raw[:slots].view(np.float32).reshape(2, world, capacity))
        self.calls = 0

    def mean_(self, flat: torch.Tensor) -> None:
        """Replace ``flat`` (float32, on the CPU, at most ``capacity`` numbers) by its mean
        over the processes, each of which calls this at the same point of its run."""
        self.calls += 1
        n = len(flat)
        slots = self.slots[self.calls % 2, :, :n]
        slots[self.rank].copy_(flat)
        self.counters[self.rank] = self.calls  # after the slot: what the others wait for
        self._wait_for_everyone()
        torch.add(slots[0], slots[1], out=flat)  # in rank order, the same in every process
        for rank in range(2, self.world):
            flat += slots[rank]
        flat /= self.world

    def exchange(self, message: bytes) -> list[bytes] | None:
        """Every process's ``message``, in rank order, each process calling this at the same
        point of its run (in the same sequence as `mean_`); None in every process when one
        of the messages is longer than a slot (they then take another way together)."""
        self.calls += 1
        which = self.calls % 2
        if len(message) <= self.message_bytes:
            self.messages[which, self.rank, : len(message)] = np.frombuffer(message, np.uint8)
        self.lengths[which, self.rank] = len(message)
        self.counters[self.rank] = self.calls  # after the message and its length
        self._wait_for_everyone()
        lengths = self.lengths[which].tolist()
        if max(lengths) > self.message_bytes:
            return None
        return [self.messages[which, rank, :n].tobytes() for rank, n in enumerate(lengths)]

    def _wait_for_everyone(self) -> None:
        """Until every process has written this call: a short spin (the others are usually
        close), then yielding the core at each look (a machine with more processes than
        cores must let them run), then short sleeps, checking now and then that the others
        still exist (gloo would notice a dead peer; this has to look)."""
        counters, calls, looks = self.counters, self.calls, 0
        started = time.monotonic()
        while int(counters.min()) < calls:
            looks += 1
            if looks < 500:
                continue
            if looks < 20000:
                os.sched_yield()
                continue
            time.sleep(0.0005)
            if looks % 2000 == 0:
                self._check_the_others(time.monotonic() - started)

    def _check_the_others(self, waited: float) -> None:
        for rank, pid in enumerate(self.pids.tolist()):
            if not _exists(pid):
                raise RuntimeError(f"process {rank} of the run ended while averaging gradients")
        if waited > PATIENCE_S:
            raise RuntimeError(
                f"the other processes of the run stopped averaging gradients "
                f"({PATIENCE_S:.0f} s without an answer)"
            )


def _exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process took the id: ours is gone
        return False
    return True
