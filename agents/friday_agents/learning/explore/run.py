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
from typing import Any

from friday_agents.harness.deals import training_seed
from friday_agents.harness.games_file import drop_cut_short_line, read_games_file
from friday_agents.harness.stats import wilson_interval
from friday_agents.learning.explore.archive import DESIGN, Settings, explore
from friday_env import GameRecord
from friday_env.core import new_game
from friday_env.json_text import JsonTextError, read_json

CONFIG_FILE = "config.json"
JOURNAL_FILE = "deals.jsonl"
GAMES_FILE = "games.jsonl"
RESULTS_FILE = "results.json"
AGENT = "explore"


@dataclass(frozen=True)
class RunConfig:
    """A run's settings: training deals ``first_index .. first_index + deals - 1`` of
    ``level``, each explored with ``budget`` frames."""

    level: int
    first_index: int
    deals: int
    budget: int
    walk: int
    seed: int
    design: str = DESIGN

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
    _write_atomic(out / CONFIG_FILE, json.dumps(asdict(config), indent=1) + "\n")


def load_config(out: Path) -> RunConfig:
    """The configuration of the run in ``out``; ValueError when there is none."""
    path = out / CONFIG_FILE
    if not path.is_file():
        raise ValueError(f"--resume: {out} holds no friday explore run (no {CONFIG_FILE})")
    try:
        data = read_json(path)
        if not isinstance(data, dict):
            raise TypeError("not a JSON object")
        return RunConfig(**data)
    except (JsonTextError, TypeError) as err:
        raise ValueError(f"--resume: {path} is not a friday explore config: {err}") from None


def finished_deals(out: Path) -> dict[int, dict[str, Any]]:
    """The journal's deals by index (a last line cut short by a kill is removed first)."""
    journal = out / JOURNAL_FILE
    found = read_games_file(journal, missing_ok=True)
    if found.cut_short:
        drop_cut_short_line(journal)
    return {row["index"]: row for row in found.games}


def append_deal(out: Path, row: dict[str, Any]) -> None:
    """Append one deal's line and force it to disk: a kill loses at most the line in flight."""
    with open(out / JOURNAL_FILE, "a") as journal:
        journal.write(json.dumps(row) + "\n")
        journal.flush()
        os.fsync(journal.fileno())


def won_game(config: RunConfig, row: dict[str, Any]) -> dict[str, Any]:
    """The games-file line of a won deal, after replaying it from ``Game.new`` to a win."""
    game = new_game(config.level, row["seed"])
    for action in row["actions"]:
        game.apply(action)
    if not game.won:
        raise RuntimeError(f"deal {row['index']}: the stored win does not replay to a win")
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
    _write_atomic(out / GAMES_FILE, "".join(json.dumps(game) + "\n" for game in games))
    results = {
        "config": asdict(config),
        "command": command_line(out, config),
        "summary": summarize(config, ordered),
        "deals": [{k: v for k, v in row.items() if k != "actions"} for row in ordered],
    }
    _write_atomic(out / RESULTS_FILE, json.dumps(results, indent=1) + "\n")
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
        f"--seed {config.seed} --out {out}"
    )


def _write_atomic(path: Path, text: str) -> None:
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(text)
    os.replace(temporary, path)
