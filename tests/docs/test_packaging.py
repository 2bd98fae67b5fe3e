"""The packaging lists every package (a wheel never drops one); the import layering is
tests/docs/test_imports.py's."""

from __future__ import annotations

import os
import re
import runpy
import tomllib
from pathlib import Path

import pytest
import setuptools
from setuptools import Distribution

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

    from friday_env.core import available_cores

    if os.environ.get("CI") != "true":
        pytest.skip("only meaningful under CI=true")
    assert "c" in available_cores(), "the compiled core was not built by the install step"
    import importlib.util

    kernels = "friday_agents.players._kernels"
    assert importlib.util.find_spec(kernels), f"{kernels} was not built by the install step"


def _setup() -> Distribution:
    """setup.py's distribution, configured but not run (its globs read the repository).

    setup.py is executed with ``setuptools.setup`` swapped for a recorder, and the recorded
    arguments configure a distribution with pyproject.toml read, as a build would (distutils'
    ``run_setup`` breaks on some setuptools releases)."""
    recorded: dict = {}
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(setuptools, "setup", lambda **attrs: recorded.update(attrs))
            runpy.run_path("setup.py", run_name="__main__")
        dist = Distribution({**recorded, "script_name": "setup.py"})
        dist.parse_config_files()
        return dist
    finally:
        os.chdir(cwd)


def _c_files() -> set[str]:
    return {
        str(p.relative_to(REPO))
        for root in ROOTS.values()
        for p in root.rglob("*")
        if p.suffix in (".c", ".h")
    }


def test_every_c_source_is_built_and_in_the_sdist():
    """Each .c file is compiled into some extension (none forgotten), and MANIFEST.in puts
    every .c and .h into the sdist, which the wheel is built from."""
    compiled = {src for ext in _setup().ext_modules for src in ext.sources}
    c_sources = {name for name in _c_files() if name.endswith(".c")}
    assert c_sources - compiled == set(), "add these to an extension in setup.py"
    manifest = (REPO / "MANIFEST.in").read_text().splitlines()
    folders = [line.split()[1] for line in manifest if line.startswith("recursive-include")]
    for name in _c_files():
        assert any(name.startswith(folder + "/") for folder in folders), (
            f"{name}: not in MANIFEST.in"
        )


def test_a_wheel_build_leaves_out_c_sources_generators_and_test_hooks(monkeypatch):
    """setup.py's build commands, as a wheel build runs them: the compiled core's folder
    holds no Python but its ``__init__`` (the header generators are in tools/), no .c/.h
    among the data files, no test-hook extension unless built in place
    (tests/docs/test_wheel_install.py builds a real wheel and looks inside)."""
    dist = _setup()
    build_py = dist.get_command_obj("build_py")
    build_py.ensure_finalized()
    core = REPO / "friday_env" / "_core"
    modules = {m for _, m, _ in build_py.find_package_modules("friday_env._core", str(core))}
    assert modules == {"__init__"}
    files = [str(core / "game.c"), str(core / "friday.h"), str(core / "notes.txt")]
    assert build_py.exclude_data_files("friday_env._core", str(core), files) == files[2:]
    hooks = {"friday_env._core._test_hooks", "friday_agents.players._kernel_test_hooks"}
    assert hooks <= {ext.name for ext in dist.ext_modules}
    build_ext = dist.get_command_obj("build_ext")
    build_ext.ensure_finalized()
    build_ext.build_extension = lambda ext: None  # look at what would be built, build nothing
    monkeypatch.delenv("FRIDAY_TEST_HOOKS", raising=False)
    build_ext.run()
    assert not hooks & {ext.name for ext in build_ext.extensions}
    assert {"friday_env._core.compiled", "friday_agents.players._kernels"} <= {
        ext.name for ext in build_ext.extensions
    }


def test_the_long_description_is_the_readme_without_relative_links():
    """A package index shows the wheel's long description but hosts none of the repository's
    files: the README's relative links keep their text and lose the link, and its images of
    the repository are left out."""
    metadata = _setup().metadata
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    relative = re.compile(r"\]\((?![a-z][a-z+.-]*:)[^)\s]+\)")
    assert len(relative.findall(readme)) > 20
    assert metadata.long_description_content_type == "text/markdown"
    shown = metadata.long_description
    assert relative.findall(shown) == []
    assert shown.startswith("# friday-env\n") and "## The two commands" in shown
    assert "([`docs/rulings.md`](docs/rulings.md))" in readme
    assert "(`docs/rulings.md`)" in shown  # the text of the link stays
    assert "viewer.png" not in shown
