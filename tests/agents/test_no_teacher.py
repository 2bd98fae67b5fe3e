"""The no-teacher agents (every registry name starting with ``scratch``) use no teacher: no model
made with the heuristic, a search that rolls it out, search labels or demonstrations, and no
code of the heuristic (issue 42's acceptance line).

Each agent is built and plays one game per level in a fresh interpreter that records every file
it opens (an audit hook) and the modules it imports. Every model file it opened must be a role of
the models folder whose manifest entry says ``"teacher": false``, as must every model its
resolved spec names; it must not import the heuristic, nor, unless it is a search, the search.
The same probe, with the role ``scratch`` pointed at a teacher-made file or with the heuristic
imported, is refused: the check can fail.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from friday_agents.models import MANIFEST, MODELS_DIR, ROLES
from friday_agents.players.registry import AGENTS
from friday_agents.players.resolved import resolve_spec, role_of

NO_TEACHER = sorted(name for name in AGENTS if name.startswith("scratch"))
#: What a model file ends with, wherever it lies (a file of the models folder is one anyway).
MODEL_SUFFIXES = (".npz", ".zip", ".pt", ".pth", ".json", ".safetensors")
#: The hand-written heuristic, in Python and its compiled door.
HEURISTIC = "friday_agents.players.heuristic"
#: The search package (its agent imports the heuristic for its rollouts).
SEARCH = "friday_agents.players.search"

#: Builds the agent named by argv[1] and plays one game per level, then prints the files it
#: opened and the modules loaded. argv[2] (optional) points the role ``scratch`` at another
#: role's file, as a monkeypatch would; argv[3] (optional) is a module to import besides.
PROBE = """
import importlib, json, os, sys
opened = []
def record(event, args):
    if event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
        opened.append(os.path.abspath(os.fsdecode(args[0])))
sys.addaudithook(record)
name, point_at, extra = (sys.argv[1:] + ["", ""])[:3]
from friday_agents import models
from friday_agents.players import registry
from friday_agents.players.base import play_game
if point_at:
    module, _, attribute = registry.AGENTS[name].partition(":")
    cls = getattr(importlib.import_module(module), attribute)
    old, new = models.ROLES["scratch"], models.ROLES[point_at]
    models.ROLES["scratch"] = new
    for holder in (cls, *type.mro(cls)):
        for key, value in list(vars(holder).items()):
            if value == old:
                setattr(holder, key, new)
if extra:
    importlib.import_module(extra)
agent = registry.make_agent(name)
for level in (1, 2, 3, 4):
    play_game(agent, level, seed=level)
print(json.dumps({"opened": opened, "modules": sorted(sys.modules)}))
"""


def probe(name: str, point_at: str = "", extra: str = "") -> dict:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, name, point_at, extra],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def teacher_flags() -> dict[str, bool]:
    """Role -> whether the manifest says a teacher made its model."""
    manifest = json.loads(MANIFEST.read_text())["models"]
    return {entry["role"]: entry["teacher"] for entry in manifest.values()}


def model_problems(opened: list[str]) -> list[str]:
    """What is wrong with the model files among ``opened``: a file of no role (a model the
    manifest does not vouch for) or a role a teacher made."""
    flags = teacher_flags()
    problems = []
    for text in sorted(set(opened)):
        path = Path(text)
        if path.suffix not in MODEL_SUFFIXES or path.name == MANIFEST.name:
            continue
        in_models = path.parent == MODELS_DIR.resolve()
        if not in_models and (path.suffix == ".json" or not path.is_file()):
            continue  # the package's settings and data files, not models
        role = role_of(path)
        if role is None:
            problems.append(f"{path.name}: a model file of no role in the manifest")
        elif flags[role]:
            problems.append(f"{path.name}: role {role!r} was made with a teacher")
    return problems


def module_problems(name: str, modules: list[str]) -> list[str]:
    forbidden = [HEURISTIC] + ([] if name.endswith("-search") else [SEARCH])
    return [
        module
        for module in modules
        if any(module == prefix or module.startswith(prefix + ".") for prefix in forbidden)
    ]


def test_there_is_a_no_teacher_agent():
    assert "scratch" in NO_TEACHER


@pytest.mark.parametrize("name", NO_TEACHER)
def test_the_resolved_spec_names_only_models_made_without_a_teacher(name):
    flags = teacher_flags()
    models = resolve_spec(name)["models"]
    assert models, f"{name} names no model"
    for model in models:
        assert model["role"] is not None, model
        assert flags[model["role"]] is False, model


@pytest.mark.parametrize("name", NO_TEACHER)
def test_a_no_teacher_agent_loads_no_teacher_model_and_imports_no_heuristic(name):
    seen = probe(name)
    assert model_problems(seen["opened"]) == []
    assert any(Path(p).parent == MODELS_DIR.resolve() for p in seen["opened"]), "opened no model"
    assert module_problems(name, seen["modules"]) == []


@pytest.mark.parametrize("teacher_made", ["net", "guided-prior"])
def test_scratch_pointed_at_a_teacher_made_model_is_caught(teacher_made):
    """The role ``scratch`` monkeypatched to a network a teacher made: the agent plays it
    (the same format), and the check names it."""
    assert ROLES[teacher_made].suffix == ".npz"
    seen = probe("scratch", point_at=teacher_made)
    file = ROLES[teacher_made].name
    assert model_problems(seen["opened"]) == [
        f"{file}: role {teacher_made!r} was made with a teacher"
    ]


def test_an_agent_that_imported_the_heuristic_is_caught():
    seen = probe("scratch", extra=f"{HEURISTIC}.agent")
    assert f"{HEURISTIC}.agent" in module_problems("scratch", seen["modules"])
    assert SEARCH not in module_problems("scratch-search", [SEARCH])
    assert module_problems("scratch", [SEARCH, "friday_agents.players.searching"]) == [SEARCH]
