"""Progress that shows before an agent wins: hazards beaten and where its games end.

A method that wins no game still differs from another by how far its games get. Each game row
of ``friday eval`` (``games.jsonl``) holds ``hazards_beaten``, ``pirates_beaten`` and
``end_step`` (the step the game ended in, 0-3: green, yellow, red, pirates; the env's
``info`` names them the same, ``friday_env.episode``), and `progress_summary` turns an agent's
games on a level into the mean hazards beaten and the share of games that ended in each place:
lost in the green, yellow, red or pirates step, or won (`END_PLACES`; the shares add up to 1).
Rows written before these fields existed have none: their cells say nothing rather than a
number made up.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from friday_agents.harness.stats import bootstrap_interval
from friday_env.engine import STEP_NAMES

#: Where a game ends: lost in one of the four steps, or won.
END_PLACES = (*STEP_NAMES, "won")
#: The game-row fields the summary reads, beside ``won``.
PROGRESS_FIELDS = ("hazards_beaten", "pirates_beaten", "end_step")
#: The table's columns for these numbers.
HEADERS = ("hazards", "ends G/Y/R/P/won %")


def end_place(row: dict[str, Any]) -> str:
    """Where the game of ``row`` ended: ``"won"``, or the step it was lost in."""
    return "won" if row["won"] else STEP_NAMES[row["end_step"]]


def has_progress(rows: Sequence[dict[str, Any]]) -> bool:
    """Whether every row holds the progress fields (rows of older runs do not)."""
    return bool(rows) and all(field in row for row in rows for field in PROGRESS_FIELDS)


def progress_summary(games: Sequence[dict[str, Any]], seed: int = 0) -> dict[str, Any]:
    """``mean_hazards_beaten`` with its 95 % bootstrap interval, and ``ends``: the share of
    the games that ended in each of `END_PLACES`; empty if a game lacks the fields."""
    if not has_progress(games):
        return {}
    hazards = np.array([g["hazards_beaten"] for g in games], dtype=float)
    places = [end_place(g) for g in games]
    return {
        "mean_hazards_beaten": float(hazards.mean()),
        "mean_hazards_beaten_ci": list(bootstrap_interval(hazards, "mean", seed=seed)),
        "ends": {place: places.count(place) / len(places) for place in END_PLACES},
    }


def progress_cells(summary: dict[str, Any]) -> list[str]:
    """The table cells of `HEADERS` for one agent and level (``–`` without the numbers)."""
    if "ends" not in summary:
        return ["–", "–"]
    ends = " / ".join(f"{100 * summary['ends'][place]:.0f}" for place in END_PLACES)
    return [f"{summary['mean_hazards_beaten']:.1f}", ends]
