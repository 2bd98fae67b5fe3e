"""Track entries carry the progress numbers of ``friday eval`` (mean hazards beaten, where the
games end) where their results' games recorded them: checked against the results file, shown
by ``friday tracks`` as a column, refused when damaged or half there."""

from __future__ import annotations

import json
from pathlib import Path

import build_tracks
import pytest

from friday_agents.evaluation.tracks import (
    PROGRESS_HEADER,
    TrackEntryError,
    check_entry,
    load_leaderboard,
    markdown_table,
)

REPO = Path(__file__).resolve().parents[2]
ENDS = {"green": 0.1, "yellow": 0.2, "red": 0.3, "pirates": 0.25, "won": 0.15}


def _entry() -> dict:
    entry = json.loads(json.dumps(load_leaderboard()["entries"][0]))  # a deep copy
    entry["levels"]["1"] |= {"mean_hazards_beaten": 21.5, "ends": dict(ENDS)}
    return entry


def test_an_entry_with_progress_is_accepted_and_shown_in_its_own_column():
    entry = _entry()
    check_entry(entry, "x.json")
    header, _, row = markdown_table([entry])
    assert header.endswith(f"| {PROGRESS_HEADER} |") and row.endswith("| 21.5 |")
    others = [  # the entries recorded before games held the numbers
        e for e in load_leaderboard()["entries"] if "mean_hazards_beaten" not in e["levels"]["1"]
    ]
    assert others and PROGRESS_HEADER not in markdown_table(others)[0]
    assert markdown_table([entry, *others])[-1].endswith("| – |")


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda cell: cell.pop("ends"), "must be 1-4 with"),
        (lambda cell: cell.update(mean_hazards_beaten=31), "mean_hazards_beaten must be"),
        (lambda cell: cell["ends"].pop("won"), "ends must be the share"),
        (lambda cell: cell["ends"].update(red=1.5), "ends must be the share"),
    ],
)
def test_a_damaged_or_half_progress_cell_is_refused(damage, message):
    entry = _entry()
    damage(entry["levels"]["1"])
    with pytest.raises(TrackEntryError, match=message):
        check_entry(entry, "x.json")


def test_the_progress_numbers_must_be_the_results_files():
    """Where the results row has them the entry must carry them, equal; where it has not, the
    entry must not make them up."""
    entry = _entry()
    cell = entry["levels"]["1"]
    plain = {
        key: value for key, value in cell.items() if key not in ("ends", "mean_hazards_beaten")
    }
    row = {"agent": entry["result"]["agent"], "level": 1, **cell}
    old_row = {"agent": entry["result"]["agent"], "level": 1, **plain}
    for entry_cell, results_row, agrees in (
        (cell, row, True),
        (plain, old_row, True),
        (cell, row | {"mean_hazards_beaten": 20.0}, False),
        (cell, row | {"ends": ENDS | {"green": 0.0, "won": 0.25}}, False),
        (plain, row, False),
        (cell, old_row, False),
    ):
        mine = dict(entry, levels={"1": entry_cell})
        if agrees:
            build_tracks.check_cells(mine, {"1": results_row})
        else:
            with pytest.raises(TrackEntryError, match="is not"):
                build_tracks.check_cells(mine, {"1": results_row})
