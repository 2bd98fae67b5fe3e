"""Builds the compiled core, ``friday_env._core.compiled``, from ``friday_env/_core/*.c``.

Everything else about the package is in ``pyproject.toml``. The extension is optional: a
machine without a C compiler still installs the package, which then plays on the
pure-Python reference engine (``friday_env.available_cores()`` says which cores are there).

``FRIDAY_CORE_SANITIZE=1`` builds with AddressSanitizer and UndefinedBehaviorSanitizer
(``docs/compiled-core.md`` says how to run the tests against such a build).
"""

import os
import sys
from glob import glob

from setuptools import Extension, setup

compile_args = ["-O3", "-std=c11", "-Wall", "-Wextra", "-Wno-unused-parameter"]
link_args: list[str] = []
if os.name == "posix":  # hardening that gcc and clang take (tests/core/test_core_hardening.py)
    compile_args += ["-fstack-protector-strong", "-U_FORTIFY_SOURCE", "-D_FORTIFY_SOURCE=2"]
if sys.platform.startswith("linux"):  # full RELRO: GNU ld's options (not Apple's ld)
    link_args += ["-Wl,-z,relro,-z,now"]
if os.environ.get("FRIDAY_CORE_SANITIZE") == "1":
    sanitize = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-g", "-O1"]
    unsanitized = ("-O3", "-D_FORTIFY_SOURCE=2")  # ASan checks what fortify would, and more
    compile_args = [a for a in compile_args if a not in unsanitized] + sanitize
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

setup(ext_modules=[core])
