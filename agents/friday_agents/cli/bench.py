"""``friday bench``: a thin entry point to the source checkout's ``benchmarks/bench.py``.

The benchmark measures the engine and the env, beside its committed results in
``benchmarks/``; it is not part of the installed package. ``friday bench`` runs that script
(``python benchmarks/bench.py`` is the same) where a source checkout holds it, and says so
in one line where it does not.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from friday_agents.harness.errors import BadInputError

#: The script, in a source checkout (an editable install's package sits inside one).
SCRIPT = Path(__file__).resolve().parents[3] / "benchmarks" / "bench.py"
MISSING = (
    f"friday bench runs the source checkout's benchmarks/bench.py, which is not here "
    f"({SCRIPT}); clone the repository and run it from there"
)


def load_script() -> ModuleType | None:
    """``benchmarks/bench.py`` as a module (its folder on the path, for its own modules),
    or None outside a source checkout."""
    if not SCRIPT.is_file():
        return None
    if "friday_bench_script" in sys.modules:
        return sys.modules["friday_bench_script"]
    folder = str(SCRIPT.parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    spec = importlib.util.spec_from_file_location("friday_bench_script", SCRIPT)
    if spec is None or spec.loader is None:
        raise BadInputError(f"{SCRIPT} cannot be loaded as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def add_arguments(parser: argparse.ArgumentParser) -> None:
    script = load_script()
    if script is None:
        parser.description = MISSING
        # every option is unknown here: swallow them, so that run refuses with the line that
        # says why (argparse hands a subcommand's unknown options to the top-level parser,
        # which would stop with "unrecognized arguments" before run)
        parse = parser.parse_known_args
        # (this parser's own method replaced: mypy cannot type a lambda as the overloaded one)
        parser.parse_known_args = lambda args=None, namespace=None: (parse([], namespace)[0], [])  # type: ignore[method-assign,assignment]
        return
    script.add_arguments(parser)


def run(args: argparse.Namespace) -> int:
    script = load_script()
    if script is None:
        raise BadInputError(MISSING)
    return int(script.run(args))
