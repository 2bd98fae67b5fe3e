"""mkdocs hook: every study's ``experiments/<study>/REPORT.md`` is a page of the site.

The reports live beside their scripts and results, outside ``docs/``, so a link to one would
not open on the site. This hook (``hooks:`` in ``mkdocs.yml``) adds each report as the page
``studies/<study>.md`` and rewrites its relative links so that they open there too:

- a link to a docs page or to another study's report points at that page;
- a link to a file (a curve, a script, a results file) points at a copy of the file in the
  site, under ``repository/<its path>``;
- a link to a folder keeps its text and loses the link (a site has no folder listings).
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from mkdocs.structure.files import File, Files

REPO = Path(__file__).resolve().parent.parent
#: Where the copies of linked repository files go in the site.
FILES_DIR = "repository"
#: A Markdown link or image with a relative target: [text](target) or ![alt](target).
LINK = re.compile(r"(?P<bang>!?)\[(?P<text>[^\]]*)\]\((?P<target>[^)\s]+)\)")


def study_page(study: str) -> str:
    """Where a study's report is on the site (relative to docs/)."""
    return f"studies/{study}.md"


def reports(repo: Path = REPO) -> dict[str, Path]:
    """Study name -> its report."""
    return {p.parent.name: p for p in sorted((repo / "experiments").glob("*/REPORT.md"))}


def _rewrite_link(match: re.Match[str], folder: Path, page: str, copies: dict[str, Path]) -> str:
    target = match["target"]
    if "://" in target or target.startswith(("#", "mailto:")):
        return match[0]
    path, _, fragment = target.partition("#")
    anchor = f"#{fragment}" if fragment else ""
    resolved = (folder / path).resolve()
    relative = resolved.relative_to(REPO).as_posix() if REPO in resolved.parents else None
    if relative is None or not resolved.exists():
        return match[0]  # left for the strict build to report
    if relative.startswith("docs/"):
        new = relative.removeprefix("docs/")
    elif resolved.name == "REPORT.md" and resolved.parent.parent == REPO / "experiments":
        new = study_page(resolved.parent.name)
    elif resolved.is_dir():
        return match["text"]
    else:
        new = f"{FILES_DIR}/{relative}"
        copies[new] = resolved
    link = posixpath.relpath(new, posixpath.dirname(page))
    return f"{match['bang']}[{match['text']}]({link}{anchor})"


def report_page(study: str, report: Path, copies: dict[str, Path]) -> str:
    """A report's text with its links rewritten for its place on the site."""
    page = study_page(study)
    text = report.read_text(encoding="utf-8")
    return LINK.sub(lambda m: _rewrite_link(m, report.parent, page, copies), text)


def on_files(files: Files, config) -> Files:
    copies: dict[str, Path] = {}
    for study, report in reports().items():
        content = report_page(study, report, copies)
        files.append(File.generated(config, study_page(study), content=content))
    for uri, source in copies.items():
        files.append(File.generated(config, uri, abs_src_path=str(source)))
    return files
