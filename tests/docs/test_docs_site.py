"""The documentation site builds strictly, every internal link and anchor in it resolves, and
its API reference covers the public names of ``friday_env`` and ``friday_agents``."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import time
import zlib
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from optional import require_modules

REPO = Path(__file__).resolve().parents[2]
#: The build must stay fast enough to run in every test session (it takes about 10 s on
#: a quiet core); this bound only catches a build that has grown out of hand.
BUILD_SECONDS = 90


def build(config: Path, site: Path) -> subprocess.CompletedProcess[str]:
    """``mkdocs build --strict`` of ``config`` into ``site``."""
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(site)],
        capture_output=True,
        text=True,
        cwd=config.parent,
        timeout=600,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},  # no end-of-life banner in the log
    )


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    require_modules("mkdocs", "material", "mkdocstrings", install='pip install -e ".[docs]"')
    out = tmp_path_factory.mktemp("site")
    start = time.monotonic()
    done = build(REPO / "mkdocs.yml", out)
    seconds = time.monotonic() - start
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{done.stdout}\n{done.stderr}"
    assert seconds < BUILD_SECONDS, f"the docs build took {seconds:.0f} s"
    return out


# ------------------------------------------------------------ links in the built site


class _Links(HTMLParser):
    """Every ``id`` an HTML page defines and every ``href`` it links or image it shows."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("id", "name") and value:
                self.ids.add(value)
            if value and (name, tag) in (("href", "a"), ("src", "img")):
                self.hrefs.append(value)


def _parse(page: Path) -> _Links:
    links = _Links()
    links.feed(page.read_text(encoding="utf-8"))
    return links


def _target(site: Path, page: Path, path: str) -> Path:
    """The file an internal link's path points to (a folder means its index.html)."""
    target = (page.parent / unquote(path)).resolve() if path else page
    if target.is_dir():
        target = target / "index.html"
    return target


def broken_links(site: Path) -> list[str]:
    """Every internal link of the built ``site`` whose page or #anchor does not exist.
    ``404.html`` is left out: it is served at any missing URL, so its links are rooted."""
    site = site.resolve()
    parsed = {page: _parse(page) for page in site.rglob("*.html") if page.name != "404.html"}
    broken = []
    for page, links in parsed.items():
        for href in links.hrefs:
            parts = urlsplit(href)
            if parts.scheme or parts.netloc or href.startswith(("mailto:", "javascript:")):
                continue
            target = _target(site, page, parts.path)
            where = f"{page.relative_to(site)}: {href}"
            if site not in target.parents and target != site:
                broken.append(f"{where} (outside the site)")
            elif not target.exists():
                broken.append(f"{where} (no such file)")
            elif parts.fragment and target.suffix == ".html":
                ids = parsed[target].ids if target in parsed else _parse(target).ids
                if unquote(parts.fragment) not in ids:
                    broken.append(f"{where} (no such anchor)")
    return broken


def test_the_site_builds_strictly_and_every_internal_link_resolves(site):
    assert (site / "index.html").is_file()
    assert (site / "environment" / "index.html").is_file()
    assert broken_links(site) == []


def test_the_link_check_finds_a_broken_page_and_a_broken_anchor(site, tmp_path):
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    page = copy / "index.html"
    html = page.read_text(encoding="utf-8")
    page.write_text(
        html.replace(
            "</body>",
            '<a href="no-such-page/">x</a><a href="cards/#no-such-anchor">y</a></body>',
        ),
        encoding="utf-8",
    )
    found = broken_links(copy)
    assert found == [
        "index.html: no-such-page/ (no such file)",
        "index.html: cards/#no-such-anchor (no such anchor)",
    ]


def test_an_injected_broken_link_fails_the_strict_build(tmp_path):
    """The strict build itself refuses a link to a missing page and to a missing anchor
    (mkdocs.yml's ``validation``): a copy of the docs with both injected fails, naming them."""
    require_modules("mkdocs", "material", "mkdocstrings", install='pip install -e ".[docs]"')
    shutil.copytree(REPO / "docs", tmp_path / "docs")
    config = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    assert "docs_dir: docs\n" in config and "paths: [.]\n" in config
    config = config.replace("docs_dir: docs\n", f"docs_dir: {tmp_path / 'docs'}\n")
    config = config.replace("paths: [.]\n", f"paths: [{REPO}]\n")
    config = config.replace("  - tools/", f"  - {REPO}/tools/")
    (tmp_path / "mkdocs.yml").write_text(config, encoding="utf-8")
    rules = tmp_path / "docs" / "rules.md"
    rules.write_text(
        rules.read_text(encoding="utf-8")
        + "\n[a missing page](no-such-page.md), [a missing anchor](cards.md#no-such-anchor)\n",
        encoding="utf-8",
    )
    done = build(tmp_path / "mkdocs.yml", tmp_path / "site")
    assert done.returncode != 0
    log = done.stderr + done.stdout
    assert "no-such-page.md" in log
    assert "no-such-anchor" in log


# ---------------------------------------------------------------- the API reference


def _api_ids(site: Path, page: str) -> set[str]:
    return _parse(site / "api" / page / "index.html").ids


def test_the_api_reference_covers_every_exported_name_of_friday_env(site):
    import friday_env

    ids = _api_ids(site, "friday_env")
    missing = [
        name
        for name in friday_env.__all__
        if f"friday_env.{name}" not in ids and f"friday_env.{name}.{name}" not in ids
    ]
    assert missing == []


def test_the_api_reference_covers_every_registered_agent_class(site):
    from friday_agents.players.registry import AGENTS

    ids = _api_ids(site, "agents")
    classes = [path.replace(":", ".") for path in AGENTS.values()]
    assert [name for name in classes if name not in ids] == []
    assert "friday_agents.players.base.Agent" in ids


def test_every_docs_page_is_in_the_site(site):
    for page in (REPO / "docs").rglob("*.md"):
        relative = page.relative_to(REPO / "docs").with_suffix("")
        built = site / relative / "index.html" if relative.name != "index" else site / "index.html"
        assert built.is_file(), f"docs/{page.relative_to(REPO / 'docs')} is not in the site"


#: The Sphinx roles the API pages must not show as raw text (docstrings use mkdocstrings
#: cross-references, [`Game`][friday_env.Game]).
SPHINX_ROLE = re.compile(r":(?:py:)?(?:class|meth|func|mod|attr|data|exc|obj):`")


def test_the_api_pages_show_no_sphinx_role_and_link_their_cross_references(site):
    pages = sorted((site / "api").rglob("index.html"))
    assert pages
    shown = {page.parent.name: page.read_text(encoding="utf-8") for page in pages}
    left = {name: SPHINX_ROLE.findall(html) for name, html in shown.items()}
    assert {name: roles for name, roles in left.items() if roles} == {}
    # a converted cross-reference is a link: Game's docstring links the scenario function
    assert 'href="../friday_env/#friday_env.scenario.scenario"' in shown["engine"]


def test_the_api_reference_shows_inherited_members_and_the_vector_env(site):
    engine, env = _api_ids(site, "engine"), _api_ids(site, "env")
    game = "friday_env.engine.game.Game"
    for member in ("legal_actions", "clone", "done", "won"):
        assert f"{game}.{member}" in engine, member
    assert "friday_env.vector.FridayVectorEnv" in env
    assert "friday_env.vector.FridayVectorEnv.set_next_deals" in env


def test_the_api_page_of_game_lists_every_method_a_game_has(site):
    """``friday_env.Game`` is the door to both cores: its entry lists what a game of every
    core has (``legal_actions``, ``apply``, ``clone``, ``score``, ...), each with its docstring."""
    from friday_env.core import Game, available_cores

    games = [Game.new(1, 0, core=core) for core in available_cores()]
    shared = set.intersection(*({n for n in dir(g) if not n.startswith("_")} for g in games))
    methods = {name for name in shared if callable(getattr(games[0], name))}
    assert {"legal_actions", "apply", "clone", "score", "describe"} <= methods
    ids = _api_ids(site, "friday_env")
    assert sorted(m for m in methods | {"done", "won"} if f"friday_env.Game.{m}" not in ids) == []
    page = (site / "api" / "friday_env" / "index.html").read_text(encoding="utf-8")
    assert "The legal action ids, ascending" in page  # legal_actions' docstring


def inventory(site: Path) -> set[str]:
    """The names of the objects the site documents, from its ``objects.inv`` (Sphinx's format:
    four header lines, then zlib-compressed lines ``name domain:role priority uri label``)."""
    body = (site / "objects.inv").read_bytes().split(b"\n", 4)[4]
    return {line.split(" ", 1)[0] for line in zlib.decompress(body).decode().splitlines() if line}


DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")


class _CodeSpans(HTMLParser):
    """The text of every inline ``<code>`` of a page that is not in a link, a code block or
    a heading (an object's own heading names it), in order."""

    VOID = frozenset({"br", "img", "input", "meta", "link", "hr", "wbr", "source"})

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.text: list[str] | None = None
        self.plain: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in self.VOID:
            self.open.append(tag)
        if tag == "code":
            self.text = []

    def handle_endtag(self, tag: str) -> None:
        if tag in self.VOID or tag not in self.open:
            return
        while self.open.pop() != tag:
            pass
        if tag == "code" and self.text is not None:
            skip = {"a", "pre", "h1", "h2", "h3", "h4", "h5", "h6"} & set(self.open)
            if not skip:
                self.plain.append("".join(self.text).strip())
            self.text = None

    def handle_data(self, data: str) -> None:
        if self.text is not None:
            self.text.append(data)


def unlinked_names(html: str, documented: set[str]) -> list[str]:
    """The code spans of ``html`` that hold a dotted name of a documented object (a call's
    ``()`` aside) and are not links."""
    spans = _CodeSpans()
    spans.feed(html)
    names = (text.removesuffix("()") for text in spans.plain)
    return [name for name in names if DOTTED.fullmatch(name) and name in documented]


def test_dotted_names_of_documented_objects_are_links(site):
    documented = inventory(site)
    assert "friday_env.Game" in documented and "friday_env.Game.legal_actions" in documented
    unlinked = [
        f"{page.relative_to(site)}: {name}"
        for page in sorted(site.rglob("*.html"))
        for name in unlinked_names(page.read_text(encoding="utf-8"), documented)
    ]
    assert unlinked == []


def test_the_unlinked_name_count_sees_plain_code_only():
    html = (
        "<p><code>friday_env.Game</code> <a href='x'><code>friday_env.Game</code></a> "
        "<code>friday_env.Game()</code> <code>game.clone</code> <code>friday_env.nothing</code>"
        "</p><h2><code>friday_env.Game</code></h2><pre><code>friday_env.Game</code></pre>"
    )
    found = unlinked_names(html, {"friday_env.Game"})
    assert found == ["friday_env.Game", "friday_env.Game"]


def _studies_hook():
    """``tools/mkdocs_studies.py``, the mkdocs hook (a script of the repository)."""
    spec = importlib.util.spec_from_file_location(
        "mkdocs_studies", REPO / "tools/mkdocs_studies.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_study_report_is_a_page_of_the_site(site):
    studies = _studies_hook().reports(REPO)
    assert studies
    for study in studies:
        assert (site / "studies" / study / "index.html").is_file(), study
    # the files a report links are copied beside the site, so its curves show
    assert (site / "repository/experiments/ppo-training/results/ppo-level1-curve.png").is_file()


def test_docs_pages_link_nothing_outside_the_docs_folder():
    """A relative link out of docs/ (to a report, a script) would not open on the site."""
    leaving = []
    for page in (REPO / "docs").rglob("*.md"):
        for target in re.findall(r"\]\(([^)\s#]+)[^)]*\)", page.read_text(encoding="utf-8")):
            if "://" in target or target.startswith("mailto:"):
                continue
            resolved = (page.parent / target).resolve()
            if REPO / "docs" not in resolved.parents:
                leaving.append(f"{page.relative_to(REPO)}: {target}")
    assert leaving == []
