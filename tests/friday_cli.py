"""Run the installed ``friday`` command, whichever module provides it.

The tests of the command-line conventions go through the ``friday`` console-script entry
point of the installed distribution, as a user's shell does, so they do not depend on where
the command's code lives inside the package.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from importlib.metadata import entry_points
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

#: Python code that runs the ``friday`` entry point with ``sys.argv[1:]``.
LAUNCHER = (
    "import sys\n"
    "from importlib.metadata import entry_points\n"
    "(point,) = entry_points(group='console_scripts', name='friday')\n"
    "sys.argv[0] = 'friday'\n"
    "sys.exit(point.load()())\n"
)


def friday_main() -> Callable[..., int]:
    """The ``main`` function behind the ``friday`` command."""
    (point,) = entry_points(group="console_scripts", name="friday")
    return point.load()


def friday(
    *args: str,
    stdin: str | None = None,
    cwd: Path | None = None,
    prelude: str = "",
    env: dict[str, str] | None = None,
    timeout: float = 300,
) -> subprocess.CompletedProcess:
    """``friday ARGS`` in a fresh interpreter; ``prelude`` is Python run before the command
    (e.g. to block an import)."""
    return subprocess.run(
        [sys.executable, "-c", prelude + "\n" + LAUNCHER, *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd or REPO,
        env={**os.environ, **(env or {})},
        timeout=timeout,
    )


def popen_friday(*args: str, cwd: Path | None = None, **kwargs) -> subprocess.Popen:
    """``friday ARGS`` started with pipes, for tests that talk to it or signal it."""
    return subprocess.Popen(
        [sys.executable, "-c", LAUNCHER, *args],
        cwd=cwd or REPO,
        text=True,
        **kwargs,
    )
