"""``friday rl``'s sparse layers (friday_agents.learning.sparse): the first layer over the
observation's non-zeros and the last layer over the legal actions give the dense layers'
values and gradients within float tolerance, on real observations, with the C kernel and
with its numpy/torch twin."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import gymnasium as gym  # noqa: E402

import friday_env  # noqa: E402, F401  (registers Friday-v0)
from friday_agents.learning import sparse  # noqa: E402
from friday_agents.learning.networks import MASKED_LOGIT, ActorCritic  # noqa: E402
from friday_agents.learning.rl.rollout import sample  # noqa: E402

#: The kernel where it is built, and the twin always.
KERNELS = ["c", "twin"] if sparse._sparse is not None else ["twin"]


@pytest.fixture(params=KERNELS)
def kernel(request, monkeypatch):
    if request.param == "twin":
        monkeypatch.setattr(sparse, "_sparse", None)
    return request.param


def random_play(steps: int = 20, envs: int = 16, seed: int = 0):
    """Observations and masks met by random legal play, stacked."""
    vec = gym.make_vec("Friday-v0", envs, vectorization_mode="vector_entry_point", level=1)
    obs, info = vec.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen, masks = [], []
    for _ in range(steps):
        seen.append(obs.copy())
        masks.append(info["action_mask"].astype(bool))
        actions = [rng.choice(np.flatnonzero(m)) for m in info["action_mask"]]
        obs, _, _, _, info = vec.step(np.array(actions))
    vec.close()
    return np.concatenate(seen), torch.from_numpy(np.concatenate(masks))


@pytest.fixture(scope="module")
def played():
    return random_play()


def test_rows_hold_the_observations_exactly(played, kernel):
    obs, _ = played
    store = sparse.SparseRows(4, entries_per_row=2)  # grows as it fills
    rows = torch.cat([store.append(obs[i : i + 16]) for i in range(0, len(obs), 16)])
    assert torch.equal(rows, torch.arange(len(obs)))
    assert torch.equal(store.dense(rows, obs.shape[1]), torch.from_numpy(obs))
    assert store.ptr[len(obs)] == np.count_nonzero(obs)


@pytest.mark.parametrize("tanh", [False, True])
def test_first_layers_equal_the_dense_layers_and_their_gradients(played, kernel, tanh):
    obs, _ = played
    torch.manual_seed(0)
    model = ActorCritic.new([32, 16], [8])
    layers = sparse.first_of(model)
    store = sparse.SparseRows(len(obs))
    store.append(obs)
    rows = torch.randperm(len(obs))[:100]  # a minibatch, in shuffled order
    dense = torch.from_numpy(obs)[rows]
    weights = [torch.randn(100, layer.out_features) for layer in layers]

    def gradients(outputs):
        for layer in layers:
            layer.weight.grad = layer.bias.grad = None
        sum((o * w).sum() for o, w in zip(outputs, weights, strict=True)).backward()
        return [p.grad.clone() for layer in layers for p in (layer.weight, layer.bias)]

    ours = sparse.first_layers(layers, store, rows, tanh=tanh)
    theirs = [torch.tanh(layer(dense)) if tanh else layer(dense) for layer in layers]
    for a, b in zip(ours, theirs, strict=True):
        torch.testing.assert_close(a, b, rtol=1e-5, atol=1e-5)
    for a, b in zip(gradients(ours), gradients(theirs), strict=True):
        torch.testing.assert_close(a, b, rtol=1e-5, atol=1e-4)
    with torch.no_grad():  # acting: the same values from a table taken once
        table = sparse.table_of(layers)
        acted = sparse.first_layers(layers, store, rows, table, tanh)
        for a, b in zip(acted, theirs, strict=True):
            torch.testing.assert_close(a, b, rtol=1e-5, atol=1e-5)


def test_the_networks_on_sparse_rows_equal_the_dense_networks(played, kernel):
    obs, masks = played
    torch.manual_seed(3)
    model = ActorCritic.new([32, 16])
    store = sparse.SparseRows(len(obs))
    rows = store.append(obs)
    ids = sparse.legal_ids(masks)
    dense = torch.from_numpy(obs)
    logits, value = sparse.actor_critic(model, store, rows, ids)
    whole = model.masked_logits(dense, masks)
    expected = whole.gather(1, ids.clamp(min=0)).masked_fill(ids < 0, sparse.PADDING_LOGIT)
    torch.testing.assert_close(logits, expected, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(value, model.value(dense), rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(sparse.values(model.critic, store, rows), value)
    alone = sparse.policy_logits(model.actor, store, rows, ids)
    torch.testing.assert_close(alone, logits)


def test_legal_ids_list_each_rows_legal_actions_in_order(played, kernel, monkeypatch):
    _, masks = played
    monkeypatch.setattr(sparse, "LEGAL_WIDTH", 1)  # widened as needed
    ids = sparse.legal_ids(masks)
    assert ids.shape[1] == masks.sum(1).max()
    for row, mask in zip(ids.tolist(), masks, strict=True):
        legal = np.flatnonzero(mask.numpy()).tolist()
        assert row == legal + [-1] * (len(row) - len(legal))


def test_legal_head_equals_the_whole_layer_at_the_legal_actions(played, kernel):
    _, masks = played
    torch.manual_seed(1)
    layer = torch.nn.Linear(12, masks.shape[1])
    hidden = torch.randn(len(masks), 12, requires_grad=True)
    ids = sparse.legal_ids(masks)
    ours = sparse.legal_head(layer, hidden, ids)
    whole = layer(hidden)
    theirs = whole.gather(1, ids.clamp(min=0)).masked_fill(ids < 0, sparse.PADDING_LOGIT)
    torch.testing.assert_close(ours, theirs, rtol=1e-5, atol=1e-5)
    weights = torch.randn(ours.shape).masked_fill(ids < 0, 0.0)

    def gradients(out):
        for p in (hidden, layer.weight, layer.bias):
            p.grad = None
        (out * weights).sum().backward()
        return [p.grad.clone() for p in (hidden, layer.weight, layer.bias)]

    for a, b in zip(gradients(ours), gradients(theirs), strict=True):
        torch.testing.assert_close(a, b, rtol=1e-5, atol=1e-5)
    assert sparse.PADDING_LOGIT == MASKED_LOGIT


def test_draws_are_legal_and_follow_the_policy(played):
    _, masks = played
    ids = sparse.legal_ids(masks)
    torch.manual_seed(2)
    logits = torch.randn(ids.shape).masked_fill(ids < 0, sparse.PADDING_LOGIT)
    generator = torch.Generator().manual_seed(0)
    counts = torch.zeros(ids.shape)
    for _ in range(400):
        slot, logp = sample(logits, generator)
        assert (ids.gather(1, slot[:, None]) >= 0).all()  # never a padding slot
        expected = torch.log_softmax(logits, -1).gather(1, slot[:, None]).squeeze(1)
        torch.testing.assert_close(logp, expected)
        counts[torch.arange(len(slot)), slot] += 1
    frequencies = counts.sum(0) / counts.sum()
    probabilities = torch.softmax(logits, -1).mean(0)
    assert (frequencies - probabilities).abs().max() < 0.02  # 400 draws of each of 320 rows


def test_the_kernel_refuses_what_is_out_of_range(played):
    if sparse._sparse is None:
        pytest.skip("the kernel is not built")
    obs, _ = played
    store = sparse.SparseRows(len(obs))
    store.append(obs)
    table, bias = torch.zeros(obs.shape[1], 4).numpy(), np.zeros(4, np.float32)
    out = np.zeros((1, 4), np.float32)
    for rows in ([len(obs)], [-1]):
        with pytest.raises(ValueError, match="out of range"):
            sparse._sparse.forward(
                table, bias, store.ptr, store.idx, store.val, np.array(rows, np.int64), out
            )
    short = np.zeros((3, 4), np.float32)  # fewer inputs than the observations hold
    with pytest.raises(ValueError, match="out of range"):
        sparse._sparse.forward(
            short, bias, store.ptr, store.idx, store.val, np.array([0], np.int64), out
        )
    ids = np.array([[0, 500]], np.int64)
    with pytest.raises(ValueError, match="ids in"):
        sparse._sparse.legal_forward(
            np.zeros((1, 4), np.float32), np.zeros((5, 4), np.float32),
            np.zeros(5, np.float32), ids, -1.0, np.zeros((1, 2), np.float32),
        )  # fmt: skip


# ------------------------------------------------------------------ the GPU's path


def test_the_dense_rows_give_the_sparse_rows_values_and_gradients(played, kernel):
    """On a GPU the trainer keeps the observations whole (`DenseRows`) and every function
    takes its dense torch path: the same function as the kernel's, checked here on the
    CPU (the device is the only difference)."""
    obs, masks = played
    torch.manual_seed(5)
    model = ActorCritic.new([32, 16])
    stores = [sparse.SparseRows(len(obs)), sparse.DenseRows(4, obs.shape[1], torch.device("cpu"))]
    results = []
    for store in stores:
        rows = store.append(obs)  # DenseRows grows from 4 rows as it fills
        ids = sparse._legal_ids_on_device(masks) if isinstance(store, sparse.DenseRows) else None
        ids = sparse.legal_ids(masks) if ids is None else ids
        model.zero_grad()
        logits, value = sparse.actor_critic(model, store, rows, ids)
        (logits.masked_fill(ids < 0, 0.0).sum() + value.sum()).backward()
        grads = [p.grad.clone() for p in model.parameters()]
        results.append((ids, logits, value, grads))
        assert torch.equal(store.dense(rows, obs.shape[1]), torch.from_numpy(obs))
    (ids_s, logits_s, value_s, grads_s), (ids_d, logits_d, value_d, grads_d) = results
    assert torch.equal(ids_s, ids_d)
    torch.testing.assert_close(logits_d, logits_s, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(value_d, value_s, rtol=1e-5, atol=1e-5)
    for a, b in zip(grads_d, grads_s, strict=True):
        torch.testing.assert_close(a, b, rtol=1e-4, atol=1e-5)


def test_without_the_kernel_the_trainer_keeps_whole_rows_and_trains(tmp_path, monkeypatch, tiny_rl):
    """No C kernel (no compiler at install): the trainer runs the dense layers, the same
    function, instead of the sparse layer's slow twin; a tiny run trains and resumes."""
    from friday_agents.learning.rl.trainer import Trainer

    monkeypatch.setattr(sparse, "_sparse", None)
    run = Trainer(tiny_rl(tmp_path / "dense"))
    assert isinstance(run.rows, sparse.DenseRows)
    run.run()
    resumed = Trainer(tiny_rl(tmp_path / "dense", frames=6 * 4 * 32), resume=True)
    resumed.run()
    assert resumed.updates == 6
