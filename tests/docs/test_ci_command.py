""".ci/run runs the README's test command, exactly (the README contract), and that command
runs the README's lint line (ruff, the import contracts, mypy on both packages) before the
suite."""

from __future__ import annotations

import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
README = (REPO / "README.md").read_text(encoding="utf-8")


def bash_block(text: str, heading: str) -> list[str]:
    """The command lines (comments and blank lines left out) of the first ``bash`` block
    after ``heading``."""
    block = text.split(heading, 1)[1].split("```bash\n", 1)[1].split("```", 1)[0]
    return [line for line in block.splitlines() if line and not line.startswith("#")]


def lint_line(text: str, heading: str = "## Developing") -> str:
    """The lint line of a Developing section: the command before its comment."""
    [line] = [line for line in bash_block(text, heading) if line.startswith("ruff ")]
    return line.split("  #", 1)[0].strip()


def test_ci_runs_the_readme_test_command():
    lines = bash_block(README, "## The two commands")
    assert len(lines) == 2, lines
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8").rstrip("\n").splitlines()
    assert ci[-1] == lines[1]


def test_the_test_command_runs_the_lint_line_before_the_suite():
    test_command = bash_block(README, "## The two commands")[1]
    lint = lint_line(README)
    assert {"ruff check .", "ruff format --check .", "lint-imports", "mypy"} <= set(
        lint.split(" && ")
    )
    assert f" && {lint} && python -m pytest " in test_command
    docs = (REPO / "docs" / "developing.md").read_text(encoding="utf-8")
    assert lint_line(docs, "# Developing") == lint


def test_mypy_with_no_arguments_checks_both_packages():
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert config["packages"] == ["friday_env", "friday_agents"]
    assert (REPO / config["mypy_path"] / "friday_agents" / "py.typed").is_file()
    assert (REPO / "friday_env" / "py.typed").is_file()
