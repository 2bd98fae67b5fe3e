"""Run the installed ``friday`` command, whichever module provides it.

The tests of the command-line conventions go through the ``friday`` console-script entry
point of the installed distribution, as a user's shell does, so they do not depend on where
the command's code lives inside the package.
"""

from __future__ import annotations

import json
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


#: Runs ``friday`` once per job (JSON on stdin: arguments, folder, environment, stdin) in
#: this one interpreter, as the launcher does, and prints each one's exit status, stdout and
#: stderr (with the traceback where an exception escaped).
BATCH = """
import contextlib, io, json, os, sys, traceback
from importlib.metadata import entry_points
(point,) = entry_points(group="console_scripts", name="friday")
main = point.load()
sys.argv[0] = "friday"
results, environ = [], dict(os.environ)
for job in json.load(sys.stdin):
    os.chdir(job["cwd"])
    os.environ.clear()
    os.environ.update({**environ, **job["env"]})
    sys.stdin = io.StringIO(job["stdin"])
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(job["args"])
        except SystemExit as exit:
            status = exit.code
        except BaseException:
            traceback.print_exc()
            status = 1
    results.append([status, out.getvalue(), err.getvalue()])
json.dump(results, sys.__stdout__)
"""


def friday_batch(jobs: list[dict], timeout: float = 600) -> list[subprocess.CompletedProcess]:
    """``friday ARGS`` for each job (``args``, and ``cwd``, ``env``, ``stdin`` as for
    `friday`), one after another in one fresh interpreter: for tests of many quick refusals,
    each of which would otherwise pay an interpreter start and the command's imports."""
    plain = [
        {"args": list(j["args"]), "cwd": str(j.get("cwd") or REPO), "env": j.get("env") or {},
         "stdin": j.get("stdin") or ""}
        for j in jobs
    ]  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-c", BATCH], input=json.dumps(plain), capture_output=True, text=True,
        cwd=REPO, timeout=timeout, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"the batch of friday commands failed: {done.stderr}")
    return [
        subprocess.CompletedProcess(job["args"], status, out, err)
        for job, (status, out, err) in zip(plain, json.loads(done.stdout), strict=True)
    ]
