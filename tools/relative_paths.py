"""Rewrite the absolute paths of the machines the studies ran on, in committed files, as paths
relative to the repository (run once; kept as the record of what each path became).

The runs wrote the paths they were given: their own folders outside git (``/work/runs/X``,
``/work/exp/X``, ``/work/data/X``, ``/tmp/X``). Each becomes the repository-relative path that
holds the same thing (`REWRITES`): a file committed since under ``experiments/`` by that path,
else the git-ignored folders a fresh clone uses for run folders and data (``runs/``,
``data/``). A spec naming a file is rewritten the same way in every file of its run
(``run.json``, ``games.jsonl``, ``results.*``), so the run still reads as one.

``tests/docs/test_no_absolute_paths.py`` holds the result: no tracked file names a path of a
machine. Run from the repository root: ``python tools/relative_paths.py [--check]``.
"""

from __future__ import annotations

import argparse
import gzip
import re
import subprocess
import sys
from pathlib import Path

EXPLORE = "experiments/search-strength/results/validation/cards/explore"
#: Absolute prefix -> its repository-relative replacement, most specific first.
REWRITES: tuple[tuple[str, str], ...] = (
    ("/work/exp/value_", f"{EXPLORE}/values/value_"),
    ("/work/exp/val-l1-", f"{EXPLORE}/l1-"),
    ("/work/exp/", "runs/exp/"),
    ("/work/runs/", "runs/"),
    ("/work/data/", "data/"),
    ("/tmp/prior/", "runs/prior/"),
)
#: An absolute prefix where a path may begin (not inside a URL or a longer path).
_PATTERN = re.compile(r"(?<![\w.:/~-])(" + "|".join(re.escape(old) for old, _ in REWRITES) + ")")
_NEW = dict(REWRITES)


def rewritten(text: str) -> str:
    """``text`` with every rewritten prefix replaced."""
    return _PATTERN.sub(lambda match: _NEW[match.group(1)], text)


def tracked_files(repo: Path) -> list[Path]:
    names = subprocess.run(
        ["git", "ls-files", "-z"], cwd=repo, capture_output=True, check=True
    ).stdout.split(b"\0")
    return [repo / name.decode() for name in names if name]


def rewrite_file(path: Path) -> bool:
    """Rewrite one file in place (a ``.gz`` file decompressed, rewritten, compressed);
    whether it changed."""
    raw = path.read_bytes()
    packed = path.suffix == ".gz"
    data = gzip.decompress(raw) if packed else raw
    if b"\0" in data:
        return False
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    new = rewritten(text)
    if new == text:
        return False
    encoded = new.encode("utf-8")
    path.write_bytes(gzip.compress(encoded, mtime=0) if packed else encoded)
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], allow_abbrev=False)
    parser.add_argument("--check", action="store_true", help="list, do not rewrite")
    args = parser.parse_args(argv)
    repo = Path(__file__).resolve().parents[1]
    me = Path(__file__).resolve()
    changed = []
    for path in tracked_files(repo):
        if path.resolve() == me or not path.is_file():
            continue
        if args.check:
            text = path.read_bytes()
            if path.suffix == ".gz":
                text = gzip.decompress(text)
            if _PATTERN.search(text.decode("utf-8", "replace")):
                changed.append(path)
        elif rewrite_file(path):
            changed.append(path)
    for path in changed:
        print(path.relative_to(repo).as_posix())
    print(f"{len(changed)} files {'to rewrite' if args.check else 'rewritten'}", file=sys.stderr)
    return 1 if args.check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
