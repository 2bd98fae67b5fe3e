"""The package layering: no import cycle in friday_env or friday_agents (module by module, and
between friday_agents' packages), and the engine side of friday_env (engine, scenario,
records, open information, text, testing tools) runs with numpy alone, gymnasium, torch and
Pillow blocked.

The agents live in the folder ``agents/`` but are imported as ``friday_agents``: the graph
names them so, as the code does."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: Import name -> folder (pyproject's package-dir maps friday_agents to agents/).
PACKAGES = {"friday_env": ROOT / "friday_env", "friday_agents": ROOT / "agents" / "friday_agents"}


def _modules(packages: dict[str, Path] = PACKAGES) -> dict[str, Path]:
    """Every module of the packages: dotted name -> file."""
    found = {}
    for package, folder in packages.items():
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


def import_graph(packages: dict[str, Path] = PACKAGES) -> dict[str, set[str]]:
    """Module -> the package modules importing it runs (module-level imports)."""
    modules = _modules(packages)
    graph = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        graph[name] = set().union(*(_targets(name, n, modules) for n in _top_level_imports(tree)))
        graph[name].discard(name)
    return graph


def _layer(module: str) -> str:
    """The part of friday_agents a module belongs to: its subpackage
    (``friday_agents.players.search``), or the top-level module itself (``friday_agents.players.registry``)."""
    return ".".join(module.split(".")[:2])


def package_graph(packages: dict[str, Path] = PACKAGES) -> dict[str, set[str]]:
    """friday_agents' packages and top-level modules -> those they import, counting every
    import, also those inside functions (a lazy import still makes one part depend on the
    other)."""
    modules = _modules(packages)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        if not name.startswith("friday_agents."):
            continue
        graph.setdefault(_layer(name), set())
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import | ast.ImportFrom):
                targets = {t for t in _targets(name, node, modules) if t.count(".") >= 1}
                graph[_layer(name)] |= {
                    _layer(t) for t in targets if t.startswith("friday_agents.")
                }
    for layer, targets in graph.items():
        targets.discard(layer)
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


def test_the_graph_sees_the_agents_imports_by_their_installed_name():
    graph = import_graph()
    assert "agents" not in {m.split(".")[0] for m in graph}
    assert "friday_agents.players.search.agent" in graph["friday_agents.players.search.guided"]
    assert "friday_agents.evaluation.runner" in graph["friday_agents.evaluation.evaluate"]
    inside = sum(
        1
        for m, targets in graph.items()
        if m.startswith("friday_agents")
        for t in targets
        if t.startswith("friday_agents")
    )
    assert inside > 100, inside  # the agents' imports of each other are all seen
    layers = package_graph()
    assert "friday_agents.players.search" in layers["friday_agents.evaluation"]
    assert "friday_agents.conventions" in layers["friday_agents.evaluation"]


def test_finding_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_cycle_in_friday_env_or_the_agents():
    assert find_cycle(import_graph()) is None


def test_no_cycle_between_the_agents_packages():
    """cli, evaluation, search, training... depend on each other one way only (lazy imports
    included): cli/view reads games with games_file, not the evaluation's runner; the
    subcommands share conventions outside cli; no study sits inside search."""
    cycle = find_cycle(package_graph())
    assert cycle is None, " -> ".join(cycle or [])


def _agents_copy(tmp_path: Path) -> dict[str, Path]:
    """A copy of agents/'s Python files to inject a cycle into."""
    copy = tmp_path / "agents"
    for path in PACKAGES["friday_agents"].rglob("*.py"):
        target = copy / path.relative_to(PACKAGES["friday_agents"])
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, target)
    return {"friday_env": PACKAGES["friday_env"], "friday_agents": copy}


def test_an_injected_cycle_is_found(tmp_path):
    """The checks fail when a cycle is there: search's value module importing ``friday
    eval``'s module, which imports the search agent (for its default budget), which imports
    the value module: a cycle between the packages and between the modules."""
    packages = _agents_copy(tmp_path)
    assert find_cycle(package_graph(packages)) is None
    value = packages["friday_agents"] / "search" / "value.py"
    back = "from friday_agents.evaluation.evaluate import DEFAULT_SEARCH_SIMS"
    value.write_text(value.read_text() + f"\n{back}\n")
    cycle = find_cycle(package_graph(packages))
    assert cycle is not None
    assert {"friday_agents.players.search", "friday_agents.evaluation"} <= set(cycle)
    module_cycle = find_cycle(import_graph(packages))
    assert (
        module_cycle is not None and "friday_agents.players.networks.linear_value" in module_cycle
    )


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
