"""One door: every command is a ``friday`` subcommand. No parser takes an abbreviated flag
(``--frame`` is not ``--frames``), the old ``python -m`` entry points inside the package run
nothing and name the command that replaced them, and the workflows behind the commands run
from Python with typed settings (argparse is the command line's alone: an import contract,
tests/docs/test_imports.py)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys

import pytest
from friday_cli import REPO

from friday_agents.cli import build_parser, main, parsers_within
from friday_agents.evaluation.workflow import DEFAULT_SEARCH_SIMS, EvalSettings, run_evaluation
from friday_agents.harness.errors import BadInputError
from friday_agents.learning.leaf_value.workflow import LeafFit, fit_leaf_value

PACKAGE = REPO / "agents" / "friday_agents"
#: The entry points that moved into ``friday``, and the command each is now.
MOVED = {
    "friday_agents.learning.fitting.value_fit": "friday fit linear-value",
    "friday_agents.learning.fitting.value_net_fit": "friday fit value-net",
    "friday_agents.learning.fitting.policy_net_fit": "friday fit policy-net",
    "friday_agents.evaluation.strategy.strategy": "friday strategy",
}


def _every_parser() -> list:
    return parsers_within(build_parser("*"))


def test_no_parser_of_any_subcommand_takes_an_abbreviation():
    parsers = _every_parser()
    names = {parser.prog for parser in parsers}
    assert {"friday", "friday eval", "friday fit linear-value", "friday value fit"} <= names
    assert {"friday imitate dagger", "friday strategy", "friday rl", "friday bench"} <= names
    assert [p.prog for p in parsers if p.allow_abbrev] == []


@pytest.mark.parametrize(
    "args",
    [
        ["rl", "--frame", "128"],
        ["train", "--frame", "128"],
        ["eval", "--agent", "random"],
        ["value", "fit", "--data", "d", "--validation", "v", "--see", "1"],
    ],
    ids=["rl", "train", "eval", "value-fit"],
)
def test_a_prefix_of_a_flag_is_refused(tmp_path, capsys, args):
    """argparse's default reads a prefix as the flag it starts (``--frame`` as ``--frames``):
    a typo would run a command nobody asked for."""
    with pytest.raises(SystemExit) as stop:
        main([*args, "--out", str(tmp_path / "run")])
    assert stop.value.code == 2
    assert f"unrecognized arguments: {args[-2]}" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("module", sorted(MOVED))
def test_an_old_entry_point_names_its_command_and_runs_nothing(tmp_path, module):
    out = tmp_path / "out.json"
    done = subprocess.run(
        [sys.executable, "-m", module, "--games", "1", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1
    assert done.stderr.strip() == f"python -m {module}: error: gone: it is now `{MOVED[module]}`"
    assert not out.exists()


def test_no_other_entry_point_inside_the_package():
    """The modules with a ``__main__`` block: the old entry points that only name their
    command (``python -m friday_agents.cli``, the command without the installed script, is
    the package's ``__main__`` module)."""
    found = set()
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text("utf-8"))
        if any(_is_main_block(node) for node in tree.body):
            found.add(".".join(["friday_agents", *path.relative_to(PACKAGE).with_suffix("").parts]))
    report = "friday_agents.evaluation.report"  # its section renderer, gone since 0.2
    assert found == {report, *MOVED}


def _is_main_block(node: ast.stmt) -> bool:
    return isinstance(node, ast.If) and "__main__" in ast.unparse(node.test)


def test_the_old_commands_in_committed_files_are_friday_commands():
    """No tracked file but the changelog (history) and the restructuring's record names a
    moved entry point."""
    done = subprocess.run(
        ["git", "grep", "-l", "-e", " -m friday_agents.learning.fitting", "-e",
         " -m friday_agents.evaluation.strategy"],
        capture_output=True, text=True, cwd=REPO, timeout=60,
    )  # fmt: skip
    named = set(done.stdout.split()) - {"CHANGELOG.md", "experiments/MOVES.md"}
    named = {path for path in named if not path.startswith("tests/")}
    assert named == set()


def test_the_evaluation_runs_from_python_with_typed_settings(tmp_path, capsys):
    out = tmp_path / "run"
    settings = EvalSettings(
        agents=("random", "heuristic"), levels=(1,), games=2, out=out, workers=1, progress=False
    )
    outcome = run_evaluation(settings)
    assert (outcome.status, outcome.out) == (0, out)
    results = json.loads((out / "results.json").read_text())
    played = f"--levels 1 --games 2 --search-sims {DEFAULT_SEARCH_SIMS} --out "
    assert results["command"].startswith(f"friday eval --agents random,heuristic {played}")
    assert results["complete"] and "random" in capsys.readouterr().out
    again = EvalSettings(levels="1", out=out, resume=True, workers=1, progress=False)
    assert run_evaluation(again).status == 0  # the stored run: nothing left to play
    with pytest.raises(ValueError, match=r"the stored run, whose levels is \(1,\); got \(2,\)"):
        run_evaluation(EvalSettings(levels=(2,), out=out, resume=True, progress=False))


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"hidden": (8, 8, 8, 8)}, "--hidden"),
        ({"hidden": (1024,)}, "--hidden"),
        ({"max_epochs": 0}, "--max-epochs"),
        ({"sources": "some"}, "--sources must be one of all, base"),
    ],
)
def test_the_leaf_fit_refuses_bad_settings_from_python_before_any_file(tmp_path, change, words):
    """`friday value fit`'s settings checked where they are used, so a caller from Python
    meets the same refusals (tests/agents/test_leaf_value.py runs the fit itself)."""
    settings = LeafFit(tmp_path / "d", tmp_path / "v", tmp_path / "leaf.npz", **change)
    with pytest.raises(BadInputError, match=words):
        fit_leaf_value(settings)
    assert list(tmp_path.iterdir()) == []


#: The calls that make an argparse parser.
PARSER_MAKERS = ("ArgumentParser", "add_parser")


def abbreviating_parsers(source: str) -> list[int]:
    """The lines of ``source``'s ``ArgumentParser(...)`` and ``.add_parser(...)`` calls that
    do not say ``allow_abbrev=False``."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute | ast.Name):
            continue
        if getattr(node.func, "attr", getattr(node.func, "id", "")) not in PARSER_MAKERS:
            continue
        value = {k.arg: k.value for k in node.keywords}.get("allow_abbrev")
        if not (isinstance(value, ast.Constant) and value.value is False):
            lines.append(node.lineno)
    return lines


def test_every_parser_of_the_repository_refuses_abbreviations():
    """The scripts beside the package (benchmarks, tools, examples, the studies' scripts, the
    engine's testing tools) too: every parser made says ``allow_abbrev=False``, except in
    friday's own command line, which sets it on every parser it builds (tested above)."""
    listed = subprocess.run(
        ["git", "ls-files", "*.py"], capture_output=True, text=True, cwd=REPO, check=True
    ).stdout.split()
    missing = []
    for name in listed:
        path = REPO / name
        if name.startswith(("agents/friday_agents/cli/", "tests/")) or not path.is_file():
            continue
        missing += [f"{name}:{line}" for line in abbreviating_parsers(path.read_text("utf-8"))]
    assert missing == []


def test_the_scan_finds_a_parser_that_takes_abbreviations():
    planted = (
        "import argparse\n"
        "p = argparse.ArgumentParser(prog='x')\n"
        "p.add_subparsers().add_parser('a', help='b')\n"
        "q = ArgumentParser(allow_abbrev=False)\n"
        "q.add_subparsers().add_parser('c', allow_abbrev=False)\n"
    )
    assert abbreviating_parsers(planted) == [2, 3]
