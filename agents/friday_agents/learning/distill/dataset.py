"""Labelled decisions of a round's games, as arrays for the fit.

Every decision the search valued with two or more tried actions becomes one row: the public
flat observation, the legal and the tried actions, the search's mean rollout value of each
tried action (``q``), and the outcome of the game the state belongs to (+1 won, -1 lost:
the value head's target). Teacher and student games are read alike (in a student game the
state is one the network reached, the labels the search's).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from friday_agents.learning.fitting.game_data import training_games
from friday_agents.learning.fitting.policy_net_fit import searched_decisions
from friday_env import Game
from friday_env.observation import make_encoder


@dataclass
class Decisions:
    """One row per labelled decision (see the module docstring)."""

    obs: np.ndarray  # float16 [n, 991]
    legal: np.ndarray  # bool [n, actions]
    tried: np.ndarray  # bool [n, actions]
    q: np.ndarray  # float16 [n, actions], 0 where not tried
    outcome: np.ndarray  # float32 [n]: +1 the game was won, -1 lost
    levels: np.ndarray  # int8 [n]
    deals: np.ndarray  # int32 [n]: the training deal index of the game
    student: np.ndarray  # bool [n]: from a student (DAgger) game

    def __len__(self) -> int:
        return len(self.outcome)

    def subset(self, keep: np.ndarray) -> Decisions:
        return Decisions(**{name: value[keep] for name, value in vars(self).items()})

    @staticmethod
    def concatenate(parts: list[Decisions]) -> Decisions:
        names = list(vars(parts[0]))
        return Decisions(**{n: np.concatenate([getattr(p, n) for p in parts]) for n in names})


def read_decisions(paths: list[Path]) -> Decisions:
    """The labelled decisions of every game in ``paths``, read as
    `training_games` reads them (an evaluation or
    validation deal is refused: rounds train on training deals only). Each file's decisions
    are cached beside it (``FILE.decisions.npz``, rebuilt when the file has changed):
    replaying and encoding is the slow part, and every round reads all earlier rounds' games
    again."""
    parts = [_file_decisions(Path(path)) for path in paths]
    parts = [part for part in parts if part is not None]
    if not parts:
        raise ValueError(f"no labelled decisions in {', '.join(map(str, paths))}")
    return Decisions.concatenate(parts)


def _file_decisions(path: Path) -> Decisions | None:
    cache = path.with_name(path.name + ".decisions.npz")
    stamp = np.array([path.stat().st_size, path.stat().st_mtime_ns])
    if cache.exists():
        with np.load(cache) as data:
            if np.array_equal(data["stamp"], stamp):
                return Decisions(**{name: data[name] for name in data.files if name != "stamp"})
    encoder, parts = make_encoder("flat"), []
    for line in training_games(path):
        part = _game_decisions(line, encoder)
        if part is not None:
            parts.append(part)
    if not parts:
        return None
    decisions = Decisions.concatenate(parts)
    np.savez(cache, stamp=stamp, **vars(decisions))
    return decisions


def _game_decisions(line: dict, encoder) -> Decisions | None:
    rows = _game_rows(line, encoder)
    if not rows:
        return None
    columns = list(zip(*rows, strict=True))
    return Decisions(
        obs=np.stack(columns[0]),
        legal=np.stack(columns[1]),
        tried=np.stack(columns[2]),
        q=np.stack(columns[3]),
        outcome=np.array(columns[4], np.float32),
        levels=np.array(columns[5], np.int8),
        deals=np.array(columns[6], np.int32),
        student=np.array(columns[7], bool),
    )


def _game_rows(line: dict, encoder) -> list[tuple]:
    game = Game.new(line["level"], line["seed"])
    outcome = 1.0 if line["won"] else -1.0
    from_student = line.get("student") is not None
    level, index = line["level"], line["index"]
    rows = [
        (
            encoder.encode(game).astype(np.float16),
            legal,
            tried,
            row,
            outcome,
            level,
            index,
            from_student,
        )
        for _, legal, tried, row in searched_decisions(game, line, np.float16)
    ]
    if game.won != line["won"]:
        raise ValueError(f"game {line['level']}/{line['seed']} does not replay to its result")
    return rows
