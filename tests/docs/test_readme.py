"""The README and the docs pages: generated sections fresh and reacting to their sources,
the README's code runs, its links resolve, it stays short, and its citation matches
``pyproject.toml`` and ``CITATION.cff``."""

from __future__ import annotations

import copy
import importlib.util
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from friday_agents.sections import replace_section, section_body

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"
#: The front door stays a front door: everything longer lives in docs/ or experiments/.
MAX_README_LINES = 350


def _tool():
    """``tools/docs_sections.py`` (a script of the repository, not of the package)."""
    spec = importlib.util.spec_from_file_location("docs_sections", REPO / "tools/docs_sections.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


docs_sections = _tool()


# ------------------------------------------------------------- generated sections


def test_generated_sections_are_up_to_date():
    assert docs_sections.stale_files() == [], "run python tools/docs_sections.py"


def test_check_mode_reports_a_stale_file_and_the_rewrite_fixes_it(tmp_path, capsys):
    for name in docs_sections.TARGETS:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text((REPO / name).read_text(encoding="utf-8"), encoding="utf-8")
    cards = tmp_path / "docs" / "cards.md"
    cards.write_text(cards.read_text().replace("| `genius` |", "| `genious` |"))
    assert docs_sections.main(["--check", "--root", str(tmp_path)]) == 1
    assert "docs/cards.md: generated sections are out of date" in capsys.readouterr().out
    assert docs_sections.main(["--root", str(tmp_path)]) == 0
    assert docs_sections.main(["--check", "--root", str(tmp_path)]) == 0
    for name in docs_sections.TARGETS:
        assert (tmp_path / name).read_text() == (REPO / name).read_text(), name


def test_rewrite_touches_only_the_marked_sections_and_needs_the_markers():
    sections = docs_sections.TARGETS["docs/cards.md"]
    text = "intro\n<!-- section:cards -->\nold\n<!-- /section:cards -->\nend\n"
    new = docs_sections.rewrite(text, sections)
    assert new.startswith("intro\n<!-- section:cards -->\n| key | kind |")
    assert new.endswith("<!-- /section:cards -->\nend\n")
    assert docs_sections.rewrite(new, sections) == new
    with pytest.raises(ValueError, match="section:cards"):
        docs_sections.rewrite("no markers", sections)


def test_one_section_splicer_replaces_and_reads_a_body():
    text = "a\n<!-- section:x -->\nold\n<!-- /section:x -->\nb\n"
    new = replace_section(text, "x", "new body\n")
    assert new == "a\n<!-- section:x -->\nnew body\n<!-- /section:x -->\nb\n"
    assert section_body(new, "x") == "new body"
    assert replace_section(new, "x", section_body(new, "x")) == new
    for broken in ("<!-- /section:x --><!-- section:x -->", text + text, "no markers"):
        with pytest.raises(ValueError, match="section:x"):
            replace_section(broken, "x", "")


def test_the_headline_table_is_computed_from_the_results_file():
    results = json.loads((REPO / docs_sections.HEADLINE_RESULTS).read_text())
    changed = copy.deepcopy(results)
    cell = next(s for s in changed["summary"] if (s["agent"], s["level"]) == ("guided", 1))
    cell["win_rate"], cell["win_rate_ci"] = 0.5, [0.25, 0.75]
    before = docs_sections.headline_section(results)
    after = docs_sections.headline_section(changed)
    row = next(line for line in after.splitlines() if line.startswith("| `guided` |"))
    assert "| 50.0% [25.0, 75.0] |" in row
    assert before != after
    assert results["command"] in after


def test_the_learning_section_is_computed_from_the_paired_files(tmp_path):
    """Each paired row reads its results file (a changed difference shows up) and a file not
    yet committed leaves its row out rather than failing or inventing it."""
    source, baseline, agent, _, _ = docs_sections.PAIRED_RUNS[0]
    results = json.loads((REPO / source).read_text())
    pair = next(
        c
        for c in results["comparisons"]
        if (c["baseline"], c["agent"], c["level"]) == (baseline, agent, 2)
    )
    pair["win_rate_difference"] = [0.123, 0.1, 0.15]
    (tmp_path / source).parent.mkdir(parents=True)
    (tmp_path / source).write_text(json.dumps(results))
    section = docs_sections.learning_paired_section(tmp_path)
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    assert len(rows) == 1  # only the file written here exists under tmp_path
    assert "| +12.3 [+10.0, +15.0] |" in rows[0]


def test_the_tables_follow_the_code(monkeypatch):
    """The action table is built from ``friday_env.actions``: a renamed action shows up."""
    from friday_env.actions import codec

    names = list(codec.ACTION_NAMES)
    names[codec.DRAW_FREE] = "draw a card for nothing"
    monkeypatch.setattr(codec, "ACTION_NAMES", tuple(names))
    assert f"| {codec.DRAW_FREE} | `DRAW_FREE` | draw a card for nothing |" in (
        docs_sections.env_actions_section()
    )


# ------------------------------------------------------------------- the README


def _python_blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, re.DOTALL)


def test_readme_is_short():
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_README_LINES, f"README.md has {lines} lines"


def test_readme_engine_and_env_quick_starts_run(capsys):
    engine, env = _python_blocks(README.read_text(encoding="utf-8"))[:2]
    namespace: dict = {}
    exec(compile(engine, "README engine quick start", "exec"), namespace)
    assert namespace["game"].done
    namespace = {}
    exec(compile(env, "README env quick start", "exec"), namespace)
    assert namespace["terminated"] is True
    assert namespace["reward"] in (-1.0, 1.0)
    assert "draw a free card" in capsys.readouterr().out


def _sb3_snippet(text: str) -> str:
    (snippet,) = [block for block in _python_blocks(text) if "MaskablePPO" in block]
    return snippet


def test_the_sb3_snippet_is_the_same_in_the_readme_and_the_environment_page():
    page = (REPO / "docs" / "environment.md").read_text(encoding="utf-8")
    assert _sb3_snippet(README.read_text(encoding="utf-8")) == _sb3_snippet(page)


@pytest.mark.slow
def test_the_sb3_snippet_as_written_improves_on_the_untrained_policy(tmp_path):
    """The README's claim, measured: the trained policy's mean score on the same 50 deals is
    clearly above the untrained one's (measured: -31.4 before, -14.0 after)."""
    snippet = _sb3_snippet(README.read_text(encoding="utf-8"))
    done = subprocess.run(
        [sys.executable, "-c", snippet], capture_output=True, text=True, cwd=tmp_path, timeout=1800
    )
    assert done.returncode == 0, done.stderr
    before, after = (float(x) for x in re.findall(r"mean score ([-+][\d.]+)", done.stdout))
    assert after > before + 5, done.stdout


def _links(text: str) -> list[str]:
    return re.findall(r"\]\(([^)\s]+)\)", text)


def _anchor(heading: str) -> str:
    """GitHub's anchor of a Markdown heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_readme_links_resolve():
    text = README.read_text(encoding="utf-8")
    anchors = {_anchor(h) for h in re.findall(r"^#+ (.*)$", text, re.MULTILINE)}
    for link in _links(text):
        if "://" in link:
            continue
        path, _, fragment = link.partition("#")
        if path:
            assert (REPO / path).exists(), f"README links {link}, which does not exist"
        else:
            assert fragment in anchors, f"README links #{fragment}, no such heading"


def test_readme_links_every_docs_page_and_every_study_report():
    links = set(_links(README.read_text(encoding="utf-8")))
    pages = {f"docs/{p.name}" for p in (REPO / "docs").glob("*.md") if p.name != "index.md"}
    reports = {str(p.relative_to(REPO)) for p in (REPO / "experiments").glob("*/REPORT.md")}
    assert reports, "no experiments/<study>/REPORT.md"
    assert pages - links == set()
    assert reports - links == set()


def test_readme_citation_matches_the_project_and_citation_cff():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    cite = section_body(README.read_text(encoding="utf-8"), "cite")
    assert f"version = {{{project['version']}}}" in cite
    cff = (REPO / "CITATION.cff").read_text(encoding="utf-8")
    fields = dict(re.findall(r"^(title|version|license): (.+)$", cff, re.MULTILINE))
    assert fields == {
        "title": project["name"],
        "version": project["version"],
        "license": project["license"]["text"],
    }
    assert f"title   = {{{fields['title']}}}" in cite
    assert f"license = {{{fields['license']}}}" in cite
