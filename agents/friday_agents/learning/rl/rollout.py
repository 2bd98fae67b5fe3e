"""``friday rl``'s rollouts: every env plays ``num_steps`` steps with the current policy, each
action drawn from the legal actions only; what the PPO update learns from is kept by step and
env (`Rollout`), the observations as their non-zeros (`observation_rows`)."""

from __future__ import annotations

import numpy as np
import torch

from friday_agents.learning.networks import ActorCritic
from friday_agents.learning.rl.games import TrainingGames
from friday_agents.learning.sparse import (
    PADDING_LOGIT,
    DenseRows,
    SparseRows,
    Store,
    actor_critic,
    kernel_built,
    layers_of,
    legal_ids,
    table_of,
)


class Rollout(dict):
    """A rollout's tensors by name (steps x envs). Its observations are in the trainer's
    sparse rows; ``obs`` gives them dense (steps x envs x 991), built when first read and
    only while those rows still hold this rollout (until the next one starts): the update
    never reads them dense, and a 32 MB copy per rollout would cost more than it shows.
    ``last_rows`` are the rows of the observations after the last step and ``last_done``
    the envs whose game ended there (what the advantages bootstrap from)."""

    def __init__(self, rows: Store, shape: tuple[int, int, int]) -> None:
        super().__init__()
        self.rows, self.shape, self.generation = rows, shape, rows.generation
        self.last_rows = torch.zeros(0, dtype=torch.long)
        self.last_done = torch.zeros(0)

    def __missing__(self, key: str) -> torch.Tensor:
        if key != "obs":
            raise KeyError(key)
        if self.rows.generation != self.generation:
            raise RuntimeError("a later rollout has replaced this one's observations")
        steps, n, width = self.shape
        self["obs"] = self.rows.dense(torch.arange(steps * n), width).reshape(self.shape)
        return self["obs"]


def observation_rows(capacity: int, width: int, device: torch.device) -> Store:
    """Where a rollout's observations are kept: as their non-zeros for the CPU kernel, whole
    on a GPU or without the kernel (the kernel is CPU code; the dense layers are the same
    function)."""
    if device.type == "cpu" and kernel_built():
        return SparseRows(capacity)
    return DenseRows(capacity, width, device)


class StepInputs:
    """Each step's observations and masks on their way to the networks when they are kept
    whole (`DenseRows`: the GPU path): written into host buffers and copied from there into
    buffers on ``device``, every buffer allocated once and reused at every step of every
    rollout. On a GPU the host buffers are pinned (page-locked), so the copies are direct
    and asynchronous; each step ends by reading its actions back to the CPU, which waits
    for them, so a buffer is never rewritten while its copy is under way. On the CPU (no
    CUDA) the same code runs with plain memory and the device buffers are the host ones."""

    def __init__(self, envs: int, width: int, actions: int, device: torch.device) -> None:
        self.device = device
        self.pinned = device.type == "cuda" and torch.cuda.is_available()
        self.host_obs = torch.empty((envs, width), dtype=torch.float32, pin_memory=self.pinned)
        self.host_mask = torch.empty((envs, actions), dtype=torch.bool, pin_memory=self.pinned)
        on_host = device.type == "cpu"
        self.obs = self.host_obs if on_host else torch.empty_like(self.host_obs, device=device)
        self.mask = self.host_mask if on_host else torch.empty_like(self.host_mask, device=device)

    def put(self, obs: np.ndarray, mask: np.ndarray) -> tuple[torch.Tensor, torch.Tensor]:
        """``obs`` and ``mask`` (one env a row) in the device buffers (the same tensors at
        every call)."""
        np.copyto(self.host_obs.numpy(), obs, casting="same_kind")
        np.copyto(self.host_mask.numpy(), mask, casting="same_kind")
        if self.obs is not self.host_obs:
            self.obs.copy_(self.host_obs, non_blocking=True)
            self.mask.copy_(self.host_mask, non_blocking=True)
        return self.obs, self.mask


def sample(logits: torch.Tensor, generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """One slot per row of the legal actions' logits (padding slots at `PADDING_LOGIT`),
    drawn with probability softmax(logits), and its log-probability. By the inverse of
    each row's cumulative distribution (a tenth of ``torch.multinomial``'s cost at these
    sizes): the first slot whose cumulative probability exceeds a uniform draw scaled to
    the row's total."""
    probs = torch.softmax(logits, -1)
    cdf = probs.cumsum(1)
    # drawn by the run's CPU generator (the same numbers on any device)
    draw = torch.rand((len(probs), 1), generator=generator)
    draw = (draw if probs.is_cpu else draw.to(probs.device)) * cdf[:, -1:]
    slot = torch.searchsorted(cdf, draw, right=True).squeeze(1).clamp_(max=probs.shape[1] - 1)
    chosen = probs.gather(1, slot[:, None]).squeeze(1)
    if not bool((chosen > 0).all()):  # a draw rounded up to the total: the last legal slot
        last = (logits > PADDING_LOGIT).sum(1) - 1
        slot = torch.where(chosen > 0, slot, last)
        chosen = probs.gather(1, slot[:, None]).squeeze(1)
    return slot, torch.log(chosen)


def collect(
    model: ActorCritic,
    games: TrainingGames,
    rows: Store,
    generator: torch.Generator,
    device: torch.device,
    inputs: StepInputs | None = None,
) -> Rollout:
    """Every env of ``games`` plays ``num_steps`` steps with ``model``'s policy, the actions
    drawn by ``generator``, every env's in one call of the networks per step. The
    observations go into ``rows`` (the update reads them there: rollout row
    ``t * num_envs + i`` is env i's at step t), through ``inputs`` where they are kept whole;
    the rollout gives them dense, as ``obs``, when asked."""
    steps, n, on, cpu = games.config.num_steps, games.config.num_envs, device, games.cpu

    def step_inputs() -> tuple[torch.Tensor, torch.Tensor]:
        """This step's observations added to ``rows`` (their row numbers) and its masks,
        on the device."""
        if inputs is None:
            return rows.append(games.obs.numpy()), games.mask.to(on, non_blocking=True)
        obs, mask = inputs.put(games.obs.numpy(), games.mask.numpy())
        assert isinstance(rows, DenseRows)  # the inputs of whole rows
        return rows.append(obs), mask

    rows.clear()
    buffers = Rollout(rows, (steps, n, games.obs.shape[1]))
    buffers |= {
        "mask": torch.zeros((steps, n, games.mask.shape[1]), dtype=torch.bool, device=on),
        "action": torch.zeros((steps, n), dtype=torch.long),  # the env's: on the CPU
        # the action's place among its state's legal ids (ascending): the policy's
        # logits are computed for the legal actions only
        "slot": torch.zeros((steps, n), dtype=torch.long, device=on),
        **{key: torch.zeros((steps, n), device=on) for key in ("logp", "reward", "done", "value")},
    }
    games.begin_rollout()
    at, mask = step_inputs()
    # the weights the whole rollout acts with (the sparse kernel's table, on the CPU)
    layers = layers_of(model)
    table = table_of(layers.first) if isinstance(rows, SparseRows) else None
    done = torch.zeros(n, device=on)
    for t in range(steps):
        with cpu.part("acting"), torch.no_grad():
            buffers["mask"][t], buffers["done"][t] = mask, done
            ids = legal_ids(mask)
            logits, buffers["value"][t] = actor_critic(model, rows, at, ids, table, layers)
            slot, buffers["logp"][t] = sample(logits, generator)
            buffers["slot"][t] = slot
            action = ids.gather(1, slot[:, None]).squeeze(1).cpu()
        buffers["action"][t] = action
        reward, done = games.step(action.numpy(), buffers["action"], t)
        buffers["reward"][t], done = reward.to(on), done.to(on)
        with cpu.part("acting"):
            at, mask = step_inputs()
    games.record_actions(np.arange(n), steps, buffers["action"])
    buffers.last_rows, buffers.last_done = at, done
    return buffers
