"""Input an attacker hands a command: each is refused in one line with exit status 2 and no
traceback, nothing written: JSON numbers no reader can hold (R9); ``--workers`` past the CPUs
is capped with a one-line note (R11); a full disk (R10); a FIFO or a device named as a file
(R12)."""

from __future__ import annotations

import argparse
import builtins
import contextlib
import errno
import io
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from friday_agents.cli import cap_workers, main
from friday_agents.harness import parallel
from friday_agents.harness.parallel import usable_cpus
from friday_env.json_text import JsonTextError, parse_json, read_json
from friday_env.regular_file import NotRegularFileError, read_bytes

HUGE_INT = "1" * 5000


def _one_line_refusal(capsys: pytest.CaptureFixture[str], status: int, *names: str) -> str:
    err = capsys.readouterr().err
    assert status == 2, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    for name in names:
        assert name in err, err
    return err


# ------------------------------------------------------------------ R9: JSON numbers


@pytest.mark.parametrize(
    "text, reason",
    [
        (HUGE_INT, "5000 digits"),
        ("-" + "9" * 4301, "4301 digits"),
        ("1e400", "past the float range"),
        ('{"x": [-1e400]}', "past the float range"),
        ("1" * 400 + ".5", "past the float range"),
        ("NaN", "not a JSON number"),
    ],
    ids=["5000-digits", "4301-digits", "1e400", "nested-1e400", "long-float", "NaN"],
)
def test_a_number_no_reader_can_hold_is_refused(text: str, reason: str) -> None:
    with pytest.raises(JsonTextError, match=reason):
        parse_json(text)


def test_numbers_within_range_are_read() -> None:
    assert parse_json("[1.5e300, -2, 0.1]") == [1.5e300, -2, 0.1]
    assert parse_json("9" * 4300) == int("9" * 4300)


@pytest.mark.parametrize("command", ["view", "replay"])
@pytest.mark.parametrize(
    "name, text, reason",
    [
        ("huge.jsonl", '{"format": ' + HUGE_INT + "}\n", "5000 digits"),
        ("huge.json", '{"format": 1, "seed": ' + HUGE_INT + "}\n", "5000 digits"),
        ("inf.jsonl", '{"format": 1e400}\n', "past the float range"),
    ],
    ids=["huge-int-line", "huge-int-record", "1e400"],
)
def test_a_record_with_an_impossible_number_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, name: str, text: str,
    reason: str,
) -> None:  # fmt: skip
    path = tmp_path / name
    path.write_text(text)
    args = [command, str(path)] + (["--all"] if command == "replay" else [])
    _one_line_refusal(capsys, main(args), str(path), reason)
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


# ------------------------------------------------------------------ R11: --workers


def test_workers_above_the_cpus_are_capped_with_a_one_line_note(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = argparse.Namespace(command="value", workers=1_000_000)
    cap_workers(args)
    assert args.workers == usable_cpus() >= 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--workers 1000000 capped at" in err, err


def test_workers_within_the_cpus_and_a_clusters_workers_stay(
    capsys: pytest.CaptureFixture[str],
) -> None:
    within = argparse.Namespace(command="eval", workers=1)
    cluster = argparse.Namespace(command="eval", workers=1_000, address="auto")
    for args, kept in ((within, 1), (cluster, 1_000)):
        cap_workers(args)
        assert args.workers == kept
    assert capsys.readouterr().err == ""


def test_run_games_starts_no_more_processes_than_cpus(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[int] = []

    class CountingPool:
        def __init__(self, workers: int, **_: object) -> None:
            started.append(workers)
            raise RuntimeError("counted")

    monkeypatch.setattr(parallel, "usable_cpus", lambda: 3)
    monkeypatch.setattr(parallel, "ProcessPoolExecutor", CountingPool)
    with pytest.raises(RuntimeError, match="counted"):
        list(parallel.run_games(abs, [-1, -2], workers=1_000_000))
    assert started == [3]


def test_explore_with_a_million_workers_runs_on_the_cpus(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    args = ["explore", "--level", "1", "--deals", "1", "--budget", "200", "--out", str(out)]
    assert main([*args, "--workers", "1000000", "--no-progress"]) == 0
    assert "capped at" in capsys.readouterr().err


# ------------------------------------------------------------------ R10: a full disk


class _FullDisk:
    """A file open for writing on a disk that fills up: a write stores the first half of
    what it is given, then fails as the system's would."""

    def __init__(self, file: Any) -> None:
        self._file = file

    def write(self, data: Any) -> int:
        self._file.write(data[: len(data) // 2])
        self._file.flush()
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._file, name)

    def __enter__(self) -> _FullDisk:
        return self

    def __exit__(self, *exc: object) -> None:
        self._file.close()


def _fill_the_disk_under(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_open = io.open

    def open_on_a_full_disk(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        opened = real_open(file, mode, *args, **kwargs)
        writing = any(flag in mode for flag in "wax+")
        inside = isinstance(file, (str, os.PathLike)) and str(folder) in os.fspath(file)
        return _FullDisk(opened) if writing and inside else opened

    monkeypatch.setattr(io, "open", open_on_a_full_disk)
    monkeypatch.setattr(builtins, "open", open_on_a_full_disk)


@pytest.mark.parametrize(
    "command",
    [
        ["explore", "--level", "1", "--deals", "2", "--budget", "200", "--no-progress"],
        ["eval", "--agents", "random", "--levels", "1", "--games", "2", "--no-progress"],
    ],
    ids=["explore", "eval"],
)
def test_a_full_disk_is_one_line_and_leaves_nothing_half_written(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    command: list[str],
) -> None:
    out = tmp_path / "run"
    _fill_the_disk_under(out, monkeypatch)
    err = _one_line_refusal(capsys, main([*command, "--out", str(out)]), "No space left")
    assert "free some space" in err
    left = [p for p in out.rglob("*") if p.is_file()] if out.exists() else []
    assert not [p for p in left if ".tmp" in p.name], left  # no temporary left behind
    for path in left:  # whole JSON files; JSON lines but perhaps a last one cut short
        text = path.read_text()
        if path.suffix == ".json":
            parse_json(text)
        elif path.suffix == ".jsonl":
            [parse_json(line) for line in text.splitlines()[:-1]]


# ------------------------------------------------------------------ R12: FIFOs and devices


@contextlib.contextmanager
def _within(seconds: int) -> Iterator[None]:
    """Fail instead of hanging: a reader that opens a FIFO waits for a writer forever."""

    def hung(*_: object) -> None:
        raise AssertionError(f"still reading after {seconds} s: the reader hangs")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


#: name: the command, FIFO standing for the FIFO's path (its name ends as the reader expects)
FIFO_READERS: dict[str, list[str]] = {
    "view a record": ["view", "FIFO.json"],
    "view a games file": ["view", "FIFO.jsonl"],
    "replay": ["replay", "FIFO.json", "--all"],
    "fit linear-value": ["fit", "linear-value", "--data", "FIFO.jsonl", "--out", "OUT.json"],
    "imitate encode": ["imitate", "encode", "FIFO.jsonl", "--out", "OUT.npz"],
    "imitate fit": ["imitate", "fit", "--dataset", "FIFO.npz", "--out", "OUT.zip"],
    "strategy": ["strategy", "--games", "FIFO.jsonl", "--out", "OUT.json"],
    "distill --config": ["distill", "--config", "FIFO.json", "--out", "OUT"],
    "eval net model": ["eval", "--agents", "net:model=FIFO.npz", "--games", "1"],
    "eval ppo model": ["eval", "--agents", "ppo:model=FIFO.zip", "--games", "1"],
    "eval guided value": ["eval", "--agents", "guided:value=FIFO.json", "--games", "1"],
}


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
@pytest.mark.parametrize("name", sorted(FIFO_READERS))
def test_a_fifo_is_refused_in_one_line_without_waiting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    args = [arg.replace("OUT", str(tmp_path / "out")) for arg in FIFO_READERS[name]]
    fifo = next(arg for arg in args if "FIFO" in arg)
    path = tmp_path / fifo.split("=")[-1]
    os.mkfifo(path)
    args = [arg.replace(fifo.split("=")[-1], str(path)) for arg in args]
    with _within(60):
        status = main([*args, "--no-progress"] if args[0] == "eval" else args)
    _one_line_refusal(capsys, status, str(path), "a FIFO (named pipe), not a regular file")
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_eval_resume_refuses_a_fifo_in_its_run_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    out.mkdir()
    os.mkfifo(out / "run.json")
    args = ["eval", "--agents", "random", "--games", "1", "--out", str(out), "--resume"]
    with _within(60):
        status = main([*args, "--no-progress"])
    _one_line_refusal(capsys, status, "run.json", "a FIFO (named pipe)")


def test_a_device_that_never_ends_is_refused() -> None:
    with pytest.raises(NotRegularFileError, match="a character device"):
        read_bytes(os.devnull)
    with pytest.raises(JsonTextError, match="a folder, not a regular file"):
        read_json(Path(__file__).parent)


def test_the_strategy_reports_results_file_refuses_numbers_no_reader_can_hold(
    tmp_path: Path,
) -> None:
    from friday_agents.evaluation.strategy.strategy import AnalysisInputError, load_results

    path = tmp_path / "results.json"
    path.write_text('{"format": ' + HUGE_INT + "}")
    with pytest.raises(AnalysisInputError, match="5000 digits"):
        load_results(path)
    path.unlink()
    os.mkfifo(path)
    with pytest.raises(AnalysisInputError, match="a FIFO"):
        load_results(path)
