"""A ``friday explore`` run: deals explored in parallel, each result appended as it finishes.

The run folder holds:

- ``config.json``: the settings (level, deals, budget, walk, seed, the design's name);
  ``--resume`` reuses them, so a resumed run cannot mix two configurations;
- ``deals.jsonl``: one line per finished deal, appended and flushed to disk as each finishes
  (the journal: a line cut short by a kill is dropped on resume, and the deal played again);
- ``games.jsonl``: the won games, a games file ``friday replay`` and ``friday view`` open
  (``{"agent", "level", "index", "seed", "won", "score", "actions", "record"}``, by deal);
- ``results.json``: per deal (won, frames, CPU seconds, cells, the furthest cell) and the
  level's summary: wins with a Wilson interval, frames and CPU per deal and per win, frames
  per CPU-second, the frames each won deal needed.

``games.jsonl`` and ``results.json`` are rewritten whole from the journal at the end of each
session, ordered by deal, so a run resumed after an interruption ends with the same files as
one that was not (CPU seconds aside: they are measured).
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, TypeGuard

from friday_agents.harness.deals import VALIDATION_FIRST_INDEX, training_seed
from friday_agents.harness.errors import BadInputError
from friday_agents.harness.files import write_text_atomically
from friday_agents.harness.games_file import GamesFileError, drop_cut_short_line, read_games_file
from friday_agents.harness.paths import portable_path
from friday_agents.harness.stats import wilson_interval
from friday_agents.learning.config import LearningConfig
from friday_agents.learning.explore.archive import DESIGN, Settings, explore
from friday_agents.learning.run_folder import (
    CONFIG_FILE,
    ResumeRule,
    RunFolderError,
    load_run_config,
    require_regular_file,
    write_config,
    write_json,
)
from friday_env import GameRecord
from friday_env.core import new_game

JOURNAL_FILE = "deals.jsonl"
GAMES_FILE = "games.jsonl"
RESULTS_FILE = "results.json"
AGENT = "explore"


class ExploreError(BadInputError):
    """A ``friday explore`` setting out of range, or a run folder that cannot be continued."""


#: What a resumed run may set anew: its folder (every other setting is the run's own).
RESUME = ResumeRule("friday explore --resume", ("out",))
#: The largest values the compiled loop takes (a C long long budget, an int walk).
MOST_BUDGET, MOST_WALK = 2**63 - 1, 2**31 - 1


@dataclass(frozen=True)
class RunConfig(LearningConfig):
    """A run's settings: training deals ``first_index .. first_index + deals - 1`` of
    ``level``, each explored with ``budget`` frames."""

    Error = ExploreError

    level: int
    first_index: int
    deals: int
    budget: int
    walk: int
    seed: int
    design: str = DESIGN

    def validate(self) -> RunConfig:
        """``self`` if every value is usable, else `ExploreError` naming the first that is
        not."""
        if self.level not in (1, 2, 3, 4):
            raise ExploreError(f"level must be 1, 2, 3 or 4, got {self.level!r}")
        self.check_at_least(1, "deals", "budget", "walk")
        if self.budget > MOST_BUDGET or self.walk > MOST_WALK:
            raise ExploreError("budget must be below 2**63 and walk below 2**31")
        last = self.first_index + self.deals - 1
        if self.first_index < 0 or last >= VALIDATION_FIRST_INDEX:
            raise ExploreError(
                f"training deals {self.first_index}..{last} leave the training range: indices "
                f"0..{VALIDATION_FIRST_INDEX - 1} (from {VALIDATION_FIRST_INDEX:,} on they are "
                "validation deals)"
            )
        if not 0 <= self.seed < 2**63:
            raise ExploreError(f"seed must be in 0..2**63-1, got {self.seed}")
        if self.design != DESIGN:
            raise ExploreError(f"design {self.design!r} is not this release's archive ({DESIGN!r})")
        return self

    def settings(self) -> Settings:
        return Settings(self.level, self.budget, self.walk, self.seed)

    def jobs(self) -> list[tuple[Settings, int, int]]:
        """(settings, deal index, deal seed) of every deal of the run."""
        settings = self.settings()
        indices = range(self.first_index, self.first_index + self.deals)
        return [(settings, i, training_seed(self.level, i)) for i in indices]


def play_deal(job: tuple[Settings, int, int]) -> dict[str, Any]:
    """One deal explored: its journal line (module-level: it travels to worker processes)."""
    settings, index, seed = job
    started = time.process_time()
    row = explore(settings, seed).summary()
    return {"index": index, **row, "cpu_s": round(time.process_time() - started, 3)}


def save_config(out: Path, config: RunConfig) -> None:
    out.mkdir(parents=True, exist_ok=True)
    write_config(out, config.to_dict())


def load_config(out: Path) -> RunConfig:
    """The configuration of the run in ``out``, every setting present, of its type and in
    range (`RunFolderError` naming the file otherwise)."""
    if not (out / CONFIG_FILE).exists():
        raise RunFolderError(f"{out} holds no friday explore run (no {CONFIG_FILE})")
    return load_run_config(out, RunConfig, complete=True)


def finished_deals(out: Path, config: RunConfig) -> dict[int, dict[str, Any]]:
    """The journal's deals by index, each line checked (`check_deal`: a `RunFolderError`
    naming the line); a last line cut short by a kill is removed first."""
    journal = out / JOURNAL_FILE
    require_regular_file(journal, "journal")
    try:
        found = read_games_file(journal, missing_ok=True)
    except GamesFileError as err:
        raise RunFolderError(str(err)) from None
    rows: dict[int, dict[str, Any]] = {}
    for position, row in enumerate(found.games):
        index = check_deal(config, row, found.where(position))
        if index in rows:
            raise RunFolderError(f"{found.where(position)}: deal {index} is in the journal twice")
        rows[index] = row
    if found.cut_short:
        drop_cut_short_line(journal)
    return rows


#: A journal line's numbers: name -> the least value.
_COUNTS = {"frames": 0, "walks": 0, "cells": 1}
_FURTHEST = ("step", "beaten", "fights", "life_bin")


def check_deal(config: RunConfig, row: dict[str, Any], where: str) -> int:
    """The deal index of the journal line ``row`` (at ``where``, ``file:line``) if it is one
    this run could have written: a deal of the run, its level and seed, counts, and a won
    deal's actions replaying to a win; else a `RunFolderError` naming the line and the
    field."""
    index = row.get("index")
    first, end = config.first_index, config.first_index + config.deals
    if not _whole(index) or not first <= index < end:
        raise RunFolderError(f"{where}: 'index' must be a deal {first}..{end - 1}, got {index!r}")
    expected = {"level": config.level, "seed": training_seed(config.level, index)}
    for name, value in expected.items():
        if row.get(name) != value or isinstance(row.get(name), bool):
            raise RunFolderError(f"{where}: {name!r} of deal {index} must be {value}")
    for name, least in _COUNTS.items():
        if not _whole(row.get(name)) or row[name] < least:
            raise RunFolderError(f"{where}: {name!r} must be a whole number >= {least}")
    cpu = row.get("cpu_s")
    if not isinstance(cpu, int | float) or isinstance(cpu, bool) or not 0 <= cpu < float("inf"):
        raise RunFolderError(f"{where}: 'cpu_s' must be a number of seconds >= 0")
    furthest = row.get("furthest")
    if not isinstance(furthest, dict) or not all(_whole(furthest.get(k)) for k in _FURTHEST):
        raise RunFolderError(f"{where}: 'furthest' must name a cell ({', '.join(_FURTHEST)})")
    _check_win(config, row, where)
    return index


def _check_win(config: RunConfig, row: dict[str, Any], where: str) -> None:
    """A won deal's actions replay to a win; a lost one has none."""
    won, actions = row.get("won"), row.get("actions")
    if not isinstance(won, bool):
        raise RunFolderError(f"{where}: 'won' must be true or false, got {won!r}")
    if not won:
        if actions is not None:
            raise RunFolderError(f"{where}: a deal not won has no 'actions'")
        return
    if not isinstance(actions, list) or not all(_whole(a) for a in actions):
        raise RunFolderError(f"{where}: 'actions' of a won deal must be a list of actions")
    try:
        replay_win(config.level, row["seed"], actions)
    except (ValueError, IndexError, OverflowError) as err:
        raise RunFolderError(f"{where}: the won deal does not replay to a win ({err})") from None


def replay_win(level: int, seed: int, actions: list[int]) -> Any:
    """The game of ``actions`` on deal ``seed`` of ``level``, won; ValueError otherwise."""
    game = new_game(level, seed)
    for action in actions:
        if game.done or action not in game.legal_actions():
            raise ValueError(f"action {action} is not legal after {len(game.history)} actions")
        game.apply(action)
    if not game.won:
        raise ValueError("the game is not won")
    return game


def _whole(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def append_deal(out: Path, row: dict[str, Any]) -> None:
    """Append one deal's line and force it to disk: a kill loses at most the line in flight."""
    with open(out / JOURNAL_FILE, "a") as journal:
        journal.write(json.dumps(row) + "\n")
        journal.flush()
        os.fsync(journal.fileno())


def won_game(config: RunConfig, row: dict[str, Any]) -> dict[str, Any]:
    """The games-file line of a won deal, after replaying it from ``Game.new`` to a win."""
    game = replay_win(config.level, row["seed"], row["actions"])
    record = GameRecord.of(game, agent=AGENT)
    return {
        "agent": AGENT,
        "level": config.level,
        "index": row["index"],
        "seed": row["seed"],
        "won": True,
        "score": game.score(),
        "frames": row["frames"],
        "actions": row["actions"],
        "record": json.loads(record.to_json()),
    }


def write_outputs(out: Path, config: RunConfig, rows: dict[int, dict[str, Any]]) -> dict:
    """``games.jsonl`` and ``results.json`` from the finished deals, ordered by deal; the
    results."""
    ordered = [rows[i] for i in sorted(rows)]
    games = [won_game(config, row) for row in ordered if row["won"]]
    write_text_atomically(out / GAMES_FILE, "".join(json.dumps(game) + "\n" for game in games))
    results = {
        "config": asdict(config),
        "command": command_line(out, config),
        "summary": summarize(config, ordered),
        "deals": [{k: v for k, v in row.items() if k != "actions"} for row in ordered],
    }
    write_json(out / RESULTS_FILE, results)
    return results


def summarize(config: RunConfig, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The level's numbers over the finished deals."""
    wins = sum(row["won"] for row in rows)
    frames = sum(row["frames"] for row in rows)
    cpu = sum(row["cpu_s"] for row in rows)
    low, high = wilson_interval(wins, len(rows)) if rows else (0.0, 1.0)
    return {
        "level": config.level,
        "deals": len(rows),
        "of": config.deals,
        "wins": wins,
        "win_rate": wins / len(rows) if rows else None,
        "wilson_95": [round(low, 4), round(high, 4)],
        "frames": frames,
        "cpu_s": round(cpu, 1),
        "frames_per_cpu_s": round(frames / cpu) if cpu > 0 else None,
        "cpu_s_per_deal": round(cpu / len(rows), 2) if rows else None,
        "cpu_s_per_win": round(cpu / wins, 1) if wins else None,
        "frames_per_win": round(frames / wins) if wins else None,
        "frames_of_each_win": sorted(row["frames"] for row in rows if row["won"]),
    }


def command_line(out: Path, config: RunConfig) -> str:
    return (
        f"friday explore --level {config.level} --first-index {config.first_index} "
        f"--deals {config.deals} --budget {config.budget} --walk {config.walk} "
        f"--seed {config.seed} --out {portable_path(out)}"
    )
