"""A reverse curriculum from the agent's own games (``friday rl --method reverse``).

Friday's reward comes once, at the end of a game of a hundred and more decisions, and a new
policy almost never wins: plain PPO sees nothing but losses and cannot tell which decisions
mattered. Salimans & Chen (2018) start episodes from states of a demonstration, first near
its end and then earlier as the agent learns to finish from there; here the demonstrations
are the agent's own best games, so no teacher is needed:

- the **archive** keeps the ``size`` best games the agent has finished (ranked by won, then
  final score, newer first on ties) as their deal seed and actions, so any of their states
  can be rebuilt exactly (same seed, same actions, same game);
- a share of episodes starts ``k`` decisions before the end of an archived game (a won
  one whenever the archive holds any), in that game's own state (its hidden stack
  included: it is a real state of a training deal);
- such an episode **succeeds** when it does at least as well as the game it came from: a win,
  or, from a lost game, a final score at least that game's;
- once ``window`` episodes from ``k`` have succeeded at a rate of at least ``threshold``,
  ``k`` moves back by ``step`` and the count starts again.

As the agent improves, its better games replace the archive's worst, so the states it starts
from come from ever better games; with ``k`` past a game's length the episode starts at the
deal's beginning. The whole state (archive, ``k``, the window) goes into the checkpoint.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Any

import numpy as np

from friday_env.core import new_game


@dataclass(frozen=True)
class ArchivedGame:
    """A finished game: ``(won, score, order)`` ranks it (``order`` counts games)."""

    won: bool
    score: int
    order: int
    seed: int
    actions: bytes  # action ids (all below 256) in play order

    def rank(self) -> tuple[bool, int, int]:
        return (self.won, self.score, self.order)

    def __lt__(self, other: ArchivedGame) -> bool:
        return self.rank() < other.rank()


@dataclass(frozen=True)
class Start:
    """Where an episode starts: the deal, the actions replayed before it, and the outcome
    of the game it came from (what counts as success)."""

    seed: int
    prefix: tuple[int, ...]
    target_won: bool
    target_score: int

    def succeeded(self, won: bool, score: int) -> bool:
        return won or (not self.target_won and score >= self.target_score)


class ReverseCurriculum:
    """The archive and the schedule of ``k`` (see the module docstring)."""

    def __init__(
        self,
        share: float,
        start: int,
        step: int,
        threshold: float,
        window: int,
        size: int,
    ) -> None:
        self.share, self.step, self.threshold = share, step, threshold
        self.window, self.size = window, size
        self.k = start
        self.archive: list[ArchivedGame] = []  # a min-heap: the worst game first
        self.outcomes: list[bool] = []  # successes of episodes started from the current k
        self.games_seen = 0
        self.starts = 0

    def add_game(self, seed: int, actions: list[int], won: bool, score: int) -> None:
        """A finished game (from a deal or from an archived state) enters the archive if
        it ranks among the ``size`` best."""
        game = ArchivedGame(bool(won), int(score), self.games_seen, int(seed), bytes(actions))
        self.games_seen += 1
        if len(self.archive) < self.size:
            heapq.heappush(self.archive, game)
        elif self.archive[0] < game:
            heapq.heapreplace(self.archive, game)

    def choose_start(self, rng: np.random.Generator) -> Start | None:
        """With probability ``share`` (and a non-empty archive) a start ``k`` decisions
        before the end of an archived game drawn uniformly from the won ones if there are
        any (the demonstrations that matter), else from all; else None (a fresh deal)."""
        if not self.archive or rng.random() >= self.share:
            return None
        won = [game for game in self.archive if game.won]
        pool = won or self.archive
        game = pool[int(rng.integers(len(pool)))]
        prefix = tuple(game.actions[: max(0, len(game.actions) - self.k)])
        self.starts += 1
        return Start(game.seed, prefix, game.won, game.score)

    def record(self, start: Start, won: bool, score: int) -> None:
        """The outcome of an episode begun at ``start``; moves ``k`` back when due."""
        self.outcomes.append(start.succeeded(won, score))
        if len(self.outcomes) >= self.window:
            if np.mean(self.outcomes) >= self.threshold:
                self.k += self.step
            self.outcomes = []

    def success_rate(self) -> float | None:
        return float(np.mean(self.outcomes)) if self.outcomes else None

    def state_dict(self) -> dict[str, Any]:
        return {
            "k": self.k,
            "archive": [(g.won, g.score, g.order, g.seed, g.actions) for g in self.archive],
            "outcomes": list(self.outcomes),
            "games_seen": self.games_seen,
            "starts": self.starts,
        }

    def load_state_dict(self, state: dict[str, Any]) -> None:
        self.k = int(state["k"])
        self.archive = [ArchivedGame(*row) for row in state["archive"]]
        heapq.heapify(self.archive)
        self.outcomes = list(state["outcomes"])
        self.games_seen = int(state["games_seen"])
        self.starts = int(state["starts"])


def replay(level: int, seed: int, actions: tuple[int, ...] | list[int], core: str | None) -> Any:
    """The game of deal ``seed`` after ``actions``: exactly the state the env had (same
    seed and actions, same game)."""
    game = new_game(level, seed, core=core)
    for action in actions:
        game.apply(action)
    return game
