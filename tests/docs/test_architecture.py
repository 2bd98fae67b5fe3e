"""docs/architecture.md matches the tree: it names every package folder of ``friday_env``
and ``friday_agents``, and every path it names exists."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PAGE = REPO / "docs" / "architecture.md"
#: The installed packages whose every package folder the page must name.
PACKAGES = ("friday_env", "agents/friday_agents")
#: A code span that is a path in the repository: it starts at a top-level entry.
PATH = re.compile(r"`([\w.-]+/[\w./-]*)`")


def package_folders(repo: Path = REPO) -> list[str]:
    """Every folder with an ``__init__.py`` under the packages, as ``path/``."""
    return sorted(
        f"{init.parent.relative_to(repo).as_posix()}/"
        for package in PACKAGES
        for init in (repo / package).rglob("__init__.py")
    )


def unnamed_packages(page: str, repo: Path = REPO) -> list[str]:
    named = set(PATH.findall(page))
    return [folder for folder in package_folders(repo) if folder not in named]


def missing_paths(page: str, repo: Path = REPO) -> list[str]:
    """The paths the page names whose first part is in the repository but which do not exist
    (a path like ``runs/ppo`` that names no top-level entry is an example, not a claim)."""
    top = {entry.name for entry in repo.iterdir()}
    return [
        path
        for path in PATH.findall(page)
        if path.split("/", 1)[0] in top and not (repo / path).exists()
    ]


def test_the_page_names_every_package_folder():
    assert package_folders(), "no package folder found"
    assert unnamed_packages(PAGE.read_text(encoding="utf-8")) == []


def test_every_path_on_the_page_exists():
    page = PAGE.read_text(encoding="utf-8")
    assert PATH.findall(page), "the page names no path"
    assert missing_paths(page) == []


def test_the_checks_find_a_missing_package_and_a_stale_path():
    page = PAGE.read_text(encoding="utf-8")
    without = page.replace("`friday_env/engine/`", "the engine")
    assert unnamed_packages(without) == ["friday_env/engine/"]
    stale = page + "\n`friday_env/no_such_module.py`, `agents/friday_agents/training/`\n"
    assert missing_paths(stale) == [
        "friday_env/no_such_module.py",
        "agents/friday_agents/training/",
    ]


def test_the_agents_package_docstring_names_each_of_its_subpackages():
    import friday_agents

    root = Path(friday_agents.__file__).parent
    subpackages = sorted(p.parent.name for p in root.glob("*/__init__.py"))
    assert subpackages
    doc = friday_agents.__doc__ or ""
    assert [name for name in subpackages if f"``{name}/``" not in doc] == []
