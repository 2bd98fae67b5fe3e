"""Every ``friday`` command that reads a file refuses a bad one the same way: one line on
stderr naming the file and what is wrong with it, exit status 2, no traceback, nothing written.

Three bad files for each reader: bytes that are not UTF-8, JSON nested 100,000 deep (deeper
than Python's parser recurses) and a file that does not exist."""

from __future__ import annotations

from pathlib import Path

import pytest
from friday_cli import friday

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


def _tree(root: Path) -> dict[Path, bytes | None]:
    return {p: (p.read_bytes() if p.is_file() else None) for p in root.rglob("*")}


@pytest.mark.parametrize("bad", BAD)
@pytest.mark.parametrize("reader", READERS)
def test_a_bad_file_is_refused_in_one_line(tmp_path, reader, bad):
    args, target = READERS[reader]
    path = tmp_path / target
    if BAD[bad] is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(BAD[bad])
    before = _tree(tmp_path)
    done = friday(*args, cwd=tmp_path, timeout=120)
    command = args[0] if args[0] not in ("imitate", "value") else f"{args[0]} {args[1]}"
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    (line,) = done.stderr.strip().splitlines() or [""]
    assert line.startswith(f"friday {command}: error: "), line
    assert Path(target).name in line or Path(target).parent.name in line, line
    assert _tree(tmp_path) == before
