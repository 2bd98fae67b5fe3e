"""What a run folder of ``friday eval`` may hold when it is read back (``--resume``).

A folder can be edited between two sessions of a run. Every field ``--resume`` reads is
checked here for its type and range before it is used, so an edit is refused in one line
naming the field: not a crash later (``games: 10**8`` asked for a list of 10**8 tasks), and
not a value that reaches ``results.json`` (a ``won`` of ``"yes"``, a negative
``search_sims``). NaN and Infinity never get this far: the JSON reader refuses them
([`friday_env.json_text`][friday_env.json_text]).

The bounds are wide, far outside what a real run writes, but finite: a bound only has to
stop a number that no game or run can produce.
"""

from __future__ import annotations

import math
from typing import Any, TypeGuard

from friday_agents.evaluation.game_ends import PROGRESS_FIELDS
from friday_agents.harness.deals import DEAL_SETS, EVAL_SEEDS_PER_LEVEL, VALIDATION_DEALS_PER_LEVEL
from friday_env.cards import HAZARD_IDS
from friday_env.engine import PIRATES

#: Deals per level in each deal set: more games than this per level cannot be played.
DEALS_PER_LEVEL = {"evaluation": EVAL_SEEDS_PER_LEVEL, "validation": VALIDATION_DEALS_PER_LEVEL}
#: Simulations per decision: a million already takes hours per game.
MAX_SEARCH_SIMS = 1_000_000
#: Scores lie within about -150..200 (R25); life within the level's 22 tokens (R01).
SCORE_LIMIT = 1000
LIFE_LIMIT = 22
#: A game takes a few hundred actions and a few dozen fights.
MAX_ACTIONS = 10_000_000
MAX_FIGHTS = 100_000


class StoredRunError(ValueError):
    """A field of a stored run that no run writes; the message names the field."""


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _int_in(data: dict[str, Any], name: str, low: int, high: int) -> int:
    value = data.get(name)
    if not _is_int(value) or not low <= value <= high:
        raise StoredRunError(f"{name} must be a whole number in {low}..{high}, got {value!r}")
    return value


# ------------------------------------------------------------------ run.json


def config_fields(data: object) -> dict[str, Any]:
    """The ``config`` object of ``run.json`` as `EvalConfig`'s arguments, its types checked
    (the ranges are [`check_config`][friday_agents.evaluation.stored_run.check_config]'s)."""
    if not isinstance(data, dict):
        raise StoredRunError(f"config must be an object, got {type(data).__name__}")
    agents, levels, games = data.get("agents"), data.get("levels"), data.get("games")
    if not isinstance(agents, list) or not all(isinstance(a, str) for a in agents):
        raise StoredRunError(f"agents must be a list of agent specs, got {agents!r}")
    if not isinstance(levels, list) or not all(_is_int(level) for level in levels):
        raise StoredRunError(f"levels must be a list of levels 1..4, got {levels!r}")
    if not isinstance(games, dict) or not all(_is_int(n) for n in games.values()):
        raise StoredRunError("games must be an object giving each agent a whole number")
    save_games, deals = data.get("save_games"), data.get("deals", "evaluation")
    if not isinstance(save_games, bool):
        raise StoredRunError(f"save_games must be true or false, got {save_games!r}")
    if not isinstance(deals, str):
        raise StoredRunError(f"deals must be one of {', '.join(DEAL_SETS)}, got {deals!r}")
    sims = data.get("search_sims")
    if not _is_int(sims):
        raise StoredRunError(f"search_sims must be a whole number, got {sims!r}")
    return {
        "agents": tuple(agents),
        "levels": tuple(levels),
        "games": dict(games),
        "search_sims": sims,
        "save_games": save_games,
        "deals": deals,
    }


def check_config(
    agents: tuple[str, ...], levels: tuple[int, ...], games: dict[str, int], sims: int, deals: str
) -> None:
    """The ranges of an evaluation's configuration, however it was made (the command line or
    ``run.json``)."""
    if deals not in DEAL_SETS:
        raise StoredRunError(
            f"deals: unknown deal set {deals!r}: choose from {', '.join(DEAL_SETS)}"
        )
    if not agents or len(set(agents)) != len(agents) or not all(a.strip() for a in agents):
        raise StoredRunError(f"agents must be distinct agent specs, got {list(agents)!r}")
    if not levels or len(set(levels)) != len(levels) or not set(levels) <= {1, 2, 3, 4}:
        raise StoredRunError(f"levels must be distinct levels 1..4, got {list(levels)!r}")
    if set(games) != set(agents):
        raise StoredRunError(f"games must give a count for each agent {list(agents)}, no other")
    most = DEALS_PER_LEVEL[deals]
    for agent, count in games.items():
        if not 1 <= count <= most:
            raise StoredRunError(
                f"games for {agent!r} must be in 1..{most} (the {deals} deals of a level), "
                f"got {count}"
            )
    if not 1 <= sims <= MAX_SEARCH_SIMS:
        raise StoredRunError(f"search_sims must be in 1..{MAX_SEARCH_SIMS}, got {sims}")


# ------------------------------------------------------------------ games.jsonl


def check_row_key(row: dict[str, Any]) -> None:
    """A line's ``agent``, ``level`` and ``index`` are a string and two whole numbers (a
    ``true`` or ``1.0`` would equal the level 1 or the deal 1 it is not)."""
    if not isinstance(row.get("agent"), str):
        raise StoredRunError(f"agent must be an agent spec, got {row.get('agent')!r}")
    for name in ("level", "index"):
        if not _is_int(row.get(name)):
            raise StoredRunError(f"{name} must be a whole number, got {row.get(name)!r}")


def _check_progress(row: dict[str, Any]) -> None:
    """The progress fields (`friday_agents.evaluation.game_ends`): all or none (rows written
    before they existed have none), each in its range."""
    present = [name for name in PROGRESS_FIELDS if name in row]
    if present and len(present) < len(PROGRESS_FIELDS):
        raise StoredRunError(f"a game row with {present[0]} must have all of {PROGRESS_FIELDS}")
    if present:
        _int_in(row, "hazards_beaten", 0, len(HAZARD_IDS))
        _int_in(row, "pirates_beaten", 0, 2)
        _int_in(row, "end_step", 0, PIRATES)


def check_row(row: dict[str, Any], seed: int, save_games: bool) -> None:
    """The outcome fields of one finished game whose deal has ``seed``."""
    if row.get("seed") != seed or not _is_int(row.get("seed")):
        raise StoredRunError(f"seed must be its deal's seed {seed}, got {row.get('seed')!r}")
    if not isinstance(row.get("won"), bool):
        raise StoredRunError(f"won must be true or false, got {row.get('won')!r}")
    _int_in(row, "score", -SCORE_LIMIT, SCORE_LIMIT)
    _int_in(row, "life", 0, LIFE_LIMIT)
    _int_in(row, "actions", 0, MAX_ACTIONS)
    _int_in(row, "fights", 0, MAX_FIGHTS)
    _check_progress(row)
    seconds = row.get("seconds")
    if not isinstance(seconds, (int, float)) or isinstance(seconds, bool):
        raise StoredRunError(f"seconds must be a number, got {seconds!r}")
    if not math.isfinite(seconds) or seconds < 0:
        raise StoredRunError(f"seconds must be a finite number >= 0, got {seconds!r}")
    if save_games and not isinstance(row.get("record"), dict):
        raise StoredRunError("record must be the game's record (the run saves games)")
