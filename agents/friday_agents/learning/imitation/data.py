"""Imitation data: a teacher's games on training deals, and the dataset they encode to.

Two files, one per stage:

- a **games file** (JSON lines, appended game by game, so collection resumes where it
  stopped): ``{"level", "seed", "index", "teacher", "actions", "won", "score", "seconds",
  "q"}``; ``seed`` is
  [`friday_agents.harness.deals.training_seed`][friday_agents.harness.deals.training_seed] ``(level,
  index)`` and the teacher is reset with the deal seed, exactly as
  [`friday_agents.players.base.play_game`][friday_agents.players.base.play_game] plays it, so a game
  is reproducible from its line. ``q`` maps a decision's index in the history to the teacher's
  ``[[action, value], ...]`` when the teacher reports values (the search agent's mean rollout value
  per candidate: soft targets). A DAgger line also has ``labels`` (decision index -> the teacher's
  action in a state the *student* reached; ``actions`` are the student's).
- a **dataset** (``.npz``): every labelled decision with a choice (forced moves teach
  nothing) as observation, action mask, target action, the teacher's values and the
  discounted ``progress`` return from that state; plus the observation mode, so a dataset
  cannot be fitted into a policy that reads another observation.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from friday_agents.harness.deals import training_seed
from friday_agents.harness.errors import BadInputError
from friday_agents.harness.files import write_npz_atomically
from friday_agents.harness.games_file import GamesFileError, drop_cut_short_line, read_games_file
from friday_agents.harness.parallel import run_games
from friday_agents.harness.run_lock import RunFolderLock
from friday_agents.players.registry import make_agent
from friday_env import Game
from friday_env.observation import action_mask, make_encoder
from friday_env.regular_file import why_not_a_file

#: Discount of the returns stored for the value head (the ``friday train`` default).
RETURN_GAMMA = 0.995
#: What the stored returns pay for each hazard beaten, besides +1/-1 at the end: the reward
#: the committed imitation models' value heads were fitted with (pirates are not paid, unlike
#: the env's ``reward="progress"``).
HAZARD_RETURN = 0.1
DATASET_FORMAT = "friday-imitation-v1"


class ImitationDataError(BadInputError):
    """A games file or dataset that is missing, empty or does not fit what is asked of it."""


# ------------------------------------------------------------------ collecting


def teacher_game(spec: str, level: int, index: int) -> dict[str, Any]:
    """Play the teacher ``spec`` on training deal ``index`` of ``level`` and return its line."""
    agent = make_agent(spec)
    seed = training_seed(level, index)
    started = time.process_time()
    game = Game.new(level, seed)
    agent.reset(seed)
    q: dict[str, list] = {}
    while not game.done:
        action = agent.act(game)
        values = getattr(agent, "last_values", None)
        if values is not None:
            q[str(len(game.history))] = [[a, round(v, 3)] for a, v in values]
        game.apply(action)
    return game_line(spec, level, index, game, time.process_time() - started, q=q)


def game_line(spec: str, level: int, index: int, game: Game, seconds: float, **extra: Any) -> dict:
    return {
        "level": level,
        "seed": training_seed(level, index),
        "index": index,
        "teacher": spec,
        "actions": [int(a) for a in game.history],
        "won": bool(game.won),
        "score": int(game.score()),
        "seconds": round(seconds, 4),
        **extra,
    }


def parallel_map(
    function: Callable,
    jobs: list,
    workers: int,
    backend: str = "process",
    address: str | None = None,
) -> Iterator[Any]:
    """``function`` over ``jobs`` through [`run_games`][friday_agents.harness.parallel.run_games]
    (a process pool, or Ray tasks with ``backend="ray"``), results in the order of ``jobs``
    (for code that pairs them with the jobs; writers of games files use ``run_games``
    itself, which yields each game as it finishes)."""
    tagged = [(function, index, job) for index, job in enumerate(jobs)]
    waiting: dict[int, Any] = {}
    following = 0
    for index, result in run_games(
        _indexed, tagged, backend=backend, workers=workers, address=address
    ):
        waiting[index] = result
        while following in waiting:
            yield waiting.pop(following)
            following += 1


def _indexed(tagged: tuple[Callable, int, Any]) -> tuple[int, Any]:
    function, index, job = tagged
    return index, function(job)


def _teacher_job(job: tuple[str, int, int]) -> dict[str, Any]:
    return teacher_game(*job)


def done_games(path: Path) -> set[tuple[int, int]]:
    """``(level, index)`` of every game already in a games file. A last line cut short by a
    killed run is removed from the file, so the games appended next start on a line of
    their own."""
    try:
        found = read_games_file(path, missing_ok=True)
    except GamesFileError as err:
        raise ImitationDataError(str(err)) from None
    if found.cut_short:
        drop_cut_short_line(path)
    return {(line["level"], line["index"]) for line in found.games}


def collect(
    spec: str,
    levels: Iterable[int],
    indices: range,
    out: Path,
    workers: int = 2,
    progress: Callable[[dict], None] | None = None,
    backend: str = "process",
    address: str | None = None,
) -> int:
    """Append the teacher's games on ``indices`` of each level to ``out`` (levels
    interleaved; games already there are skipped), each as it finishes, on ``backend``
    ([`run_games`][friday_agents.harness.parallel.run_games]: a process pool, or Ray tasks on a
    local Ray or the cluster at ``address``). Returns the number of games played. The file
    is held while it is read and appended to: a second collection into it is refused in one
    line ([`RunFolderBusy`][friday_agents.harness.run_lock.RunFolderBusy]) instead of playing
    and storing the missing games twice."""
    make_agent(spec)  # a bad spec fails here, before any process starts
    with RunFolderLock() as lock:
        lock.take_file(out)
        done = done_games(out)
        jobs = [(spec, lv, i) for i in indices for lv in levels if (lv, i) not in done]
        with out.open("a") as handle:
            games = run_games(_teacher_job, jobs, backend=backend, workers=workers, address=address)
            for line in games:
                handle.write(json.dumps(line) + "\n")
                handle.flush()
                if progress:
                    progress(line)
    return len(jobs)


def read_games(path: Path, missing_ok: bool = False) -> list[dict[str, Any]]:
    """The games of a games file
    ([`friday_agents.harness.games_file`][friday_agents.harness.games_file]: a last line cut short
    by a killed run is skipped)."""
    try:
        return read_games_file(path, missing_ok).games
    except GamesFileError as err:
        raise ImitationDataError(str(err)) from None


# ------------------------------------------------------------------- encoding


@dataclass
class Dataset:
    """Labelled decisions of one observation mode (see the module docstring)."""

    observation: str
    obs: np.ndarray  # float16 [n, obs]
    masks: np.ndarray  # bool [n, actions]
    actions: np.ndarray  # int16 [n]
    q: np.ndarray  # float16 [n, actions]; 0 where has_q is False, NaN where not tried
    has_q: np.ndarray  # bool [n]
    returns: np.ndarray  # float32 [n]
    levels: np.ndarray  # int8 [n]
    games: np.ndarray  # int32 [n]: which game (line) a decision came from

    def __len__(self) -> int:
        return len(self.actions)

    def save(self, path: Path) -> None:
        """The dataset in ``path``, whole or not at all (a kill mid-write keeps the old one)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        arrays = {k: v for k, v in vars(self).items() if isinstance(v, np.ndarray)}
        labels = {"format": np.array(DATASET_FORMAT), "observation": np.array(self.observation)}
        write_npz_atomically(path, labels | arrays)

    def subset(self, keep: np.ndarray) -> Dataset:
        fields = {k: (v[keep] if isinstance(v, np.ndarray) else v) for k, v in vars(self).items()}
        return Dataset(**fields)


def load_dataset(path: Path, observation: str | None = None) -> Dataset:
    """Read a dataset; `ImitationDataError` if missing, empty, not a dataset, or
    encoded for another observation mode than ``observation``."""
    problem = why_not_a_file(path)
    if problem is not None:
        raise ImitationDataError(f"dataset {str(path)!r} {problem}")
    try:
        data = np.load(path, allow_pickle=False)
        if str(data["format"]) != DATASET_FORMAT:
            raise KeyError("format")
        fields = {k: data[k] for k in data.files if k not in ("format", "observation")}
        dataset = Dataset(observation=str(data["observation"]), **fields)
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise ImitationDataError(f"{str(path)!r} is not an imitation dataset ({err})") from None
    if len(dataset) == 0:
        raise ImitationDataError(f"dataset {str(path)!r} is empty: collect some games first")
    if observation is not None and dataset.observation != observation:
        raise ImitationDataError(
            f"dataset {str(path)!r} holds {dataset.observation!r} observations, "
            f"the policy reads {observation!r}: re-encode the games with --observation"
        )
    return dataset


def encode_games(
    games: list[dict[str, Any]], observation: str = "flat", levels: Iterable[int] | None = None
) -> Dataset:
    """Replay every game and encode its labelled decisions (see `Dataset`)."""
    if observation not in ("flat",):
        raise ImitationDataError(
            f"imitation datasets hold array observations; {observation!r} is not supported "
            "(use flat)"
        )
    wanted = set(levels) if levels is not None else None
    encoded = [
        _encode_one(line, number, observation)
        for number, line in enumerate(games)
        if wanted is None or line["level"] in wanted
    ]
    parts = [part for part in encoded if part is not None]
    if not parts:
        raise ImitationDataError("no labelled decisions in these games: the dataset is empty")
    columns = {key: np.concatenate([part[key] for part in parts]) for key in parts[0]}
    return Dataset(observation=observation, **columns)


def _encode_one(line: dict[str, Any], number: int, observation: str) -> dict | None:
    """One game's labelled decisions as arrays (float16 observations), or None if none."""
    encoder = make_encoder(observation)
    game = Game.new(line["level"], line["seed"])
    labels = line.get("labels")
    states, rewards = [], []
    for step, action in enumerate(line["actions"]):
        target = action if labels is None else labels.get(str(step))
        mask = action_mask(game)
        if target is not None and mask.sum() > 1:
            states.append((step, encoder.encode(game).astype(np.float16), mask, int(target)))
        before = game.hazards_beaten()
        game.apply(action)
        rewards.append(HAZARD_RETURN * (game.hazards_beaten() - before))
    if not game.done:
        raise ImitationDataError(f"game {line['level']}/{line['seed']} does not end: bad line")
    if not states:
        return None
    rewards[-1] += 1.0 if game.won else -1.0
    to_go = _returns(rewards)
    q_rows = [_q_row(line.get("q", {}).get(str(s[0])), len(s[2])) for s in states]
    count = len(states)
    return {
        "obs": np.stack([s[1] for s in states]),
        "masks": np.stack([s[2] for s in states]).astype(bool),
        "actions": np.array([s[3] for s in states], dtype=np.int16),
        "q": np.stack([row for row, _ in q_rows]).astype(np.float16),
        "has_q": np.array([has for _, has in q_rows], dtype=bool),
        "returns": to_go[[s[0] for s in states]].astype(np.float32),
        "levels": np.full(count, line["level"], dtype=np.int8),
        "games": np.full(count, number, dtype=np.int32),
    }


def _returns(rewards: list[float]) -> np.ndarray:
    out = np.zeros(len(rewards))
    total = 0.0
    for i in range(len(rewards) - 1, -1, -1):
        total = rewards[i] + RETURN_GAMMA * total
        out[i] = total
    return out


def _q_row(values: list | None, size: int) -> tuple[np.ndarray, bool]:
    """The teacher's action values as a row: NaN for an action it did not try (a pruned
    search tries only some legal actions), all zeros when it reported none."""
    if not values:
        return np.zeros(size, dtype=np.float32), False
    row = np.full(size, np.nan, dtype=np.float32)
    for action, value in values:
        row[action] = value
    return row, True
