"""``friday rl``'s clipped PPO loss as one autograd node (`ppo_loss`): the same terms and the
same gradients as writing it out in torch operations
([`friday_agents.learning.rl.ppo`][friday_agents.learning.rl.ppo] did),
up to float rounding, at a fraction of the cost: written out, its thirty-odd small operations
on (minibatch x legal slots) tensors each record a graph node, and their bookkeeping cost
more than their arithmetic. Here the forward computes every term without a graph and the
gradients with respect to the logits and the values in closed form, and the backward only
scales them.

The terms, over a minibatch of B rows (``logits``: each row's legal actions' logits, padding
slots at `PADDING_LOGIT`; log p their log-softmax with the padding slots set to 0):

- policy: mean of max(-A r, -A clip(r, 1 - eps, 1 + eps)), r = exp(log p[slot] - old log p),
  A the advantages normalised over the minibatch;
- value: 0.5 mean (v - R)^2;
- entropy: -mean sum p log p;
- KL(start || policy): mean (sum q log q - sum q log p), its gradient only when ``kl_coef``
  is above 0 (otherwise it is measured);
- loss = policy + vf_coef value - ent_coef entropy + kl_coef KL.

torch's conventions are kept where the gradient has a choice: max splits it evenly when both
sides are equal (as ``torch.max`` of two tensors does), clip passes it at either bound.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import torch

from friday_agents.learning.sparse import log_softmax_rows


@dataclass(frozen=True)
class Coefficients:
    """The loss's weights: the clip range and each term's coefficient."""

    clip: float
    vf_coef: float
    ent_coef: float
    kl_coef: float


def _terms(
    logits: torch.Tensor, value: torch.Tensor, mb: dict[str, torch.Tensor], c: Coefficients
) -> tuple[dict[str, torch.Tensor], torch.Tensor, torch.Tensor]:
    """Every term of the loss, and the loss's gradients with respect to ``logits`` and
    ``value`` (no graph)."""
    rows = len(value)
    padding = mb["ids"] < 0
    log_probs = log_softmax_rows(logits).masked_fill(padding, 0.0)
    probs = log_probs.exp()
    slot = mb["slot"][:, None]
    new_logp = log_probs.gather(1, slot).squeeze(1)
    log_ratio = new_logp - mb["logp"]
    ratio = log_ratio.exp()
    adv = mb["advantage"]
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    clipped = ratio.clamp(1 - c.clip, 1 + c.clip)
    unclipped_side, clipped_side = -adv * ratio, -adv * clipped
    policy_loss = torch.max(unclipped_side, clipped_side).mean()
    value_error = value - mb["return"]
    value_loss = 0.5 * (value_error**2).mean()
    entropy = -(probs * log_probs).sum(-1).mean()
    q = mb["reference_q"]
    kl = (mb["reference_q_log_q"] - (q * log_probs).sum(-1)).mean()
    loss = policy_loss + c.vf_coef * value_loss - c.ent_coef * entropy
    loss = loss + c.kl_coef * kl
    # d loss / d log p: the policy term at each row's slot, the entropy's and the KL's
    even = 0.5 * (unclipped_side == clipped_side)
    to_unclipped = (unclipped_side > clipped_side) + even
    inside = (ratio >= 1 - c.clip) & (ratio <= 1 + c.clip)
    to_clipped = ((clipped_side > unclipped_side) + even) * inside
    grad_new_logp = -adv * (to_unclipped + to_clipped) * ratio / rows
    grad_log_probs = (c.ent_coef / rows) * probs * (log_probs + 1)
    if c.kl_coef > 0:
        grad_log_probs = grad_log_probs - (c.kl_coef / rows) * q
    grad_log_probs.scatter_add_(1, slot, grad_new_logp[:, None])
    grad_log_probs.masked_fill_(padding, 0.0)
    # through the log-softmax (a padding slot's probability is 0)
    softmax = probs.masked_fill(padding, 0.0)
    grad_logits = grad_log_probs - softmax * grad_log_probs.sum(-1, keepdim=True)
    grad_value = (c.vf_coef / rows) * value_error
    with torch.no_grad():
        approx_kl = ((ratio - 1) - log_ratio).mean()
        clip_fraction = ((ratio - 1.0).abs() > c.clip).float().mean()
    parts = {
        "loss": loss,
        "policy_loss": policy_loss,
        "value_loss": value_loss,
        "entropy": entropy,
        "kl_to_start": kl,
        "approx_kl": approx_kl,
        "clip_fraction": clip_fraction,
    }
    return parts, grad_logits, grad_value


class _PPOLoss(torch.autograd.Function):
    """The loss of `_terms` as one node: its backward scales the gradients found forward."""

    @staticmethod
    def forward(ctx: Any, logits: torch.Tensor, value: torch.Tensor, mb: Any, c: Any) -> Any:
        parts, grad_logits, grad_value = _terms(logits.detach(), value.detach(), mb, c)
        ctx.save_for_backward(grad_logits, grad_value)
        ctx.parts = parts
        return parts["loss"].clone()

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor) -> Any:
        grad_logits, grad_value = ctx.saved_tensors
        return grad_logits * grad, grad_value * grad, None, None


def ppo_loss(
    logits: torch.Tensor, value: torch.Tensor, mb: dict[str, torch.Tensor], c: Coefficients
) -> dict[str, torch.Tensor]:
    """The loss (``loss``, differentiable in ``logits`` and ``value``) and its terms (without
    gradients: ``policy_loss``, ``value_loss``, ``entropy``, ``kl_to_start``, ``approx_kl``,
    ``clip_fraction``) on the minibatch ``mb`` (``ids``, ``slot``, ``logp``, ``advantage``,
    ``return``, ``reference_q``, ``reference_q_log_q``)."""
    if not torch.is_grad_enabled():
        return _terms(logits, value, mb, c)[0]
    loss = _PPOLoss.apply(logits, value, mb, c)
    return {**loss.grad_fn.parts, "loss": loss}  # the terms its forward found
