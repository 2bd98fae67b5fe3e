"""``friday value data`` continued on a data folder someone else edited or a kill damaged
(findings R3 and R8 of issue 45): its settings and chunks are refused in one line naming the
file, exit status 2, nothing written; a second session on the folder is refused; chunks are
written under temporary names of their own (no shared ``PATH.tmp``)."""

from __future__ import annotations

import json
import os
import shutil
import signal
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from friday_agents.cli import main
from friday_agents.harness import files
from friday_agents.harness.run_lock import RunFolderLock
from friday_agents.learning.leaf_value.chunks import ARRAYS, ValueDataError, read_positions

#: Four deals in two chunks, played by the search at its smallest.
DATA = ["--level", "4", "--deals", "4", "--chunk-size", "2", "--agent", "guided:sims=2"]
DATA += ["--continuations", "0", "--first-index", "310000", "--workers", "1", "--no-progress"]


def _data(folder: Path) -> int:
    return main(["value", "data", *DATA, "--out", str(folder)])


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("value") / "data"
    assert _data(folder) == 0
    return folder


@pytest.fixture
def copy(played: Path, tmp_path: Path) -> Path:
    shutil.copytree(played, tmp_path / "data")
    (tmp_path / "data" / "chunk-310002.npz").unlink()  # the second chunk to play again
    return tmp_path / "data"


def _tree(folder: Path) -> dict[str, bytes | None]:
    return {p.name: p.read_bytes() if p.is_file() else None for p in sorted(folder.iterdir())}


def _settings(edit: Callable[[dict], dict]) -> Callable[[Path], str]:
    def apply(folder: Path) -> str:
        path = folder / "dataset.json"
        path.write_text(json.dumps(edit(json.loads(path.read_text()))))
        return str(path)

    return apply


def _chunk(edit: Callable[[dict], dict]) -> Callable[[Path], str]:
    def apply(folder: Path) -> str:
        path = folder / "chunk-310000.npz"
        with np.load(path) as data:
            arrays = edit(dict(data))
        with path.open("wb") as handle:
            np.savez(handle, **arrays)
        return str(path)

    return apply


def _replace(name: str, make: Callable[[Path], None]) -> Callable[[Path], str]:
    def apply(folder: Path) -> str:
        (folder / name).unlink()
        make(folder / name)
        return str(folder / name)

    return apply


EDITS = {
    "settings not JSON": _replace("dataset.json", lambda p: p.write_text("{")),
    "settings a FIFO": _replace("dataset.json", os.mkfifo),
    "settings of another format": _settings(lambda s: s | {"format": "other"}),
    "settings' level text": _settings(lambda s: s | {"level": "4"}),
    "settings' chunk size 0": _settings(lambda s: s | {"chunk_size": 0}),
    "settings' first index negative": _settings(lambda s: s | {"first_index": -5}),
    "settings' deals a list": _settings(lambda s: s | {"deals": [4]}),
    "settings' agent missing": _settings(lambda s: {k: v for k, v in s.items() if k != "agent"}),
    "settings of another run": _settings(lambda s: s | {"continuations": 3}),
    "chunk cut short": _replace(
        "chunk-310000.npz", lambda p: p.write_bytes(b"PK\x03\x04" + b"\0" * 40)
    ),
    "chunk a FIFO": _replace("chunk-310000.npz", os.mkfifo),
    "chunk a folder": _replace("chunk-310000.npz", os.mkdir),
    "chunk's count an array": _chunk(lambda a: a | {"deal_count": np.array([2, 2])}),
    "chunk's count too big": _chunk(lambda a: a | {"deal_count": np.array(10**9)}),
    "chunk's count negative": _chunk(lambda a: a | {"deal_count": np.array(-1)}),
    "chunk's count a float": _chunk(lambda a: a | {"deal_count": np.array(2.5)}),
    "chunk without its count": _chunk(lambda a: {k: v for k, v in a.items() if k != "deal_count"}),
}


@pytest.mark.parametrize("case", EDITS)
def test_a_bad_data_file_is_refused_in_one_line_naming_it(copy, capsys, case):
    names = EDITS[case](copy)
    before = _tree(copy)
    status = _data(copy)
    err = capsys.readouterr().err
    assert status == 2, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert err.startswith("friday value data: error: ") and names in err, err
    assert _tree(copy) == before


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (lambda a: a | {"won": a["won"][:-1]}, "not one row per position"),
        (lambda a: a | {"cpu_seconds": np.array(-1.0)}, "cpu_seconds must be a number >= 0"),
        (lambda a: {k: v for k, v in a.items() if k != "rows"}, "cannot read the chunk"),
    ],
)
def test_the_fit_refuses_a_damaged_chunk_naming_it(played, tmp_path, edit, words):
    """What ``friday value fit`` reads of a folder (`read_positions`)."""
    copy = tmp_path / "data"
    shutil.copytree(played, copy)
    path = _chunk(edit)(copy)
    with pytest.raises(ValueDataError) as refused:
        read_positions(copy)
    assert path in str(refused.value) and words in str(refused.value)


def test_a_second_session_on_the_folder_is_refused(copy, capsys):
    """R3: two sessions played the same chunks and wrote them through one ``PATH.tmp``."""
    with RunFolderLock() as other:
        other.take(copy)
        assert _data(copy) == 2
    err = capsys.readouterr().err
    assert "in use by another friday command" in err and str(copy) in err


def test_a_chunk_is_written_under_a_temporary_name_of_its_own(copy, monkeypatch):
    names: list[str] = []
    make = files._new_temporary

    def remembered(path: Path) -> Path:
        names.append(make(path).name)
        return copy / names[-1]

    monkeypatch.setattr(files, "_new_temporary", remembered)
    assert _data(copy) == 0
    chunk_files = [n for n in names if n.startswith(".chunk-310002")]
    assert len(chunk_files) == 2 and all(f".{os.getpid()}-" in n for n in chunk_files)
    assert not [p for p in copy.iterdir() if p.name.startswith(".")], "no temporary left"
    assert (copy / "chunk-310002.npz").is_file()


def test_an_untouched_folder_continues(copy, played):
    assert _data(copy) == 0
    mine, theirs = read_positions(copy), read_positions(played)
    assert all(np.array_equal(mine[name], theirs[name]) for name in ARRAYS)


def test_ctrl_c_while_a_chunk_is_written_lets_it_finish_then_stops(copy, monkeypatch):
    """A Ctrl-C that lands while a chunk is being written (not while a deal is played) used to
    escape as a bare KeyboardInterrupt, without the command that continues the run."""
    from friday_agents.harness.parallel import GamesInterrupted
    from friday_agents.learning.leaf_value import chunks

    write = chunks.write_chunk

    def interrupted(folder: Path, start: int, results: list) -> None:
        os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C in the middle of the write
        write(folder, start, results)

    monkeypatch.setattr(chunks, "write_chunk", interrupted)
    settings = chunks.DataSettings("guided:sims=2", 4, "training", 310_000, 4, 0, 2)
    with pytest.raises(GamesInterrupted, match="interrupted"):
        list(chunks.play_chunks(copy, settings, 1))
    assert chunks.missing_chunks(copy, settings) == []  # the chunk in hand was written whole
    assert len(read_positions(copy)["won"]) == len(read_positions(copy)["rows"])
