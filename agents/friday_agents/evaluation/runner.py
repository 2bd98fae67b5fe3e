"""Play an evaluation's games on every core, saving each result the moment it is known.

An evaluation is a fixed list of games — every agent on the same evaluation deals
([`friday_agents.harness.deals`][friday_agents.harness.deals]) — described by an `EvalConfig` stored
as ``run.json`` in the output directory. Each finished game is appended as one JSON line to
``games.jsonl`` (with
its replayable [`friday_env.GameRecord`][friday_env.record.GameRecord] when ``save_games`` is on),
so an interrupted run (Ctrl-C, a killed worker, a crash) loses only the games in flight and
``--resume`` plays just the missing ones. Results do not depend on the backend (a process pool or
Ray, [`friday_agents.harness.parallel`][friday_agents.harness.parallel]), the number of
workers or interruptions: each game is seeded by its deal alone.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from friday_agents.evaluation.stored_run import (
    StoredRunError,
    check_config,
    check_row,
    check_row_key,
    config_fields,
)
from friday_agents.harness.deals import deal_seed
from friday_agents.harness.files import write_text_atomically
from friday_agents.harness.games_file import (
    GAMES_FILE,
    GamesFileError,
    drop_cut_short_line,
    read_games_file,
)
from friday_agents.harness.parallel import GamesInterrupted, run_games
from friday_agents.players.base import Agent, outcome_of, play_game
from friday_agents.players.registry import AgentSpecError, make_agent
from friday_env import GameRecord
from friday_env.json_text import JsonTextError, read_json

CONFIG_FILE = "run.json"
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
    #: Which deals are played (`friday_agents.harness.deals.DEAL_SETS`): the evaluation deals,
    #: or the validation deals for choosing between variants without looking at them.
    deals: str = "evaluation"

    def __post_init__(self) -> None:
        try:
            check_config(self.agents, self.levels, self.games, self.search_sims, self.deals)
        except StoredRunError as err:
            raise EvaluationError(str(err)) from None

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
        """The configuration stored as ``data``: every field checked (`stored_run`), an
        `EvaluationError` naming the field that no run writes."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise EvaluationError(f"not an evaluation config: expected format {FORMAT!r}")
        try:
            return cls(**config_fields(data.get("config")))  # no "deals": a run before deal sets
        except StoredRunError as err:
            raise EvaluationError(f"config: {err}") from None


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
_WORKER_DEALS = "evaluation"
#: The agents built in this process by (spec, search sims). ``friday eval`` builds each agent
#: once, to check its spec before anything runs; the games then reuse that agent in this
#: process and in the workers forked from it (a game starts with ``agent.reset(seed)``, so a
#: reused agent plays as a new one). `forget_agents` empties it between runs.
_BUILT: dict[tuple[str, int], Agent] = {}


def build_agent(spec: str, search_sims: int) -> Agent:
    """The agent ``spec`` names with ``search_sims`` as its default budget, built on first
    use in this process (an [`AgentSpecError`][friday_agents.players.registry.AgentSpecError] for a
    bad spec)."""
    key = (spec, search_sims)
    if key not in _BUILT:
        _BUILT[key] = make_agent(spec, sims=search_sims)
    return _BUILT[key]


def forget_agents() -> None:
    """Drop the agents built so far (a new run may read changed checkpoints)."""
    _BUILT.clear()


def prepare_worker(config: EvalConfig) -> None:
    """Make the agents ready once per worker process (or in this process with one worker)."""
    global _WORKER_SAVE, _WORKER_DEALS
    _WORKER_AGENTS.clear()
    for spec in config.agents:
        _WORKER_AGENTS[spec] = build_agent(spec, config.search_sims)
    _WORKER_SAVE = config.save_games
    _WORKER_DEALS = config.deals


def play_task(task: Task) -> dict[str, Any]:
    """Play one game and return its result row."""
    seed = deal_seed(_WORKER_DEALS, task.level, task.index)
    agent = _WORKER_AGENTS[task.agent]
    # loading a level's model is not play: it happens before the clock starts, so a game's
    # seconds (and games/s) measure play alone
    prepare = getattr(agent, "prepare", None)  # optional in the Agent protocol
    if prepare is not None:
        prepare(task.level)
    start = time.perf_counter()
    game = play_game(agent, task.level, seed)
    seconds = time.perf_counter() - start
    row: dict[str, Any] = {"agent": task.agent, "level": task.level, "index": task.index}
    row["seed"] = seed
    row.update(asdict(outcome_of(game)))
    row["seconds"] = round(seconds, 6)
    if _WORKER_SAVE:
        row["record"] = json.loads(GameRecord.of(game).to_json())
    return row


def play_deals(
    agent: str,
    level: int,
    indices: Iterable[int],
    *,
    search_sims: int,
    workers: int | None = None,
    deals: str = "evaluation",
) -> list[dict[str, Any]]:
    """``friday eval``'s games of one agent spec on the deals ``indices`` of ``level``, in
    memory (no output directory), as its ``games.jsonl`` rows in deal order: the same
    agents, seeds and workers as ``friday eval``, for studies that need deals other than
    the first ``--games`` (held-out curve points from index 500,000, for instance)."""
    wanted = list(indices)
    config = EvalConfig((agent,), (level,), {agent: len(wanted)}, search_sims, deals=deals)
    tasks = [Task(agent, level, index) for index in wanted]
    rows = run_games(play_task, tasks, workers=workers, setup=prepare_worker, setup_args=(config,))
    try:
        return sorted(rows, key=lambda row: row["index"])
    except GamesInterrupted as why:
        raise EvaluationInterrupted(why.reason) from None


# ------------------------------------------------------------ the files


def start_run(out: Path, config: EvalConfig, resume: bool) -> EvalConfig:
    """Create ``out`` for a new run, or check it holds the run being resumed. Returns the
    configuration to play (the stored one when resuming)."""
    config_path = out / CONFIG_FILE
    if resume:
        if not config_path.exists():
            raise EvaluationError(f"nothing to resume: {config_path} does not exist")
        try:
            stored = EvalConfig.from_json(read_json(config_path))
            for spec in stored.agents:  # a spec no agent has is refused here, not in a worker
                build_agent(spec, stored.search_sims)
        except AgentSpecError as err:
            raise EvaluationError(f"{config_path}: config: agents: {err}") from None
        except (JsonTextError, EvaluationError) as err:
            raise EvaluationError(f"{config_path}: {err}") from None
        return stored
    if config_path.exists() or (out / GAMES_FILE).exists():
        raise EvaluationError(
            f"{out} already holds an evaluation: continue it with --resume, or choose another --out"
        )
    out.mkdir(parents=True, exist_ok=True)
    write_text_atomically(config_path, json.dumps(config.to_json(), indent=1) + "\n")
    return config


def load_rows(out: Path, config: EvalConfig) -> list[dict[str, Any]]:
    """The finished games in ``out/games.jsonl`` (read by
    [`friday_agents.harness.games_file`][friday_agents.harness.games_file]): a last line cut short
    by a kill is dropped, and the file rewritten without it so appending stays valid; any other bad
    line, or a
    game the configuration does not contain, is an error."""
    path = out / GAMES_FILE
    try:
        found = read_games_file(path, missing_ok=True)
    except GamesFileError as err:
        raise EvaluationError(str(err)) from None
    rows, wanted = [], {t.key for t in config.tasks()}
    seen: set[tuple[str, int, int]] = set()
    for position, row in enumerate(found.games):
        key = (row.get("agent"), row.get("level"), row.get("index"))
        try:
            check_row_key(row)
            if key not in wanted:
                raise StoredRunError("holds a game this evaluation does not play")
            check_row(row, deal_seed(config.deals, *key[1:]), config.save_games)
        except StoredRunError as err:
            raise EvaluationError(f"{found.where(position)}: {err}") from None
        if key not in seen:
            seen.add(key)
            rows.append(row)
    if found.cut_short:  # repaired only once every line is known good: a refusal writes nothing
        drop_cut_short_line(path)
    return rows


# ------------------------------------------------------------- playing


def run_tasks(
    config: EvalConfig,
    tasks: list[Task],
    out: Path,
    workers: int | None,
    on_result: Callable[[dict[str, Any]], None] = lambda row: None,
    backend: str = "process",
    address: str | None = None,
) -> None:
    """Play ``tasks`` on ``backend`` ([`run_games`][friday_agents.harness.parallel.run_games]),
    appending each result to ``games.jsonl`` as it arrives. Raises
    `EvaluationInterrupted` after Ctrl-C or a dead worker (finished games kept)."""
    games = run_games(
        play_task,
        tasks,
        backend=backend,
        workers=workers,
        setup=prepare_worker,
        setup_args=(config,),
        address=address,
    )
    with open(out / GAMES_FILE, "a") as sink:
        try:
            for row in games:
                sink.write(json.dumps(row) + "\n")
                sink.flush()
                on_result(row)
        except GamesInterrupted as why:
            raise EvaluationInterrupted(why.reason) from None
