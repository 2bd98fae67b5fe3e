"""The one renderer of the generated sections of the README, the docs pages and the REPORTs.

A generated section lies between ``<!-- section:NAME -->`` and ``<!-- /section:NAME -->``
(`tools/splice.py` splices it). Each is rendered from the code or from committed results
by a provider, a module ``tools/sections/<source>.py`` whose ``SECTIONS`` maps a section name
to its page and its ``render(repo)``; this tool discovers every provider, so no table can
drift from what it describes and nothing else writes Markdown. The commands that measure
(``friday eval``, ``friday bench``, the study scripts) write results files only.

Run from the repository root::

    python tools/docs_sections.py            # rewrite every section that changed
    python tools/docs_sections.py --check    # exit status 1 if any is out of date
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Callable
from pathlib import Path

TOOLS = Path(__file__).resolve().parent
if str(TOOLS) not in sys.path:  # the providers and the splicer live beside this script
    sys.path.insert(0, str(TOOLS))

import sections  # noqa: E402
from sections import COMMAND  # noqa: E402
from splice import replace_section  # noqa: E402

REPO = TOOLS.parent
Render = Callable[[Path], str]


def providers() -> dict[str, dict[str, tuple[str, Render]]]:
    """Provider module name -> its ``SECTIONS``, for every module in ``tools/sections/``."""
    found = {}
    for module in pkgutil.iter_modules(sections.__path__):
        if not module.name.startswith("_"):
            found[module.name] = importlib.import_module(f"sections.{module.name}").SECTIONS
    return found


def targets() -> dict[str, dict[str, Render]]:
    """Page (relative to the repository) -> its generated sections, each with its renderer;
    raises ``ValueError`` if two providers claim one section name."""
    owner: dict[str, str] = {}
    pages: dict[str, dict[str, Render]] = {}
    for provider, provided in sorted(providers().items()):
        for name, (page, render) in provided.items():
            if name in owner:
                raise ValueError(
                    f"section {name!r} is provided by both {owner[name]} and {provider}"
                )
            owner[name] = provider
            pages.setdefault(page, {})[name] = render
    return pages


def rewrite(text: str, renders: dict[str, Render], repo: Path = REPO) -> str:
    """``text`` with each of ``renders``' sections replaced by what it makes of ``repo``."""
    for name, render in renders.items():
        text = replace_section(text, name, render(repo))
    return text


def stale_files(root: Path = REPO) -> list[str]:
    """The pages under ``root`` whose generated sections are out of date."""
    stale = []
    for page, renders in targets().items():
        text = (root / page).read_text(encoding="utf-8")
        if rewrite(text, renders, root) != text:
            stale.append(page)
    return stale


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        allow_abbrev=False,
        prog=COMMAND,
        description="Rewrite the generated sections of the README, the docs pages and the "
        "study REPORTs (between <!-- section:NAME --> markers) from the committed results.",
    )
    parser.add_argument(
        "--root", type=Path, default=REPO, help="the repository: results and pages (default: this)"
    )
    parser.add_argument("--check", action="store_true", help="only check, write nothing")
    args = parser.parse_args(argv)
    if args.check:
        stale = stale_files(args.root)
        for page in stale:
            print(f"{page}: generated sections are out of date; run {COMMAND}")
        if not stale:
            print("generated sections: up to date")
        return 1 if stale else 0
    for page, renders in targets().items():
        path = args.root / page
        text = path.read_text(encoding="utf-8")
        new = rewrite(text, renders, args.root)
        if new != text:
            path.write_text(new, encoding="utf-8")
        print(f"{page}: {'rewritten' if new != text else 'already up to date'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
