"""Builds the compiled core, ``friday_env._core.compiled``, from ``friday_env/_core/*.c``, and
the agents' C kernels, ``friday_agents.players._kernels``, from the ``*.c`` beside their Python
twins in ``agents/friday_agents/players/``, and ``friday rl``'s sparse first layer,
``friday_agents.learning._sparse``.

Everything else about the package is in ``pyproject.toml``, but for its long description:
``README.md`` as a package index can show it (``long_description``). The extensions are optional: a
machine without a C compiler still installs the package, which then plays on the
pure-Python reference engine (``friday_env.available_cores()`` says which cores are there).

``FRIDAY_CORE_SANITIZE=1`` builds with AddressSanitizer and UndefinedBehaviorSanitizer
(``docs/compiled-core.md`` says how to run the tests against such a build).
"""

import os
import re
import sys
from glob import glob
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

compile_args = ["-O3", "-std=c11", "-Wall", "-Wextra", "-Wno-unused-parameter"]
link_args: list[str] = []
# Hardening that gcc and clang take (tests/core/test_core_safety.py checks the built files).
# No _FORTIFY_SOURCE: it replaces a libc call with a checked one only where the compiler knows
# the destination's size, and none of the extensions' calls (memcpy, memmove and memset into
# piles and buffers reached through pointers) is such a call, so it changed nothing.
if os.name == "posix":
    compile_args += ["-fstack-protector-strong"]
if sys.platform.startswith("linux"):  # full RELRO: GNU ld's options (not Apple's ld)
    link_args += ["-Wl,-z,relro,-z,now"]
if os.environ.get("FRIDAY_CORE_SANITIZE") == "1":
    sanitize = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-g", "-O1"]
    compile_args = [a for a in compile_args if a != "-O3"] + sanitize
    link_args += ["-fsanitize=address,undefined"]

#: Functions that exist only for the tests, in modules of their own: built in place (a
#: development install, ``setup.py build_ext --inplace``) or where FRIDAY_TEST_HOOKS=1 asks
#: (the sanitizer run), never into a wheel.
TEST_HOOK_SOURCES = ["friday_env/_core/rng_py.c", "friday_env/_core/test_hooks.c"]
#: Sources the test hooks share with the compiled core.
SHARED_WITH_HOOKS = ["friday_env/_core/rng.c", "friday_env/_core/errors_py.c"]
CORE_SOURCES = sorted(set(glob("friday_env/_core/*.c")) - set(TEST_HOOK_SOURCES))
OPTIONAL = os.environ.get("FRIDAY_CORE_REQUIRED") != "1"


def extension(name: str, sources: list[str], include_dirs: list[str]) -> Extension:
    """A C extension of this package, with the flags above."""
    return Extension(
        name,
        sources=sources,
        depends=sorted(h for d in include_dirs for h in glob(f"{d}/*.h")),
        include_dirs=include_dirs,
        extra_compile_args=compile_args,
        extra_link_args=link_args,
        optional=OPTIONAL,
    )


core = extension("friday_env._core.compiled", CORE_SOURCES, ["friday_env/_core"])
core_hooks = extension(
    "friday_env._core._test_hooks",
    [*SHARED_WITH_HOOKS, *TEST_HOOK_SOURCES],
    core.include_dirs,
)

# The agents' C kernels, each beside its Python twin; they play on the env's compiled games
# through its C API (friday_env/_core/friday_capi.h), so they compile against the env's
# headers but link none of its C.
PLAYERS = "agents/friday_agents/players"
KERNEL_DIRS = ["friday_env/_core", PLAYERS, f"{PLAYERS}/heuristic", f"{PLAYERS}/search"]
KERNEL_HOOKS = f"{PLAYERS}/heuristic/heuristic_test_hooks.c"
KERNEL_SOURCES = sorted(c for d in KERNEL_DIRS[1:] for c in glob(f"{d}/*.c") if c != KERNEL_HOOKS)
kernels = extension("friday_agents.players._kernels", KERNEL_SOURCES, KERNEL_DIRS)
kernel_hooks = extension(
    "friday_agents.players._kernel_test_hooks",
    [f"{PLAYERS}/game_link.c", f"{PLAYERS}/heuristic/heuristic.c", KERNEL_HOOKS],
    KERNEL_DIRS,
)
# the learners' first layer over the non-zero inputs (sparse.py beside it is its numpy twin)
sparse_layer = extension(
    "friday_agents.learning._sparse", ["agents/friday_agents/learning/sparse.c"], []
)
TEST_HOOKS = {core_hooks.name, kernel_hooks.name}


class BuildExt(build_ext):
    """Builds the test hooks only in place or when FRIDAY_TEST_HOOKS=1 (see TEST_HOOKS)."""

    def run(self) -> None:
        wanted = self.inplace or self.editable_mode or os.environ.get("FRIDAY_TEST_HOOKS") == "1"
        if not wanted:
            self.extensions = [e for e in self.extensions if e.name not in TEST_HOOKS]
        super().run()


class BuildPy(build_py):
    """What runs, not what builds: no C sources or headers in the wheel (the sdist keeps
    them, see MANIFEST.in; the header generators live in tools/, outside the package)."""

    def exclude_data_files(self, package: str, src_dir: str, files: list) -> list:
        files = super().exclude_data_files(package, src_dir, files)
        return [f for f in files if not f.endswith((".c", ".h"))]


#: A Markdown link or image whose target is relative: a file of the repository or a heading.
RELATIVE_LINK = re.compile(r"(!?)\[([^\]]*)\]\((?![a-z][a-z+.-]*:)[^)\s]+\)")


def long_description(readme: str) -> str:
    """The README as a package index shows it: the index hosts none of the repository's
    files, so a relative link keeps its text and loses the link, and an image of the
    repository is left out."""
    return RELATIVE_LINK.sub(lambda m: "" if m[1] else m[2], readme)


setup(
    ext_modules=[core, core_hooks, kernels, kernel_hooks, sparse_layer],
    cmdclass={"build_ext": BuildExt, "build_py": BuildPy},
    long_description=long_description(Path("README.md").read_text(encoding="utf-8")),
    long_description_content_type="text/markdown",
)
