"""The gradients' mean through shared memory (processes of one machine, on the CPU) is
gloo's, bit for bit, for two processes, and the same in every process for three; calls
follow each other without one overwriting what another process still reads. A gather after
the first averaging goes through the same memory and gives what gloo's gives, a message
longer than its slot taking gloo's way in every process."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

import torch.distributed as dist  # noqa: E402
import torch.multiprocessing as mp  # noqa: E402

from friday_agents.learning.rl import shared_mean  # noqa: E402
from friday_agents.learning.rl.group import Group  # noqa: E402

pytestmark = pytest.mark.skipif(
    not shared_mean.usable(2, 2, torch.device("cpu")), reason="no shared memory path here"
)

#: The sizes of successive calls (a warm-up's gradients are fewer; the first is the largest,
#: which sets the mapping's capacity as a run's full parameter list does)
SIZES = (1000, 37, 1000, 600)


def one_process(rank: int, world: int, store: str, results) -> None:  # type: ignore[no-untyped-def]
    dist.init_process_group("gloo", init_method=f"file://{store}", rank=rank, world_size=world)
    try:
        shared = Group(rank, world, on_one_machine=True)
        mine = []
        for call, size in enumerate(SIZES):
            # each process's own numbers, not exactly representable sums among them
            generator = torch.Generator().manual_seed(1000 * call + rank)
            values = torch.randn(size, generator=generator) / 3
            through_gloo = values.clone()
            dist.all_reduce(through_gloo)
            through_gloo /= world
            grad = torch.nn.Parameter(torch.zeros(size))
            grad.grad = values.clone()
            shared.average_gradients([grad])
            mine.append((grad.grad.clone(), through_gloo))
        results[rank] = mine
    finally:
        dist.destroy_process_group()


def gathering_process(rank: int, world: int, store: str, results) -> None:  # type: ignore[no-untyped-def]
    dist.init_process_group("gloo", init_method=f"file://{store}", rank=rank, world_size=world)
    shared_mean.MESSAGE_BYTES = 4096  # this process's slots: the long message below overflows
    try:
        group = Group(rank, world, on_one_machine=True)
        grad = torch.nn.Parameter(torch.zeros(10))
        grad.grad = torch.ones(10)
        group.average_gradients([grad])  # maps the memory
        assert group._shared is not None
        exchange, through_memory = group._shared.exchange, []

        def logged(message: bytes) -> list[bytes] | None:
            parts = exchange(message)
            through_memory.append(parts is not None)
            return parts

        group._shared.exchange = logged  # type: ignore[method-assign]
        messages = [
            {"cpu": 0.5 + rank, "finished": [(rank == 1, 7 * rank)] * (rank + 1), "stop": False},
            {"weights": torch.arange(3.0) + rank},
            list(range(2000 * (rank + 1))),  # longer than a slot in process 1
            "after the long one",
        ]
        gathered = []
        for message in messages:
            through_gloo: list = [None] * world
            dist.all_gather_object(through_gloo, message)
            gathered.append((group.gather(message), through_gloo))
        results[rank] = (gathered, through_memory)
    finally:
        dist.destroy_process_group()


def run(world: int, tmp_path, process=one_process) -> list:  # type: ignore[no-untyped-def]
    manager = mp.Manager()
    results = manager.dict()
    mp.spawn(process, args=(world, str(tmp_path / "store"), results), nprocs=world)
    return [results[rank] for rank in range(world)]


def test_two_processes_get_the_gloo_mean_bit_for_bit(tmp_path):
    first, second = run(2, tmp_path)
    for (mean_a, gloo_a), (mean_b, _) in zip(first, second, strict=True):
        assert torch.equal(mean_a, gloo_a) and torch.equal(mean_a, mean_b)
    assert not list(shared_mean.SHARED_FOLDER.glob("friday-rl-grads-*"))  # no file left


def test_three_processes_hold_the_same_mean(tmp_path):
    results = run(3, tmp_path)
    for call in range(len(SIZES)):
        means = [results[rank][call][0] for rank in range(3)]
        assert torch.equal(means[0], means[1]) and torch.equal(means[0], means[2])
        assert torch.allclose(means[0], results[0][call][1], atol=1e-6)


def test_a_gather_through_shared_memory_is_that_of_gloo(tmp_path):
    for gathered, through_memory in run(2, tmp_path, gathering_process):
        assert through_memory == [True, True, False, True]  # the long one: gloo, in both
        for mine, through_gloo in gathered:
            assert len(mine) == 2
            for part, expected in zip(mine, through_gloo, strict=True):
                if isinstance(expected, dict) and "weights" in expected:
                    assert torch.equal(part["weights"], expected["weights"])
                else:
                    assert part == expected
