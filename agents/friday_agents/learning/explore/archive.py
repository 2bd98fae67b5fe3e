"""A Go-Explore archive on one deal: first return to an exact state, then explore from it.

The design is pre-registered in ``experiments/from-nothing/PLAN.md`` (Ecoffet et al. 2021):

- a state's **cell** is ``(step, pirates beaten, fights finished, min(life, 22) // 3)``:
  public quantities only;
- a cell keeps a copy of the state with the highest ``score + 5 x life`` reached in it (a
  later one replaces it only when strictly higher); a state's actions from ``Game.new`` are
  its history, so each cell also holds the path that replays to it;
- a cell is chosen with weight ``(1 + fights finished)^2 / sqrt(1 + times chosen)``;
- its state is copied (return) and up to ``walk`` uniform random legal actions are played on
  the copy (explore); every state reached that is not over is offered to its cell;
- the deal stops at its first won state, or before an exploration once its frames (actions
  applied) reach the budget.

Two splitmix64 streams, seeded per deal from ``(run seed, level, deal seed)``, choose the cells
(``(next >> 11) / 2**53`` of the weights' running sum) and the actions (``(next >> 33) mod
legal count``, the rule of the agents' C random play). No global generator: a deal's result
depends only on the settings and the deal, so it is the same in any worker, in any order,
after any interruption, and up to any frame count a run with a larger budget plays the same.

On a compiled game the loop runs in C (``_kernels.explore_deal``, explore.c); on the reference
engine, here, in Python, with the same arithmetic: the same cells, paths and win (a test
checks it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from friday_env.core import core_of, new_game

try:
    import friday_agents.players._kernels as _kernels
except ImportError:  # no C compiler at install time: the Python loop plays
    _kernels = None

MASK64 = 2**64 - 1
#: Life above this counts as this (Robinson's most).
LIFE_CAP = 22
#: Life points per cell.
LIFE_BIN = 3
#: Life's weight in a cell's value, beside the score.
LIFE_WEIGHT = 5
#: The design's name, stored with a run so that a resume cannot mix two designs.
DESIGN = (
    "cell=(step,beaten,fights,min(life,22)//3); value=score+5*life; "
    "weight=(1+fights)^2/sqrt(1+chosen); uniform random walks"
)


@dataclass(frozen=True)
class Settings:
    """What decides a deal's exploration (a run stores them; ``--resume`` reuses them)."""

    level: int
    budget: int  # frames per deal
    walk: int = 50  # actions per exploration, at most
    seed: int = 0  # the run's seed


class Cell(NamedTuple):
    """An archive cell: its key, its state's value and path, how often it was chosen."""

    step: int
    beaten: int
    fights: int
    life_bin: int
    value: int
    chosen: int
    path: tuple[int, ...]

    @property
    def key(self) -> tuple[int, int, int, int]:
        return (self.step, self.beaten, self.fights, self.life_bin)


@dataclass
class Exploration:
    """One deal's exploration: its cells (in the order found), counters, and the win's
    actions if one was found. ``games`` holds the cells' states (the Python loop only)."""

    level: int
    seed: int
    won: bool
    frames: int
    walks: int
    cells: list[Cell]
    win: tuple[int, ...] | None
    games: list[Any] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        """What a run keeps of it: plain JSON values, no states."""
        furthest = max(self.cells, key=lambda c: (c.fights, c.beaten, c.step, c.life_bin))
        return {
            "level": self.level,
            "seed": self.seed,
            "won": self.won,
            "frames": self.frames,
            "walks": self.walks,
            "cells": len(self.cells),
            "furthest": dict(
                zip(("step", "beaten", "fights", "life_bin"), furthest.key, strict=True)
            ),
            "actions": None if self.win is None else list(self.win),
        }


def splitmix64(state: int) -> tuple[int, int]:
    """The next (state, output) of splitmix64 (the C kernels' generator of choices)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def streams(settings: Settings, seed: int) -> tuple[int, int]:
    """The deal's two splitmix64 states: cell choices, actions."""
    draws = np.random.default_rng([settings.seed, settings.level, seed]).integers(
        0, 2**64, size=2, dtype=np.uint64
    )
    return int(draws[0]), int(draws[1])


def explore(settings: Settings, seed: int, core: str | None = None) -> Exploration:
    """Explore deal ``seed`` of ``settings.level`` until a win or the budget, on ``core``
    (None: the default core; the C loop on the compiled one)."""
    start = new_game(settings.level, seed, core=core)
    choices, actions = streams(settings, seed)
    if _kernels is not None and core_of(start) == "c":
        won, frames, walks, cells, win = _kernels.explore_deal(
            start, settings.budget, settings.walk, choices, actions
        )
        found = [Cell(s, b, f, life, v, n, tuple(path)) for s, b, f, life, v, n, path in cells]
        return Exploration(
            settings.level, seed, won, frames, walks, found, None if win is None else tuple(win)
        )
    return PythonArchive(start, settings.walk, choices, actions).run(settings.budget, seed)


#: Fights finished that a cell key can hold (explore.c's FR_EXPLORE_FIGHTS).
MAX_FIGHTS = 256


def cell_key(game: Any) -> tuple[int, int, int, int]:
    """The cell of ``game``; a ValueError outside the ranges explore.c's keys hold."""
    if game.life < 0 or game.fights >= MAX_FIGHTS:
        raise ValueError("explore_deal: a state outside the cell key's ranges")
    return (game.step, len(game.beaten), game.fights, min(game.life, LIFE_CAP) // LIFE_BIN)


def weight(fights: int, chosen: int) -> float:
    return float((1 + fights) * (1 + fights)) / math.sqrt(1 + chosen)


class PythonArchive:
    """explore.c's loop in Python, the same arithmetic step for step."""

    def __init__(self, start: Any, walk: int, choices: int, actions: int) -> None:
        self.walk, self.choices, self.actions = walk, choices, actions
        self.keys: list[tuple[int, int, int, int]] = []
        self.games: list[Any] = []
        self.values: list[int] = []
        self.chosen: list[int] = []
        self.weights: list[float] = []
        self.slot: dict[tuple[int, int, int, int], int] = {}
        self.frames = self.walks = 0
        self.win: Any = None
        self.offer(start)

    def offer(self, game: Any) -> None:
        """A state reached: a new cell, or its cell's state when strictly better."""
        key, value = cell_key(game), game.score() + LIFE_WEIGHT * game.life
        i = self.slot.get(key)
        if i is None:
            self.slot[key] = len(self.keys)
            self.keys.append(key)
            self.games.append(game.clone())
            self.values.append(value)
            self.chosen.append(0)
            self.weights.append(weight(key[2], 0))
        elif value > self.values[i]:
            self.games[i], self.values[i] = game.clone(), value

    def choose(self) -> int:
        """explore.c's choose: the first running sum above u x total, in the order found."""
        sums = _running_sum(self.weights)
        self.choices, out = splitmix64(self.choices)
        target = (out >> 11) * 2.0**-53 * sums[-1]
        # the last cell for a draw of exactly the total
        pick = next((i for i, running in enumerate(sums) if running > target), len(sums) - 1)
        self.chosen[pick] += 1
        self.weights[pick] = weight(self.keys[pick][2], self.chosen[pick])
        return pick

    def walk_from(self, i: int) -> None:
        game = self.games[i].clone()
        self.walks += 1
        for _ in range(self.walk):
            if game.done:
                break
            legal = game.legal_actions()
            if not legal:  # no decision pending (explore.c stops too)
                break
            self.actions, out = splitmix64(self.actions)
            game.apply(legal[(out >> 33) % len(legal)])
            self.frames += 1
            if game.won:
                self.win = game
                return
            if not game.done:
                self.offer(game)

    def run(self, budget: int, seed: int) -> Exploration:
        while self.frames < budget and self.win is None:
            self.walk_from(self.choose())
        cells = [
            Cell(*key, value, chosen, tuple(game.history))
            for key, value, chosen, game in zip(
                self.keys, self.values, self.chosen, self.games, strict=True
            )
        ]
        win = None if self.win is None else tuple(self.win.history)
        level = self.games[0].level
        return Exploration(
            level, seed, win is not None, self.frames, self.walks, cells, win, list(self.games)
        )


def _running_sum(values: list[float]) -> list[float]:
    """Left-to-right partial sums, as C's ``acc += w`` makes them (no compensated sum)."""
    sums, acc = [], 0.0
    for value in values:
        acc += value
        sums.append(acc)
    return sums
