"""``friday thirteen train``: PPO by self-play for *Friday the 13th* (torch, one process).

Games run side by side. At each game's start every seat is the current network with
probability ``self_share`` and otherwise the heuristic (at least one seat is the network), so
the network learns against itself and against the rulebook's tips at once; every network
seat's moves are training data. After every move a network seat earns minus the change in its
standing (its points if the round ended now, less the other players' mean, divided by 10):
these sum to minus its relative bad luck of the round. At the game's end it earns
``win_weight`` times its win share less ``1/players``. Advantages: GAE (gamma 1, lambda
0.95) over each seat's game.

With ``imitate_moves`` the network first imitates the heuristic (cross-entropy to its moves in
games it plays at every seat, and its returns as the value target, ``imitate_epochs`` passes):
a warm start, curve row 0, whose CPU time counts in the budget. PPO then improves on it.

Every ``eval_every`` updates the greedy network plays the heuristic at 4 players on
validation deals (seeds from 1,000,000: never the evaluation's deals 0-999) and a row goes to
``curve.csv``; ``best.npz`` is the network of the best validation win rate so far,
``last.npz`` the latest. ``checkpoint.pt`` is written after every update and ``--resume``
continues from it (the games in flight start anew). Adam's step size falls linearly with the
CPU spent, to a tenth of ``lr`` at the budget's end. Training stops when the process's CPU
time (``time.process_time``, all threads) passes ``cpu_minutes``.
"""

from __future__ import annotations

import csv
import pickle
import time
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from friday_agents.harness.files import replace_atomically
from friday_agents.learning.run_folder import RunFolderError, require_regular_file, write_config
from friday_agents.thirteen.evaluation import VALIDATION_FIRST_DEAL, play_seat
from friday_agents.thirteen.heuristic import heuristic_action
from friday_agents.thirteen.network import PolicyNet
from friday_agents.thirteen.players import HeuristicAgent13
from friday_agents.thirteen.train_config import TrainConfig
from friday_env.thirteen.cards import NUM_ACTIONS
from friday_env.thirteen.encode import OBSERVATION_SIZE, encode
from friday_env.thirteen.game import Game13
from friday_env.thirteen.scoring import round_points


class ActorCritic(nn.Module):
    def __init__(self, hidden: int) -> None:
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(OBSERVATION_SIZE, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh()
        )
        self.policy = nn.Linear(hidden, NUM_ACTIONS)
        self.value = nn.Linear(hidden, 1)
        nn.init.orthogonal_(self.policy.weight, 0.01)
        nn.init.zeros_(self.policy.bias)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        hidden = self.body(obs)
        logits = self.policy(hidden).masked_fill(~mask, -1e9)
        return logits, self.value(hidden).squeeze(-1)

    def to_numpy(self) -> PolicyNet:
        layers = [typing.cast(nn.Linear, self.body[0]), typing.cast(nn.Linear, self.body[2])]
        layers += [self.policy, self.value]
        arrays: dict[str, np.ndarray] = {}
        for (w, b), layer in zip(
            (("w1", "b1"), ("w2", "b2"), ("wp", "bp"), ("wv", "bv")), layers, strict=True
        ):
            arrays[w] = layer.weight.detach().numpy().T.copy()
            arrays[b] = layer.bias.detach().numpy().copy()
        return PolicyNet(arrays)


@dataclass
class Episode:
    """One network seat's moves in one game."""

    obs: list[np.ndarray] = field(default_factory=list)
    masks: list[np.ndarray] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    logps: list[float] = field(default_factory=list)
    values: list[float] = field(default_factory=list)
    rewards: list[float] = field(default_factory=list)


class Table:
    """A game in flight: which seats the network plays and their episodes."""

    def __init__(self, rng: np.random.Generator, config: TrainConfig, every_seat=False) -> None:
        players = int(rng.choice(config.players))
        self.game = Game13.new(players, int(rng.integers(2**31)))
        net_seats = rng.random(players) < (1.0 if every_seat else config.self_share)
        net_seats[int(rng.integers(players))] = True
        self.episodes = {seat: Episode() for seat in range(players) if net_seats[seat]}
        self.win_weight = config.win_weight

    def play_heuristic_seats(self) -> None:
        """Heuristic seats move until a network seat is to play or the game ends."""
        while not self.game.done and self.game.current_player not in self.episodes:
            self.apply(heuristic_action(self.game))

    def apply(self, action: int) -> None:
        """Play ``action``; each network seat's last move earns the change in its relative
        standing (shaping that sums to the round's relative bad luck), and the win share
        at the game's end."""
        game = self.game
        before, rounds = self.standings(), len(game.round_scores)
        game.apply(action)
        ended = len(game.round_scores) > rounds  # then the round's points, not the new deal's
        after = relative(game.round_scores[-1]) if ended else self.standings()
        for seat, episode in self.episodes.items():
            if episode.rewards:
                episode.rewards[-1] -= (after[seat] - before[seat]) / 10.0
        if game.done:
            shares = game.win_shares()
            for seat, episode in self.episodes.items():
                episode.rewards[-1] += self.win_weight * (shares[seat] - 1.0 / game.players)

    def standings(self) -> list[float]:
        return relative(round_points(self.game.taken))


def relative(points: list[int]) -> list[float]:
    """Each player's points less the others' mean."""
    total, n = sum(points), len(points)
    return [p - (total - p) / (n - 1) for p in points]


class Batch:
    """Finished episodes' transitions with their advantages and returns."""

    def __init__(self) -> None:
        self.parts: dict[str, list[Any]] = {
            k: [] for k in ("obs", "masks", "actions", "logps", "adv", "ret")
        }
        self.size = 0

    def add(self, episode: Episode, lam: float) -> None:
        values = np.asarray([*episode.values, 0.0], dtype=np.float32)
        rewards = np.asarray(episode.rewards, dtype=np.float32)
        advantages = np.zeros_like(rewards)
        running = 0.0
        for t in range(len(rewards) - 1, -1, -1):
            delta = rewards[t] + values[t + 1] - values[t]
            running = delta + lam * running
            advantages[t] = running
        self.parts["obs"].extend(episode.obs)
        self.parts["masks"].extend(episode.masks)
        self.parts["actions"].extend(episode.actions)
        self.parts["logps"].extend(episode.logps)
        self.parts["adv"].extend(advantages.tolist())
        self.parts["ret"].extend((advantages + values[:-1]).tolist())
        self.size += len(rewards)

    def tensors(self) -> dict[str, torch.Tensor]:
        return {
            "obs": torch.as_tensor(np.stack(self.parts["obs"])),
            "masks": torch.as_tensor(np.stack(self.parts["masks"])),
            "actions": torch.as_tensor(self.parts["actions"], dtype=torch.long),
            "logps": torch.as_tensor(self.parts["logps"], dtype=torch.float32),
            "adv": torch.as_tensor(self.parts["adv"], dtype=torch.float32),
            "ret": torch.as_tensor(self.parts["ret"], dtype=torch.float32),
        }


def collect(model: ActorCritic, tables: list[Table], rng: np.random.Generator, config) -> Batch:
    """Play the tables until ``steps_per_update`` transitions of finished episodes are in."""
    batch = Batch()
    while batch.size < config.steps_per_update:
        for i, table in enumerate(tables):
            table.play_heuristic_seats()
            if table.game.done:
                for episode in table.episodes.values():
                    batch.add(episode, config.lam)
                tables[i] = table = Table(rng, config)
                table.play_heuristic_seats()
        obs = np.stack([encode(t.game, t.game.current_player) for t in tables])
        masks = np.stack([t.game.legal_mask() for t in tables])
        with torch.no_grad():
            logits, values = model(torch.as_tensor(obs), torch.as_tensor(masks))
            dist = torch.distributions.Categorical(logits=logits)
            actions = dist.sample()
            logps = dist.log_prob(actions)
        for k, table in enumerate(tables):
            episode = table.episodes[table.game.current_player]
            episode.obs.append(obs[k])
            episode.masks.append(masks[k])
            episode.actions.append(int(actions[k]))
            episode.logps.append(float(logps[k]))
            episode.values.append(float(values[k]))
            episode.rewards.append(0.0)
            table.apply(int(actions[k]))
    return batch


def imitation_batch(rng: np.random.Generator, config: TrainConfig) -> Batch:
    """``imitate_moves`` moves of the heuristic playing every seat, with each move's return
    (the same shaped rewards as PPO's) as the value target."""
    batch = Batch()
    while batch.size < config.imitate_moves:
        table = Table(rng, config, every_seat=True)
        while not table.game.done:
            game, seat = table.game, table.game.current_player
            action = heuristic_action(game)
            episode = table.episodes[seat]
            episode.obs.append(encode(game, seat))
            episode.masks.append(game.legal_mask())
            episode.actions.append(action)
            episode.logps.append(0.0)
            episode.values.append(0.0)
            episode.rewards.append(0.0)
            table.apply(action)
        for episode in table.episodes.values():
            batch.add(episode, lam=1.0)  # with zero values: the advantage is the return
    return batch


def imitate(model: ActorCritic, optimizer, batch: Batch, config, gen: torch.Generator) -> dict:
    """Cross-entropy to the heuristic's moves and squared error to their returns."""
    data = batch.tensors()
    stats: dict[str, float] = {}
    for _ in range(config.imitate_epochs):
        order = torch.randperm(batch.size, generator=gen)
        for start in range(0, batch.size, config.minibatch):
            idx = order[start : start + config.minibatch]
            logits, values = model(data["obs"][idx], data["masks"][idx])
            policy_loss = nn.functional.cross_entropy(logits, data["actions"][idx])
            value_loss = ((values - data["ret"][idx]) ** 2).mean()
            optimizer.zero_grad()
            (policy_loss + config.value_coef * value_loss).backward()
            optimizer.step()
            stats = {
                "policy_loss": float(policy_loss.detach()),
                "value_loss": float(value_loss.detach()),
            }
    return stats


def update(model: ActorCritic, optimizer, batch: Batch, config, gen: torch.Generator) -> dict:
    data = batch.tensors()
    adv = (data["adv"] - data["adv"].mean()) / (data["adv"].std() + 1e-8)
    stats: dict[str, float] = {}
    for _ in range(config.epochs):
        order = torch.randperm(batch.size, generator=gen)
        for start in range(0, batch.size, config.minibatch):
            idx = order[start : start + config.minibatch]
            logits, values = model(data["obs"][idx], data["masks"][idx])
            dist = torch.distributions.Categorical(logits=logits)
            ratio = torch.exp(dist.log_prob(data["actions"][idx]) - data["logps"][idx])
            clipped = torch.clamp(ratio, 1 - config.clip, 1 + config.clip)
            policy_loss = -torch.min(ratio * adv[idx], clipped * adv[idx]).mean()
            value_loss = ((values - data["ret"][idx]) ** 2).mean()
            entropy = dist.entropy().mean()
            loss = policy_loss + config.value_coef * value_loss - config.entropy * entropy
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 0.5)
            optimizer.step()
            stats = {
                "policy_loss": float(policy_loss.detach()),
                "value_loss": float(value_loss.detach()),
                "entropy": float(entropy.detach()),
            }
    return stats


def validate(model: ActorCritic, deals: int) -> dict:
    """The greedy network against three heuristic players at 4 players, validation deals."""
    from friday_agents.thirteen.players import NetAgent13

    agent = NetAgent13.from_net(model.to_numpy())
    deals_range = range(VALIDATION_FIRST_DEAL, VALIDATION_FIRST_DEAL + deals)
    results = play_seat(agent, HeuristicAgent13(), 4, deals_range)
    return {
        "val_win_rate": round(100 * float(results.win_shares.mean()), 2),
        "val_bad_luck": round(float(results.bad_luck.mean()), 3),
    }


#: What reading a damaged checkpoint raises (torch's reader, a missing key, a wrong shape).
_DAMAGED = (RuntimeError, KeyError, ValueError, TypeError, EOFError, OSError)


class Trainer:
    """The run folder's state: model, optimizer, counters and curve (see the module doc)."""

    def __init__(self, out: Path, config: TrainConfig, resume: bool) -> None:
        torch.set_num_threads(1)
        self.out, self.config = out, config
        torch.manual_seed(config.seed)
        self.model = ActorCritic(config.hidden)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=config.lr, eps=1e-5)
        self.rng = np.random.default_rng(config.seed)
        self.gen = torch.Generator().manual_seed(config.seed)
        self.updates, self.transitions, self.cpu_seconds = 0, 0, 0.0
        self.curve: list[dict] = []
        self.best = -1.0
        if resume and (out / "checkpoint.pt").is_file():
            self._load(out / "checkpoint.pt")

    def _load(self, path: Path) -> None:
        """The run's state from its checkpoint; a file this trainer did not write whole (cut
        short, tampered with, of another network) is refused naming it, nothing changed."""
        require_regular_file(path, "checkpoint")
        try:
            state = torch.load(path, weights_only=True)  # tensors and plain values only
            self.model.load_state_dict(state["model"])
            self.optimizer.load_state_dict(state["optimizer"])
            self.rng.bit_generator.state = state["rng"]
            self.gen.set_state(state["torch_rng"])
            counters = [state[key] for key in ("updates", "transitions", "cpu_seconds", "best")]
            curve = list(state["curve"])
        except (*_DAMAGED, pickle.UnpicklingError) as err:
            why = str(err).splitlines()[0] if str(err) else type(err).__name__
            raise RunFolderError(f"{path} is not a checkpoint this trainer wrote: {why}") from None
        self.updates, self.transitions, self.cpu_seconds, self.best = counters
        self.curve = curve

    def _save(self) -> None:
        state = {
            "model": self.model.state_dict(),
            "optimizer": self.optimizer.state_dict(),
            "rng": self.rng.bit_generator.state,
            "torch_rng": self.gen.get_state(),
            "updates": self.updates,
            "transitions": self.transitions,
            "cpu_seconds": self.cpu_seconds,
            "curve": self.curve,
            "best": self.best,
            "config": self.config.to_dict(),
        }
        replace_atomically(
            self.out / "checkpoint.pt", lambda temporary: torch.save(state, temporary)
        )

    def run(self, progress=None) -> dict:
        """Train until the CPU budget is spent; the last curve row."""
        self.out.mkdir(parents=True, exist_ok=True)
        write_config(self.out, self.config.to_dict())
        budget = 60.0 * self.config.cpu_minutes
        if self.config.imitate_moves and self.updates == 0 and not self.curve:
            self._imitate()
        tables = [Table(self.rng, self.config) for _ in range(self.config.games)]
        while self.cpu_seconds < budget:
            started = time.process_time()
            # the step size falls linearly with the CPU spent, to a tenth at the end
            for group in self.optimizer.param_groups:
                group["lr"] = self.config.lr * max(0.1, 1.0 - self.cpu_seconds / budget)
            batch = collect(self.model, tables, self.rng, self.config)
            stats = update(self.model, self.optimizer, batch, self.config, self.gen)
            self.updates += 1
            self.transitions += batch.size
            self.cpu_seconds += time.process_time() - started
            if self.updates % self.config.eval_every == 0:
                started = time.process_time()
                self._evaluate(stats)
                self.cpu_seconds += time.process_time() - started
            self._save()
            if progress is not None:
                progress(self.cpu_seconds, budget, self.curve[-1] if self.curve else {})
        if not self.curve or self.curve[-1]["updates"] != self.updates:
            self._evaluate(stats)
            self._save()
        return self.curve[-1]

    def _imitate(self) -> None:
        """The warm start: the network imitates the heuristic before PPO (curve row 0)."""
        started = time.process_time()
        batch = imitation_batch(self.rng, self.config)
        stats = imitate(self.model, self.optimizer, batch, self.config, self.gen)
        self.transitions += batch.size
        self.cpu_seconds += time.process_time() - started
        started = time.process_time()
        self._evaluate(stats | {"entropy": float("nan")})
        self.cpu_seconds += time.process_time() - started
        self._save()

    def _evaluate(self, stats: dict) -> None:
        row = {
            "updates": self.updates,
            "transitions": self.transitions,
            "cpu_seconds": round(self.cpu_seconds, 1),
            **validate(self.model, self.config.eval_deals),
            **{k: round(v, 4) for k, v in stats.items()},
        }
        self.curve.append(row)
        net = self.model.to_numpy()
        net.save(self.out / "last.npz")
        if row["val_win_rate"] > self.best:
            self.best = row["val_win_rate"]
            net.save(self.out / "best.npz")
        replace_atomically(self.out / "curve.csv", self._write_curve)

    def _write_curve(self, path: Path) -> None:
        with path.open("w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(self.curve[-1]))
            writer.writeheader()
            writer.writerows(self.curve)
