"""The compiled core's tests under AddressSanitizer and UndefinedBehaviorSanitizer (slow).

``python -m pytest -m slow tests/core/test_core_sanitize.py`` builds the extensions (the
compiled core, the agents' C kernels and both test-hook modules) with
``FRIDAY_CORE_SANITIZE=1`` into a temporary copy of the packages (the in-place builds are left
alone), then runs every other ``tests/core/test_core_*.py`` (differential tests, the fuzz
run and the tampered-state fuzzer, 2,000 states unless ``FRIDAY_TAMPER_STATES`` says)
against it in a subprocess, with the sanitizer runtime preloaded. Any report fails the test:
both sanitizers are told to stop the process at the first one, and the output is searched
for reports as well. ``docs/compiled-core.md`` describes the run.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: Lines that only a sanitizer writes.
REPORT_MARKERS = ("ERROR: AddressSanitizer", "runtime error:", "ERROR: LeakSanitizer")
SANITIZER_ENV = {
    "ASAN_OPTIONS": "detect_leaks=0:abort_on_error=1:halt_on_error=1",
    "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1",
    # Python's own allocator hides overflows of Python objects from ASan
    "PYTHONMALLOC": "malloc",
}
#: Tampered states tried under the sanitizers (test_core_tamper.py), unless
#: ``FRIDAY_TAMPER_STATES`` says otherwise.
SANITIZED_TAMPER_STATES = 2000


def _compiler_runtime(name: str) -> str | None:
    """The path of the compiler's ``lib<name>.so``, or None without gcc or the library."""
    if shutil.which("gcc") is None:
        return None
    found = subprocess.run(
        ["gcc", f"-print-file-name=lib{name}.so"], capture_output=True, text=True, check=False
    ).stdout.strip()
    return found if os.path.isabs(found) and os.path.exists(found) else None


#: The packages copied (installed name -> source folder).
PACKAGES = {"friday_env": ROOT / "friday_env", "friday_agents": ROOT / "agents" / "friday_agents"}
#: The extensions under test: the compiled core, the agents' kernels and their test hooks.
EXTENSIONS = (
    "friday_env._core.compiled",
    "friday_env._core._test_hooks",
    "friday_agents.players._kernels",
    "friday_agents.players._kernel_test_hooks",
)


def build_sanitized(into: Path) -> Path:
    """Copy the packages ``friday_env`` and ``friday_agents`` into ``into`` and build the
    sanitized extensions there (the test hooks included); returns the directory to put first
    on ``PYTHONPATH``."""
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd")
    for name, source in PACKAGES.items():
        shutil.copytree(source, into / name, ignore=ignore)
    env = {**os.environ, "FRIDAY_CORE_SANITIZE": "1", "FRIDAY_CORE_REQUIRED": "1"}
    env["FRIDAY_TEST_HOOKS"] = "1"
    command = [sys.executable, "setup.py", "-q", "build_ext"]
    command += ["--build-lib", str(into), "--build-temp", str(into / "build")]
    subprocess.run(command, cwd=ROOT, env=env, check=True, capture_output=True, text=True)
    return into


def core_test_files() -> list[str]:
    """The compiled core's test files, this one excepted."""
    here = Path(__file__).name
    return sorted(
        str(p) for p in (ROOT / "tests" / "core").glob("test_core_*.py") if p.name != here
    )


def sanitizer_env(package_dir: Path, logs: Path) -> dict[str, str]:
    """The environment of a run against the sanitized build in ``package_dir``. ASan's
    reports go to files ``logs.<pid>``; UBSan's (whose runtime ignores ``log_path`` in this
    combined build) to stderr, which the run leaves uncaptured (an aborted process would
    lose what pytest captured)."""
    env = {**os.environ, **SANITIZER_ENV}
    env["ASAN_OPTIONS"] += f":log_path={logs}"
    env["LD_PRELOAD"] = str(_compiler_runtime("asan"))
    env["PYTHONPATH"] = os.pathsep.join([str(package_dir), str(ROOT)])
    env.pop("FRIDAY_CORE", None)  # the compiled core must be the one under test
    env.setdefault("FRIDAY_TAMPER_STATES", str(SANITIZED_TAMPER_STATES))
    return env


def run_sanitized(package_dir: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    """Run the core's tests against the build in ``package_dir``."""
    config = ["-c", str(ROOT / "pyproject.toml"), "--rootdir", str(ROOT)]
    command = [sys.executable, "-m", "pytest", "-p", "no:xdist", "-q", "-s", *config]
    command += core_test_files()
    # not run from ROOT: `python -m` puts the working directory first on sys.path, and the
    # package there holds the in-place build
    return subprocess.run(
        command, cwd=package_dir, env=env, capture_output=True, text=True, check=False
    )


def sanitizer_reports(logs: Path, output: str) -> list[str]:
    """Every report in the log files and in the output."""
    texts = [p.read_text(errors="replace") for p in sorted(logs.parent.glob(logs.name + ".*"))]
    lines = [line for text in [*texts, output] for line in text.splitlines()]
    return [line for line in lines if any(marker in line for marker in REPORT_MARKERS)]


@pytest.mark.slow
def test_core_tests_pass_under_address_and_undefined_behaviour_sanitizers(tmp_path: Path) -> None:
    if _compiler_runtime("asan") is None or _compiler_runtime("ubsan") is None:
        pytest.skip("needs gcc with libasan and libubsan")
    package_dir = build_sanitized(tmp_path)
    env = sanitizer_env(package_dir, tmp_path / "sanitizer")
    show = (
        "import importlib, sys; print(*(importlib.import_module(m).__file__ for m in sys.argv[1:]))"
    )
    check = [sys.executable, "-c", show, *EXTENSIONS]
    loaded = subprocess.run(
        check, cwd=package_dir, env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    assert len(loaded) == len(EXTENSIONS) and all(
        path.startswith(str(package_dir)) for path in loaded
    ), f"the sanitized builds were not loaded: {loaded}"
    result = run_sanitized(package_dir, env)
    output = result.stdout + result.stderr
    reports = sanitizer_reports(tmp_path / "sanitizer", output)
    assert not reports, "sanitizer reports:\n" + "\n".join(reports[:20]) + "\n" + output[-3000:]
    assert result.returncode == 0, (
        f"the core's tests failed under the sanitizers:\n{output[-6000:]}"
    )
    print(output.strip().splitlines()[-1])  # the pytest summary, kept with -s
