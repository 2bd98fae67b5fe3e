"""What the README and the docs pages say holds as written: every Markdown table has the
same number of columns in every row, every ``friday COMMAND`` they name exists, and the
README and the docs home give one install line."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"
PAGES = [README, *sorted((REPO / "docs").rglob("*.md"))]
FENCE = re.compile(r"^```.*?^```", re.DOTALL | re.MULTILINE)


def _name(page: Path) -> str:
    return str(page.relative_to(REPO))


def _cells(row: str) -> int:
    """The cells of a table row, as Python-Markdown's tables extension splits them: a pipe
    inside a code span or escaped (``\\|``) separates nothing."""
    row = re.sub(r"`[^`]*`", "code", row.replace("\\|", ""))
    return row.strip().strip("|").count("|") + 1


SEPARATOR = re.compile(r"^\|(\s*:?-+:?\s*\|)+\s*$")


def table_errors(text: str, name: str) -> list[str]:
    """Every table row whose column count differs from its header's, every row cut short (a
    line that starts a row with ``|`` but does not end it) and every row outside a table
    (lines of ``|`` whose second is not a ``| --- |`` separator: Markdown shows them as text)."""
    errors = []
    lines = FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text).splitlines()
    header = None
    for number, line in enumerate(lines, 1):
        previous = lines[number - 2] if number > 1 else ""
        if not line.startswith("|"):
            header = None
            continue
        if not line.rstrip().endswith("|"):
            errors.append(f"{name}:{number}: the row does not end with |")
        if header is None:
            following = lines[number] if number < len(lines) else ""
            if previous.startswith("|") or not SEPARATOR.match(following):
                errors.append(f"{name}:{number}: a row outside a table (no | --- | below a header)")
            header = _cells(line)
        elif _cells(line) != header:
            errors.append(f"{name}:{number}: {_cells(line)} columns, the header has {header}")
    return errors


def test_every_markdown_table_has_one_column_count():
    found = [e for page in PAGES for e in table_errors(page.read_text("utf-8"), _name(page))]
    assert found == []


def test_the_table_check_finds_a_cut_row_and_a_missing_cell():
    table = "| a | b |\n| --- | --- |\n| `x | y` | z\nmore |\n| c | d |\n\n"
    table += "| a | b |\n| :-- | --: |\n| `x | y` \\| z | 1 |\n| 1 |\n"
    assert table_errors(table, "t.md") == [
        "t.md:3: the row does not end with |",
        "t.md:5: a row outside a table (no | --- | below a header)",
        "t.md:10: 1 columns, the header has 2",
    ]


# ------------------------------------------------------------------ friday subcommands


def friday_commands(text: str) -> set[str]:
    """The subcommands ``friday NAME`` names in code (code blocks and code spans)."""
    code = FENCE.findall(text) + re.findall(r"`([^`\n]+)`", FENCE.sub("", text))
    return {name for span in code for name in re.findall(r"\bfriday ([a-z][a-z-]*)", span)}


def test_every_friday_command_the_docs_name_exists():
    from friday_agents.cli import build_parser

    (commands,) = [a for a in build_parser()._actions if a.dest == "command"]
    named = {_name(page): friday_commands(page.read_text("utf-8")) for page in PAGES}
    unknown = {page: sorted(names - set(commands.choices)) for page, names in named.items()}
    assert {page: names for page, names in unknown.items() if names} == {}
    assert "eval" in named["README.md"]


# ------------------------------------------------------------------------ installing


def _steps(block: str) -> list[str]:
    """The commands of a bash block, in order (``a && b`` is two), without comments."""
    steps = [part.split("#")[0].strip() for line in block.splitlines() for part in line.split("&&")]
    return [step for step in steps if step]


def test_the_readme_and_the_docs_home_install_alike():
    readme = README.read_text("utf-8").split("## The two commands", 1)[1]
    home = (REPO / "docs" / "index.md").read_text("utf-8").split("## Install and play", 1)[1]
    first_block = re.compile(r"```bash\n(.*?)```", re.DOTALL)
    readme_first_command = first_block.search(readme).group(1).split("\n# 2.")[0]
    home_steps = _steps(first_block.search(home).group(1))
    assert home_steps[0].startswith("pip install torch"), home_steps
    assert _steps(readme_first_command) == home_steps
