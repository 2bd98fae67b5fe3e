"""The expert-iteration curve: the start's and each round's strength on the validation deals,
network alone and guiding the search, against the CPU seconds spent so far, written as
``curve.jsonl`` (the one curve format of every learning command,
[`friday_agents.harness.curve`][friday_agents.harness.curve]) and ``curve.png``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from friday_agents.harness.curve import CURVE_FILE, plot_curve
from friday_agents.harness.files import write_text_atomically
from friday_agents.learning.distill.rounds import rows_of
from friday_agents.learning.run_folder import read_json_object


def write_curve(out: Path, summaries: list[dict]) -> list[dict[str, Any]]:
    """The curve of the rounds so far (the file rewritten whole: a round's summary is
    where its numbers live), drawn into ``curve.png``; its rows."""
    start = read_json_object(out / "start.json", "start's measurements")
    rows = [
        _row({"phase": "start", "cpu_seconds": 0.0}, start["net"], start["search"]),
        *(
            _row(
                {"phase": "round", "round": row["round"], "cpu_seconds": row["cpu_seconds"]},
                row["net"],
                row["search"],
            )
            for row in rows_of(summaries)
        ),
    ]
    # replaced whole: a kill mid-write leaves the old curve, never a part of the new one
    write_text_atomically(out / CURVE_FILE, "".join(json.dumps(row) + "\n" for row in rows))
    plot_curve(rows, out / "curve.png", "Expert iteration: the start, then each round")
    return rows


def _row(where: dict[str, Any], net: dict, search: dict) -> dict[str, Any]:
    return {
        **where,
        "heldout_by_level": _by_level(net),
        "guided_by_level": _by_level(search),
    }


def _by_level(measured: dict) -> dict[str, dict[str, Any]]:
    return {
        level: {"heldout_win_rate": result["win_rate"], "heldout_deals": result["games"]}
        for level, result in measured["levels"].items()
    }
