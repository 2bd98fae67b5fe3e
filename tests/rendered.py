"""The renderer of the generated sections (``tools/docs_sections.py``) and its providers
(``tools/sections/``), loaded for the tests: they are scripts of the repository, not of the
package."""

from __future__ import annotations

import importlib
import importlib.util
import shutil
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[1]


def _load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docs_sections", REPO / "tools/docs_sections.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # puts tools/ on sys.path, so `sections` imports
    return module


docs_sections = _load_tool()


def provider(name: str) -> ModuleType:
    """The provider module ``tools/sections/<name>.py``."""
    return importlib.import_module(f"sections.{name}")


def copy_files(root: Path, paths: list[Path | str]) -> None:
    """Copy ``paths`` (files or folders, relative to the repository) under ``root``."""
    for path in paths:
        source, target = REPO / path, root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, target, ignore=shutil.ignore_patterns("*.npz", "*.png"))
        else:
            shutil.copy2(source, target)
