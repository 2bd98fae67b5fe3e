"""No tracked file names an absolute path of a machine: results, configs, READMEs and code
hold paths relative to the repository (``tools/relative_paths.py`` rewrote the old ones).

Every tracked text file is read (a ``.gz`` one decompressed); a path is a ``/`` that starts a
word followed by at least two names (``/work/runs/x``); a URL's path, a relative path's
inner ``/`` and an f-string's ``/proc/{pid}`` are not. What may stay is listed here: the
system's own files (`SYSTEM`), and a few named mentions (`ALLOWED`)."""

from __future__ import annotations

import gzip
import json
import re
import subprocess
from pathlib import Path

import pytest

from friday_agents.harness.paths import portable_path
from friday_agents.learning.run_folder import write_config

REPO = Path(__file__).resolve().parents[2]
#: A path that begins a word: ``/`` then two or more names.
ABSOLUTE = re.compile(r"(?<![\w.:/~#<>*$@{}\\\]\)-])/[A-Za-z_][\w.+-]*(?:/[\w.+<>*-]+)+")
#: Paths of the operating system, the same on every machine (shebangs, ``/usr/bin/time``,
#: Linux's ``/proc`` and ``/dev``), and one that exists on none (a test's missing file).
SYSTEM = ("/usr/bin/env", "/usr/bin/time", "/proc/", "/dev/", "/nonexistent/")
#: (file, path) mentions that are no path of a machine of ours.
ALLOWED = {
    # the folder SB3 made by itself before a logger was set (the fixed bug it describes)
    ("CHANGELOG.md", "/tmp/SB3-<date>"),
    # tests that hand a command a path outside the repository, or one that exists nowhere,
    # to see it refused
    ("tests/cli/test_tracks_submission.py", "/tmp/results.json"),
    ("tests/thirteen/test_thirteen_agents.py", "/no/such/file.npz"),
}
#: The record of what each old path became, and this test's own examples: they name such
#: paths on purpose.
ON_PURPOSE = ("tools/relative_paths.py", "tests/docs/test_no_absolute_paths.py")


def absolute_paths(text: str) -> list[str]:
    """The absolute paths in ``text`` that are not the system's own."""
    return [p for p in ABSOLUTE.findall(text) if not p.startswith(SYSTEM)]


def _text(path: Path) -> str | None:
    """A tracked file's text (a ``.gz`` decompressed), or None for a binary file."""
    data = path.read_bytes()
    if path.suffix == ".gz":
        data = gzip.decompress(data)
    if b"\0" in data[:8192]:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _tracked() -> list[str]:
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True)
    return [name.decode() for name in listed.stdout.split(b"\0") if name]


def test_no_tracked_file_names_an_absolute_path_of_a_machine():
    found = []
    for name in _tracked():
        path = REPO / name
        if name in ON_PURPOSE or not path.is_file():
            continue
        text = _text(path)
        if text is None:
            continue
        found += [f"{name}: {p}" for p in absolute_paths(text) if (name, p) not in ALLOWED]
    assert not found, f"{len(found)} absolute paths:\n" + "\n".join(found[:40])


def test_the_allowed_mentions_are_still_there():
    """An allowed mention that is gone is taken off the list (it allows nothing)."""
    for name, mention in ALLOWED:
        assert mention in (REPO / name).read_text(encoding="utf-8"), (name, mention)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ('"out": "/work/runs/a2-l1"', ["/work/runs/a2-l1"]),
        ("--data /home/me/games.jsonl --out x", ["/home/me/games.jsonl"]),
        ("spec guided:value=/tmp/v.json", ["/tmp/v.json"]),
        ("C:/Users/me/x", []),  # not a POSIX path: caught by no test here
        ("see https://github.com/a/b/c and experiments/net-scale/results", []),
        ("#!/usr/bin/env bash; /usr/bin/time -o x; Path('/proc/cpuinfo')", []),
        ('f"/proc/{pid}/stat"', []),
        ("/runs/ in .gitignore is anchored at the repository", []),
    ],
)
def test_the_scan_finds_machine_paths_and_nothing_else(text, found):
    assert absolute_paths(text) == found


def test_paths_are_written_relative_to_where_the_command_runs(tmp_path, monkeypatch):
    """What the writers store (`portable_path`): a path inside the working directory
    relative to it, one outside relative too, a relative one as given (normalised)."""
    monkeypatch.chdir(tmp_path)
    assert portable_path(tmp_path / "runs" / "a") == "runs/a"
    assert portable_path("runs/../data/x.jsonl") == "data/x.jsonl"
    outside = portable_path(tmp_path.parent / "elsewhere")
    assert outside == "../elsewhere" and not absolute_paths(outside)


def test_a_run_folder_config_stores_its_folder_relative(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write_config(tmp_path, {"out": str(tmp_path / "run"), "level": 1})
    stored = json.loads((tmp_path / "config.json").read_text())
    assert stored["out"] == "run" and stored["level"] == 1
