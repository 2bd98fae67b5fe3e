"""The packaging lists every package (a wheel never drops one) and agents/ has no import cycle."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
#: Installed name -> folder (pyproject's package-dir maps friday_agents to agents/).
ROOTS = {"friday_env": REPO / "friday_env", "friday_agents": REPO / "agents"}


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
    assert setuptools["package-dir"] == {"friday_agents": "agents"}
    listed = set(setuptools["packages"])
    assert _packages_on_disk() - listed == set(), "add these to [tool.setuptools] packages"
    assert listed - _packages_on_disk() == set(), "listed packages without an __init__.py"


def test_package_data_names_files_that_exist():
    data = _pyproject()["tool"]["setuptools"]["package-data"]
    for package, patterns in data.items():
        folder = ROOTS[package.split(".")[0]].joinpath(*package.split(".")[1:])
        for pattern in patterns:
            assert list(folder.glob(pattern)), f"{package}: nothing matches {pattern!r}"


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOTS["friday_agents"]).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(("friday_agents", *parts))


def _imports(path: Path, modules: set[str]) -> set[str]:
    """The friday_agents modules ``path`` imports anywhere (lazy imports too)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found & modules


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node], _ = 1, path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        state[node], _ = 2, path.pop()
        return None

    for start in sorted(graph):
        if start not in state and (found := visit(start)):
            return found
    return None


def test_agents_modules_import_each_other_without_cycles():
    files = {_module_name(p): p for p in ROOTS["friday_agents"].rglob("*.py")}
    graph = {name: _imports(path, set(files)) - {name} for name, path in files.items()}
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


def test_the_cycle_check_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None
