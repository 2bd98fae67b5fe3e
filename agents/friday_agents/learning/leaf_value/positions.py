"""One deal's labelled positions: a strong agent's game, and continuations that branch off it.

`deal_positions` plays one job of ``friday value data``: the agent (``guided`` by default) plays
the deal; then, at ``continuations`` of its decisions drawn by a generator seeded by the deal, a
*different* action is played (the heuristic's when it differs from the agent's, else another
legal action drawn uniformly) and the agent plays on to the end. Every turn start (the states
where the search's rollouts stop and the leaf is valued) is a position, labelled by the result
(1 won, 0 lost) of the game it lies in; in a continuation, only those after the branch. A
continuation is a real game of the same deal, so ``(seed, actions)`` replays every one.

The result depends only on the job, never on the worker that plays it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from friday_agents.harness.deals import training_seed, validation_seed
from friday_agents.players.heuristic.agent import heuristic_action
from friday_agents.players.networks.linear_value import TURN_START_PHASES, card_features
from friday_agents.players.registry import make_agent
from friday_env import Game


@dataclass(frozen=True)
class DealJob:
    """One deal to play: the agent's spec, the level, the deal set (``training`` or
    ``validation``), the deal's index in it and how many continuations to branch off."""

    spec: str
    level: int
    deal_set: str
    index: int
    continuations: int


#: The deal sets positions are played on, and the seed of each one's deals: training deals (to
#: fit on) and validation deals (to stop the fit and choose between fits); never the evaluation
#: deals.
SEED_OF = {"training": training_seed, "validation": validation_seed}


#: Agents are built once per worker process (loading their models costs more than a game).
_AGENTS: dict[str, Any] = {}


def _agent(spec: str) -> Any:
    if spec not in _AGENTS:
        _AGENTS[spec] = make_agent(spec)
    return _AGENTS[spec]


@dataclass
class Played:
    """A game played on from some point: its actions, the decisions with a choice (their index
    in the history), its turn starts (index in the history and feature row) and result."""

    game: Game
    choices: list[int]
    turn_starts: list[tuple[int, int, np.ndarray]]  # (history index, step, cards row)


def play_on(game: Game, agent: Any, agent_seed: int) -> Played:
    """``agent`` (reset with ``agent_seed``) plays ``game`` to its end; every turn start met on
    the way is recorded (the one ``game`` stands at included)."""
    agent.reset(agent_seed)
    played = Played(game, [], [])
    while not game.done:
        if game.phase in TURN_START_PHASES:
            played.turn_starts.append((len(game.history), game.step, card_features(game)))
        legal = game.legal_actions()
        if len(legal) > 1:
            played.choices.append(len(game.history))
        game.apply(agent.act(game))
    return played


def branch_action(game: Game, taken: int, rng: np.random.Generator) -> int:
    """The action a continuation plays instead of ``taken``: the heuristic's if it differs,
    else a uniformly drawn other legal action."""
    own = heuristic_action(game)
    if own != taken:
        return own
    others = [a for a in game.legal_actions() if a != taken]
    return int(others[rng.integers(len(others))])


def deal_positions(job: DealJob) -> dict[str, Any]:
    """The job's games and labelled positions (see the module docstring)."""
    started = time.process_time()
    agent, seed = _agent(job.spec), SEED_OF[job.deal_set](job.level, job.index)
    base = play_on(Game.new(job.level, seed), agent, seed)
    actions = [int(a) for a in base.game.history]
    rng = np.random.default_rng([seed, 1])  # the branch points and actions: the deal's own
    count = min(job.continuations, len(base.choices))
    branches = sorted(rng.choice(base.choices, size=count, replace=False).tolist())
    games = [(0, base)]  # (branch point, game): the base game first
    for number, branch in enumerate(branches, start=1):
        game = Game.new(job.level, seed)
        for action in actions[:branch]:
            game.apply(action)
        game.apply(branch_action(game, actions[branch], rng))
        games.append((branch, play_on(game, agent, seed * 16 + number)))
    return {
        "record": _record(job, seed, actions, games),
        **_arrays(job, games),
        "cpu_seconds": time.process_time() - started,
    }


def _record(job: DealJob, seed: int, actions: list[int], games: list) -> dict[str, Any]:
    """The deal's games as one replayable line: the base game's actions, each continuation's
    branch point and its actions from there (the branch action first)."""
    base = games[0][1].game
    return {
        "level": job.level,
        "seed": seed,
        "index": job.index,
        "agent": job.spec,
        "actions": actions,
        "won": bool(base.won),
        "score": int(base.score()),
        "continuations": [
            {
                "branch": branch,
                "actions": [int(a) for a in played.game.history[branch:]],
                "won": bool(played.game.won),
                "score": int(played.game.score()),
            }
            for branch, played in games[1:]
        ],
    }


def _arrays(job: DealJob, games: list) -> dict[str, np.ndarray]:
    """One row per position: features, step, label, source (0 the base game, n the n-th
    continuation) and the position's index in its game's history."""
    rows, steps, labels, sources, moments = [], [], [], [], []
    for source, (_, played) in enumerate(games):
        for moment, step, row in played.turn_starts:  # a continuation's: after its branch
            rows.append(row)
            steps.append(step)
            labels.append(played.game.won)
            sources.append(source)
            moments.append(moment)
    n = len(rows)
    return {
        "rows": np.array(rows, dtype=np.float32).reshape(n, -1),
        "levels": np.full(n, job.level, dtype=np.int8),
        "steps": np.array(steps, dtype=np.int8),
        "won": np.array(labels, dtype=np.int8),
        "sources": np.array(sources, dtype=np.int8),
        "moments": np.array(moments, dtype=np.int16),
        "deals": np.full(n, job.index, dtype=np.int32),
    }
