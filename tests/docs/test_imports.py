"""The package layering, read from the tree: every import of friday_env and friday_agents
resolves; no import circle in friday_env (module level, and with the imports deferred into
functions) nor in friday_agents (module by module, and between its parts, deferred imports
included); the search is imported by no other part; and the engine side of friday_env
(engine, scenario, records, open information, text, testing tools) runs with numpy alone,
gymnasium, torch and Pillow blocked.

The graph is built from the files, not by importing them: friday_env lives in
``friday_env/`` and friday_agents in ``agents/friday_agents/``, so a file's path below its
package folder is its module path (``agents/friday_agents/players/search/agent.py`` is
``friday_agents.players.search.agent``)."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: Import name -> folder (pyproject's package-dir maps friday_agents to agents/friday_agents).
PACKAGES = {"friday_env": ROOT / "friday_env", "friday_agents": ROOT / "agents" / "friday_agents"}
#: Compiled extension modules (no ``.py`` file): the ones setup.py builds.
EXTENSIONS = frozenset(re.findall(r'[Ee]xtension\(\s*"([\w.]+)"', (ROOT / "setup.py").read_text()))


def _modules(packages: dict[str, Path] = PACKAGES) -> dict[str, Path]:
    """Every module of the packages: dotted name -> file (the path below the package folder
    is the module path)."""
    found = {}
    for package, folder in packages.items():
        for path in folder.rglob("*.py"):
            parts = [package, *path.relative_to(folder).with_suffix("").parts]
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _is_type_checking(node: ast.If) -> bool:
    return "TYPE_CHECKING" in ast.unparse(node.test)


def _imports(tree: ast.Module, deferred: bool) -> list[ast.Import | ast.ImportFrom]:
    """The imports of a module: those that run when it is imported (module level, inside
    ``try``/``if`` blocks too), and with ``deferred`` also those inside functions and
    classes; never those under ``if TYPE_CHECKING``."""
    found: list[ast.Import | ast.ImportFrom] = []
    pending: list[ast.AST] = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        elif isinstance(node, ast.If) and _is_type_checking(node):
            continue
        elif isinstance(node, ast.If | ast.Try | ast.With | ast.ExceptHandler) or (
            deferred and isinstance(node, ast.stmt)  # function and class bodies, loops...
        ):
            pending += list(ast.iter_child_nodes(node))
    return found


def _ancestors(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:k]) for k in range(1, len(parts) + 1)]


def _base(module: str, node: ast.ImportFrom, modules: dict[str, Path]) -> str:
    """The absolute module an ``from ... import`` reads from (relative ones resolved)."""
    base = node.module or ""
    if not node.level:
        return base
    is_package = modules[module].name == "__init__.py"
    parent = module.split(".")[: len(module.split(".")) - node.level + is_package]
    return ".".join([*parent, base] if base else parent)


def _targets(module: str, node: ast.Import | ast.ImportFrom, modules: dict) -> set[str]:
    """The package modules an import statement runs: the named module and its parents
    (those not already being imported as parents of ``module``)."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = _base(module, node, modules)
        names = [base] + [f"{base}.{alias.name}" for alias in node.names]
    own = set(_ancestors(module)) - {module}
    return {a for name in names for a in _ancestors(name) if a in modules and a not in own}


def import_graph(
    packages: dict[str, Path] = PACKAGES, deferred: bool = False
) -> dict[str, set[str]]:
    """Module -> the package modules importing it runs (with ``deferred``, also those its
    functions import when they run)."""
    modules = _modules(packages)
    graph = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        graph[name] = set().union(*(_targets(name, n, modules) for n in _imports(tree, deferred)))
        graph[name].discard(name)
    return graph


def _within(graph: dict[str, set[str]], package: str) -> dict[str, set[str]]:
    """The part of ``graph`` inside one package."""
    inside = {m for m in graph if m.split(".")[0] == package}
    return {m: graph[m] & inside for m in inside}


def _layer(module: str) -> str:
    """The part of friday_agents a module belongs to: its subpackage
    (``friday_agents.players``, ``friday_agents.learning``), or the top-level module itself
    (``friday_agents.conventions``)."""
    return ".".join(module.split(".")[:2])


def package_graph(packages: dict[str, Path] = PACKAGES) -> dict[str, set[str]]:
    """friday_agents' parts (subpackages and top-level modules) -> those they import,
    counting every import, also those inside functions (a deferred import still makes one
    part depend on the other)."""
    graph: dict[str, set[str]] = {}
    for module, targets in _within(import_graph(packages, deferred=True), "friday_agents").items():
        if module == "friday_agents":
            continue
        graph.setdefault(_layer(module), set())
        graph[_layer(module)] |= {_layer(t) for t in targets if t != "friday_agents"}
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
        for nxt in sorted(graph.get(node, ())):
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


def _defined_names(tree: ast.Module) -> set[str] | None:
    """The names a module defines or imports at its top level (None: it has a module
    ``__getattr__`` and may give any name)."""
    names: set[str] = set()
    pending: list[ast.AST] = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            if node.name == "__getattr__":
                return None
            names.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
        elif isinstance(node, ast.If | ast.Try | ast.With):
            pending += list(ast.iter_child_nodes(node))
            if isinstance(node, ast.Try):
                pending += [s for h in node.handlers for s in h.body]
    return names


def unresolved_imports(packages: dict[str, Path] = PACKAGES) -> list[str]:
    """Every import (deferred ones included) naming one of the packages that does not
    resolve in the tree: a module that is no file, or a name its module neither defines
    nor imports. As ``module:line: import``."""
    modules = _modules(packages)
    trees = {name: ast.parse(path.read_text(encoding="utf-8")) for name, path in modules.items()}
    missing = []
    for name, tree in trees.items():
        for node in _imports(tree, deferred=True):
            for wanted in _unresolved(name, node, modules, trees):
                missing.append(f"{name}:{node.lineno}: {wanted}")
    return missing


def _unresolved(name: str, node, modules: dict, trees: dict) -> list[str]:
    ours = tuple(PACKAGES)
    if isinstance(node, ast.Import):
        wanted = [a.name for a in node.names if a.name.split(".")[0] in ours]
        return [w for w in wanted if w not in modules and w not in EXTENSIONS]
    base = _base(name, node, modules)
    if base.split(".")[0] not in ours or base in EXTENSIONS:
        return []
    if base not in modules:
        return [base]
    defined = _defined_names(trees[base])
    return [
        f"{base}.{a.name}"
        for a in node.names
        if a.name != "*"
        and f"{base}.{a.name}" not in modules.keys() | EXTENSIONS
        and defined is not None
        and a.name not in defined
    ]


# ------------------------------------------------------------------ the reader


def test_the_reader_resolves_every_import_of_both_packages():
    # the compiled core and the agents' kernels (and their test hooks), built by setup.py
    assert {"friday_env._core.compiled", "friday_agents.players._kernels"} <= EXTENSIONS
    assert unresolved_imports() == []


def test_the_reader_finds_an_import_that_does_not_resolve(tmp_path):
    packages = _agents_copy(tmp_path)
    agent = packages["friday_agents"] / "players" / "net" / "agent.py"
    stale = "from friday_agents.players.search.policy_net import PolicyPrior"
    agent.write_text(agent.read_text() + f"\n\ndef f():\n    {stale}\n")
    name = "from friday_agents.players.networks.policy_net import NoSuchName"
    agent.write_text(agent.read_text() + f"\n{name}\n")
    missing = unresolved_imports(packages)
    assert any(m.endswith(": friday_agents.players.search.policy_net") for m in missing)
    assert any(
        m.endswith(": friday_agents.players.networks.policy_net.NoSuchName") for m in missing
    )
    assert len(missing) == 2


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
    inside = sum(len(targets) for targets in _within(graph, "friday_agents").values())
    assert inside > 100, inside  # the agents' imports of each other are all seen
    layers = package_graph()
    assert "friday_agents.players" in layers["friday_agents.evaluation"]
    assert "friday_agents.conventions" in layers["friday_agents.evaluation"]
    assert "friday_agents.players" in layers["friday_agents.learning"]


def test_deferred_imports_are_seen_only_when_asked_for():
    """``friday eval`` imports its report inside a function: a deferred edge."""
    evaluate = "friday_agents.evaluation.evaluate"
    assert "friday_agents.evaluation.report" not in import_graph()[evaluate]
    assert "friday_agents.evaluation.report" in import_graph(deferred=True)[evaluate]


def test_finding_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


# ------------------------------------------------------------------ no circles


def test_no_module_level_import_circle_in_friday_env():
    assert find_cycle(_within(import_graph(), "friday_env")) is None


def test_no_import_circle_in_friday_env_deferred_imports_included():
    cycle = find_cycle(_within(import_graph(deferred=True), "friday_env"))
    assert cycle is None, " -> ".join(cycle or [])


def test_no_module_level_import_circle_in_friday_agents():
    cycle = find_cycle(_within(import_graph(), "friday_agents"))
    assert cycle is None, " -> ".join(cycle or [])


def test_no_cycle_between_the_agents_parts():
    """players, learning, evaluation, cli and the floor (conventions, seeds, games
    files...) depend on each other one way only, deferred imports included: cli/view reads
    games with games_file, not the evaluation's runner; the subcommands share conventions
    outside cli; evaluation takes the search budget from the floor, not the search."""
    cycle = find_cycle(package_graph())
    assert cycle is None, " -> ".join(cycle or [])


def test_the_floor_imports_no_part_of_the_agents():
    """The shared floor (the top-level modules) imports only friday_env and other floor
    modules (and models, the files by role)."""
    layers = package_graph()
    floor = {
        layer
        for layer in layers
        if (PACKAGES["friday_agents"] / f"{layer.split('.')[1]}.py").is_file()
    }
    assert {"friday_agents.conventions", "friday_agents.seeds", "friday_agents.games_file"} <= floor
    for layer in floor:
        assert layers[layer] <= floor | {"friday_agents.models"}, layer


#: friday_agents' parts from the bottom up (the package docstring's order): each imports
#: only parts before it.
PARTS_BOTTOM_UP = (
    "conventions",
    "seeds",
    "games_file",
    "run_lock",
    "parent_watch",
    "models",
    "players",
    "evaluation",
    "learning",
    "cli",
)


def test_each_agents_part_imports_only_the_parts_below_it():
    layers = package_graph()
    order = [f"friday_agents.{part}" for part in PARTS_BOTTOM_UP]
    assert set(order) == set(layers)  # every part has its place
    for k, part in enumerate(order):
        assert layers[part] <= set(order[:k]), part


def test_no_part_outside_the_search_imports_it():
    """The search is a player like the others: the registry names it by a string, and
    the models it evaluates are in players.networks, so nothing else imports it."""
    graph = import_graph(deferred=True)
    search = "friday_agents.players.search"
    importers = {
        module
        for module, targets in graph.items()
        if not module.startswith(search) and any(t.startswith(search) for t in targets)
    }
    assert importers == set()


def _agents_copy(tmp_path: Path) -> dict[str, Path]:
    """A copy of friday_agents' Python files to inject a fault into."""
    copy = tmp_path / "friday_agents"
    for path in PACKAGES["friday_agents"].rglob("*.py"):
        target = copy / path.relative_to(PACKAGES["friday_agents"])
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, target)
    return {"friday_env": PACKAGES["friday_env"], "friday_agents": copy}


def test_an_injected_cycle_is_found(tmp_path):
    """The checks fail when a cycle is there: the registry importing ``friday eval``'s
    runner, which imports the registry: a cycle between the modules and between players
    and evaluation."""
    packages = _agents_copy(tmp_path)
    assert find_cycle(package_graph(packages)) is None
    registry = packages["friday_agents"] / "players" / "registry.py"
    back = "from friday_agents.evaluation.runner import EvalConfig"
    registry.write_text(registry.read_text() + f"\n{back}\n")
    cycle = find_cycle(package_graph(packages))
    assert cycle is not None
    assert {"friday_agents.players", "friday_agents.evaluation"} <= set(cycle)
    module_cycle = find_cycle(_within(import_graph(packages), "friday_agents"))
    assert module_cycle is not None and "friday_agents.players.registry" in module_cycle


def test_an_injected_deferred_cycle_is_found_only_with_deferred_imports(tmp_path):
    """A circle closed by an import inside a function: invisible module by module, found
    once deferred imports count (what the friday_env check with deferred imports reads)."""
    package = tmp_path / "friday_env"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "core.py").write_text("from friday_env import engine\n")
    (package / "engine.py").write_text("def game():\n    from friday_env import core\n")
    packages = {"friday_env": package}
    assert find_cycle(_within(import_graph(packages), "friday_env")) is None
    cycle = find_cycle(_within(import_graph(packages, deferred=True), "friday_env"))
    assert cycle is not None and {"friday_env.core", "friday_env.engine"} <= set(cycle)


def test_an_injected_search_import_is_found(tmp_path):
    packages = _agents_copy(tmp_path)
    evaluate = packages["friday_agents"] / "evaluation" / "evaluate.py"
    back = "def sims():\n    from friday_agents.players.search.agent import DEFAULT_SIMS\n"
    evaluate.write_text(evaluate.read_text() + f"\n\n{back}")
    graph = import_graph(packages, deferred=True)
    assert "friday_agents.players.search.agent" in graph["friday_agents.evaluation.evaluate"]


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
