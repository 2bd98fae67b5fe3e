"""Builds the compiled core, ``friday_env._core.compiled``, from ``friday_env/_core/*.c``, and
the agents' C kernels, ``friday_agents.players._kernels``, from the ``*.c`` beside their Python
twins in ``agents/friday_agents/players/``.

Everything else about the package is in ``pyproject.toml``. The extensions are optional: a
machine without a C compiler still installs the package, which then plays on the
pure-Python reference engine (``friday_env.available_cores()`` says which cores are there).

``FRIDAY_CORE_SANITIZE=1`` builds with AddressSanitizer and UndefinedBehaviorSanitizer
(``docs/compiled-core.md`` says how to run the tests against such a build).
"""

import os
from glob import glob

from setuptools import Extension, setup

compile_args = ["-O3", "-std=c11", "-Wall", "-Wextra", "-Wno-unused-parameter"]
link_args: list[str] = []
if os.environ.get("FRIDAY_CORE_SANITIZE") == "1":
    sanitize = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-g", "-O1"]
    compile_args = [a for a in compile_args if a != "-O3"] + sanitize
    link_args += ["-fsanitize=address,undefined"]

core = Extension(
    "friday_env._core.compiled",
    sources=sorted(glob("friday_env/_core/*.c")),
    depends=sorted(glob("friday_env/_core/*.h")),
    include_dirs=["friday_env/_core"],
    extra_compile_args=compile_args,
    extra_link_args=link_args,
    optional=os.environ.get("FRIDAY_CORE_REQUIRED") != "1",
)

# The agents' C kernels, each beside its Python twin; they play on the env's compiled games
# through its C API (friday_env/_core/friday_capi.h), so they compile against the env's
# headers but link none of its C.
PLAYERS = "agents/friday_agents/players"
KERNEL_DIRS = [PLAYERS, f"{PLAYERS}/heuristic", f"{PLAYERS}/search"]
kernels = Extension(
    "friday_agents.players._kernels",
    sources=sorted(c for d in KERNEL_DIRS for c in glob(f"{d}/*.c")),
    depends=sorted(h for d in [*KERNEL_DIRS, "friday_env/_core"] for h in glob(f"{d}/*.h")),
    include_dirs=["friday_env/_core", *KERNEL_DIRS],
    extra_compile_args=compile_args,
    extra_link_args=link_args,
    optional=core.optional,
)

setup(ext_modules=[core, kernels])
