"""The packaging lists every package (a wheel never drops one); the import layering is
tests/docs/test_imports.py's."""

from __future__ import annotations

import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
#: Installed name -> folder (pyproject's package-dir maps friday_agents to agents/).
ROOTS = {"friday_env": REPO / "friday_env", "friday_agents": REPO / "agents" / "friday_agents"}


def _pyproject() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text())


def _packages_on_disk() -> set[str]:
    found = set()
    for name, root in ROOTS.items():
        for init in root.rglob("__init__.py"):
            parts = init.parent.relative_to(root).parts
            found.add(".".join((name, *parts)))
    return found


def test_every_package_folder_is_listed_in_pyproject():
    setuptools = _pyproject()["tool"]["setuptools"]
    assert setuptools["package-dir"] == {"friday_agents": "agents/friday_agents"}
    listed = set(setuptools["packages"])
    assert _packages_on_disk() - listed == set(), "add these to [tool.setuptools] packages"
    assert listed - _packages_on_disk() == set(), "listed packages without an __init__.py"


def test_package_data_names_files_that_exist():
    data = _pyproject()["tool"]["setuptools"]["package-data"]
    for package, patterns in data.items():
        folder = ROOTS[package.split(".")[0]].joinpath(*package.split(".")[1:])
        for pattern in patterns:
            assert list(folder.glob(pattern)), f"{package}: nothing matches {pattern!r}"


def test_ci_builds_the_compiled_core():
    """CI installs with the README's test command on a clean machine: the compiled core must
    have been built there (the extension is optional, so a failed build would otherwise only
    show as a warning, and the suite would silently run on the reference engine alone)."""
    import os

    import pytest

    from friday_env.core import available_cores

    if os.environ.get("CI") != "true":
        pytest.skip("only meaningful under CI=true")
    assert "c" in available_cores(), "the compiled core was not built by the install step"
