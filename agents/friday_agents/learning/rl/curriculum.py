"""A reverse curriculum from the agent's own games (``friday rl --method reverse``).

Friday's reward comes once, at the end of a game of a hundred and more decisions, and a new
policy almost never wins: plain PPO sees nothing but losses and cannot tell which decisions
mattered. Salimans & Chen (2018) start episodes from states of a demonstration, first near
its end and then earlier as the agent learns to finish from there; here the demonstrations
are the agent's own best games, so no teacher is needed:

- the **archive** keeps, for each of up to ``size`` deals, the best game the agent has
  finished on it (ranked by won, then final score, newer first on ties), as its deal seed
  and actions, so any of its states can be rebuilt exactly (same seed, same actions, same
  game); when full, a game of a new deal replaces the worst deal's game if it ranks above
  it. One game per deal: with a plain list of the best games, the agent's wins from one
  deal it had learned to finish filled a 1,000-game archive within 100 updates and every
  other deal's win left it (measured in the first level-1 run seeded with 18 found wins);
- a share of episodes starts ``k`` decisions before the end of an archived game (of a deal
  drawn uniformly among those with a won game whenever there are any), in that game's own
  state (its hidden stack included: it is a real state of a training deal);
- such an episode **succeeds** when it does at least as well as the game it came from: a win,
  or, from a lost game, a final score at least that game's;
- once ``window`` episodes from ``k`` have succeeded at a rate of at least ``threshold``,
  ``k`` moves back by ``step`` and the count starts again.

As the agent improves, its better games replace the archive's worst, so the states it starts
from come from ever better games; with ``k`` past a game's length the episode starts at the
deal's beginning. The whole state (archive, ``k``, the window) goes into the checkpoint.

``--archive-from`` seeds the archive before training with the won games of a games file
(``friday explore``'s ``games.jsonl``: wins found on fixed training deals, from the rules
alone): they enter as won games, so they rank above every loss and the curriculum starts
from them at once, ``k`` decisions before their ends, instead of waiting for the agent's
first win (`won_games_of_file` checks them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from friday_agents.harness.deals import is_evaluation_seed, is_validation_seed
from friday_agents.harness.games_file import GamesFileError, check_replayable, read_games_file
from friday_agents.learning.rl.config import RLConfigError
from friday_env.core import new_game
from friday_env.errors import FridayError


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
        self.games: dict[int, ArchivedGame] = {}  # the best game of each deal, by seed
        self.outcomes: list[bool] = []  # successes of episodes started from the current k
        self.games_seen = 0
        self.starts = 0

    @property
    def archive(self) -> list[ArchivedGame]:
        """The archived games, one per deal, in the order their deals entered."""
        return list(self.games.values())

    def add_game(self, seed: int, actions: list[int], won: bool, score: int) -> None:
        """A finished game (from a deal or from an archived state) replaces its deal's
        game if it ranks above it; a new deal's enters while there is room, else in place
        of the worst deal's game if it ranks above that."""
        game = ArchivedGame(bool(won), int(score), self.games_seen, int(seed), bytes(actions))
        self.games_seen += 1
        held = self.games.get(game.seed)
        if held is not None:
            if held < game:
                self.games[game.seed] = game
            return
        if len(self.games) >= self.size:
            worst = min(self.games.values())
            if not worst < game:
                return
            del self.games[worst.seed]
        self.games[game.seed] = game

    def choose_start(self, rng: np.random.Generator) -> Start | None:
        """With probability ``share`` (and a non-empty archive) a start ``k`` decisions
        before the end of an archived game drawn uniformly from the won ones if there are
        any (the demonstrations that matter), else from all; else None (a fresh deal)."""
        if not self.games or rng.random() >= self.share:
            return None
        won = [game for game in self.games.values() if game.won]
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

    def longest_win(self) -> int | None:
        """The most decisions of an archived won game (None without one): once ``k`` is
        past it, every start from the archive is a deal's start (the A3 hand-over reads it
        from the curve)."""
        lengths = [len(game.actions) for game in self.games.values() if game.won]
        return max(lengths) if lengths else None

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
        self.games = {}
        for row in state["archive"]:  # in the order saved: the deals' order of entry
            game = ArchivedGame(*row)
            held = self.games.get(game.seed)
            if held is None or held < game:  # (a checkpoint written with a game per entry)
                self.games[game.seed] = game
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


@dataclass(frozen=True)
class SeedGame:
    """A won game of a games file, checked: its deal, its actions and its final score."""

    seed: int
    actions: tuple[int, ...]
    score: int


def won_games_of_file(path: str, level: int, core: str | None = None) -> list[SeedGame]:
    """The games of the games file ``path`` (``--archive-from``), in file order, each one
    replayed from ``Game.new`` and checked to be a won level-``level`` game on a training
    deal; else an [`RLConfigError`][friday_agents.learning.rl.config.RLConfigError] in one
    line naming the file and line. A validation or evaluation deal is refused: the
    curriculum would train on the deals its curve and the evaluation measure."""
    try:
        games = read_games_file(path)
    except GamesFileError as err:
        raise RLConfigError(f"--archive-from: {err}") from None
    if not games.games:
        raise RLConfigError(f"--archive-from: {path} holds no games")
    seeds = []
    for position, game in enumerate(games.games):
        where = games.where(position)
        try:
            check_replayable(game, where)
        except GamesFileError as err:
            raise RLConfigError(f"--archive-from: {err}") from None
        if game.get("won") is not True:
            raise RLConfigError(f"--archive-from: {where} is not a won game")
        if game["level"] != level:
            raise RLConfigError(
                f"--archive-from: {where} is a level-{game['level']} game; the run trains "
                f"level {level}"
            )
        seed = game["seed"]
        if is_evaluation_seed(seed) or is_validation_seed(seed):
            kind = "an evaluation" if is_evaluation_seed(seed) else "a validation"
            raise RLConfigError(
                f"--archive-from: {where} is on {kind} deal (seed {seed}); only training "
                "deals may be trained on"
            )
        try:
            replayed = replay(level, seed, game["actions"], core)
        except (FridayError, ValueError) as err:
            raise RLConfigError(f"--archive-from: {where} does not replay: {err}") from None
        if not replayed.won:
            raise RLConfigError(f"--archive-from: {where} does not replay to a win")
        seeds.append(SeedGame(seed, tuple(game["actions"]), int(replayed.score())))
    return seeds
