"""The processes of a data-parallel ``friday rl`` run (``torchrun --nproc_per_node N friday rl``).

Each process steps its own native vector env on its own stream of training deals, computes
its gradients on its own rollout, and the gradients are averaged over the processes before
each optimiser step (all of them at once): every process then takes the same step from the
same weights, so the weights stay identical everywhere (the curve's ``weights_spread`` checks
it at every update). Processes on one machine, on the CPU, average and gather (after the
first averaging, which maps the memory) through shared memory
([`friday_agents.learning.rl.shared_mean`][friday_agents.learning.rl.shared_mean]); gloo
carries the other messages on the CPU (and the gradients of runs over several machines),
NCCL on GPUs. Started without torchrun (no ``WORLD_SIZE`` above 1) a run is one process and
nothing here talks to anyone.
"""

from __future__ import annotations

import os
import pickle
from typing import Any

import torch
import torch.distributed as dist

from friday_agents.learning.rl.shared_mean import SharedMean, usable


class Group:
    """This process's place among the run's processes: ``rank`` of ``world``."""

    def __init__(self, rank: int = 0, world: int = 1, on_one_machine: bool = False) -> None:
        self.rank, self.world = rank, world
        self._flat: torch.Tensor | None = None  # the gradients' buffer, kept between steps
        # processes on one machine, on the CPU: the mean through shared memory (made at the
        # first step, when every process calls for it at once)
        self.on_one_machine = on_one_machine
        self._shared: SharedMean | None = None

    @property
    def main(self) -> bool:
        """The process that writes the run's files (rank 0)."""
        return self.rank == 0

    def average_gradients(self, parameters: list[torch.nn.Parameter]) -> None:
        """Replace each gradient by its mean over the processes (parameters without one,
        the frozen actor of the warm-up, are frozen in every process alike)."""
        if self.world == 1:
            return
        grads = [p.grad for p in parameters if p.grad is not None]
        sizes = [grad.numel() for grad in grads]
        # one message of all of them, in a buffer allocated once (a fresh 0.6 MB tensor per
        # minibatch costs page faults every time)
        flat = self._buffer(sum(sizes), grads[0])
        torch.cat([grad.reshape(-1) for grad in grads], out=flat)
        if self.on_one_machine:
            self._shared_mean(parameters).mean_(flat)
        else:
            dist.all_reduce(flat)
            flat /= self.world
        parts = flat.split(sizes)
        torch._foreach_copy_(grads, [p.view_as(g) for p, g in zip(parts, grads, strict=True)])

    def _shared_mean(self, parameters: list[torch.nn.Parameter]) -> SharedMean:
        if self._shared is None:
            capacity = sum(p.numel() for p in parameters)
            self._shared = SharedMean(self.rank, self.world, capacity, self.share, dist.barrier)
        return self._shared

    def _buffer(self, size: int, like: torch.Tensor) -> torch.Tensor:
        """The first ``size`` numbers of the gradients' buffer (grown when too small)."""
        flat = self._flat
        if flat is None or len(flat) < size or flat.device != like.device:
            flat = self._flat = torch.empty(size, dtype=like.dtype, device=like.device)
        return flat[:size]

    def leave(self) -> None:
        """Wait for every process here, then close the group (a process that exits while
        another still talks to it can take that one down with it)."""
        if self.world == 1 or not dist.is_initialized():
            return
        dist.barrier()
        dist.destroy_process_group()

    def gather(self, value: Any) -> list[Any]:
        """Every process's ``value`` (plain values, numpy arrays and CPU tensors, in dicts
        and lists), in rank order."""
        if self.world == 1:
            return [value]
        value = _to_numpy(value)  # tensors travel as numpy arrays
        if self._shared is not None:  # mapped at the first averaging, in every process alike
            parts = self._shared.exchange(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))
            if parts is not None:  # else one of them was too long: gloo, in every process
                return [_to_tensors(pickle.loads(part)) for part in parts]
        out: list[Any] = [None] * self.world
        dist.all_gather_object(out, value)
        return [_to_tensors(part) for part in out]

    def share(self, value: Any) -> Any:
        """Rank 0's ``value``, in every process."""
        if self.world == 1:
            return value
        box = [value]
        dist.broadcast_object_list(box, src=0)
        return box[0]

    def same_weights(self, model: torch.nn.Module) -> None:
        """Every process's ``model`` set to rank 0's weights."""
        if self.world == 1:
            return
        for tensor in model.state_dict().values():
            dist.broadcast(tensor, src=0)


def weights_sum(parameters: list[torch.nn.Parameter]) -> float:
    """The sum of every weight, in float64: the same in every process while data-parallel
    training keeps the weights the same (the curve's ``weights_spread`` compares them)."""
    with torch.no_grad():
        zero = torch.zeros((), dtype=torch.float64, device=parameters[0].device)
        return float(sum((p.detach().double().sum() for p in parameters), zero))


class _Tensor:
    """A CPU tensor on its way between processes, as its numpy array."""

    def __init__(self, array: Any) -> None:
        self.array = array


def _to_numpy(value: Any) -> Any:
    if isinstance(value, torch.Tensor):
        return _Tensor(value.cpu().numpy())
    if isinstance(value, dict):
        return {key: _to_numpy(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_to_numpy(item) for item in value)
    return value


def _to_tensors(value: Any) -> Any:
    if isinstance(value, _Tensor):
        return torch.from_numpy(value.array)
    if isinstance(value, dict):
        return {key: _to_tensors(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_to_tensors(item) for item in value)
    return value


def join(device: torch.device) -> Group:
    """This process's group: set up from torchrun's environment (``RANK``, ``WORLD_SIZE``,
    ``MASTER_ADDR``...) with gloo on the CPU and NCCL on GPUs, else a group of one."""
    world = int(os.environ.get("WORLD_SIZE", "1"))
    if world == 1:
        return Group()
    if not dist.is_initialized():
        dist.init_process_group("nccl" if device.type == "cuda" else "gloo")
    local = int(os.environ.get("LOCAL_WORLD_SIZE", "0"))
    world = dist.get_world_size()
    return Group(dist.get_rank(), world, usable(world, local, device))


def cuda_device_of(rank: int) -> torch.device:
    """The GPU of a process on a machine with several (``LOCAL_RANK``, torchrun's)."""
    local = int(os.environ.get("LOCAL_RANK", rank))
    return torch.device("cuda", local % max(torch.cuda.device_count(), 1))
