"""Fit the search agent's policy prior on its own games: ``python -m
friday_agents.learning.fitting.policy_net_fit --data GAMES.jsonl --out guided_prior.npz``.

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

import argparse
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

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
        raise ValueError(f"no searched decisions in {', '.join(map(str, paths))}")
    columns = list(zip(*rows, strict=True))
    arrays = [np.stack(c) if i < 4 else np.array(c) for i, c in enumerate(columns)]
    return Decisions(*arrays), skipped


def searched_decisions(
    game: Game, line: dict, q_dtype: type = np.float32
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


def soft_targets(data: Decisions, tau: float) -> np.ndarray:
    """``softmax(q / tau)`` over the tried actions of each decision (``data`` has ``tried``
    and ``q`` rows; a float16 ``q`` is scaled in float32)."""
    scaled = np.where(data.tried, data.q.astype(np.float32) / tau, -np.inf)
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
    targets = torch.as_tensor(soft_targets(data, tau))
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
    targets = soft_targets(data, tau)
    cross_entropy = -(targets * np.where(data.tried, log_probs, 0.0)).sum(axis=1).mean()
    scores = {
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


def held_out_deals(text: str) -> tuple[int, int]:
    first, sep, last = text.partition("-")
    if not sep or not first.isdigit() or not last.isdigit() or int(first) > int(last):
        raise argparse.ArgumentTypeError(f"--holdout must be FIRST-LAST deal indices, got {text!r}")
    return int(first), int(last)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m friday_agents.learning.fitting.policy_net_fit",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--data", type=Path, nargs="+", required=True, help="search games files")
    parser.add_argument("--out", type=Path, required=True, help="where the network goes (.npz)")
    parser.add_argument("--report", type=Path, help="write the held-out report here (JSON)")
    parser.add_argument("--from-ppo", type=Path, help="export this MaskablePPO actor instead")
    parser.add_argument("--observation", default="flat", help="observation encoder (flat)")
    parser.add_argument("--hidden", default="128,128", help="hidden layer sizes (default 128,128)")
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--tau", type=float, default=2.0, help="soft-target temperature")
    parser.add_argument("--holdout", type=held_out_deals, default=(520, 649), help="FIRST-LAST")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.epochs < 1 or args.tau <= 0:
        parser.error("--epochs must be positive and --tau above 0")
    missing = [str(p) for p in args.data if not p.is_file()]
    if missing:
        parser.error(f"no such games file: {', '.join(missing)}")
    data, skipped = read_decisions(args.data, args.observation)
    first, last = args.holdout
    test = (data.deals >= first) & (data.deals <= last)
    if not test.any() or test.all():
        parser.error(f"--holdout {first}-{last} must leave decisions on both sides")
    hidden = tuple(int(h) for h in args.hidden.split(","))
    if args.from_ppo:
        network = from_ppo(args.from_ppo)
    else:
        network = train(
            data.subset(~test), args.observation, hidden, args.epochs, args.tau, args.seed
        )
    network = network.astype(np.float16)
    command = sys.argv[1:] if argv is None else argv
    report = {
        "command": " ".join(["python -m friday_agents.learning.fitting.policy_net_fit", *command]),
        "data": [str(p) for p in args.data],
        "source": f"exported from {args.from_ppo}" if args.from_ppo else "fitted",
        "skipped_games": skipped,
        "train_decisions": int((~test).sum()),
        "held_out_deals": [first, last],
        "layers": [list(w.shape) for w, _ in network.layers],
        "epochs": None if args.from_ppo else args.epochs,
        "tau": args.tau,
        "held_out": held_out_report(data.subset(test), network, args.tau),
    }
    save_policy_network(network, args.out)
    print(json.dumps(report, indent=1))
    if args.report:
        args.report.parent.mkdir(parents=True, exist_ok=True)
        args.report.write_text(json.dumps(report, indent=1) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
