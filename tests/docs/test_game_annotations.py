"""One name for a game: ``Game`` in an annotation is ``friday_env.Game``, the type of a game of
either core (inside friday_env imported from ``friday_env.core``). The reference engine's own
class, ``friday_env.engine.Game``, is never imported under the name ``Game`` outside the
engine, and annotates only where a module builds a reference game on purpose (the door
itself, and ``scenario``, which lays a game out on the reference engine before copying it)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: Where the reference engine's class is defined and its own code takes it.
ENGINE = ROOT / "friday_env" / "engine"
FOLDERS = ("friday_env", "agents", "tools", "benchmarks", "examples", "tests")
#: The modules that annotate with the reference engine's class on purpose.
REFERENCE_ALLOWED = {"friday_env/core.py", "friday_env/scenario.py"}
REFERENCE_MODULES = {"friday_env.engine", "friday_env.engine.game"}


def _reference_names(tree: ast.Module) -> tuple[set[str], set[str]]:
    """The names a module binds to the reference class, and to the engine package."""
    classes, packages = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in REFERENCE_MODULES:
            classes |= {a.asname or a.name for a in node.names if a.name == "Game"}
        elif isinstance(node, ast.ImportFrom) and node.module == "friday_env":
            packages |= {a.asname or a.name for a in node.names if a.name == "engine"}
        elif isinstance(node, ast.Import):
            packages |= {a.asname for a in node.names if a.name == "friday_env.engine" and a.asname}
    return classes, packages


def _annotations(tree: ast.Module) -> Iterator[ast.expr]:
    for node in ast.walk(tree):
        if isinstance(node, ast.arg | ast.AnnAssign) and node.annotation is not None:
            yield node.annotation
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.returns:
            yield node.returns


def _names_reference(annotation: ast.expr, classes: set[str], packages: set[str]) -> bool:
    for node in ast.walk(annotation):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):  # "Game | None"
            try:
                quoted = ast.parse(node.value, mode="eval").body
            except SyntaxError:
                continue
            if _names_reference(quoted, classes, packages):
                return True
        full = ast.unparse(node)
        if full in classes or (full.endswith(".Game") and full[: -len(".Game")] in packages):
            return True
        if full in ("friday_env.engine.Game", "friday_env.engine.game.Game"):
            return True
    return False


def findings(source: str, where: str) -> list[str]:
    """What in ``source`` breaks the one name for a game."""
    tree = ast.parse(source)
    classes, packages = _reference_names(tree)
    found = []
    if "Game" in classes:
        found.append(f"{where}: imports the reference engine's class as Game")
    if where not in REFERENCE_ALLOWED:
        found += [
            f"{where}:{a.lineno}: annotates with the reference engine's class"
            for a in _annotations(tree)
            if _names_reference(a, classes, packages)
        ]
    return found


def _sources() -> Iterator[Path]:
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if ENGINE not in path.parents and "build" not in path.relative_to(ROOT).parts:
                yield path


def test_every_module_annotates_a_game_as_friday_env_game():
    problems = [
        problem
        for path in _sources()
        for problem in findings(path.read_text(), path.relative_to(ROOT).as_posix())
    ]
    assert problems == []


def test_the_check_finds_a_planted_reference_annotation():
    planted = {
        "from friday_env.engine import Game\n": "imports the reference engine's class as Game",
        "from friday_env.engine import Game as G\ndef f(g: G) -> None: ...\n": ":2: annotates",
        "from friday_env import engine\nx: 'engine.Game | None' = None\n": ":2: annotates",
        "import friday_env.engine\ndef f() -> friday_env.engine.Game: ...\n": ":2: annotates",
    }
    for source, problem in planted.items():
        assert any(problem in found for found in findings(source, "planted.py")), source
    assert findings("from friday_env import Game\ndef f(g: Game) -> Game: ...\n", "ok.py") == []
    allowed = "from friday_env.engine import Game as R\ndef f(g: R) -> None: ...\n"
    assert findings(allowed, "friday_env/scenario.py") == []
