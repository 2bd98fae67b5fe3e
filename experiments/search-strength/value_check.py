"""How well leaf value models fit and rank the search's states:
``python experiments/search-strength/value_check.py --data GAMES --model NAME=FILE ... --out FILE``.

Two checks on recorded search games (:mod:`friday_agents.learning.fitting.game_data`; training deals
only), for each model (a ``.json`` linear model or ``.npz`` network, as ``search:value=``
takes) and level:

- **States.** Every turn-start state of the games whose deal index is at least
  ``--holdout-from`` (so a model fitted on the lower indices is scored on games it never
  saw), against the game's target (final score, plus the models' win bonus for a win): mean
  squared error, bias (mean prediction minus mean target), and concordance (over random pairs
  of states of one step with different targets, the share the model orders like the
  targets). Only the green, yellow and red steps: the search never values a pirates' state
  (its rollouts play through the pirate fights).
- **Decisions.** ``--decisions`` decisions per level drawn from those games, searched as the
  search agent does (``32 // candidates`` determinized worlds, every candidate, heuristic
  rollouts to the end of the fight); every leaf is valued by every model, and played on by
  the heuristic to the end of the game for a realised target. Per model: the share of
  same-world candidate pairs with different realised targets that it orders like them, and
  the share of decisions where its choice is the one with the best realised mean. The
  realised targets come from heuristic play, the kind of game the shipped model was fitted
  on, so this check leans towards that model.
- **Hazard choices.** Up to ``--decisions`` green-step hazard choices, searched the same
  way: how often each model picks the hazard that costs more life (a harder fight, for a
  better card), and its median value gap per point of life (:func:`hazard_checks`).
- **Life.** For linear models, the lives valued below one life less (:func:`life_drops`).

Deterministic for the same arguments.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from friday_agents.learning.fitting.game_data import (
    ReplayCount,
    recorded_games,
    target,
    turn_start_examples,
)
from friday_agents.learning.fitting.value_fit import DEFAULT_WIN_BONUS
from friday_agents.players.heuristic.agent import heuristic_action
from friday_agents.players.networks.linear_value import FEATURE_NAMES, ValueModel
from friday_agents.players.search.agent import LeafValue, rollout
from friday_agents.players.search.value_levels import load_leaf_value
from friday_env import Game, Phase, determinized

LEAF_STEPS = (0, 1, 2)
CONCORDANCE_PAIRS = 20_000


def state_checks(
    models: dict[str, LeafValue], data: Path, holdout_from: int, level: int
) -> dict[str, dict]:
    """Squared error, bias and concordance of each model on the held-out turn-start states
    of ``level`` (see the module docstring)."""
    steps, targets, values = [], [], {name: [] for name in models}
    for game, line in turn_start_examples(data, ReplayCount(), level):
        if line["index"] < holdout_from or game.step not in LEAF_STEPS:
            continue
        steps.append(game.step)
        targets.append(target(line, DEFAULT_WIN_BONUS))
        for name, model in models.items():
            values[name].append(model.value(game))
    if not targets:
        raise ValueError(f"{data}: no held-out level-{level} states (deal index >= {holdout_from})")
    y, step_of = np.array(targets), np.array(steps)
    report = {}
    for name in models:
        v = np.array(values[name])
        report[name] = {
            "states": len(y),
            "mse": float(((v - y) ** 2).mean()),
            "bias": float(v.mean() - y.mean()),
            "concordance": concordance(v, y, step_of, np.random.default_rng(level)),
        }
    return report


def concordance(values: np.ndarray, targets: np.ndarray, groups: np.ndarray, rng) -> float:
    """Over random pairs within a group with different targets, the share ordered alike
    (a tie in value counts half)."""
    first = rng.integers(len(values), size=CONCORDANCE_PAIRS)
    second = rng.integers(len(values), size=CONCORDANCE_PAIRS)
    keep = (groups[first] == groups[second]) & (targets[first] != targets[second])
    return pair_agreement(
        values[first[keep]] - values[second[keep]], targets[first[keep]] - targets[second[keep]]
    )


def pair_agreement(value_gaps: np.ndarray, target_gaps: np.ndarray) -> float:
    """The share of pairs whose value gap has the sign of their (nonzero) target gap."""
    if len(target_gaps) == 0:
        return float("nan")
    signs = np.sign(value_gaps) * np.sign(target_gaps)
    return float(((signs > 0) + 0.5 * (signs == 0)).mean())


class LeafRecorder:
    """A leaf value that keeps the leaf instead of valuing it."""

    def __init__(self) -> None:
        self.leaf: Game | None = None

    def value(self, game: Game) -> float:
        self.leaf = game
        return 0.0


def played_out(game: Game) -> float:
    """The heuristic plays ``game`` (modified) to its end: its target."""
    while not game.done:
        legal = game.legal_actions()
        game.apply(legal[0] if len(legal) == 1 else heuristic_action(game))
    return game.score() + DEFAULT_WIN_BONUS * game.won


def decision_leaves(game: Game, rng: np.random.Generator, sims: int = 32) -> list[list[Game]]:
    """The search's leaves of one decision: ``[world][candidate]``, as the agent plays."""
    legal = list(game.legal_actions())
    recorder = LeafRecorder()
    leaves = []
    for seed in rng.integers(0, 2**62, size=max(1, sims // len(legal))):
        world = determinized(game, int(seed))
        row = []
        for action in legal:
            trial = world.clone()
            trial.apply(action)
            rollout(trial, recorder)
            assert recorder.leaf is not None
            row.append(recorder.leaf)
        leaves.append(row)
    return leaves


def decision_checks(
    models: dict[str, LeafValue], decisions: list[Game], seed: int
) -> dict[str, dict]:
    """Pair order agreement and best-choice share of each model (module docstring)."""
    rng = np.random.default_rng(seed)
    gaps: dict[str, list[float]] = {name: [] for name in models}
    target_gaps: list[float] = []
    best_choice = {name: 0 for name in models}
    for game in decisions:
        leaves = decision_leaves(game, rng)
        realised = np.array([[played_out(leaf.clone()) for leaf in row] for row in leaves])
        for name, model in models.items():
            values = np.array([[model.value(leaf) for leaf in row] for row in leaves])
            best_choice[name] += realised.mean(axis=0)[values.mean(axis=0).argmax()] >= (
                realised.mean(axis=0).max() - 1e-9
            )
            for row_v, row_r in zip(values, realised, strict=True):
                for i in range(len(row_r)):
                    for j in range(i + 1, len(row_r)):
                        if row_r[i] != row_r[j]:
                            gaps[name].append(row_v[i] - row_v[j])
        for row_r in realised:
            target_gaps += [
                row_r[i] - row_r[j]
                for i in range(len(row_r))
                for j in range(i + 1, len(row_r))
                if row_r[i] != row_r[j]
            ]
    return {
        name: {
            "decisions": len(decisions),
            "leaf_pairs": len(target_gaps),
            "pair_agreement": pair_agreement(np.array(gaps[name]), np.array(target_gaps)),
            "best_choice_share": best_choice[name] / len(decisions),
        }
        for name in models
    }


def hazard_checks(models: dict[str, LeafValue], choices: list[Game], seed: int) -> dict:
    """On green-step hazard choices whose two candidates cost different life in the
    search's worlds: the share where each model picks the costlier hazard, and its median
    value gap (costlier minus cheaper) per point of life it costs."""
    rng = np.random.default_rng(seed)
    costlier = {name: 0 for name in models}
    gaps: dict[str, list[float]] = {name: [] for name in models}
    counted = 0
    for game in choices:
        leaves = decision_leaves(game, rng)
        life = np.array([[leaf.life for leaf in row] for row in leaves]).mean(axis=0)
        if life[0] == life[1]:
            continue
        counted += 1
        dear = int(life.argmin())
        for name, model in models.items():
            values = np.array([[model.value(leaf) for leaf in row] for row in leaves]).mean(0)
            costlier[name] += int(values.argmax()) == dear
            gaps[name].append((values[dear] - values[1 - dear]) / abs(life[1] - life[0]))
    return {
        name: {
            "choices": counted,
            "costlier_share": costlier[name] / counted if counted else float("nan"),
            "median_gap_per_life": float(np.median(gaps[name])) if counted else float("nan"),
        }
        for name in models
    }


def life_drops(model: LeafValue) -> dict[str, list[int]] | None:
    """For a linear model: per ``level/step`` (leaf steps), the lives from 1 to 20 valued
    below one life less, all else equal (None for other models)."""
    if not isinstance(model, ValueModel):
        return None
    life, log_life, low_life = (FEATURE_NAMES.index(n) for n in ("life", "log_life", "low_life"))
    drops = {}
    for (level, step), w in sorted(model.models.items()):
        if step in LEAF_STEPS:
            lives = np.arange(21)
            v = w[life] * lives + w[log_life] * np.log1p(lives) + w[low_life] * (lives <= 3)
            drops[f"{level}/{step}"] = [int(x) for x in lives[1:][np.diff(v) < 0]]
    return drops


def sample_states(
    data: Path, holdout_from: int, level: int, count: int, seed: int, keep=None
) -> list[Game]:
    """``count`` states drawn evenly from the held-out games of ``level`` (replayed): those
    ``keep`` accepts, by default every state with more than one legal action."""
    states = []
    for line in recorded_games(data):
        if line["level"] != level or line["index"] < holdout_from:
            continue
        game = Game.new(level, line["seed"])
        for action in line["actions"]:
            if (keep or _is_decision)(game):
                states.append(game.clone())
            game.apply(action)
    if not states:
        raise ValueError(f"{data}: no held-out level-{level} decisions")
    rng = np.random.default_rng(seed)
    chosen = rng.choice(len(states), size=min(count, len(states)), replace=False)
    return [states[i] for i in sorted(chosen)]


def _is_decision(game: Game) -> bool:
    return len(game.legal_actions()) > 1


def is_green_hazard_choice(game: Game) -> bool:
    return game.phase == Phase.CHOOSE_HAZARD and game.step == 0 and _is_decision(game)


def parse_model(text: str) -> tuple[str, LeafValue]:
    name, sep, path = text.partition("=")
    if not sep or not name or not path:
        raise ValueError(f"--model takes NAME=FILE, got {text!r}")
    return name, load_leaf_value(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        allow_abbrev=False,
        prog="python experiments/search-strength/value_check.py",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--data", type=Path, required=True, help="recorded search games")
    parser.add_argument(
        "--model",
        action="append",
        required=True,
        help="NAME=FILE, a value model file as search:value= takes it; repeat",
    )
    parser.add_argument("--levels", default="1,2,3,4", help="levels to check, e.g. 1,3")
    parser.add_argument(
        "--holdout-from", type=int, default=0, help="score games with a deal index at least this"
    )
    parser.add_argument("--decisions", type=int, default=100, help="decisions per level")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, required=True, help="JSON report")
    args = parser.parse_args(argv)
    try:
        models = dict(parse_model(m) for m in args.model)
    except (ValueError, FileNotFoundError) as err:
        parser.error(str(err))
    given = sys.argv[1:] if argv is None else argv
    report: dict = {
        "command": " ".join(["python experiments/search-strength/value_check.py", *given])
    }
    for level in (int(x) for x in args.levels.split(",")):
        states = state_checks(models, args.data, args.holdout_from, level)
        decisions = sample_states(args.data, args.holdout_from, level, args.decisions, args.seed)
        choices = decision_checks(models, decisions, args.seed + level)
        hazard_choices = sample_states(
            args.data, args.holdout_from, level, args.decisions, args.seed, is_green_hazard_choice
        )
        hazards = hazard_checks(models, hazard_choices, args.seed + level)
        report[str(level)] = {"states": states, "decisions": choices, "hazards": hazards}
        for name in models:
            s, d = states[name], choices[name]
            print(
                f"level {level} {name:10} mse {s['mse']:8.1f} bias {s['bias']:+6.1f} "
                f"concordance {s['concordance']:.3f} | leaf pairs {d['pair_agreement']:.3f} "
                f"best choice {d['best_choice_share']:.3f} | costlier hazard "
                f"{hazards[name]['costlier_share']:.3f}",
                flush=True,
            )
    report["life_drops"] = {name: life_drops(model) for name, model in models.items()}
    args.out.write_text(json.dumps(report, indent=1) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
