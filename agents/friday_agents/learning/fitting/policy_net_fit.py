"""Fit the search agent's policy prior on its own games: ``friday fit policy-net --data
GAMES.jsonl --out guided_prior.npz``.

``GAMES.jsonl`` (or ``.jsonl.gz``; several files may be given) holds search games on training
deals as ``friday imitate collect --teacher search`` writes them: the actions and, per
searched decision, ``q``, the mean rollout value of every action the search tried (an
evaluation seed is refused). Every searched decision with two or more tried actions becomes
one example: its public observation (the ``--observation`` encoder) and, as soft target,
``softmax(q / --tau)`` over the tried actions. A tanh network is fitted by cross-entropy
(torch, the ``rl`` extra); the written network is plain numpy arrays (float16 weights).
``--from-ppo POLICY.zip`` exports the actor of a MaskablePPO policy instead of fitting one.

The games of the deal indices in ``--holdout`` (``FIRST-LAST``) are held out; the report
(printed, and written to ``--report``) gives, on their decisions, per level: how often the
network's top action is the search's choice (and how often the heuristic's is), and for
``k`` in 1-4, over the decisions with more than ``k`` legal actions, how often the search's
choice survives pruning to the network's top ``k`` plus the heuristic's choice (what
``search:prior=guided-prior:top=k`` keeps), and the value it loses by the search's own estimates.
Deterministic for the same data and arguments.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import DTypeLike

from friday_agents.harness.errors import BadInputError
from friday_agents.harness.files import write_text_atomically
from friday_agents.harness.paths import portable_path
from friday_agents.learning.fitting.game_data import training_games
from friday_agents.players.heuristic.agent import heuristic_action
from friday_agents.players.networks.policy_net import PolicyNetwork, save_policy_network
from friday_env import NUM_ACTIONS, Game
from friday_env.observation import make_encoder


@dataclass
class Decisions:
    """The searched decisions of some games, one row each."""

    obs: np.ndarray  # float16 [n, observation size]
    legal: np.ndarray  # bool [n, actions]
    tried: np.ndarray  # bool [n, actions]: the actions the search valued
    q: np.ndarray  # float32 [n, actions]: their mean rollout values (0 elsewhere)
    chosen: np.ndarray  # int [n]: the search's action
    heuristic: np.ndarray  # int [n]: the heuristic's action
    levels: np.ndarray  # int [n]
    deals: np.ndarray  # int [n]: deal index of the game

    def subset(self, keep: np.ndarray) -> Decisions:
        return Decisions(**{name: value[keep] for name, value in vars(self).items()})


def read_decisions(paths: list[Path], observation: str) -> tuple[Decisions, int]:
    """Every searched decision with two or more tried actions in the games of ``paths``;
    and how many games could not be replayed (skipped)."""
    encoder, rows, skipped = make_encoder(observation), [], 0
    for path in paths:
        for line in training_games(path):
            try:
                rows += _game_rows(line, encoder)
            except ValueError:  # an illegal action: counted, not fatal
                skipped += 1
    if not rows:
        raise BadInputError(f"no searched decisions in {', '.join(map(str, paths))}")
    columns = list(zip(*rows, strict=True))
    arrays = [np.stack(c) if i < 4 else np.array(c) for i, c in enumerate(columns)]
    return Decisions(*arrays), skipped


def searched_decisions(
    game: Game, line: dict, q_dtype: DTypeLike = np.float32
) -> Iterator[tuple[int, np.ndarray, np.ndarray, np.ndarray]]:
    """Replay the game ``line`` on ``game`` (its start) and, at every decision the search
    valued with two or more tried actions, yield, before the action is played, ``(action,
    legal mask, tried mask, q row)``: the row holds each tried action's value (as
    ``q_dtype``), 0 elsewhere. ``game`` is the replayed game once the iteration ends."""
    q = line.get("q", {})
    for step, action in enumerate(line["actions"]):
        values = q.get(str(step))
        if values and len(values) > 1:
            legal = np.zeros(NUM_ACTIONS, dtype=bool)
            legal[game.legal_actions()] = True
            tried, row = np.zeros(NUM_ACTIONS, dtype=bool), np.zeros(NUM_ACTIONS, q_dtype)
            for candidate, value in values:
                tried[candidate], row[candidate] = True, value
            yield action, legal, tried, row
        game.apply(action)


def _game_rows(line: dict, encoder) -> list[tuple]:
    game, rows = Game.new(line["level"], line["seed"]), []
    for action, legal, tried, row in searched_decisions(game, line):
        obs = encoder.encode(game).astype(np.float16)
        heuristic = heuristic_action(game)
        rows.append((obs, legal, tried, row, action, heuristic, line["level"], line["index"]))
    return rows


def soft_targets(tried: np.ndarray, q: np.ndarray, tau: float) -> np.ndarray:
    """``softmax(q / tau)`` over the tried actions of each decision (rows of the ``tried``
    mask and the values ``q``; a float16 ``q`` is scaled in float32)."""
    scaled = np.where(tried, q.astype(np.float32) / tau, -np.inf)
    weights = np.exp(scaled - scaled.max(axis=1, keepdims=True))
    return (weights / weights.sum(axis=1, keepdims=True)).astype(np.float32)


def train(
    data: Decisions, observation: str, hidden: tuple[int, ...], epochs: int, tau: float, seed: int
) -> PolicyNetwork:
    """A tanh MLP fitted by Adam on the cross-entropy to the soft targets, the logits of
    untried actions masked out."""
    import torch

    from friday_agents.learning.networks import numpy_layers, tanh_mlp

    torch.manual_seed(seed)
    torch.set_num_threads(1)
    model = tanh_mlp((data.obs.shape[1], *hidden, NUM_ACTIONS))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    targets = torch.as_tensor(soft_targets(data.tried, data.q, tau))
    tried = torch.as_tensor(data.tried)
    generator = torch.Generator().manual_seed(seed)
    for _ in range(epochs):
        for batch in torch.randperm(len(targets), generator=generator).split(512):
            logits = model(torch.as_tensor(data.obs[batch.numpy()].astype(np.float32)))
            log_probs = torch.log_softmax(logits.masked_fill(~tried[batch], -1e9), dim=1)
            loss = -(targets[batch] * log_probs).sum(dim=1).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    return PolicyNetwork(observation, numpy_layers(model))


def from_ppo(path: Path) -> PolicyNetwork:
    """The actor of a MaskablePPO MLP policy (its policy layers and action head)."""
    from friday_agents.players.ppo.checkpoint import encoder_of, load_model

    model = load_model(path)
    state = {k: v.numpy() for k, v in model.policy.state_dict().items()}
    hidden = sorted(
        {k.rsplit(".", 1)[0] for k in state if k.startswith("mlp_extractor.policy_net.")},
        key=lambda name: int(name.rsplit(".", 1)[1]),
    )
    names = [*hidden, "action_net"]
    layers = tuple((state[f"{n}.weight"].T.copy(), state[f"{n}.bias"].copy()) for n in names)
    return PolicyNetwork(encoder_of(model, path), layers)


def held_out_report(data: Decisions, network: PolicyNetwork, tau: float) -> dict:
    """Agreement and pruning survival of ``network`` on ``data``, per level and overall."""
    logits = np.concatenate(
        [
            network.logits(data.obs[start : start + 4096].astype(np.float32))
            for start in range(0, len(data.chosen), 4096)
        ]
    )
    logits = np.where(data.legal, logits, -np.inf)
    report = {"all": _scores(data, logits, tau, slice(None))}
    for level in sorted(set(data.levels.tolist())):
        report[str(level)] = _scores(data, logits, tau, data.levels == level)
    return report


def _scores(data: Decisions, logits: np.ndarray, tau: float, rows) -> dict:
    data, logits = data.subset(rows), logits[rows]
    n = np.arange(len(data.chosen))
    log_probs = np.where(data.tried, logits, -np.inf)
    log_probs = log_probs - np.logaddexp.reduce(log_probs, axis=1, keepdims=True)
    targets = soft_targets(data.tried, data.q, tau)
    cross_entropy = -(targets * np.where(data.tried, log_probs, 0.0)).sum(axis=1).mean()
    scores: dict[str, Any] = {
        "decisions": len(n),
        "network_agrees": round(float((logits.argmax(axis=1) == data.chosen).mean()), 4),
        "heuristic_agrees": round(float((data.heuristic == data.chosen).mean()), 4),
        "cross_entropy": round(float(cross_entropy), 4),
    }
    order = np.argsort(-logits, axis=1, kind="stable")
    best = np.where(data.tried, data.q, -np.inf).max(axis=1)
    legal_counts = data.legal.sum(axis=1)
    for k in (1, 2, 3, 4):
        kept = np.zeros_like(data.legal)
        kept[n[:, None], order[:, :k]] = True
        kept[n, data.heuristic] = True
        pruned = legal_counts > k
        survives = kept[n, data.chosen][pruned]
        kept_best = np.where(kept & data.tried, data.q, -np.inf).max(axis=1)
        scores[f"top{k}"] = {
            "pruned_decisions": int(pruned.sum()),
            "search_choice_kept": round(float(survives.mean()), 4) if pruned.any() else None,
            "mean_value_lost": round(float((best - kept_best)[pruned].mean()), 3)
            if pruned.any()
            else None,
        }
    return scores


@dataclass(frozen=True)
class PolicyNetFit:
    """The settings of a policy prior fit (``friday fit policy-net``)."""

    data: tuple[Path, ...]  # search games files (.jsonl or .jsonl.gz)
    out: Path  # where the network goes (.npz)
    report: Path | None = None  # where the held-out report goes too (JSON)
    from_ppo: Path | None = None  # export this MaskablePPO actor instead of fitting one
    observation: str = "flat"  # the observation encoder
    hidden: tuple[int, ...] = (128, 128)  # hidden layer sizes
    epochs: int = 6
    tau: float = 2.0  # the soft targets' temperature
    holdout: tuple[int, int] = (520, 649)  # the deal indices held out, first and last
    seed: int = 0

    def check(self) -> PolicyNetFit:
        """These settings, or `BadInputError` naming the first one that cannot be fitted."""
        missing = [str(path) for path in self.data if not path.is_file()]
        first, last = self.holdout
        refusals = {
            "--data names no games file": bool(self.data),
            f"no such games file: {', '.join(missing)}": not missing,
            "--epochs must be positive and --tau above 0": self.epochs >= 1 and self.tau > 0,
            "--hidden must be 1 or more sizes of at least 1": bool(self.hidden)
            and min(self.hidden) >= 1,
            f"--holdout must be FIRST-LAST deal indices, got {first}-{last}": 0 <= first <= last,
        }
        for message, ok in refusals.items():
            if not ok:
                raise BadInputError(message)
        return self

    def command_line(self) -> str:
        """The ``friday`` command that makes this fit (stored in its report)."""
        data = map(portable_path, self.data)  # never an absolute path of this machine
        words = ["friday fit policy-net --data", *data, f"--out {portable_path(self.out)}"]
        defaults = PolicyNetFit(data=(), out=self.out)
        for name in ("report", "from_ppo", "observation", "hidden", "epochs", "tau", "seed"):
            value = getattr(self, name)
            if value != getattr(defaults, name):
                text = ",".join(map(str, value)) if name == "hidden" else value
                words.append(f"--{name.replace('_', '-')} {text}")
        if self.holdout != defaults.holdout:
            words.append(f"--holdout {self.holdout[0]}-{self.holdout[1]}")
        return " ".join(words)


def fit_policy_network(settings: PolicyNetFit, say: Callable[[str], None] = print) -> dict:
    """Fit (or export) the network, write it (and the report where asked) and return the
    report; ``say`` hears the report and the file written."""
    settings.check()
    data, skipped = read_decisions(list(settings.data), settings.observation)
    first, last = settings.holdout
    test = (data.deals >= first) & (data.deals <= last)
    if not test.any() or test.all():
        raise BadInputError(f"--holdout {first}-{last} must leave decisions on both sides")
    if settings.from_ppo:
        network = from_ppo(settings.from_ppo)
    else:
        training = data.subset(~test)
        network = train(
            training,
            settings.observation,
            settings.hidden,
            settings.epochs,
            settings.tau,
            settings.seed,
        )
    network = network.astype(np.float16)
    report = {
        "command": settings.command_line(),
        "data": [portable_path(p) for p in settings.data],
        "source": f"exported from {settings.from_ppo}" if settings.from_ppo else "fitted",
        "skipped_games": skipped,
        "train_decisions": int((~test).sum()),
        "held_out_deals": [first, last],
        "layers": [list(w.shape) for w, _ in network.layers],
        "epochs": None if settings.from_ppo else settings.epochs,
        "tau": settings.tau,
        "held_out": held_out_report(data.subset(test), network, settings.tau),
    }
    save_policy_network(network, settings.out)
    say(json.dumps(report, indent=1))
    if settings.report:
        settings.report.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomically(settings.report, json.dumps(report, indent=1) + "\n")
    say(f"wrote {settings.out}")
    return report


if __name__ == "__main__":  # the command moved into `friday`: say where, run nothing
    import sys

    sys.exit(f"python -m {__spec__.name}: error: gone: it is now `friday fit policy-net`")
