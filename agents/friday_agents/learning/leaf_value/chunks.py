"""The value data set on disk: a folder of chunks, each a fixed run of deals, written whole.

A folder holds ``dataset.json`` (the settings every chunk was played with) and, per chunk of
``chunk_size`` deals starting at deal index ``i``, ``chunk-<i>.npz`` (the positions,
`friday_agents.learning.leaf_value.positions`' arrays) and ``chunk-<i>.jsonl.gz`` (one
replayable line per deal). A chunk is written once all its deals are played, each file replacing
nothing until it is whole, so a run stopped anywhere (Ctrl-C, a kill, a power cut) loses at most
the chunks in flight; run the same command again and it plays only the chunks that are missing.
The same settings give the same chunks with any number of workers. Chunks start at fixed deal
indices (``first_index`` plus multiples of ``chunk_size``), so a run extended by ``--deals``
plays its new chunks and, whole again, a last chunk that was cut short.
"""

from __future__ import annotations

import gzip
import json
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from friday_agents.harness.errors import BadInputError
from friday_agents.harness.files import replace_atomically
from friday_agents.harness.parallel import run_games
from friday_agents.learning.leaf_value.positions import DealJob, deal_positions
from friday_env.json_text import JsonTextError, read_json

SETTINGS_FILE = "dataset.json"
FORMAT = "friday-env/leaf-value-data"
#: The arrays of a chunk, concatenated by `read_positions`.
ARRAYS = ("rows", "levels", "steps", "won", "sources", "moments", "deals")


class ValueDataError(BadInputError):
    """A data folder that is missing, empty or was played with other settings."""


@dataclass(frozen=True)
class DataSettings:
    """What every chunk of a folder is played with (``dataset.json``)."""

    agent: str
    level: int
    deal_set: str
    first_index: int
    deals: int
    continuations: int
    chunk_size: int

    def chunk_starts(self) -> list[int]:
        return list(range(self.first_index, self.first_index + self.deals, self.chunk_size))

    def chunk_jobs(self, start: int) -> list[DealJob]:
        end = min(start + self.chunk_size, self.first_index + self.deals)
        return [
            DealJob(self.agent, self.level, self.deal_set, i, self.continuations)
            for i in range(start, end)
        ]


def chunk_path(folder: Path, start: int, suffix: str) -> Path:
    return folder / f"chunk-{start:06d}{suffix}"


def check_settings(folder: Path, settings: DataSettings) -> None:
    """Write the folder's settings, or check them against those it was started with (only
    ``deals`` may grow: a run extended by more deals)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / SETTINGS_FILE
    wanted = {"format": FORMAT, **asdict(settings)}
    if path.exists():
        found = read_settings(folder)
        differ = sorted(k for k in wanted if k != "deals" and found.get(k) != wanted[k])
        if differ:
            raise ValueDataError(
                f"{folder} was started with other settings ({', '.join(differ)}): use those, "
                "or another folder"
            )
    path.write_text(json.dumps(wanted, indent=1) + "\n")


def missing_chunks(folder: Path, settings: DataSettings) -> list[int]:
    """The starts of the chunks not yet on disk, or on disk with fewer deals than they now
    hold (the last chunk of a run since extended: played again whole, the same deals first)."""
    return [
        start
        for start in settings.chunk_starts()
        if _deals_in(chunk_path(folder, start, ".npz")) < len(settings.chunk_jobs(start))
    ]


def _deals_in(path: Path) -> int:
    """How many deals the chunk file at ``path`` holds (0: none there)."""
    if not path.exists():
        return 0
    try:
        with np.load(path, allow_pickle=False) as data:
            return int(data["deal_count"])
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as err:
        raise ValueDataError(f"cannot read the chunk {path}: {err}") from None


def play_chunks(
    folder: Path,
    settings: DataSettings,
    workers: int,
    on_deal: Callable[[dict], None] = lambda result: None,
) -> Iterator[int]:
    """Play the missing chunks, writing each as soon as its last deal is in; yields each
    chunk's start once written. ``on_deal`` sees every finished deal (a progress bar)."""
    starts = missing_chunks(folder, settings)
    jobs = [job for start in starts for job in settings.chunk_jobs(start)]
    pending: dict[int, list[dict]] = {start: [] for start in starts}
    sizes = {start: len(settings.chunk_jobs(start)) for start in starts}
    for result in run_games(deal_positions, jobs, workers=workers):
        on_deal(result)
        start = _chunk_of(settings, result["record"]["index"])
        pending[start].append(result)
        if len(pending[start]) == sizes[start]:
            write_chunk(folder, start, pending.pop(start))
            yield start


def _chunk_of(settings: DataSettings, index: int) -> int:
    offset = (index - settings.first_index) // settings.chunk_size * settings.chunk_size
    return settings.first_index + offset


def write_chunk(folder: Path, start: int, results: list[dict]) -> None:
    """The chunk's two files, deals in index order (the order they finished does not matter);
    the positions last, since their file marks the chunk done."""
    results = sorted(results, key=lambda r: r["record"]["index"])

    def games(path: Path) -> None:
        with gzip.open(path, "wt") as handle:
            for result in results:
                handle.write(json.dumps(result["record"]) + "\n")

    def positions(path: Path) -> None:
        arrays = {name: np.concatenate([r[name] for r in results]) for name in ARRAYS}
        cpu = np.array(sum(r["cpu_seconds"] for r in results))
        count = np.array(len(results))
        with path.open("wb") as handle:
            np.savez_compressed(
                handle, allow_pickle=False, cpu_seconds=cpu, deal_count=count, **arrays
            )

    replace_atomically(chunk_path(folder, start, ".jsonl.gz"), games)
    replace_atomically(chunk_path(folder, start, ".npz"), positions)


def read_settings(folder: Path) -> dict[str, Any]:
    """The folder's ``dataset.json``, or a `ValueDataError` naming it and what is wrong."""
    path = folder / SETTINGS_FILE
    if not path.exists():
        raise ValueDataError(f"{folder} holds no value data set (no {SETTINGS_FILE})")
    try:
        found = read_json(path)
    except JsonTextError as err:
        raise ValueDataError(f"cannot read {path}: {err}") from None
    if not isinstance(found, dict) or found.get("format") != FORMAT:
        raise ValueDataError(f"{path} is not the settings of a value data set")
    return found


def read_positions(folder: Path) -> dict[str, np.ndarray]:
    """Every position of the folder's chunks, in chunk order, plus the CPU seconds they took."""
    read_settings(folder)
    files = sorted(folder.glob("chunk-*.npz"))
    if not files:
        raise ValueDataError(f"{folder} holds no finished chunk yet")
    parts: dict[str, list[np.ndarray]] = {name: [] for name in ARRAYS}
    cpu = 0.0
    for file in files:
        try:
            with np.load(file, allow_pickle=False) as data:
                for name in ARRAYS:
                    parts[name].append(data[name])
                cpu += float(data["cpu_seconds"])
        except (OSError, ValueError, KeyError, zipfile.BadZipFile) as err:
            raise ValueDataError(f"cannot read the chunk {file}: {err}") from None
    return {
        **{name: np.concatenate(arrays) for name, arrays in parts.items()},
        "cpu_seconds": np.array(cpu),
        "chunks": np.array(len(files)),
    }
