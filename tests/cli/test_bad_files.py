"""Every ``friday`` command that reads a file refuses a bad one the same way: one line on
stderr naming the file and what is wrong with it, exit status 2, no traceback, nothing written.

Three bad files for each reader: bytes that are not UTF-8, JSON nested 100,000 deep (deeper
than Python's parser recurses) and a file that does not exist. The cases run one after
another in one fresh interpreter through the ``friday`` entry point (one interpreter start
instead of one per case: each would import the command's libraries again); one case also runs as its
own ``friday`` process, the exit status the shell sees."""

from __future__ import annotations

from pathlib import Path
from subprocess import CompletedProcess

import pytest
from friday_cli import friday, friday_batch

NOT_UTF8 = b'{"level": 1, "seed": \xff\xfe}\n'
DEEP = ("[" * 100_000 + "]" * 100_000 + "\n").encode()
BAD = {"not UTF-8": NOT_UTF8, "100,000 deep": DEEP, "missing": None}

#: command -> (its arguments, the file it reads; both relative to a fresh folder)
READERS = {
    "view": (("view", "bad.json", "--out", "page.html"), "bad.json"),
    "replay": (("replay", "bad.json"), "bad.json"),
    "eval --resume": (
        ("eval", "--out", "run", "--resume", "--agents", "random", "--no-progress"),
        "run/config.json",
    ),
    "train --config": (("train", "--config", "bad.json", "--out", "run"), "bad.json"),
    "train --config toml": (("train", "--config", "bad.toml", "--out", "run"), "bad.toml"),
    "rl --resume": (("rl", "--resume", "--out", "run", "--no-progress"), "run/config.json"),
    "rl --init": (("rl", "--init", "bad.npz", "--out", "run", "--no-progress"), "bad.npz"),
    "distill --config": (("distill", "--config", "bad.json", "--out", "run"), "bad.json"),
    "imitate encode": (("imitate", "encode", "bad.jsonl", "--out", "d.npz"), "bad.jsonl"),
    "imitate fit --dataset": (
        ("imitate", "fit", "--dataset", "bad.npz", "--out", "p.zip"),
        "bad.npz",
    ),
    "value fit --data": (
        ("value", "fit", "--data", "run", "--validation", "run", "--out", "leaf.npz"),
        "run/dataset.json",
    ),
    "explore --resume": (
        ("explore", "--resume", "--out", "run", "--no-progress"),
        "run/config.json",
    ),
}

CASES = [(reader, bad) for reader in READERS for bad in BAD]


def _tree(root: Path) -> dict[Path, bytes | None]:
    return {p: (p.read_bytes() if p.is_file() else None) for p in root.rglob("*")}


def _lay_out(folder: Path, reader: str, bad: str) -> None:
    folder.mkdir()
    if BAD[bad] is not None:
        path = folder / READERS[reader][1]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(BAD[bad])


@pytest.fixture(scope="module")
def refusals(tmp_path_factory) -> dict[tuple[str, str], tuple[CompletedProcess, bool]]:
    """Each case's exit status and stderr, and whether its folder is unchanged."""
    root = tmp_path_factory.mktemp("bad-files")
    folders = {case: root / f"case-{i}" for i, case in enumerate(CASES)}
    for (reader, bad), folder in folders.items():
        _lay_out(folder, reader, bad)
    before = {case: _tree(folder) for case, folder in folders.items()}
    done = friday_batch([{"args": READERS[case[0]][0], "cwd": folders[case]} for case in CASES])
    return {
        case: (result, _tree(folders[case]) == before[case])
        for case, result in zip(CASES, done, strict=True)
    }


def _assert_refused(reader: str, status: int, stderr: str) -> None:
    args, target = READERS[reader]
    command = args[0] if args[0] not in ("imitate", "value") else f"{args[0]} {args[1]}"
    assert status == 2, stderr
    assert "Traceback" not in stderr, stderr
    (line,) = stderr.strip().splitlines() or [""]
    assert line.startswith(f"friday {command}: error: "), line
    assert Path(target).name in line or Path(target).parent.name in line, line


@pytest.mark.parametrize(("reader", "bad"), CASES)
def test_a_bad_file_is_refused_in_one_line(refusals, reader, bad):
    done, unchanged = refusals[reader, bad]
    _assert_refused(reader, done.returncode, done.stderr)
    assert unchanged


def test_the_friday_process_exits_2_on_a_bad_file(tmp_path):
    _lay_out(tmp_path / "case", "view", "100,000 deep")
    before = _tree(tmp_path)
    done = friday(*READERS["view"][0], cwd=tmp_path / "case", timeout=120)
    _assert_refused("view", done.returncode, done.stderr)
    assert _tree(tmp_path) == before
