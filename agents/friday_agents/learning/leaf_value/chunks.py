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
import zlib
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from friday_agents.harness.files import replace_atomically
from friday_agents.harness.interrupts import stop_at_a_boundary
from friday_agents.harness.parallel import GamesInterrupted, run_games
from friday_agents.learning.config import LearningConfig
from friday_agents.learning.leaf_value.positions import DealJob, deal_positions
from friday_agents.learning.run_folder import (
    ResumeRule,
    RunFolderError,
    read_json_object,
    require_regular_file,
    write_json,
)

SETTINGS_FILE = "dataset.json"
FORMAT = "friday-env/leaf-value-data"
#: The arrays of a chunk, concatenated by `read_positions`.
ARRAYS = ("rows", "levels", "steps", "won", "sources", "moments", "deals")


class ValueDataError(RunFolderError):
    """A data folder that is missing, empty, damaged or was played with other settings."""


#: What a continued run may set anew: more deals (every other setting is the folder's own).
RESUME = ResumeRule("friday value data", ("deals",), ValueDataError)
#: Deal indices each deal set's data may use: training below the validation deals,
#: validation its own range.
INDEX_LIMIT = {"training": 900_000, "validation": 100_000}


@dataclass(frozen=True)
class DataSettings(LearningConfig):
    """What every chunk of a folder is played with (``dataset.json``)."""

    Error = ValueDataError

    agent: str
    level: int
    deal_set: str
    first_index: int
    deals: int
    continuations: int
    chunk_size: int

    def validate(self) -> DataSettings:
        """``self`` if every value is usable (the flags' and a stored file's one check),
        else `ValueDataError` naming the first that is not."""
        if self.level not in (1, 2, 3, 4):
            raise ValueDataError(f"level must be 1, 2, 3 or 4, got {self.level!r}")
        if not self.agent:
            raise ValueDataError("agent must be an agent spec, got ''")
        self.check_choice("deal_set", INDEX_LIMIT)
        self.check_at_least(1, "deals", "chunk_size")
        self.check_at_least(0, "first_index", "continuations")
        limit = INDEX_LIMIT[self.deal_set]
        if self.first_index + self.deals > limit:
            raise ValueDataError(
                f"first_index and deals must stay in {self.deal_set} indices 0 to {limit - 1}"
            )
        return self

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
    """Write the folder's settings, or check them (and the chunks there) against those it was
    started with (`RESUME`: only ``deals`` may grow, a run extended by more deals)."""
    path = folder / SETTINGS_FILE
    wanted = {"format": FORMAT, **asdict(settings)}
    if path.exists():
        RESUME.check_settings(read_settings(folder), wanted, path)
        missing_chunks(folder, settings)  # the chunks there are readable, before any write
    folder.mkdir(parents=True, exist_ok=True)
    write_json(path, wanted)


def missing_chunks(folder: Path, settings: DataSettings) -> list[int]:
    """The starts of the chunks not yet on disk, or on disk with fewer deals than they now
    hold (the last chunk of a run since extended: played again whole, the same deals first)."""
    return [
        start
        for start in settings.chunk_starts()
        if _deals_in(chunk_path(folder, start, ".npz"), settings.chunk_size)
        < len(settings.chunk_jobs(start))
    ]


def _deals_in(path: Path, most: int) -> int:
    """How many deals the chunk file at ``path`` holds (0: none there), at most ``most``
    (the chunk size), or a `ValueDataError` naming the file."""
    if not path.exists():
        return 0
    require_regular_file(path, "chunk")
    try:
        with np.load(path, allow_pickle=False) as data:
            count = data["deal_count"]
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, zlib.error) as err:
        raise ValueDataError(f"cannot read the chunk {path}: {err}") from None
    if count.shape != () or count.dtype.kind not in "iu" or not 1 <= count <= most:
        raise ValueDataError(f"the chunk {path}: deal_count must be a number of deals 1-{most}")
    return int(count)


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
            with stop_at_a_boundary() as ctrl_c:  # a chunk is written whole, then Ctrl-C stops
                write_chunk(folder, start, pending.pop(start))
            if ctrl_c.requested:
                raise GamesInterrupted("interrupted")
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
        found = read_json_object(path, "value data settings")
    except RunFolderError as err:
        raise ValueDataError(str(err)) from None
    if found.get("format") != FORMAT:
        raise ValueDataError(f"{path} is not the settings of a value data set")
    settings = {name: value for name, value in found.items() if name != "format"}
    try:
        DataSettings.check_keys(settings, str(path), complete=True)
        DataSettings.from_dict(settings, str(path)).validate()
    except ValueDataError as err:
        message = str(err)
        raise ValueDataError(message if str(path) in message else f"{path}: {message}") from None
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
        arrays, seconds = _chunk_arrays(file)
        for name in ARRAYS:
            parts[name].append(arrays[name])
        cpu += seconds
    return {
        **{name: np.concatenate(arrays) for name, arrays in parts.items()},
        "cpu_seconds": np.array(cpu),
        "chunks": np.array(len(files)),
    }


def _chunk_arrays(file: Path) -> tuple[dict[str, np.ndarray], float]:
    """A chunk's arrays (one row per position, all of one length) and its CPU seconds, or a
    `ValueDataError` naming the file and what is wrong."""
    require_regular_file(file, "chunk")
    try:
        with np.load(file, allow_pickle=False) as data:
            arrays = {name: data[name] for name in ARRAYS}
            cpu = data["cpu_seconds"]
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, zlib.error) as err:
        raise ValueDataError(f"cannot read the chunk {file}: {err}") from None
    rows = len(arrays["won"]) if arrays["won"].ndim else -1
    if any(a.ndim < 1 or len(a) != rows for a in arrays.values()):
        raise ValueDataError(f"the chunk {file}: its arrays are not one row per position")
    if cpu.shape != () or cpu.dtype.kind not in "iuf" or not 0 <= cpu < float("inf"):
        raise ValueDataError(f"the chunk {file}: cpu_seconds must be a number >= 0")
    return arrays, float(cpu)
