"""The repository documents itself: the rules it implements are in ``docs/``, every ruling or
decision id cited anywhere is defined there, nothing cites a file outside the repository, and
the package carries a licence, a changelog, type information and a version."""

from __future__ import annotations

import re
import subprocess
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest
from friday_cli import friday

import friday_env
from friday_env import Game
from friday_env.cards import CARD_TYPES
from friday_env.core import core_in_use

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"
TEXT_SUFFIXES = {".py", ".md", ".ipynb", ".toml", ".sh", ".txt", ".json", ".cfg", ".yml"}
#: the path prefix of the developers' shared folder, assembled so this file does not hold it
OUTSIDE = "shared" + "/"
RULE_ID = re.compile(r"\b([RD])(\d\d)\b")


def tracked_text_files() -> list[Path]:
    """The files git tracks (the shipped tree and the tests), text files only."""
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.split("\0")
    return [REPO / name for name in listed if name and Path(name).suffix in TEXT_SUFFIXES]


def defined_ids() -> dict[str, int]:
    """Ruling and decision ids defined in docs/rulings.md (a bold ``**R07 ...`` entry)."""
    text = (DOCS / "rulings.md").read_text(encoding="utf-8")
    found: dict[str, int] = {}
    for match in re.finditer(r"^- \*\*([RD]\d\d) ", text, re.MULTILINE):
        found[match.group(1)] = found.get(match.group(1), 0) + 1
    return found


def test_the_scans_below_read_every_module_and_page():
    """The checks that scan tracked files see the packages' modules and the docs pages (a
    scan of nothing would pass vacuously)."""
    tracked = set(tracked_text_files())
    expected = [
        *(REPO / "friday_env").rglob("*.py"),
        *(REPO / "agents" / "friday_agents").rglob("*.py"),
        *DOCS.glob("*.md"),
    ]
    assert expected
    assert [str(p.relative_to(REPO)) for p in expected if p not in tracked] == []


def test_no_file_cites_a_file_outside_the_repository():
    citing = [
        str(path.relative_to(REPO))
        for path in tracked_text_files()
        if OUTSIDE in path.read_text(encoding="utf-8", errors="replace")
    ]
    assert not citing, f"files citing {OUTSIDE}: {citing}"


def test_docs_define_rulings_r01_to_r26_and_decisions_d01_to_d11_once_each():
    expected = {f"R{n:02d}" for n in range(1, 27)} | {f"D{n:02d}" for n in range(1, 12)}
    defined = defined_ids()
    assert set(defined) == expected
    assert all(count == 1 for count in defined.values())


def test_every_cited_ruling_or_decision_is_defined_in_docs():
    defined = set(defined_ids())
    undefined: dict[str, set[str]] = {}
    for path in tracked_text_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for kind, number in RULE_ID.findall(text):
            if kind + number not in defined:
                undefined.setdefault(kind + number, set()).add(str(path.relative_to(REPO)))
    assert not undefined, f"cited but not defined in docs/rulings.md: {undefined}"


def test_docs_pages_exist_and_the_readme_links_them():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for page in ("rules.md", "rulings.md", "cards.md", "scoring.md"):
        assert (DOCS / page).is_file()
        assert f"docs/{page}" in readme, f"README does not link docs/{page}"


#: The pages the docs site adds (tools/mkdocs_studies.py): studies/<study>.md is the study's
#: experiments/<study>/REPORT.md.
STUDY_PAGE = re.compile(r"studies/([\w-]+)\.md")


def test_docs_links_point_at_files_that_exist():
    for page in DOCS.glob("*.md"):
        for target in re.findall(r"\]\(([^)#]+)\)", page.read_text(encoding="utf-8")):
            if "://" in target:
                continue
            study = STUDY_PAGE.fullmatch(target)
            source = (
                REPO / "experiments" / study[1] / "REPORT.md" if study else page.parent / target
            )
            assert source.exists(), f"{page.name} links {target}"


def test_the_card_list_in_docs_holds_every_card_with_its_count():
    text = (DOCS / "cards.md").read_text(encoding="utf-8")
    rows = {
        cells[0].strip("` "): cells
        for line in text.splitlines()
        if line.startswith("| `")
        for cells in [[c.strip() for c in line.strip("|").split("|")]]
    }
    assert set(rows) == {card.key for card in CARD_TYPES}
    for card in CARD_TYPES:
        assert str(card.count) in rows[card.key], card.key
        if card.value:
            assert str(card.value) in rows[card.key], card.key
    assert sum(card.count for card in CARD_TYPES) == 72


@pytest.mark.parametrize(("level", "score"), [(1, 0), (2, -5), (3, -5), (4, -5)])
def test_the_scoring_page_example_of_a_new_game_holds(level, score):
    """The example of docs/scoring.md, played: a new level-1 game scores 0, on levels 2-4 the
    aging card shuffled in makes it -5."""
    assert all(Game.new(level, seed).score() == score for seed in range(5))


def test_licence_is_the_mit_licence_pyproject_names():
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    licence = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert "MIT" in str(pyproject["project"]["license"])
    assert licence.startswith("MIT License") and "WITHOUT WARRANTY" in licence


def test_one_version_everywhere_and_the_changelog_describes_it():
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    number = pyproject["project"]["version"]
    assert friday_env.__version__ == number == version("friday-env")
    changelog = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.search(rf"^## {re.escape(number)}\b", changelog, re.MULTILINE)


def test_friday_version_prints_the_version():
    done = friday("--version")
    assert done.returncode == 0, done.stderr
    # the version, then the core that plays (friday_env.core.core_in_use)
    assert done.stdout.strip() == f"friday {friday_env.__version__} ({core_in_use()})"
    assert "core: " in done.stdout


def test_packages_are_marked_typed():
    from friday_cli import friday_main

    agents_dir = Path(friday_main().__code__.co_filename).resolve().parent
    while (agents_dir.parent / "__init__.py").exists():
        agents_dir = agents_dir.parent
    for package in (Path(friday_env.__file__).parent, agents_dir):
        assert (package / "py.typed").is_file(), package
