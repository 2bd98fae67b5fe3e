"""``friday rl``'s PPO loss as one autograd node (`friday_agents.learning.rl.loss`) gives the
terms and the gradients of the loss written out in torch operations, as the trainer wrote it
before (kept here as `written_out`), to float rounding."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from friday_agents.learning.rl.loss import Coefficients, ppo_loss  # noqa: E402
from friday_agents.learning.sparse import PADDING_LOGIT  # noqa: E402


def written_out(logits, value, mb, c: Coefficients) -> dict:
    """The loss in torch operations, autograd's gradients (the trainer's code before)."""
    value_loss = 0.5 * ((value - mb["return"]) ** 2).mean()
    log_probs = torch.log_softmax(logits, -1).masked_fill(mb["ids"] < 0, 0.0)
    new_logp = log_probs.gather(1, mb["slot"][:, None]).squeeze(1)
    log_ratio = new_logp - mb["logp"]
    ratio = log_ratio.exp()
    adv = mb["advantage"]
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    clipped = ratio.clamp(1 - c.clip, 1 + c.clip)
    policy_loss = torch.max(-adv * ratio, -adv * clipped).mean()
    entropy = -(log_probs.exp() * log_probs).sum(-1).mean()
    kl_log_probs = log_probs if c.kl_coef > 0 else log_probs.detach()
    kl = (mb["reference_q_log_q"] - (mb["reference_q"] * kl_log_probs).sum(-1)).mean()
    loss = policy_loss + c.vf_coef * value_loss - c.ent_coef * entropy + c.kl_coef * kl
    with torch.no_grad():
        approx_kl = ((ratio - 1) - log_ratio).mean()
        clip_fraction = ((ratio - 1.0).abs() > c.clip).float().mean()
    return {
        "loss": loss,
        "policy_loss": policy_loss,
        "value_loss": value_loss,
        "entropy": entropy,
        "kl_to_start": kl,
        "approx_kl": approx_kl,
        "clip_fraction": clip_fraction,
    }


def minibatch(seed: int, rows: int = 512, slots: int = 9) -> tuple:
    """Legal-slot logits with padding (1 to ``slots`` legal actions a row), values and what a
    rollout stored; a third of the rows taken at the policy's own log-probability (ratio
    exactly 1: max's two sides equal), a few far outside the clip range."""
    g = torch.Generator().manual_seed(seed)
    counts = torch.randint(1, slots + 1, (rows,), generator=g)
    ids = torch.arange(slots).expand(rows, slots).clone()
    ids[ids >= counts[:, None]] = -1
    logits = torch.randn(rows, slots, generator=g).masked_fill(ids < 0, PADDING_LOGIT)
    slot = (torch.rand(rows, generator=g) * counts).long()
    log_probs = torch.log_softmax(logits, -1)
    logp = log_probs.gather(1, slot[:, None]).squeeze(1)
    logp = logp + torch.randn(rows, generator=g) * 0.3 * (torch.arange(rows) % 3 != 0)
    logp[::17] -= 2.0
    q = torch.softmax(torch.randn(rows, slots, generator=g).masked_fill(ids < 0, -1e9), -1)
    log_q = torch.log(q).masked_fill(ids < 0, 0.0)
    mb = {
        "ids": ids,
        "slot": slot,
        "logp": logp,
        "advantage": torch.randn(rows, generator=g),
        "return": torch.randn(rows, generator=g),
        "reference_q": q.masked_fill(ids < 0, 0.0),
        "reference_q_log_q": (q * log_q).masked_fill(ids < 0, 0.0).sum(-1),
    }
    return logits, torch.randn(rows, generator=g), mb


@pytest.mark.parametrize("kl_coef", [0.0, 0.3])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_one_node_gives_the_written_out_terms_and_gradients(seed, kl_coef):
    c = Coefficients(clip=0.2, vf_coef=0.5, ent_coef=0.01, kl_coef=kl_coef)
    logits, value, mb = minibatch(seed)
    results = []
    for loss_of in (written_out, ppo_loss):
        x, v = logits.clone().requires_grad_(), value.clone().requires_grad_()
        parts = loss_of(x, v, mb, c)
        parts["loss"].backward()
        results.append((parts, x.grad, v.grad))
    (want, want_x, want_v), (got, got_x, got_v) = results
    assert sorted(got) == sorted(want)
    for key in want:
        torch.testing.assert_close(got[key].detach(), want[key].detach(), rtol=1e-5, atol=1e-7)
    torch.testing.assert_close(got_x, want_x, rtol=1e-4, atol=1e-8)
    torch.testing.assert_close(got_v, want_v, rtol=1e-5, atol=1e-9)
    assert bool((got_x[mb["ids"] < 0] == 0).all())  # no gradient into a padding slot
    assert float(got["clip_fraction"]) > 0  # both sides of the clip were exercised


def test_without_gradients_it_gives_the_terms_only():
    c = Coefficients(clip=0.2, vf_coef=0.5, ent_coef=0.01, kl_coef=0.0)
    logits, value, mb = minibatch(5)
    with torch.no_grad():
        parts = ppo_loss(logits, value, mb, c)
    want = written_out(logits, value, mb, c)
    for key in want:
        torch.testing.assert_close(parts[key], want[key].detach(), rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("hidden", [[32, 16], [8], [16, 8, 8]])
def test_the_sparse_network_has_the_dense_networks_gradients(hidden):
    """`actor_critic` on the CPU kernel's rows (its first layers' and legal head's own
    backward, tanh as 2 sigmoid(2x) - 1) gives the gradients autograd finds through the dense
    networks, for every parameter."""
    import numpy as np

    from friday_agents.learning import sparse
    from friday_agents.learning.networks import ActorCritic
    from friday_env.observation import FLAT_SIZE

    if not sparse.kernel_built():
        pytest.skip("the sparse kernel is not built")
    rng = np.random.default_rng(0)
    obs = np.zeros((64, FLAT_SIZE), np.float32)
    for row in obs:
        row[rng.choice(FLAT_SIZE, 60, replace=False)] = rng.random(60).astype(np.float32)
    masks = torch.from_numpy(rng.random((64, 199)) < 0.03)
    masks[:, 0] |= ~masks.any(1)  # every row has a legal action
    torch.manual_seed(1)
    model = ActorCritic.new(hidden)
    store = sparse.SparseRows(64)
    rows = store.append(obs)
    ids = sparse.legal_ids(masks)
    weights = torch.randn(ids.shape).masked_fill(ids < 0, 0.0)
    gradients = []
    for logits, value in (
        sparse.actor_critic(model, store, rows, ids),
        (
            model.masked_logits(torch.from_numpy(obs), masks)
            .gather(1, ids.clamp(min=0))
            .masked_fill(ids < 0, 0.0),
            model.value(torch.from_numpy(obs)),
        ),
    ):
        model.zero_grad(set_to_none=True)
        ((logits.masked_fill(ids < 0, 0.0) * weights).sum() + (value**2).sum()).backward()
        gradients.append([p.grad.clone() for p in model.parameters()])
    for got, want in zip(*gradients, strict=True):
        torch.testing.assert_close(got, want, rtol=1e-4, atol=1e-6)
