"""Where the C lives: the env's extension holds the game, the agents' kernels sit beside their
Python twins and reach compiled games through the env's public API (Python: friday_env.core;
C: the capsule of friday_capi.h), never through the env's private extension module."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
AGENTS = REPO / "agents" / "friday_agents"


def _imported_modules(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names |= {f"{node.module}.{alias.name}" for alias in node.names}
    return names


def test_no_agent_module_imports_the_envs_private_extension():
    offenders = {
        str(path.relative_to(REPO)): sorted(n for n in _imported_modules(path) if "._core" in n)
        for path in AGENTS.rglob("*.py")
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_the_kernels_reach_games_through_the_c_api_capsule():
    kernels = pytest.importorskip("friday_agents.players._kernels", reason="not built")
    compiled = pytest.importorskip("friday_env._core.compiled", reason="not built")
    assert type(compiled._C_API).__name__ == "PyCapsule"
    from friday_env.core import CompiledGame

    game = CompiledGame.new(1, 3)
    assert kernels.is_core_game(game) and not kernels.is_core_game(game.to_python())
    names = set(dir(kernels))
    assert {"heuristic_action", "search_rollouts", "random_play"} <= names
    assert not {n for n in names if n.startswith("_") and not n.startswith("__")}  # no hooks
    assert not {"heuristic_action", "search_rollouts", "random_play"} & set(dir(compiled))
