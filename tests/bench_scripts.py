"""The benchmark scripts of ``benchmarks/`` and their Markdown provider
``tools/sections/bench.py``, for the tests: neither is an installed package."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from friday_agents.cli.bench import load_script

REPO = Path(__file__).resolve().parents[1]

#: ``benchmarks/bench.py`` (loading it puts ``benchmarks/`` on the path for its modules).
bench = load_script()
assert bench is not None, "benchmarks/bench.py is part of the source checkout"


def _load(name: str, path: Path) -> ModuleType:
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
        sys.modules[name] = module
        spec.loader.exec_module(module)  # type: ignore[union-attr]
    return sys.modules[name]


#: ``benchmarks/bench_cluster.py``: what a Ray cluster buys.
cluster = _load("bench_cluster", REPO / "benchmarks" / "bench_cluster.py")
#: ``benchmarks/agent_speeds.py``: games per CPU second of each agent.
agent_speeds = _load("agent_speeds", REPO / "benchmarks" / "agent_speeds.py")
#: ``tools/sections/bench.py``: the benchmarks' generated sections.
sections = _load("bench_sections", REPO / "tools" / "sections" / "bench.py")
