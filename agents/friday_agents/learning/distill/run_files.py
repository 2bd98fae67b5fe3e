"""What a continued ``friday distill`` run reads back, checked before it is used.

A run is continued by running its command again, so everything it wrote is read back: the
settings it started with (``config.json``), the start's and each finished round's
measurements (``start.json``, ``round-NN/summary.json``), the network a finished round
fitted (the next round's prior) and the rounds' games files. Each is checked for what the
run uses of it; a file edited or damaged by someone else is a
[`RunFolderError`][friday_agents.learning.run_folder.RunFolderError]: one line naming the
file (and a games file's line) and what is wrong, before anything is played or written.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TypeGuard

from friday_agents.harness.files import read_model_file
from friday_agents.harness.games_file import GamesFileError, drop_cut_short_line, read_games_file
from friday_agents.learning.distill.config import OPTIONAL, ExitConfig
from friday_agents.learning.run_folder import (
    CONFIG_FILE,
    ResumeRule,
    RunFolderError,
    read_config,
    read_json_object,
    require_regular_file,
)
from friday_agents.models import model_file

#: Settings a continued run may change: how far it goes and how much it validates.
RESUME = ResumeRule("friday distill", ("rounds", "validation_net", "validation_search"))
#: Settings naming a model file: another name of the same bytes is the same setting (the role
#: ``net`` of a run started before the net-scale study is ``net-v1`` since, one file then).
MODEL_SETTINGS = ("first_prior",)


def check_resume(config: ExitConfig, out: Path) -> None:
    """Refuse to continue the run in ``out`` with settings other than those it started with
    (but what `RESUME` lets change): its rounds' games and fits would mix two studies."""
    if not (out / CONFIG_FILE).exists():
        return
    stored, _ = read_config(out)
    wanted = json.loads(json.dumps(config.to_json()))
    # settings a run from before they existed left out: their defaults
    stored = {**json.loads(json.dumps(OPTIONAL)), **stored}
    RESUME.check_settings(stored, wanted, out / CONFIG_FILE, _same_setting)


def _same_setting(key: str, stored: Any, wanted: Any) -> bool:
    if stored == wanted:
        return True
    return key in MODEL_SETTINGS and _same_file(stored, wanted)


def _same_file(stored: Any, wanted: Any) -> bool:
    """Whether two model names (roles or paths) name files with the same bytes."""
    try:
        files = [model_file(name, "prior") for name in (stored, wanted)]
        return files[0].read_bytes() == files[1].read_bytes()
    except (TypeError, ValueError, OSError):  # not a name, an old name, or no such file
        return False


def read_start(out: Path, levels: tuple[int, ...]) -> dict[str, Any]:
    """``start.json``: the first network's measurements, alone and guiding the search."""
    path = out / "start.json"
    start = read_json_object(path, "start's measurements")
    for part in ("net", "search"):
        check_measured(start.get(part), levels, f"{path}: {part!r}")
    return start


def read_summary(path: Path, number: int, levels: tuple[int, ...]) -> dict[str, Any]:
    """A finished round's ``summary.json``, holding what the curve and the next rounds read:
    its number, its games' and fit's CPU seconds, its measurements."""
    summary = read_json_object(path, "round's summary")
    if summary.get("round") != number or isinstance(summary.get("round"), bool):
        raise RunFolderError(f"{path}: 'round' must be {number}, got {summary.get('round')!r}")
    games = summary.get("games")
    if not isinstance(games, dict) or set(games) != {"teacher", "student"}:
        raise RunFolderError(f"{path}: 'games' must hold the teacher's and the student's")
    for kind, part in games.items():
        _seconds(part, "cpu_seconds", f"{path}: games.{kind}")
    for name in ("fit_cpu_seconds", "read_cpu_seconds"):
        _seconds(summary.get("fit"), name, f"{path}: fit")
    for part in ("net", "search"):
        check_measured(summary.get(part), levels, f"{path}: {part!r}")
    return summary


def check_measured(measured: Any, levels: tuple[int, ...], where: str) -> None:
    """A validation measurement: per level of the run, its games and win rate."""
    by_level = measured.get("levels") if isinstance(measured, dict) else None
    if not isinstance(by_level, dict) or set(by_level) != {str(level) for level in levels}:
        raise RunFolderError(f"{where} must measure levels {', '.join(map(str, levels))}")
    for level, result in by_level.items():
        games = result.get("games") if isinstance(result, dict) else None
        rate = result.get("win_rate") if isinstance(result, dict) else None
        if not _whole(games) or games < 1 or not _number(rate) or not 0 <= rate <= 1:
            raise RunFolderError(f"{where}: level {level} needs games >= 1 and a win_rate 0-1")


def check_network(path: Path, number: int) -> None:
    """The network round ``number`` fitted, which the next round starts from, loads."""
    from friday_agents.players.networks.policy_net import load_policy_network

    require_regular_file(path, f"round {number}'s network")
    read_model_file(load_policy_network, path, f"round {number}'s network")


def checked_games(path: Path, jobs: set[tuple[int, int]]) -> list[dict[str, Any]]:
    """The games of a round's games file, each a game of the round's deals (``jobs``:
    ``(level, index)``) this run could have written, none twice; a last line cut short by a
    kill is removed from the file first, so the games appended next start a line."""
    require_regular_file(path, "games file")
    try:
        found = read_games_file(path, missing_ok=True)
    except GamesFileError as err:
        raise RunFolderError(str(err)) from None
    seen: set[tuple[int, int]] = set()
    for position, game in enumerate(found.games):
        where = found.where(position)
        key = (game.get("level"), game.get("index"))
        if not all(_whole(k) for k in key) or key not in jobs:
            raise RunFolderError(f"{where}: (level, index) {key} is no deal of this round")
        if key in seen:
            raise RunFolderError(f"{where}: level {key[0]} deal {key[1]} is in the file twice")
        seen.add(key)
        if not isinstance(game.get("won"), bool) or not isinstance(game.get("q"), dict):
            raise RunFolderError(f"{where}: 'won' must be true or false and 'q' an object")
        _seconds(game, "seconds", where)
    if found.cut_short:
        drop_cut_short_line(path)
    return found.games


def _seconds(record: Any, name: str, where: str) -> None:
    value = record.get(name) if isinstance(record, dict) else None
    if not _number(value) or value < 0:
        raise RunFolderError(f"{where}: {name!r} must be a number of seconds >= 0")


def _number(value: Any) -> TypeGuard[float]:
    return isinstance(value, int | float) and not isinstance(value, bool) and value < float("inf")


def _whole(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)
