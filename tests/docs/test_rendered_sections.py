"""The one renderer of generated Markdown (``tools/docs_sections.py``): every section of every
provider in ``tools/sections/`` is on its page exactly as rendered from the committed results,
``--check`` finds a stale page and a rewrite fixes it, and no installed module writes Markdown."""

from __future__ import annotations

import ast
import shutil
import subprocess
from pathlib import Path

import pytest
from rendered import REPO, docs_sections
from splice import replace_section, section_body

SECTIONS = sorted(
    (name, page, render)
    for page, renders in docs_sections.targets().items()
    for name, render in renders.items()
)
#: What the installed package is made of: nothing under these writes a ``.md`` file.
INSTALLED = ("friday_env", "agents/friday_agents")


@pytest.mark.parametrize(("name", "page", "render"), SECTIONS, ids=[s[0] for s in SECTIONS])
def test_each_section_on_its_page_is_rendered_from_the_committed_results(name, page, render):
    text = (REPO / page).read_text(encoding="utf-8")
    assert section_body(text, name) == render(REPO).removesuffix("\n"), (
        f"{page}: section {name} is stale; run python tools/docs_sections.py"
    )


def test_the_renderer_finds_every_provider_module():
    modules = {p.stem for p in (REPO / "tools/sections").glob("*.py") if not p.stem.startswith("_")}
    assert set(docs_sections.providers()) == modules
    assert len(SECTIONS) == sum(len(s) for s in docs_sections.providers().values())


#: Committed files no section is rendered from (networks, plots, archives): not copied.
NOT_SOURCES = {".npz", ".png", ".gz", ".zip", ".pt"}


def _copy_repo(root: Path) -> None:
    """The committed files under ``root``, but for the networks, plots and archives."""
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.split("\0")
    for name in listed:
        source = REPO / name
        if name and source.is_file() and source.suffix not in NOT_SOURCES:
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, root / name)


@pytest.fixture(scope="module")
def copy(tmp_path_factory) -> Path:
    """One copy of the repository for the tests below; each puts back what it changes."""
    root = tmp_path_factory.mktemp("repo")
    _copy_repo(root)
    return root


def test_check_reports_a_stale_page_and_the_rewrite_fixes_it(copy, capsys):
    tmp_path = copy
    cards = tmp_path / "docs" / "cards.md"
    cards.write_text(cards.read_text().replace("| `genius` |", "| `genious` |"))
    assert docs_sections.main(["--check", "--root", str(tmp_path)]) == 1
    assert "docs/cards.md: generated sections are out of date" in capsys.readouterr().out
    assert docs_sections.main(["--root", str(tmp_path)]) == 0
    assert docs_sections.main(["--check", "--root", str(tmp_path)]) == 0
    for page in docs_sections.targets():
        assert (tmp_path / page).read_text() == (REPO / page).read_text(), page


def test_a_section_follows_its_results_file(copy):
    """Change one number in a committed results file: the rendered section changes with it."""
    results = copy / "experiments/results/readme_results.json"
    text = results.read_text()
    assert docs_sections.stale_files(copy) == []
    results.write_text(text.replace('"games_played": ', '"games_played": 1', 1))
    try:
        assert set(docs_sections.stale_files(copy)) == {"README.md", "docs/results.md"}
    finally:
        results.write_text(text)


def test_rewrite_touches_only_the_marked_sections_and_needs_the_markers():
    renders = docs_sections.targets()["docs/cards.md"]
    text = "intro\n<!-- section:cards -->\nold\n<!-- /section:cards -->\nend\n"
    new = docs_sections.rewrite(text, renders)
    assert new.startswith("intro\n<!-- section:cards -->\n| key | kind |")
    assert new.endswith("<!-- /section:cards -->\nend\n")
    assert docs_sections.rewrite(new, renders) == new
    with pytest.raises(ValueError, match="section:cards"):
        docs_sections.rewrite("no markers", renders)


def test_one_section_splicer_replaces_and_reads_a_body():
    text = "a\n<!-- section:x -->\nold\n<!-- /section:x -->\nb\n"
    new = replace_section(text, "x", "new body\n")
    assert new == "a\n<!-- section:x -->\nnew body\n<!-- /section:x -->\nb\n"
    assert section_body(new, "x") == "new body"
    assert replace_section(new, "x", section_body(new, "x")) == new
    for broken in ("<!-- /section:x --><!-- section:x -->", text + text, "no markers"):
        with pytest.raises(ValueError, match="section:x"):
            replace_section(broken, "x", "")


# ------------------------------------------------- the library writes data only

#: The section splicer, which lives with the renderer in tools/ (no installed module needs it).
SPLICER = "splice"
WRITES = {"write_text", "write_bytes", "open", "writelines"}


def _installed_modules() -> list[Path]:
    return sorted(p for folder in INSTALLED for p in (REPO / folder).rglob("*.py"))


def _markdown_writes(tree: ast.AST) -> list[int]:
    """Lines that write a ``.md`` file or use the section splicer."""
    return [node.lineno for node in ast.walk(tree) if _splices(node) or _writes_markdown(node)]


def _splices(node: ast.AST) -> bool:
    if isinstance(node, ast.ImportFrom):
        return node.module == SPLICER
    if isinstance(node, ast.Import):
        return any(alias.name == SPLICER for alias in node.names)
    return isinstance(node, ast.Call) and _called(node) == "replace_section"


def _called(call: ast.Call) -> str:
    return getattr(call.func, "attr", getattr(call.func, "id", ""))


def _writes_markdown(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and _called(node) in WRITES and _names_markdown(node)


def _names_markdown(call: ast.Call) -> bool:
    """Whether a write call's path (its receiver or arguments) holds a ``.md`` literal."""
    parts = [call.func, *call.args]
    return any(
        isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value.endswith(".md")
        for part in parts
        for n in ast.walk(part)
    )


def test_no_installed_module_writes_markdown():
    writers = {}
    for path in _installed_modules():
        name = path.relative_to(REPO).as_posix()
        lines = _markdown_writes(ast.parse(path.read_text(encoding="utf-8")))
        if lines:
            writers[name] = lines
    assert not writers, f"installed modules writing Markdown (lines): {writers}"


def test_the_markdown_scan_finds_a_write_and_a_splice():
    """The scan above can fail: it flags each way an installed module could write Markdown."""
    sources = [
        'Path("docs/x.md").write_text(text)',
        'open(out / "results.md", "w")',
        "from splice import replace_section",
        "import splice",
        "page = replace_section(page, 'x', body)",
    ]
    for source in sources:
        assert _markdown_writes(ast.parse(source)) == [1], source
    assert _markdown_writes(ast.parse('Path("results.json").write_text(text)')) == []
