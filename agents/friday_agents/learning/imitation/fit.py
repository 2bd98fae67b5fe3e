"""Behaviour cloning and DAgger into the MaskablePPO policy that ``friday train`` trains.

`fit` trains the *same* sb3-contrib ``MaskablePPO`` policy class ``friday train`` builds
(`friday_agents.learning.sb3.train.new_model`, from a
[`friday_agents.learning.sb3.config.TrainConfig`][friday_agents.learning.sb3.config.TrainConfig]) on
a `friday_agents.learning.imitation.data.Dataset`:

- the actor by masked cross-entropy on ``policy.get_distribution(obs, action_masks)``, towards
  the teacher's action (hard labels) or, with ``soft_tau > 0`` and where the teacher reported
  action values, towards ``softmax(q / soft_tau)`` over the legal actions;
- the critic by squared error towards the discounted ``progress`` return of the teacher's game
  from that state (the value PPO fine-tuning starts from).

The result is saved like any ``friday train`` policy
(`friday_agents.players.ppo.checkpoint.export_policy`):
``ppo:model=PATH`` plays it and ``friday train --resume PATH`` or ``--init PATH`` fine-tunes it.

`dagger_game` is one DAgger game: the student plays a training deal, the teacher labels
a share of the states the student reaches (DAgger: the student learns to recover from its own
mistakes, which the teacher's games never show it).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from friday_agents.harness.deals import training_seed
from friday_agents.learning.imitation.data import Dataset, game_line
from friday_agents.learning.sb3.config import TrainConfig
from friday_agents.players.registry import make_agent
from friday_env import Game


@dataclass(frozen=True)
class FitSettings:
    """How `fit` trains: epochs, minibatch, Adam step, soft-target temperature
    (0 = hard labels), weight of the value loss, share of games held out for agreement."""

    epochs: int = 8
    batch_size: int = 512
    learning_rate: float = 1e-3
    soft_tau: float = 0.0
    vf_coef: float = 0.5
    held_out: float = 0.05
    seed: int = 0


def build_model(config: TrainConfig, level: int) -> Any:
    """A fresh MaskablePPO model exactly as ``friday train`` builds it for ``config``."""
    from friday_agents.learning.sb3.train import build_vec_env, new_model

    return new_model(config, build_vec_env(config, level, stream=0))


def split_games(data: Dataset, held_out: float, seed: int) -> tuple[Dataset, Dataset]:
    """Training and held-out decisions, split by whole games (no game on both sides)."""
    games = np.unique(data.games)
    rng = np.random.default_rng(seed)
    chosen = rng.random(len(games)) < held_out
    if held_out > 0 and not chosen.any() and len(games) > 1:
        chosen[0] = True
    held = np.isin(data.games, games[chosen])
    return data.subset(~held), data.subset(held)


def _targets(batch: Dataset, tau: float) -> Any:
    """Target distribution per decision: one-hot on the teacher's action, or the softmax of
    its values over the legal actions where it reported them."""
    import torch

    onehot = np.zeros(batch.masks.shape, dtype=np.float32)
    onehot[np.arange(len(batch)), batch.actions] = 1.0
    if tau > 0 and batch.has_q.any():
        values = batch.q.astype(np.float32)
        tried = batch.masks & np.isfinite(values)  # a pruned teacher valued only some actions
        q = np.where(tried, values / tau, -np.inf)
        soft = np.exp(q - q.max(axis=1, keepdims=True))
        soft /= soft.sum(axis=1, keepdims=True)
        onehot = np.where(batch.has_q[:, None], soft, onehot)
    return torch.as_tensor(onehot)


def _losses(policy: Any, batch: Dataset, tau: float) -> tuple[Any, Any, Any]:
    """Cross-entropy, value error and agreement (argmax = teacher) on ``batch``."""
    import torch

    device = policy.device  # the model's (``--device``): each batch is copied there once
    obs = torch.as_tensor(batch.obs.astype(np.float32)).to(device)
    dist = policy.get_distribution(obs, action_masks=batch.masks)
    log_probs = dist.distribution.logits  # masked and normalised: illegal ones near -1e8
    cross_entropy = -(_targets(batch, tau).to(device) * log_probs).sum(dim=1).mean()
    values = policy.predict_values(obs).squeeze(-1)
    returns = torch.as_tensor(batch.returns, dtype=values.dtype).to(device)
    value_error = torch.nn.functional.mse_loss(values, returns)
    agreement = (log_probs.argmax(dim=1).cpu().numpy() == batch.actions).mean()
    return cross_entropy, value_error, agreement


def fit(
    model: Any,
    data: Dataset,
    settings: FitSettings,
    report: Callable[[dict[str, float]], None] | None = None,
) -> list[dict[str, float]]:
    """Train ``model.policy`` on ``data`` (see the module docstring); one log row per epoch
    with the training losses and the held-out cross-entropy, value error and agreement."""
    import torch

    policy = model.policy
    train, held = split_games(data, settings.held_out, settings.seed)
    optimizer = torch.optim.Adam(policy.parameters(), lr=settings.learning_rate)
    rng = np.random.default_rng(settings.seed)
    log = []
    for epoch in range(1, settings.epochs + 1):
        started = time.process_time()
        policy.set_training_mode(True)
        totals = np.zeros(3)
        order = rng.permutation(len(train))
        for start in range(0, len(order), settings.batch_size):
            batch = train.subset(order[start : start + settings.batch_size])
            cross_entropy, value_error, agreement = _losses(policy, batch, settings.soft_tau)
            loss = cross_entropy + settings.vf_coef * value_error
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 1.0)
            optimizer.step()
            totals += np.array([cross_entropy.item(), value_error.item(), agreement]) * len(batch)
        row = {"epoch": epoch, "decisions": len(train), "cpu_seconds": 0.0}
        names = ("train_ce", "train_value_mse", "train_agreement")
        row.update(zip(names, (float(x) for x in totals / len(train)), strict=True))
        row.update(_held_out_row(policy, held, settings.soft_tau))
        row["cpu_seconds"] = round(time.process_time() - started, 2)
        log.append(row)
        if report:
            report(row)
    policy.set_training_mode(False)
    return log


def _held_out_row(policy: Any, held: Dataset, tau: float) -> dict[str, float]:
    import torch

    if len(held) == 0:
        return {}
    policy.set_training_mode(False)
    with torch.no_grad():
        sums = np.zeros(3)
        for start in range(0, len(held), 4096):
            batch = held.subset(np.arange(start, min(start + 4096, len(held))))
            ce, mse, agree = _losses(policy, batch, tau)
            sums += np.array([ce.item(), mse.item(), agree]) * len(batch)
    names = ("held_out_ce", "held_out_value_mse", "held_out_agreement")
    return dict(zip(names, (float(x) for x in sums / len(held)), strict=True))


# ----------------------------------------------------------------------- DAgger

_STUDENTS: dict[str, Any] = {}


def dagger_game(job: tuple[str, str, int, int, float]) -> dict[str, Any]:
    """One DAgger game: ``(student checkpoint, teacher spec, level, deal index, label
    share)``. The student plays; the teacher labels each decision with a choice with
    probability ``label share`` (drawn from a generator seeded by the deal)."""
    from friday_agents.players.ppo import PPOAgent

    student_path, spec, level, index, share = job
    if student_path not in _STUDENTS:
        _STUDENTS[student_path] = PPOAgent(model=student_path)
    student, teacher = _STUDENTS[student_path], make_agent(spec)
    seed = training_seed(level, index)
    started = time.process_time()
    game = Game.new(level, seed)
    student.reset(seed)
    teacher.reset(seed)
    rng = np.random.default_rng([seed, 1])
    labels: dict[str, int] = {}
    q: dict[str, list] = {}
    while not game.done:
        if len(game.legal_actions()) > 1 and rng.random() < share:
            step = str(len(game.history))
            labels[step] = int(teacher.act(game))
            values = getattr(teacher, "last_values", None)
            if values is not None:
                q[step] = [[a, round(v, 3)] for a, v in values]
        game.apply(student.act(game))
    seconds = time.process_time() - started
    return game_line(spec, level, index, game, seconds, q=q, labels=labels, student=student_path)


def save_policy(model: Any, path: Path) -> None:
    """Write ``model`` as a ``policy.zip`` (what ``ppo:model=PATH`` and ``--init`` read),
    whole or not at all."""
    from friday_agents.harness.files import replace_atomically
    from friday_agents.learning.sb3.train import export_policy

    path.parent.mkdir(parents=True, exist_ok=True)
    replace_atomically(path, lambda temporary: export_policy(model, temporary))
