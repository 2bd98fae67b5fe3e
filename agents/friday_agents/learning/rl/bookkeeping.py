"""``friday rl``'s bookkeeping: where the time goes (`CpuParts`, which ``friday bench`` reads),
the curve (``curve.jsonl``: its rows' training-game and curriculum numbers, and the rows a
resumed run drops and writes again) and the progress bar."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from friday_agents.harness.files import write_text_atomically
from friday_agents.harness.paths import plain_or_compressed, read_maybe_compressed
from friday_agents.harness.progress import BAR_FORMAT, format_duration
from friday_agents.learning.rl.config import RLConfigError
from friday_agents.learning.rl.curriculum import ReverseCurriculum
from friday_env.json_text import JsonTextError, parse_json, read_text


class CpuParts:
    """CPU seconds (``time.process_time``, in ``seconds``) and wall seconds (in ``wall``)
    spent in each named part of the work, added up since the trainer started: ``env`` (the
    vector env's steps), ``acting`` (the networks' forward and the action draws of the
    rollouts, the observations' non-zeros included), ``learning`` (advantages and the PPO
    updates, the gradients' averaging included), ``communication`` (averaging the gradients
    over the processes of a data-parallel run, inside ``learning``). The rest of an update is
    bookkeeping."""

    def __init__(self) -> None:
        self.seconds = {"env": 0.0, "acting": 0.0, "learning": 0.0, "communication": 0.0}
        self.wall = dict(self.seconds)
        self._parts = {name: _TimedPart(self, name) for name in self.seconds}

    def part(self, name: str) -> _TimedPart:
        """A context that adds its time to part ``name`` (only ``communication`` nests,
        in ``learning``)."""
        return self._parts[name]

    def wall_split(self) -> dict[str, float]:
        """The wall seconds of each part, ``learning`` without its ``communication``."""
        split = {name: round(seconds, 3) for name, seconds in self.wall.items()}
        split["learning"] = round(split["learning"] - split["communication"], 3)
        return split


class _TimedPart:
    """One part's timer, reused at every step (a context manager class: a generator-based
    one costs a few microseconds more per use, three uses per env step)."""

    __slots__ = ("name", "parts", "start", "start_wall")

    def __init__(self, parts: CpuParts, name: str) -> None:
        self.parts, self.name, self.start, self.start_wall = parts, name, 0.0, 0.0

    def __enter__(self) -> None:
        self.start, self.start_wall = time.process_time(), time.perf_counter()

    def __exit__(self, *exc: object) -> None:
        self.parts.seconds[self.name] += time.process_time() - self.start
        self.parts.wall[self.name] += time.perf_counter() - self.start_wall


# ------------------------------------------------------------------------------ curve rows


def training_games(finished: list[tuple[bool, int]], fights: list[int]) -> dict[str, Any]:
    """A curve row's numbers of the training games that ended in the update: ``finished``
    their (won, score), ``fights`` the fights each finished."""
    return {
        "train_games": len(finished),
        "train_win_rate": float(np.mean([w for w, _ in finished])) if finished else None,
        "train_mean_score": float(np.mean([s for _, s in finished])) if finished else None,
        "train_mean_fights": float(np.mean(fights)) if fights else None,
    }


def curriculum_numbers(curriculum: ReverseCurriculum | None) -> dict[str, Any]:
    """A curve row's numbers of ``--method reverse``'s curriculum (none without it)."""
    if curriculum is None:
        return {}
    return {
        "reverse_k": curriculum.k,
        "reverse_success": curriculum.success_rate(),
        "reverse_archive": len(curriculum.archive),
        "reverse_archive_wins": sum(game.won for game in curriculum.archive),
        "reverse_longest_win": curriculum.longest_win(),
    }


# ------------------------------------------------------------------------------ resuming


def checked_curve(path: Path) -> list[dict[str, Any]]:
    """The rows of a run's ``curve.jsonl``, each a JSON object with a whole ``updates`` count;
    `RLConfigError` naming the file and the first line that is not (nothing is changed). A
    finished run's curve over 1 MB is committed compressed (``curve.jsonl.gz``): a run resumed
    from it reads that, and writes the whole curve back plain (`keep_curve_rows`)."""
    path = plain_or_compressed(path)
    if not path.exists():
        return []
    try:
        text = read_maybe_compressed(path) if path.suffix == ".gz" else read_text(path)
        lines = text.splitlines()
    except (JsonTextError, EOFError, OSError, UnicodeDecodeError) as err:
        raise RLConfigError(f"cannot read the curve {path}: {err}") from None
    rows = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = parse_json(line)
        except JsonTextError as err:
            raise RLConfigError(f"{path} line {number} is not JSON: {err}") from None
        if not isinstance(row, dict):
            raise RLConfigError(f"{path} line {number} must hold a JSON object")
        updates = row.get("updates")
        if not isinstance(updates, int) or isinstance(updates, bool) or updates < 0:
            raise RLConfigError(
                f"{path} line {number}: updates must be a whole number >= 0, got {updates!r}"
            )
        rows.append(row)
    return rows


def keep_curve_rows(path: Path, rows: list[dict[str, Any]], updates: int) -> None:
    """Rewrite the curve with the ``rows`` up to update ``updates`` (a resumed run writes
    the later ones again); whole or not at all."""
    kept = [row for row in rows if row["updates"] <= updates]
    write_text_atomically(path, "".join(json.dumps(row) + "\n" for row in kept))


# ------------------------------------------------------------------------------ progress


def postfix(row: dict[str, Any], frames_left: int, wall_per_frame: float) -> str:
    """The bar's text: the phase, the last held-out rate, and the time left. The estimate
    waits for a PPO update (a warm-up update costs less: no policy gradient) and then
    prices each frame left at the last update's wall time per frame."""
    text = f"{row['phase']}, update {row['updates']}"
    if row.get("heldout_win_rate") is not None:
        text += f", held-out win {row['heldout_win_rate']:.1%}"
    if frames_left <= 0:
        return text
    if row["phase"] != "ppo":
        return text + ", ETA estimating"
    return text + f", ETA {format_duration(frames_left * wall_per_frame)}"


def progress_bar(total: int, initial: int, disabled: bool) -> Any:
    """A tqdm bar over the run's frames in ``friday eval``'s layout (no tqdm estimate:
    `postfix` gives one)."""
    from tqdm import tqdm

    return tqdm(
        total=total,
        initial=min(initial, total),
        unit="frame",
        unit_scale=True,
        disable=disabled,
        desc="friday rl",
        bar_format=BAR_FORMAT,
    )
