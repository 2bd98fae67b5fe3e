"""Play an evaluation's games on every core, saving each result the moment it is known.

An evaluation is a fixed list of games — every agent on the same evaluation deals
(:mod:`friday_agents.seeds`) — described by an :class:`EvalConfig` stored as ``run.json`` in
the output directory. Each finished game is appended as one JSON line to ``games.jsonl`` (with its
replayable :class:`friday_env.GameRecord` when ``save_games`` is on), so an interrupted run
(Ctrl-C, a killed worker, a crash) loses only the games in flight and ``--resume`` plays just
the missing ones. Results do not depend on the number of workers or on interruptions: each
game is seeded by its deal alone.
"""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from friday_agents.base import Agent, outcome_of, play_game
from friday_agents.registry import make_agent
from friday_agents.seeds import evaluation_seed
from friday_env import GameRecord

CONFIG_FILE = "run.json"
GAMES_FILE = "games.jsonl"
FORMAT = "friday-env/evaluation"


class EvaluationError(RuntimeError):
    """An evaluation that cannot start or continue (a clash with files on disk)."""


class EvaluationInterrupted(RuntimeError):
    """The run stopped early (Ctrl-C or a dead worker); finished games are on disk."""


@dataclass(frozen=True)
class EvalConfig:
    """What an evaluation plays: agent specs, levels, games per level for each agent."""

    agents: tuple[str, ...]
    levels: tuple[int, ...]
    games: dict[str, int]
    search_sims: int
    save_games: bool = False

    def tasks(self) -> list[Task]:
        """Every game of the evaluation, interleaved (deal 0 of every level and agent, then
        deal 1...) so a partial run covers everything evenly."""
        most = max(self.games.values())
        return [
            Task(agent, level, index)
            for index in range(most)
            for level in self.levels
            for agent in self.agents
            if index < self.games[agent]
        ]

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["agents"], data["levels"] = list(self.agents), list(self.levels)
        return {"format": FORMAT, "config": data}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> EvalConfig:
        if data.get("format") != FORMAT:
            raise EvaluationError(f"not an evaluation config: expected format {FORMAT!r}")
        raw = data["config"]
        return cls(
            agents=tuple(raw["agents"]),
            levels=tuple(raw["levels"]),
            games={k: int(v) for k, v in raw["games"].items()},
            search_sims=int(raw["search_sims"]),
            save_games=bool(raw["save_games"]),
        )


@dataclass(frozen=True)
class Task:
    """One game: agent spec, level and deal index."""

    agent: str
    level: int
    index: int

    @property
    def key(self) -> tuple[str, int, int]:
        return (self.agent, self.level, self.index)


# ------------------------------------------------------------- one game

_WORKER_AGENTS: dict[str, Agent] = {}
_WORKER_SAVE = False


def _prepare(config: EvalConfig, ignore_interrupts: bool) -> None:
    """Build the agents once per process (a worker, or this process with one worker)."""
    global _WORKER_SAVE
    if ignore_interrupts:  # Ctrl-C is the main process's to handle
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER_AGENTS.clear()
    for spec in config.agents:
        _WORKER_AGENTS[spec] = make_agent(spec, sims=config.search_sims)
    _WORKER_SAVE = config.save_games


def play_task(task: Task) -> dict[str, Any]:
    """Play one game and return its result row."""
    seed = evaluation_seed(task.level, task.index)
    start = time.perf_counter()
    game = play_game(_WORKER_AGENTS[task.agent], task.level, seed)
    seconds = time.perf_counter() - start
    row: dict[str, Any] = {"agent": task.agent, "level": task.level, "index": task.index}
    row["seed"] = seed
    row.update(asdict(outcome_of(game)))
    row["seconds"] = round(seconds, 6)
    if _WORKER_SAVE:
        row["record"] = json.loads(GameRecord.of(game).to_json())
    return row


# ------------------------------------------------------------ the files


def start_run(out: Path, config: EvalConfig, resume: bool) -> EvalConfig:
    """Create ``out`` for a new run, or check it holds the run being resumed. Returns the
    configuration to play (the stored one when resuming)."""
    config_path = out / CONFIG_FILE
    if resume:
        if not config_path.exists():
            raise EvaluationError(f"nothing to resume: {config_path} does not exist")
        return EvalConfig.from_json(json.loads(config_path.read_text()))
    if config_path.exists() or (out / GAMES_FILE).exists():
        raise EvaluationError(
            f"{out} already holds an evaluation: continue it with --resume, or choose another --out"
        )
    out.mkdir(parents=True, exist_ok=True)
    config_path.write_text(json.dumps(config.to_json(), indent=1) + "\n")
    return config


def load_rows(out: Path, config: EvalConfig) -> list[dict[str, Any]]:
    """The finished games in ``out/games.jsonl``. A last line cut short by a kill is dropped
    (and the file rewritten without it, so appending stays valid); any other bad line, or a
    game the configuration does not contain, is an error."""
    path = out / GAMES_FILE
    if not path.exists():
        return []
    lines = path.read_text().splitlines()
    rows, wanted = [], {t.key for t in config.tasks()}
    seen: set[tuple[str, int, int]] = set()
    for number, line in enumerate(lines, 1):
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            if number == len(lines):
                _rewrite(path, lines[:-1])
                break
            raise EvaluationError(f"{path}:{number} is not valid JSON") from None
        key = (row["agent"], row["level"], row["index"])
        if key not in wanted:
            raise EvaluationError(f"{path}:{number} holds a game this evaluation does not play")
        if key not in seen:
            seen.add(key)
            rows.append(row)
    return rows


def _rewrite(path: Path, lines: list[str]) -> None:
    temporary = path.with_suffix(".tmp")
    temporary.write_text("".join(line + "\n" for line in lines))
    os.replace(temporary, path)


# ------------------------------------------------------------- playing


def run_tasks(
    config: EvalConfig,
    tasks: list[Task],
    out: Path,
    workers: int,
    on_result: Callable[[dict[str, Any]], None] = lambda row: None,
) -> None:
    """Play ``tasks``, appending each result to ``games.jsonl`` as it arrives. Raises
    :class:`EvaluationInterrupted` after Ctrl-C or a dead worker (finished games kept)."""
    with open(out / GAMES_FILE, "a") as sink:

        def record(row: dict[str, Any]) -> None:
            sink.write(json.dumps(row) + "\n")
            sink.flush()
            on_result(row)

        if workers <= 1:
            _run_here(config, tasks, record)
        else:
            _run_pool(config, tasks, workers, record)


def _run_here(config: EvalConfig, tasks: Iterable[Task], record: Callable) -> None:
    _prepare(config, ignore_interrupts=False)
    try:
        for task in tasks:
            record(play_task(task))
    except KeyboardInterrupt:
        raise EvaluationInterrupted("interrupted") from None


def _run_pool(config: EvalConfig, tasks: list[Task], workers: int, record: Callable) -> None:
    pool = ProcessPoolExecutor(workers, initializer=_prepare, initargs=(config, True))
    queue = iter(tasks)
    pending: set[Future] = set()
    try:
        _refill(pool, queue, pending, workers * 2)
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                record(future.result())
            _refill(pool, queue, pending, workers * 2)
    except KeyboardInterrupt:
        _stop(pool)
        raise EvaluationInterrupted("interrupted") from None
    except BrokenProcessPool:
        _stop(pool)
        raise EvaluationInterrupted("a worker process died") from None
    pool.shutdown()


def _refill(pool: ProcessPoolExecutor, queue: Iterator[Task], pending: set, size: int) -> None:
    while len(pending) < size:
        task = next(queue, None)
        if task is None:
            return
        pending.add(pool.submit(play_task, task))


def _stop(pool: ProcessPoolExecutor) -> None:
    """Stop at once: the games in flight are lost, the finished ones are on disk."""
    for process in list(getattr(pool, "_processes", {}).values()):
        process.terminate()
    pool.shutdown(wait=False, cancel_futures=True)
