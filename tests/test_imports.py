"""The package layering: no import cycle in friday_env or the agents, and the engine side of
friday_env (engine, scenario, records, open information, text, testing tools) runs with
numpy alone, gymnasium, torch and Pillow blocked."""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = {"friday_env": ROOT / "friday_env", "agents": ROOT / "agents"}


def _modules() -> dict[str, Path]:
    """Every module of the packages: dotted name -> file."""
    found = {}
    for package, folder in PACKAGES.items():
        for path in folder.rglob("*.py"):
            parts = [package, *path.relative_to(folder).with_suffix("").parts]
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _top_level_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Imports that run when the module is imported: module level, inside ``try``/``if``
    blocks too, but not under ``if TYPE_CHECKING`` nor inside functions."""
    found: list[ast.Import | ast.ImportFrom] = []
    pending: list[ast.stmt] = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        elif isinstance(node, ast.If):
            if "TYPE_CHECKING" not in ast.unparse(node.test):
                pending += node.body + node.orelse
        elif isinstance(node, ast.Try):
            pending += node.body + node.orelse + node.finalbody
            for handler in node.handlers:
                pending += handler.body
    return found


def _ancestors(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:k]) for k in range(1, len(parts) + 1)]


def _targets(module: str, node: ast.Import | ast.ImportFrom, modules: dict) -> set[str]:
    """The package modules an import statement runs: the named module and its parents
    (those not already being imported as parents of ``module``)."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            is_package = modules[module].name == "__init__.py"
            parent = module.split(".")[: len(module.split(".")) - node.level + is_package]
            base = ".".join([*parent, base] if base else parent)
        names = [base] + [f"{base}.{alias.name}" for alias in node.names]
    own = set(_ancestors(module)) - {module}
    return {a for name in names for a in _ancestors(name) if a in modules and a not in own}


def import_graph() -> dict[str, set[str]]:
    modules = _modules()
    graph = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        graph[name] = set().union(*(_targets(name, n, modules) for n in _top_level_imports(tree)))
        graph[name].discard(name)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a list of modules (first repeated at the end), or None."""
    state: dict[str, int] = {}  # 1 = on the current path, 2 = done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_the_graph_sees_the_package_layers():
    graph = import_graph()
    assert "friday_env.engine.state" in graph["friday_env.engine.game"]
    assert "friday_env.engine" in graph["friday_env.information"]
    assert not any(m.startswith("friday_env.engine") for m in graph["friday_env.actions.names"])
    assert "friday_env.actions.codec" in graph["friday_env.actions.phases"]


def test_finding_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_cycle_in_friday_env_or_the_agents():
    assert find_cycle(import_graph()) is None


def test_the_engine_imports_no_env_and_no_presentation():
    graph = import_graph()
    engine = {m for m in graph if m.startswith("friday_env.engine")}
    reach = set(engine)
    pending = list(engine)
    while pending:
        for nxt in graph[pending.pop()] - reach:
            reach.add(nxt)
            pending.append(nxt)
    forbidden = ("friday_env.env", "friday_env.observation", "friday_env.render", "friday_env.text")
    assert not {m for m in reach if m.startswith(forbidden)}


BLOCKED = textwrap.dedent(
    """
    import importlib.abc, random, sys

    class Block(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in {"gymnasium", "torch", "PIL", "stable_baselines3"}:
                raise ImportError(f"{name} is blocked in this test")
            return None

    sys.meta_path.insert(0, Block())
    """
)

ENGINE_ONLY = textwrap.dedent(
    """
    import friday_env.engine
    from friday_env import Game, GameRecord, determinized, public_view, replay, scenario
    from friday_env.testing.games import play_checked
    from friday_env.testing.policies import random_policy
    from friday_env.text import render_text

    game = Game.new(2, 7)
    stats = play_checked(game, random_policy(random.Random(7)))
    assert game.done and stats.actions > 0
    assert replay(GameRecord.of(game)).score() == game.score()
    public_view(determinized(scenario(1, robinson_stack=["genius"]), 3))
    render_text(game)
    assert not any(m.split(".")[0] in {"gymnasium", "torch", "PIL"} for m in sys.modules)
    try:
        friday_env.FridayEnv
    except ImportError as err:
        assert "blocked" in str(err)
    else:
        raise AssertionError("the env loaded without gymnasium")
    print("ok", stats.actions)
    """
)


def test_the_engine_plays_with_numpy_alone():
    result = subprocess.run(
        [sys.executable, "-c", BLOCKED + ENGINE_ONLY],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("ok ")
