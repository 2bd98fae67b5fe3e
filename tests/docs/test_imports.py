"""The package layering. The import rules are import-linter contracts (pyproject.toml's
``[tool.importlinter]``, run here and by ``lint-imports``): no circle between sibling modules or
packages, friday_env in layers from the cards up and without the agents, only
``friday_env.core`` importing the compiled extension, friday_agents by role, the search
imported by no other part, argparse in friday_agents' command line alone (every other part
takes typed settings). Deferred imports (inside functions) count; each contract is shown
to fail on a planted fault. Beside them, what the contracts cannot say: no circle module by
module (a package's ``__init__`` and its own modules included), no module reading another's
private names, every import resolving, and the engine side of friday_env (engine, scenario,
records, open information, text, testing tools) running with numpy alone, gymnasium, torch and
Pillow blocked.

A file's path below its package folder is its module path
(``agents/friday_agents/players/search/agent.py`` is ``friday_agents.players.search.agent``)."""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import grimp
import pytest

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


def _base(module: str, node: ast.ImportFrom, modules: dict[str, Path]) -> str:
    """The absolute module an ``from ... import`` reads from (relative ones resolved)."""
    base = node.module or ""
    if not node.level:
        return base
    is_package = modules[module].name == "__init__.py"
    parent = module.split(".")[: len(module.split(".")) - node.level + is_package]
    return ".".join([*parent, base] if base else parent)


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
    packages = _copy(tmp_path)
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


# ------------------------------------------------------------------ the import rules
# The rules themselves are import-linter contracts in pyproject.toml ([tool.importlinter]):
# no circle between sibling modules or packages, friday_env in layers from the cards up and
# without the agents, one door to the compiled extension, friday_agents by role. grimp, which
# builds their graph, reads the imports inside functions too.


def _copy(tmp_path: Path) -> dict[str, Path]:
    """A copy of both packages' Python files and of pyproject.toml, to plant a fault in."""
    copies = {}
    for package, folder in PACKAGES.items():
        for path in folder.rglob("*.py"):
            target = tmp_path / package / path.relative_to(folder)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(path, target)
        copies[package] = tmp_path / package
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return copies


def _plant(path: Path, line: str) -> None:
    """Add a deferred import to ``path``: one inside a function, which runs only if called."""
    path.write_text(path.read_text() + f"\n\ndef _planted():\n    {line}\n")


def lint_imports(root: Path = ROOT, packages: Path | None = None) -> subprocess.CompletedProcess:
    """``lint-imports`` with ``root``'s pyproject.toml, on the packages found in ``packages``
    (default: as installed)."""
    environ = dict(os.environ)
    if packages is not None:
        environ["PYTHONPATH"] = os.pathsep.join([str(packages), environ.get("PYTHONPATH", "")])
    command = "from importlinter.cli import lint_imports_command; lint_imports_command()"
    return subprocess.run(
        [sys.executable, "-c", command, "--config", str(root / "pyproject.toml"), "--no-cache"],
        capture_output=True,
        text=True,
        cwd=root,
        env=environ,
        timeout=120,
    )


def _graph():
    """grimp's import graph of both packages as Python finds them, deferred imports
    included, ``if TYPE_CHECKING`` ones not."""
    return grimp.build_graph(*PACKAGES, exclude_type_checking_imports=True, cache_dir=None)


def circles_in_copy(packages: Path) -> list[list[str]]:
    """`circles` of the packages in ``packages``, read by a fresh Python (this one has the
    real packages imported, and grimp would find those)."""
    environ = dict(os.environ)
    path = [str(packages), str(Path(__file__).parent), environ.get("PYTHONPATH", "")]
    environ["PYTHONPATH"] = os.pathsep.join(path)
    script = "import json, test_imports as t; print(json.dumps(t.circles(t._graph())))"
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=environ, timeout=120
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout)


def circles(graph) -> list[list[str]]:
    """Every import that closes a circle, as the circle: module by module, a package's
    ``__init__`` and its own modules included (which sibling contracts do not compare)."""
    found = []
    for importer in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            back = graph.find_shortest_chain(importer=imported, imported=importer)
            if back:
                found.append([importer, *back])
    return found


def test_the_import_contracts_hold():
    result = lint_imports()
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "Contracts: 7 kept, 0 broken." in result.stdout


def test_the_graph_sees_deferred_imports():
    """The evaluation's run imports its report inside functions: grimp counts them."""
    graph = _graph()
    details = graph.get_import_details(
        importer="friday_agents.evaluation.workflow", imported="friday_agents.evaluation.report"
    )
    source = (PACKAGES["friday_agents"] / "evaluation" / "workflow.py").read_text()
    first_function = source[: source.index("\ndef ")].count("\n") + 2
    assert details and all(d["line_number"] > first_function for d in details)
    assert graph.find_modules_that_directly_import("friday_env._core") == {"friday_env.core"}


def test_no_import_circle_module_by_module():
    assert circles(_graph()) == []


def test_a_planted_circle_breaks_the_contracts(tmp_path):
    """A circle closed by a deferred import, between two modules of the harness."""
    packages = _copy(tmp_path)
    _plant(
        packages["friday_agents"] / "harness" / "stats.py",
        "from friday_agents.harness import deals",
    )
    _plant(
        packages["friday_agents"] / "harness" / "deals.py",
        "from friday_agents.harness import stats",
    )
    result = lint_imports(tmp_path, tmp_path)
    assert result.returncode == 1, result.stdout[-3000:] + result.stderr[-3000:]
    assert "no circle between siblings BROKEN" in (result.stdout)
    assert any(
        {"friday_agents.harness.deals", "friday_agents.harness.stats"} <= set(c)
        for c in circles_in_copy(tmp_path)
    )


def test_a_circle_through_a_package_init_is_found(tmp_path):
    """A module importing its own package's ``__init__``, which imports it: no sibling
    contract compares the two; the module-by-module check does."""
    packages = _copy(tmp_path)
    _plant(
        packages["friday_agents"] / "players" / "search" / "agent.py",
        "import friday_agents.players.search",
    )
    found = circles_in_copy(tmp_path)
    assert [
        "friday_agents.players.search",
        "friday_agents.players.search.agent",
        "friday_agents.players.search",
    ] in found


@pytest.mark.parametrize(
    ("file", "line", "contract"),
    [
        (
            "friday_agents/harness/stats.py",
            "from friday_agents.evaluation import runner",
            "friday_agents layers",
        ),
        (
            "friday_agents/players/base.py",
            "from friday_agents.learning import networks",
            "friday_agents layers",
        ),
        ("friday_env/engine/game.py", "from friday_env import env", "friday_env layers"),
        (
            "friday_env/cards.py",
            "import friday_agents.harness.deals",
            "friday_env without the agents",
        ),
        (
            "friday_env/observation/flat.py",
            "from friday_env._core import compiled",
            "one door to the compiled core",
        ),
        (
            "friday_agents/harness/files.py",
            "from friday_agents.players.search import agent",
            "the search imported by no other part",
        ),
        (
            "friday_agents/evaluation/workflow.py",
            "import argparse",
            "argparse only in the command line",
        ),
    ],
    ids=["harness-up", "players-up", "engine-up", "env-to-agents", "side-door", "search", "parser"],
)
def test_a_planted_upward_import_breaks_the_contracts(tmp_path, file, line, contract):
    _copy(tmp_path)
    _plant(tmp_path / file, line)
    result = lint_imports(tmp_path, tmp_path)
    assert result.returncode == 1, result.stdout[-3000:] + result.stderr[-3000:]
    assert f"{contract} BROKEN" in result.stdout, result.stdout[-3000:]


# ------------------------------------------------------------------ private names


def private_reads(packages: dict[str, Path] = PACKAGES) -> list[str]:
    """Every place a module takes another module's private name (``_name``), by
    ``from m import _name`` or ``m._name``; the compiled extensions' own modules (``_core``,
    ``_kernels``...) are private modules of their package, imported through its door."""
    modules = _modules(packages)
    found = []
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        aliases = {}
        for node in _imports(tree, deferred=True):
            if (
                isinstance(node, ast.ImportFrom)
                and _base(name, node, modules).split(".")[0] in PACKAGES
            ):
                for alias in node.names:
                    full = f"{_base(name, node, modules)}.{alias.name}"
                    if _private(alias.name) and full not in modules and full not in EXTENSIONS:
                        found.append(f"{name}:{node.lineno}: {full}")
                    aliases[alias.asname or alias.name] = full
            elif isinstance(node, ast.Import):
                aliases |= {(a.asname or a.name): a.name for a in node.names}
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and _private(node.attr)
                and isinstance(node.value, ast.Name)
                and aliases.get(node.value.id, "").split(".")[0] in PACKAGES
                and aliases[node.value.id] not in EXTENSIONS
            ):
                found.append(f"{name}:{node.lineno}: {aliases[node.value.id]}.{node.attr}")
    return found


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def test_no_module_reads_another_modules_private_names():
    assert private_reads() == []


def test_a_planted_private_read_is_found(tmp_path):
    packages = _copy(tmp_path)
    compiled = packages["friday_agents"] / "players" / "search" / "compiled.py"
    _plant(compiled, "from friday_agents.players.networks.linear_value import _summary")
    compiled.write_text(compiled.read_text() + "\nSTEPS = value_module._SECRET\n")
    found = private_reads(packages)
    assert len(found) == 2, found
    assert any(f.endswith("linear_value._summary") for f in found)
    assert any(f.endswith("linear_value._SECRET") for f in found)


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
