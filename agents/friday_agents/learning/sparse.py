"""The first layer of the learners' networks over the non-zero inputs only (``friday rl``'s
trainer and ``friday distill``'s fits, beside the networks of
[`friday_agents.learning.networks`][friday_agents.learning.networks]).

A flat observation holds about 64 non-zeros of its 991 numbers, so a dense first layer
multiplies ~15 times more than it needs to, and it is most of a PPO update's cost at the
trainer's sizes. torch's own sparse paths (``EmbeddingBag``, a ``W[idx]`` gather) are slower
than the dense layer on a CPU at this size, so the layer has its own kernel:
``sparse.c`` beside this file (``friday_agents.learning._sparse``), and a numpy/torch
twin here that gives the same values where the kernel is not built.

The observations are kept as `SparseRows` (CSR: each row's input indices and values);
`first_layers` computes several first layers that read the same inputs (the actor's and the
critic's) in one pass over them, as a torch autograd function: the forward is
``bias + sum of value * weight column`` over a row's entries, the backward adds the weights'
gradient into the rows of the inputs present only (no gradient for the inputs: they are
data). Same function as ``nn.Linear`` on the dense rows, up to float rounding (the sums run
in another order).

The kernel is CPU code. On a GPU (``friday rl --device cuda``) the observations are kept as
`DenseRows` on the device instead, and every function here computes the same thing with
torch's dense operations there (`first_layers` as ``nn.Linear``, `legal_ids` and
`legal_head` by gathers): the same function, another representation, chosen by the store.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

_sparse: Any
try:
    _sparse = importlib.import_module("friday_agents.learning._sparse")
except ImportError:  # no C compiler at install: the numpy/torch twin below
    _sparse = None


def kernel_built() -> bool:
    """Whether the C kernel is here (built at install); without it the trainer keeps whole
    observations and runs the dense layers, the same function at dense speed, since the
    twin of the sparse layer below is several times slower than both."""
    return _sparse is not None


#: Entries allocated per row at first (a flat observation holds ~64 non-zeros; the arrays
#: grow when a rollout needs more).
ENTRIES_PER_ROW = 96


class SparseRows:
    """Rows of inputs as (index, value) lists: row ``r``'s entries are
    ``idx[ptr[r]:ptr[r + 1]]`` and ``val[...]`` alike. Filled by `append`, emptied by
    `clear`; the arrays are kept and grown, never shrunk, so a rollout allocates nothing."""

    def __init__(self, capacity_rows: int, entries_per_row: int = ENTRIES_PER_ROW) -> None:
        self.ptr = np.zeros(capacity_rows + 1, np.int64)
        self.idx = np.zeros(capacity_rows * entries_per_row, np.int32)
        self.val = np.zeros(capacity_rows * entries_per_row, np.float32)
        self.rows = 0
        self.generation = 0  # how many times it was cleared: what a reader of old rows checks

    @classmethod
    def from_csr(cls, ptr: np.ndarray, idx: np.ndarray, val: np.ndarray) -> SparseRows:
        """Rows given as CSR arrays already (copied to the kernel's dtypes)."""
        rows = cls(0, 0)
        rows.ptr = np.ascontiguousarray(ptr, np.int64)
        rows.idx = np.ascontiguousarray(idx, np.int32)
        rows.val = np.ascontiguousarray(val, np.float32)
        rows.rows = len(ptr) - 1
        return rows

    def clear(self) -> None:
        self.rows = 0
        self.generation += 1

    def append(self, obs: np.ndarray) -> torch.Tensor:
        """Add the rows of ``obs`` (float32, one observation per row); their row numbers."""
        obs = np.ascontiguousarray(obs, np.float32)
        first, count = self.rows, len(obs)
        if first + count + 1 > len(self.ptr):
            self.ptr = np.concatenate([self.ptr, np.zeros(count + len(self.ptr), np.int64)])
        offset = int(self.ptr[first])
        ends = self.ptr[first + 1 : first + 1 + count]
        while _nonzeros(obs, ends, self.idx, self.val, offset) < 0:
            self._grow(2 * len(self.idx))
        self.rows += count
        return torch.arange(first, first + count)

    def _grow(self, entries: int) -> None:
        self.idx = np.concatenate([self.idx, np.zeros(entries - len(self.idx), np.int32)])
        self.val = np.concatenate([self.val, np.zeros(entries - len(self.val), np.float32)])

    def dense(self, rows: torch.Tensor, width: int) -> torch.Tensor:
        """The rows as dense observations again (tests and checks)."""
        out = np.zeros((len(rows), width), np.float32)
        at, owner = _positions(self, rows.numpy())
        out[owner, self.idx[at]] = self.val[at]
        return torch.from_numpy(out)


class DenseRows:
    """Rows of inputs kept whole on ``device`` (a GPU: the sparse kernel is CPU code), with
    `SparseRows`' interface: `append` copies each observation to the device once, and the
    functions below read it there."""

    def __init__(self, capacity_rows: int, width: int, device: torch.device) -> None:
        self.obs = torch.zeros((capacity_rows, width), device=device)
        self.device = device
        self.rows = 0
        self.generation = 0

    def clear(self) -> None:
        self.rows = 0
        self.generation += 1

    def append(self, obs: np.ndarray | torch.Tensor) -> torch.Tensor:
        """Add the rows of ``obs`` (one observation per row, copied to the device unless
        there already); their row numbers, on the device."""
        first, count = self.rows, len(obs)
        if first + count > len(self.obs):
            more = torch.zeros((count + len(self.obs), self.obs.shape[1]), device=self.device)
            self.obs = torch.cat([self.obs, more])
        self.obs[first : first + count] = torch.as_tensor(obs, dtype=torch.float32).to(
            self.device, non_blocking=True
        )
        self.rows += count
        return torch.arange(first, first + count, device=self.device)

    def dense(self, rows: torch.Tensor, width: int) -> torch.Tensor:
        return self.obs[rows.to(self.device), :width]


Store = SparseRows | DenseRows


def _nonzeros(
    obs: np.ndarray, ends: np.ndarray, idx: np.ndarray, val: np.ndarray, offset: int
) -> int:
    """Write the non-zeros of each row of ``obs`` from ``offset`` on and each row's end into
    ``ends``; the end of the last row, or -1 if ``idx``/``val`` lack room (the kernel's
    contract)."""
    if _sparse is not None:
        return int(_sparse.nonzeros(obs, ends, idx, val, offset))
    rows, cols = np.nonzero(obs)
    end = offset + len(rows)
    if end > len(idx):
        return -1
    idx[offset:end], val[offset:end] = cols, obs[rows, cols]
    ends[:] = offset + np.cumsum(np.bincount(rows, minlength=len(obs)))
    return end


def _positions(store: SparseRows, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The twin's view of ``rows``: each entry's position in ``store`` and its row's index
    within ``rows``."""
    starts, ends = store.ptr[rows], store.ptr[rows + 1]
    lengths = ends - starts
    owner = np.repeat(np.arange(len(rows)), lengths)
    within = np.arange(lengths.sum()) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    return np.repeat(starts, lengths) + within, owner


def _forward(weight_t: torch.Tensor, bias: torch.Tensor, store: SparseRows, rows: np.ndarray):
    out = torch.empty(len(rows), weight_t.shape[1])
    if _sparse is not None:
        _sparse.forward(
            weight_t.numpy(), bias.numpy(), store.ptr, store.idx, store.val, rows, out.numpy()
        )
        return out
    at, owner = _positions(store, rows)
    contributions = weight_t[store.idx[at]] * torch.from_numpy(store.val[at])[:, None]
    return out.copy_(bias.expand_as(out)).index_add_(0, torch.from_numpy(owner), contributions)


def _backward(grad: torch.Tensor, store: SparseRows, rows: np.ndarray, inputs: int):
    grad_t = torch.zeros(inputs, grad.shape[1])
    if _sparse is not None:
        _sparse.backward(grad.numpy(), store.ptr, store.idx, store.val, rows, grad_t.numpy())
        return grad_t
    at, owner = _positions(store, rows)
    contributions = grad[torch.from_numpy(owner)] * torch.from_numpy(store.val[at])[:, None]
    return grad_t.index_add_(0, torch.from_numpy(store.idx[at]).long(), contributions)


# ------------------------------------------------------------------ tanh

# torch's CPU tanh costs about five times 2 * sigmoid(2x) - 1 (measured: 540 against 110 us on
# 2048 x 128 floats, one thread), and the networks' tanh were a fifth of a PPO minibatch: the
# layers here take tanh that way. The same function to 2e-7 (a float's rounding near 1).


def tanh_(x: torch.Tensor) -> torch.Tensor:
    """tanh of ``x`` in place, as 2 * sigmoid(2x) - 1 (no gradient: for the first layers'
    own autograd function and acting)."""
    return x.mul_(2).sigmoid_().mul_(2).sub_(1)


class _Tanh(torch.autograd.Function):
    """tanh by `tanh_`, its gradient from the output: 1 - tanh^2."""

    @staticmethod
    def forward(ctx: Any, x: torch.Tensor) -> Any:
        out = x.detach().mul(2).sigmoid_().mul_(2).sub_(1)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor) -> Any:
        (out,) = ctx.saved_tensors
        return torch.ops.aten.tanh_backward(grad, out)


def tanh(x: torch.Tensor) -> torch.Tensor:
    """tanh of ``x`` (`tanh_`'s way on the CPU), differentiable when gradients are on."""
    if not x.is_cpu:  # a GPU's tanh is one fast kernel: four would cost more
        return torch.tanh(x)
    if torch.is_grad_enabled() and x.requires_grad:
        return _Tanh.apply(x)
    return x.mul(2).sigmoid_().mul_(2).sub_(1)


Table = tuple[torch.Tensor, torch.Tensor]


def table_of(layers: Sequence[Any]) -> Table:
    """The layers' weights side by side and transposed (inputs x outputs, contiguous: each
    input's weights one run, as the kernel reads them) and their biases, copies taken now.
    A rollout takes it once for all its steps (the weights do not change while it acts: the
    copy costs more than the sparse forward on 64 rows); a fit takes it at each forward."""
    weight_t = torch.cat([layer.weight.detach().t() for layer in layers], 1)
    return weight_t, torch.cat([layer.bias.detach() for layer in layers])


class _FirstLayers(torch.autograd.Function):
    """Several linear layers over the same sparse rows, in one pass over their entries
    (their weights side by side as one transposed table), and the tanh after them when
    ``tanh``: one graph node instead of a split and a tanh per layer."""

    @staticmethod
    def forward(
        ctx: Any, store: SparseRows, rows: np.ndarray, tanh: bool, *params: torch.Tensor
    ) -> Any:
        weights, biases = params[0::2], params[1::2]
        ctx.store, ctx.rows, ctx.tanh = store, rows, tanh
        ctx.widths, ctx.inputs = [w.shape[0] for w in weights], weights[0].shape[1]
        weight_t = torch.cat([w.detach().t() for w in weights], 1)
        out = _forward(weight_t, torch.cat([b.detach() for b in biases]), store, rows)
        if tanh:
            tanh_(out)
            ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor) -> Any:
        if ctx.tanh:
            (out,) = ctx.saved_tensors
            grad = torch.ops.aten.tanh_backward(grad, out)  # tanh' = 1 - tanh^2
        grad = grad.contiguous()
        grad_t = _backward(grad, ctx.store, ctx.rows, ctx.inputs)
        grads: list[torch.Tensor | None] = [None, None, None]
        # transposed whole, once: each layer's gradient a contiguous block, in its weight's
        # layout (a transposed view would be copied again, strided, per layer)
        for grad_w, grad_b in zip(
            grad_t.t().contiguous().split(ctx.widths, 0), grad.sum(0).split(ctx.widths), strict=True
        ):
            grads += [grad_w, grad_b]
        return tuple(grads)


def first_layers(
    layers: Sequence[Any],
    store: Store,
    rows: torch.Tensor,
    table: Table | None = None,
    tanh: bool = False,
) -> list[torch.Tensor]:
    """Each of ``layers`` (same inputs) on rows ``rows`` of ``store``, as ``layer(dense
    rows)`` would give them up to float rounding, with tanh applied when ``tanh``;
    differentiable in the layers' weights and biases. Without gradients, ``table``
    (`table_of` the layers, taken since their last change) saves copying the weights."""
    if isinstance(store, DenseRows):  # on a GPU: the dense layers, the same function
        inputs = store.obs[rows]
        out = torch.cat([F.linear(inputs, layer.weight, layer.bias) for layer in layers], 1)
        return list(
            (torch.tanh(out) if tanh else out).split([layer.out_features for layer in layers], 1)
        )
    rows_np = np.ascontiguousarray(rows.numpy(), np.int64)
    if torch.is_grad_enabled():
        params = [p for layer in layers for p in (layer.weight, layer.bias)]
        out = _FirstLayers.apply(store, rows_np, tanh, *params)
    else:  # acting: no graph to record, and autograd's bookkeeping costs more than the layer
        out = _forward(*(table or table_of(layers)), store, rows_np)
        if tanh:
            tanh_(out)
    return list(out.split([layer.out_features for layer in layers], 1))


def hidden_of(mlp: nn.Sequential, store: Store, rows: torch.Tensor) -> torch.Tensor:
    """``mlp`` on rows ``rows`` of ``store`` up to its last layer's input."""
    tanh = starts_with_tanh(mlp)
    hidden = first_layers([mlp[0]], store, rows, tanh=tanh)[0]
    return _through(list(mlp)[1 + tanh : -1], hidden)


def starts_with_tanh(mlp: nn.Sequential) -> bool:
    """Whether a tanh follows ``mlp``'s first layer (`tanh_mlp` puts one after every layer
    but the last): `first_layers` then applies it."""
    return len(mlp) > 1 and isinstance(mlp[1], nn.Tanh)


# ------------------------------------------------------------------ the legal head

#: What a padding slot's logit is (`friday_agents.learning.networks.MASKED_LOGIT`'s value):
#: far below any real logit, so its probability is exactly 0.
PADDING_LOGIT = -1e9
#: Slots per row tried first by `legal_ids` (a state has 2 legal actions on average).
LEGAL_WIDTH = 16


def legal_ids(mask: torch.Tensor) -> torch.Tensor:
    """Each row's legal action ids in ascending order, padded with -1 to the widest row's
    count (int64, contiguous; on ``mask``'s device)."""
    if not mask.is_cpu:
        return _legal_ids_on_device(mask)
    masks = np.ascontiguousarray(mask.numpy())
    if _sparse is None:
        counts = masks.sum(1)
        order = np.argsort(~masks.astype(bool), axis=1, kind="stable")[:, : max(counts.max(), 1)]
        slots = np.arange(order.shape[1])
        return torch.from_numpy(np.where(slots < counts[:, None], order, -1).astype(np.int64))
    width = LEGAL_WIDTH
    while True:
        ids = np.empty((len(masks), width), np.int64)
        widest = _sparse.legal_ids(masks, ids)
        if widest >= 0:
            return torch.from_numpy(np.ascontiguousarray(ids[:, : max(widest, 1)]))
        width *= 2


def log_softmax_rows(logits: torch.Tensor) -> torch.Tensor:
    """``torch.log_softmax(logits, -1)``, the same floats, computed on the transpose: torch's
    CPU kernel runs a row of a few slots (the legal actions') at a time, an eighth of the
    speed it has along a long contiguous dimension (2048 x 9: 190 against 23 us)."""
    return torch.log_softmax(logits.t().contiguous(), 0).t()


def _legal_ids_on_device(mask: torch.Tensor) -> torch.Tensor:
    """`legal_ids` by torch operations on ``mask``'s device (a stable sort puts each row's
    legal ids first, in ascending order)."""
    counts = mask.sum(1)
    width = max(int(counts.max()), 1)
    order = torch.sort((~mask).to(torch.int8), dim=1, stable=True).indices[:, :width]
    slots = torch.arange(width, device=mask.device)
    return torch.where(slots < counts[:, None], order, -1).contiguous()


class _LegalHead(torch.autograd.Function):
    """A linear layer's outputs for the listed ids of each row only (`legal_head`)."""

    @staticmethod
    def forward(ctx: Any, hidden: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor,
                ids: torch.Tensor) -> Any:  # fmt: skip
        hidden = hidden.contiguous()
        out = torch.empty(ids.shape)
        weight_np, bias_np = weight.detach().numpy(), bias.detach().numpy()
        _sparse.legal_forward(
            hidden.detach().numpy(), weight_np, bias_np, ids.numpy(), PADDING_LOGIT, out.numpy()
        )
        if ctx is not None:
            ctx.save_for_backward(hidden, weight, ids)
        return out

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor) -> Any:
        hidden, weight, ids = ctx.saved_tensors
        grad_hidden = torch.empty_like(hidden)
        grad_weight, grad_bias = torch.zeros_like(weight), torch.zeros(weight.shape[0])
        _sparse.legal_backward(
            grad.contiguous().numpy(),
            hidden.detach().numpy(),
            weight.detach().numpy(),
            ids.numpy(),
            grad_hidden.numpy(),
            grad_weight.numpy(),
            grad_bias.numpy(),
        )
        return grad_hidden, grad_weight, grad_bias, None


def legal_head(layer: nn.Linear, hidden: torch.Tensor, ids: torch.Tensor) -> torch.Tensor:
    """``layer(hidden)`` at the ids of each row (``ids``: `legal_ids`), `PADDING_LOGIT`
    where an id is -1: the logits of the legal actions only, the same numbers as the whole
    layer's up to float rounding, at a hundredth of its work (2 legal actions of 199, on
    average). Differentiable in ``hidden`` and the layer."""
    kernel = _sparse is not None and hidden.is_cpu
    if kernel and torch.is_grad_enabled():
        return _LegalHead.apply(hidden, layer.weight, layer.bias, ids)
    if kernel:  # acting: the forward alone (see first_layers)
        return _LegalHead.forward(None, hidden, layer.weight, layer.bias, ids)
    listed = ids.clamp(min=0)
    logits = (layer.weight[listed] * hidden[:, None, :]).sum(-1) + layer.bias[listed]
    return logits.masked_fill(ids < 0, PADDING_LOGIT)


@dataclass(frozen=True)
class Layers:
    """An ``ActorCritic``'s modules in the order `actor_critic` runs them (`layers_of`): its
    two first layers, whether a tanh follows both, the actor's modules between its first
    layer (and tanh) and its head, its head, and the critic's modules after its first."""

    first: list[nn.Linear]
    tanh: bool
    actor_middle: list[nn.Module]
    actor_head: nn.Linear
    critic_rest: list[nn.Module]


def layers_of(model: Any) -> Layers:
    """``model``'s `Layers`, read once: a rollout takes them for all its steps (indexing an
    ``nn.Sequential`` costs microseconds a time, a tenth of acting on 64 envs)."""
    actor, critic = list(model.actor), list(model.critic)
    tanh = starts_with_tanh(model.actor) and starts_with_tanh(model.critic)
    head = actor[-1]
    return Layers([actor[0], critic[0]], tanh, actor[1 + tanh : -1], head, critic[1 + tanh :])


def actor_critic(
    model: Any,
    store: Store,
    rows: torch.Tensor,
    ids: torch.Tensor,
    table: Table | None = None,
    layers: Layers | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
    """An ``ActorCritic``'s logits of the legal actions ``ids`` (`legal_head`) and its
    critic's values on rows ``rows`` of ``store``; both first layers in one pass over the
    rows' entries (``table``: as for `first_layers`, of `first_of` the model; ``layers``:
    `layers_of` the model, read again when not given)."""
    layers = layers or layers_of(model)
    hidden_actor, hidden_critic = first_layers(layers.first, store, rows, table, layers.tanh)
    logits = legal_head(layers.actor_head, _through(layers.actor_middle, hidden_actor), ids)
    return logits, _through(layers.critic_rest, hidden_critic).squeeze(-1)


def first_of(model: Any) -> list[nn.Linear]:
    """An ``ActorCritic``'s first layers, the actor's and the critic's."""
    return [model.actor[0], model.critic[0]]


def policy_logits(actor: nn.Sequential, store: Store, rows: torch.Tensor, ids: torch.Tensor):
    """The actor's logits of the legal actions ``ids`` on rows ``rows`` of ``store``."""
    return legal_head(_head(actor), hidden_of(actor, store, rows), ids)


def values(critic: nn.Sequential, store: Store, rows: torch.Tensor) -> torch.Tensor:
    """The critic's values on rows ``rows`` of ``store``."""
    head = _head(critic)
    return F.linear(hidden_of(critic, store, rows), head.weight, head.bias).squeeze(-1)


def _head(mlp: nn.Sequential) -> nn.Linear:
    """The last layer of ``mlp``: the linear head `tanh_mlp` ends with."""
    head = mlp[-1]
    if not isinstance(head, nn.Linear):
        raise TypeError(f"the network ends in {type(head).__name__}, not in a linear layer")
    return head


def _through(modules: Sequence[nn.Module], hidden: torch.Tensor) -> torch.Tensor:
    """``hidden`` through ``modules`` (linear layers and tanh, as `tanh_mlp` builds them),
    called as functions: a module call's own overhead is a good part of a small layer's
    cost on 64 rows."""
    for module in modules:
        if isinstance(module, nn.Linear):
            hidden = F.linear(hidden, module.weight, module.bias)
        elif isinstance(module, nn.Tanh):
            hidden = tanh(hidden)
        else:
            hidden = module(hidden)
    return hidden
