"""The README's citation, from ``pyproject.toml``."""

from __future__ import annotations

import tomllib
from pathlib import Path


def cite_section(repo: Path) -> str:
    """The README's citation, from the version in ``pyproject.toml`` (as ``CITATION.cff``)."""
    project = tomllib.loads((repo / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    lines = [
        "```bibtex",
        "@software{friday_env,",
        f"  title   = {{{project['name']}}},",
        "  author  = {{The friday-env developers}},",
        f"  version = {{{project['version']}}},",
        f"  license = {{{project['license']}}},",
        "}",
        "```",
    ]
    return "\n".join(lines)


SECTIONS = {"cite": ("README.md", cite_section)}
