"""Labelled decisions of a round's games, as compact arrays for the fit.

Every decision the search valued with two or more tried actions becomes one row: the public
flat observation, the legal and the tried actions, the search's mean rollout value of each
tried action (``q``), and the outcome of the game the state belongs to (+1 won, -1 lost:
the value head's target). Teacher and student games are read alike (in a student game the
state is one the network reached, the labels the search's).

Rows are stored sparse, since millions of them must fit in memory: an observation holds about
80 non-zeros of its 991 numbers and a decision about 3 legal actions of 199, so dense rows
(2.8 KB each) would take 2.8 GB per million decisions where these take about a tenth of that.
`Decisions.batch` gives dense rows for the fit, a batch at a time.
"""

from __future__ import annotations

import dataclasses
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from friday_agents.harness.files import replace_atomically
from friday_agents.learning.fitting.game_data import training_games
from friday_agents.learning.fitting.policy_net_fit import searched_decisions
from friday_env import Game
from friday_env.actions import NUM_ACTIONS
from friday_env.observation import FLAT_SIZE, make_encoder

#: Bumped when the cache's arrays change: a cache of another version is rebuilt.
CACHE_VERSION = 2
#: The per-row arrays, next to the two sparse parts (observation entries, legal actions).
ROW_ARRAYS = ("outcome", "levels", "deals", "student")


@dataclass
class Dense:
    """Rows of `Decisions` made dense: what the fit and the report compute on."""

    obs: np.ndarray  # float32 [n, 991]
    legal: np.ndarray  # bool [n, actions]
    tried: np.ndarray  # bool [n, actions]
    q: np.ndarray  # float32 [n, actions], 0 where not tried
    outcome: np.ndarray  # float32 [n]


@dataclass
class Decisions:
    """One row per labelled decision (see the module docstring), in two sparse parts.

    Row ``r``'s observation entries are ``obs_index[obs_ptr[r]:obs_ptr[r + 1]]`` (positions in
    the flat observation) with ``obs_value`` alike; its legal actions are
    ``action[act_ptr[r]:act_ptr[r + 1]]`` with ``tried`` and ``q`` alike."""

    obs_ptr: np.ndarray  # int64 [n + 1]
    obs_index: np.ndarray  # int16 [entries]
    obs_value: np.ndarray  # float16 [entries]
    act_ptr: np.ndarray  # int64 [n + 1]
    action: np.ndarray  # int16 [legal actions]
    tried: np.ndarray  # bool [legal actions]
    q: np.ndarray  # float16 (float32 once scaled) [legal actions], 0 where not tried
    outcome: np.ndarray  # float32 [n]: +1 the game was won, -1 lost
    levels: np.ndarray  # int8 [n]
    deals: np.ndarray  # int32 [n]: the training deal index of the game
    student: np.ndarray  # bool [n]: from a student (DAgger) game

    def __len__(self) -> int:
        return len(self.outcome)

    @property
    def nbytes(self) -> int:
        return sum(array.nbytes for array in vars(self).values())

    def subset(self, keep: np.ndarray) -> Decisions:
        """The rows ``keep`` selects (a boolean mask or row numbers), in that order."""
        rows = np.flatnonzero(keep) if keep.dtype == bool else np.asarray(keep, np.int64)
        obs_ptr, obs_at = _gather(self.obs_ptr, rows)
        act_ptr, act_at = _gather(self.act_ptr, rows)
        return Decisions(
            obs_ptr=obs_ptr,
            obs_index=self.obs_index[obs_at],
            obs_value=self.obs_value[obs_at],
            act_ptr=act_ptr,
            action=self.action[act_at],
            tried=self.tried[act_at],
            q=self.q[act_at],
            **{name: getattr(self, name)[rows] for name in ROW_ARRAYS},
        )

    def with_value_scale(self, factors: tuple[float, ...]) -> Decisions:
        """A copy whose action values (``q``, float32) are multiplied by their row's level's
        factor: ``factors[level - 1]`` (the configuration's ``value_scale``)."""
        of_level = np.array((1.0, *factors), np.float32)  # levels count from 1
        q = self.q.astype(np.float32) * of_level[self.levels[_owners(self.act_ptr)]]
        return dataclasses.replace(self, q=q)

    def batch(self, rows: np.ndarray) -> Dense:
        """Rows ``rows`` as dense arrays."""
        part = self.subset(rows)
        n = len(part)
        obs = np.zeros((n, FLAT_SIZE), np.float32)
        obs[_owners(part.obs_ptr), part.obs_index] = part.obs_value
        owners = _owners(part.act_ptr)
        legal = np.zeros((n, NUM_ACTIONS), bool)
        tried = np.zeros((n, NUM_ACTIONS), bool)
        q = np.zeros((n, NUM_ACTIONS), np.float32)
        legal[owners, part.action] = True
        tried[owners, part.action] = part.tried
        q[owners, part.action] = part.q
        return Dense(obs, legal, tried, q, part.outcome)

    def legal_lists(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each row's legal actions in ascending order, padded with -1 to the widest row's
        count (int64 ``[n, width]``), with their tried flags and values alike (False and 0 in
        the padding): the rows' action part without the 199-wide rows."""
        owners = _owners(self.act_ptr)
        slots = np.arange(len(self.action)) - self.act_ptr[owners]
        width = max(int(np.diff(self.act_ptr).max(initial=1)), 1)
        ids = np.full((len(self), width), -1, np.int64)
        tried = np.zeros((len(self), width), bool)
        q = np.zeros((len(self), width), np.float32)
        ids[owners, slots], tried[owners, slots], q[owners, slots] = self.action, self.tried, self.q
        return ids, tried, q

    @staticmethod
    def concatenate(parts: list[Decisions]) -> Decisions:
        def joined_ptr(name: str) -> np.ndarray:
            ends = [getattr(p, name)[1:] for p in parts]
            shifts = np.cumsum([0] + [int(e[-1]) if len(e) else 0 for e in ends[:-1]])
            shifted = (end + shift for end, shift in zip(ends, shifts, strict=True))
            return np.concatenate([np.zeros(1, np.int64), *shifted])

        names = [n for n in vars(parts[0]) if n not in ("obs_ptr", "act_ptr")]
        joined = {n: np.concatenate([getattr(p, n) for p in parts]) for n in names}
        return Decisions(obs_ptr=joined_ptr("obs_ptr"), act_ptr=joined_ptr("act_ptr"), **joined)


def _gather(ptr: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The pointer array of rows ``rows`` of a sparse part, and the positions of their
    entries in it."""
    starts, lengths = ptr[rows], ptr[rows + 1] - ptr[rows]
    new_ptr = np.zeros(len(rows) + 1, np.int64)
    np.cumsum(lengths, out=new_ptr[1:])
    within = np.arange(new_ptr[-1]) - np.repeat(new_ptr[:-1], lengths)
    return new_ptr, np.repeat(starts, lengths) + within


def _owners(ptr: np.ndarray) -> np.ndarray:
    """The row of each entry of a sparse part."""
    return np.repeat(np.arange(len(ptr) - 1), np.diff(ptr))


def read_decisions(paths: list[Path]) -> Decisions:
    """The labelled decisions of every game in ``paths``, read as
    `training_games` reads them (an evaluation or
    validation deal is refused: rounds train on training deals only), file by file and, within
    a file, by level and deal: the order the games were appended in (which a stopped and
    continued run changes) does not change the rows. Each file's decisions are cached beside
    it (``FILE.decisions.npz``, rebuilt when the file has changed): replaying and encoding is
    the slow part, and every round reads all earlier rounds' games again."""
    read = [_file_decisions(Path(path)) for path in paths]
    parts = [part for part in read if part is not None]
    if not parts:
        raise ValueError(f"no labelled decisions in {', '.join(map(str, paths))}")
    return Decisions.concatenate(parts)


def _file_decisions(path: Path) -> Decisions | None:
    cache = path.with_name(path.name + ".decisions.npz")
    stamp = np.array([path.stat().st_size, path.stat().st_mtime_ns, CACHE_VERSION])
    cached = _cached(cache, stamp)
    if cached is not None:
        return cached
    encoder = make_encoder("flat")
    games = sorted(training_games(path), key=lambda line: (line["level"], line["index"]))
    parts = [part for line in games if (part := _game_decisions(line, encoder)) is not None]
    if not parts:
        return None
    decisions = Decisions.concatenate(parts)
    replace_atomically(cache, lambda temporary: _save(temporary, stamp, decisions))
    return decisions


def _save(path: Path, stamp: np.ndarray, decisions: Decisions) -> None:
    with path.open("wb") as handle:
        np.savez(handle, stamp=stamp, **vars(decisions))


def _cached(cache: Path, stamp: np.ndarray) -> Decisions | None:
    """The decisions in ``cache`` if it is whole, consistent and of ``stamp`` (the games
    file's size, time and `CACHE_VERSION`), else None: the cache is rebuilt. It is derived
    data, so a damaged one (cut short by a kill, edited, not a regular file) is replaced
    rather than refused; it is written atomically, so a kill leaves the old one or the new."""
    if not cache.is_file():
        return None
    try:
        with np.load(cache, allow_pickle=False) as data:
            if not np.array_equal(data["stamp"], stamp):
                return None
            decisions = Decisions(**{f.name: data[f.name] for f in dataclasses.fields(Decisions)})
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, zlib.error):
        return None
    return decisions if _consistent(decisions) else None


def _consistent(d: Decisions) -> bool:
    """Whether the arrays fit together as `Decisions` rows (pointers into entries that
    exist, positions inside the observation and the actions, one value per row)."""
    rows = len(d.obs_ptr) - 1
    parts = (
        (d.obs_ptr, (d.obs_index, d.obs_value), FLAT_SIZE),
        (d.act_ptr, (d.action, d.tried, d.q), NUM_ACTIONS),
    )
    for ptr, entries, size in parts:
        if rows < 0 or ptr.ndim != 1 or len(ptr) != rows + 1 or ptr[0] != 0:
            return False
        if np.any(np.diff(ptr) < 0) or any(e.ndim != 1 or len(e) != ptr[-1] for e in entries):
            return False
        if len(entries[0]) and not (entries[0].min() >= 0 and entries[0].max() < size):
            return False
    return all(getattr(d, name).shape == (rows,) for name in ROW_ARRAYS)


def _game_decisions(line: dict, encoder) -> Decisions | None:
    game = Game.new(line["level"], line["seed"])
    obs_rows, legal_rows, tried_rows, q_rows = [], [], [], []
    for _, legal, tried, q in searched_decisions(game, line, np.float16):
        obs_rows.append(encoder.encode(game).astype(np.float16))
        legal_rows.append(legal)
        tried_rows.append(tried)
        q_rows.append(q)
    if game.won != line["won"]:
        raise ValueError(f"game {line['level']}/{line['seed']} does not replay to its result")
    if not obs_rows:
        return None
    obs, legal = np.stack(obs_rows), np.stack(legal_rows)
    n = len(obs)
    obs_rows_at, obs_index = np.nonzero(obs)
    act_rows_at, action = np.nonzero(legal)
    tried, q = np.stack(tried_rows), np.stack(q_rows)
    return Decisions(
        obs_ptr=_ptr(obs_rows_at, n),
        obs_index=obs_index.astype(np.int16),
        obs_value=obs[obs_rows_at, obs_index],
        act_ptr=_ptr(act_rows_at, n),
        action=action.astype(np.int16),
        tried=tried[act_rows_at, action],
        q=q[act_rows_at, action],
        outcome=np.full(n, 1.0 if line["won"] else -1.0, np.float32),
        levels=np.full(n, line["level"], np.int8),
        deals=np.full(n, line["index"], np.int32),
        student=np.full(n, line.get("student") is not None, bool),
    )


def _ptr(row_of_entry: np.ndarray, rows: int) -> np.ndarray:
    """The pointer array of a sparse part whose entries belong to ``row_of_entry`` (sorted)."""
    ptr = np.zeros(rows + 1, np.int64)
    np.cumsum(np.bincount(row_of_entry, minlength=rows), out=ptr[1:])
    return ptr
