"""The one learning-curve format of ``friday train``, ``friday rl`` and ``friday distill``:
``curve.jsonl``, a JSON object per line, written by `append_row`, read by `read_curve`,
drawn by `plot_curve`.

A row's keys, where the command has them:

- where it is: ``frames`` (env steps so far; ``train``, ``rl``), ``updates`` (``rl``),
  ``round`` (``distill``), ``level`` (the level trained);
- its cost so far: ``cpu_seconds``, ``wall_seconds``;
- the held-out evaluation on the validation deals
  ([`heldout_deals`][friday_agents.harness.deals.heldout_deals]),
  on the rows that measured one: ``heldout_win_rate``, ``heldout_mean_score``,
  ``heldout_deals`` of the level trained, and ``heldout_by_level`` (level -> those three)
  where several levels were measured; ``distill`` adds ``guided_by_level``, the search guided
  by the round's network;
- anything else a command logs (losses, training-game statistics) under its own name.

Curves written before this format are read in it: ``friday train``'s ``curve.csv`` and
``friday distill``'s ``curve.json`` (`read_curve`).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from friday_agents.harness.errors import BadInputError
from friday_agents.harness.files import write_text_atomically
from friday_agents.harness.paths import plain_or_compressed, read_maybe_compressed
from friday_env.json_text import JsonTextError, parse_json, read_text

CURVE_FILE = "curve.jsonl"
#: ``friday train``'s ``curve.csv`` columns of an older release -> today's keys.
_OLD_CSV_KEYS = {
    "timesteps": "frames",
    "level": "level",
    "games": "heldout_deals",
    "win_rate": "heldout_win_rate",
    "mean_score": "heldout_mean_score",
    "score_std": "heldout_score_std",
    "mean_length": "heldout_mean_length",
}
_COUNTS = ("frames", "level", "heldout_deals")


def append_row(path: str | Path, row: dict[str, Any]) -> None:
    """Add ``row`` as the curve's last line (one write: a killed run leaves whole rows)."""
    with open(path, "a") as curve:
        curve.write(json.dumps(row) + "\n")


def read_curve(path: str | Path) -> list[dict[str, Any]]:
    """The rows of the curve in ``path`` (a curve file, or a run folder holding one), in
    this module's keys; [] when there is none."""
    path = Path(path)
    if path.is_dir():
        for name in (CURVE_FILE, "curve.csv", "curve.json"):
            if plain_or_compressed(path / name).exists():
                return read_curve(path / name)
        return []
    path = plain_or_compressed(path)  # a finished run's curve over 1 MB is committed as .gz
    if not path.exists():
        return []
    if path.suffix == ".csv":
        return _rows_of_old_csv(path)
    if path.suffix == ".json":
        return _rows_of_old_distill_curve(_parsed(path, read_text(path)))
    text = read_maybe_compressed(path) if path.suffix == ".gz" else read_text(path)
    return [_parsed(path, line) for line in text.splitlines() if line.strip()]


def _parsed(path: Path, text: str) -> Any:
    try:
        return parse_json(text)
    except JsonTextError as err:
        raise BadInputError(f"curve {str(path)!r} cannot be read: {err}") from None


def keep_rows(path: str | Path, key: str, last: float) -> None:
    """Drop the rows whose ``key`` is past ``last`` (a resumed run writes them again); the
    curve is replaced whole, so a full disk or a kill leaves the old one."""
    kept = [row for row in read_curve(path) if row[key] <= last]
    write_text_atomically(Path(path), "".join(json.dumps(row) + "\n" for row in kept))


def heldout_rows(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows that measured the policy on the held-out deals."""
    return [row for row in rows if row.get("heldout_win_rate") is not None or _by_level(row)]


def _by_level(row: dict[str, Any]) -> dict[str, Any]:
    return row.get("heldout_by_level") or {}


def _rows_of_old_csv(path: Path) -> list[dict[str, Any]]:
    with path.open(newline="") as handle:
        rows = [
            {_OLD_CSV_KEYS.get(k, k): float(v) for k, v in row.items()}
            for row in csv.DictReader(handle)
        ]
    return [{k: int(v) if k in _COUNTS else v for k, v in row.items()} for row in rows]


def _rows_of_old_distill_curve(curve: dict[str, Any]) -> list[dict[str, Any]]:
    """``friday distill``'s ``curve.json`` (a start and a row per round, win rates by level
    of the network alone, ``net``, and guiding the search, ``search``) as rows."""
    start = {"phase": "start", "cpu_hours": 0.0, **curve["start"]}
    return [
        {
            "phase": row.get("phase", "round"),
            **({"round": row["round"]} if "round" in row else {}),
            "cpu_seconds": round(row["cpu_hours"] * 3600, 1),
            "heldout_by_level": {lv: {"heldout_win_rate": r} for lv, r in row["net"].items()},
            "guided_by_level": {lv: {"heldout_win_rate": r} for lv, r in row["search"].items()},
        }
        for row in [start, *curve["rows"]]
    ]


# ------------------------------------------------------------------------------ plot

#: What each panel draws: (title, the rows' key of a level's numbers, the number).
_PANELS = (
    ("held-out win rate", "heldout_by_level", "heldout_win_rate"),
    ("held-out mean score", "heldout_by_level", "heldout_mean_score"),
    ("search guided by it: win rate", "guided_by_level", "heldout_win_rate"),
)


def plot_curve(rows: list[dict[str, Any]], png: str | Path, title: str) -> Path:
    """Draw the held-out rows of a curve into ``png``: win rate and mean score (and the
    guided search's win rate, where rows have one), a line per level, against frames (or,
    for a curve without frames, CPU hours)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    points = heldout_rows(rows)
    x_key = "frames" if any("frames" in row for row in points) else "cpu_seconds"
    panels = [panel for panel in _PANELS if _series(points, *panel[1:])]
    figure, axes = plt.subplots(1, max(len(panels), 1), figsize=(4.5 * max(len(panels), 1), 3.6))
    for axis, (name, by_level, number) in zip(
        axes if len(panels) > 1 else [axes], panels, strict=False
    ):
        for level, (xs, ys) in sorted(_series(points, by_level, number, x_key).items()):
            axis.plot(xs, ys, marker="o", markersize=3, label=f"level {level}")
        axis.set_title(name)
        axis.set_xlabel("frames" if x_key == "frames" else "CPU hours")
        axis.grid(alpha=0.3)
        axis.legend(fontsize=8)
    figure.suptitle(title)
    figure.tight_layout()
    figure.savefig(png, dpi=100)
    plt.close(figure)
    return Path(png)


def _series(
    rows: list[dict[str, Any]], by_level: str, number: str, x_key: str = "frames"
) -> dict[str, tuple[list[float], list[float]]]:
    """level -> (x, the number) over ``rows`` (the level trained from the row's top keys
    where it has no ``by_level``)."""
    series: dict[str, tuple[list[float], list[float]]] = {}
    for row in rows:
        levels = row.get(by_level) or (
            {str(row.get("level", "")): row} if by_level == "heldout_by_level" else {}
        )
        x = row.get(x_key, 0) / (1 if x_key == "frames" else 3600)
        for level, numbers in levels.items():
            if numbers.get(number) is not None:
                xs, ys = series.setdefault(level, ([], []))
                xs.append(x)
                ys.append(numbers[number])
    return series
