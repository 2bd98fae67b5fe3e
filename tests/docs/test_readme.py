"""The README and the docs pages: generated sections react to their sources, the README's
code runs, its links resolve, and its citation matches ``pyproject.toml`` and
``CITATION.cff``. (``test_rendered_sections.py`` checks every section is fresh.)"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from rendered import copy_files, provider
from splice import section_body

from friday_agents.evaluation.workflow import FULL_TABLE_COMMAND
from friday_agents.models import GUIDED_VALUE_LEAF
from friday_agents.players.resolved import resolve_spec

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"


def test_the_headline_table_is_computed_from_the_results_file(tmp_path):
    headline = provider("headline")
    copy_files(tmp_path, [headline.HEADLINE_RESULTS, *(f for f, _ in headline.HEADLINE_EXTRA)])
    results = json.loads((REPO / headline.HEADLINE_RESULTS).read_text())
    cell = next(s for s in results["summary"] if (s["agent"], s["level"]) == ("guided", 1))
    cell["win_rate"], cell["win_rate_ci"] = 0.5, [0.25, 0.75]
    (tmp_path / headline.HEADLINE_RESULTS).write_text(json.dumps(results))
    before = headline.headline_section(REPO)
    after = headline.headline_section(tmp_path)
    # played before the level-4 leaf study: guided is shown by its explicit spec of then
    old = "| `guided:prior=guided-prior:value=guided-value-per-level:top=1` |"
    row = next(line for line in after.splitlines() if line.startswith(old))
    assert "| 50.0% [25.0, 75.0] |" in row
    assert before != after
    assert headline.explicit_command(results) in after
    # played before the net-scale study: its network named net is shown as net-v1
    assert "`guided:prior=net-v1:value=guided-value-per-level:top=1`" in after
    assert "| `net:model=net-v1` |" in after and "| `net` |" not in after


def test_the_net_row_comes_from_the_net_scale_evaluation_once_it_is_complete(tmp_path):
    """Stage 4's run (the chosen network by its file) gives the row ``net``; a run with
    fewer games is refused, and without it no row is named ``net``."""
    headline = provider("headline")
    copy_files(tmp_path, [headline.HEADLINE_RESULTS, *(f for f, _ in headline.HEADLINE_EXTRA)])
    spec = "net:model=experiments/net-scale/results/rl-l4/policy.npz"
    choice = tmp_path / headline.NET_SCALE_CHOICE
    choice.parent.mkdir(parents=True)
    choice.write_text(json.dumps({"chosen": spec}))
    assert "| `net` |" not in headline.headline_section(tmp_path)
    _level_group_run(tmp_path / headline.NET_SCALE_RUN, spec, [1, 2, 3, 4], 0.875)
    row = next(line for line in headline.headline_section(tmp_path).splitlines()
               if line.startswith("| `net` |"))  # fmt: skip
    assert row.count("87.5% [84.5, 90.5]") == 4
    _level_group_run(tmp_path / headline.NET_SCALE_RUN, spec, [1, 2, 3, 4], 0.875, games=500)
    with pytest.raises(ValueError, match="the `net` row waits for the whole run"):
        headline.headline_section(tmp_path)


def test_friday_eval_names_the_full_tables_command_as_it_played():
    """The note of a small ``friday eval`` run names the full table's command, as the table
    shows it (guided spelled out as it played before its defaults changed)."""
    headline = provider("headline")
    stored = json.loads((REPO / headline.HEADLINE_RESULTS).read_text())
    assert FULL_TABLE_COMMAND == headline.explicit_command(stored) != stored["command"]
    assert FULL_TABLE_COMMAND in README.read_text()


def _level_group_run(
    path: Path,
    spec: str,
    levels: list[int],
    rate: float,
    games: int = 1000,
    played: str | None = None,
) -> None:
    """A run of ``spec`` that played as ``played`` (today's meaning of ``spec`` if None)."""
    summary = [
        {"agent": spec, "level": level, "games": games, "win_rate": rate,
         "win_rate_ci": [rate - 0.03, rate + 0.03]}
        for level in levels
    ]  # fmt: skip
    command = f"friday eval --agents {spec} --levels {levels[0]}-{levels[-1]} --games {games}"
    resolved = resolve_spec(played or spec, sims=32) | {"spec": spec}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        json.dumps(
            {"summary": summary, "command": command, "complete": True, "resolved": {spec: resolved}}
        )
    )


def test_the_guided_row_is_put_together_from_one_run_per_level_group(tmp_path):
    """The row of guided's defaults is read from the studies' runs, one per level group (levels
    1-3 from the leaf study, level 4 from the breadth study), each spec named as its resolved
    spec says it played, and left out while a file is missing."""
    headline = provider("headline")
    copy_files(tmp_path, [headline.HEADLINE_RESULTS, *(f for f, _ in headline.HEADLINE_EXTRA)])
    (levels13, spec), (level4, _) = headline.LEAF_STUDY_RUNS
    assert spec == headline.LEAF_STUDY_SPEC
    # played before the level-4 leaf study and the net-scale study changed what spec means
    played = spec.replace("prior=net:", "prior=net-v1:") + ":top=1"
    _level_group_run(tmp_path / levels13, spec, [1, 2, 3], 0.5, played=played)
    _level_group_run(tmp_path / level4, spec, [4], 0.625, played=played)
    without = headline.headline_section(tmp_path)
    assert not any(line.startswith("| `guided` |") for line in without.splitlines())

    breadth = headline.BREADTH_STUDY_RUN.path
    _level_group_run(tmp_path / breadth, "guided:top=3", [4], 0.75)
    section = headline.headline_section(tmp_path)
    lines = section.splitlines()
    row = next(line for line in lines if line.startswith("| `guided` |"))
    assert row.count("50.0% [47.0, 53.0]") == 3 and row.endswith("| 75.0% [72.0, 78.0] |")
    old = next(n for n, line in enumerate(lines) if line.startswith("| `guided:prior=guided-"))
    assert lines[old - 1] == row  # the new default just above the old one
    assert "level 4 as `guided:top=3`: `friday eval --agents guided:top=3 --levels 4-4" in section
    assert f"levels 1-3 as `{played}`: `friday eval --agents {played} --levels 1-3" in section
    assert f"`{breadth.as_posix()}`" in section and f"`{level4.as_posix()}`" not in section


def test_an_incomplete_breadth_run_is_an_error_not_a_row(tmp_path):
    headline = provider("headline")
    copy_files(tmp_path, [headline.HEADLINE_RESULTS, *(f for f, _ in headline.HEADLINE_EXTRA)])
    for run, levels in zip(headline.LEAF_STUDY_RUNS, ([1, 2, 3], [4]), strict=True):
        _level_group_run(tmp_path / run.path, run.spec, levels, 0.5)
    breadth = headline.BREADTH_STUDY_RUN
    _level_group_run(tmp_path / breadth.path, breadth.spec, [4], 0.75, games=300)
    with pytest.raises(ValueError, match="holds 300 of the 1000 games of guided:top=3"):
        headline.headline_section(tmp_path)


def test_the_leaf_study_file_names_the_models_of_guided_value_leaf():
    """The study's per-level file (the spec its evaluation rows were played with) and the
    model ``guided-value-leaf`` value every level with the same files."""
    study = REPO / "experiments/level4-value/results/leaf_per_level.json"
    for per_level in (study, GUIDED_VALUE_LEAF):
        assert json.loads(per_level.read_text())["format"] == "friday-env/value-per-level"
    named = {
        path: {
            level: (path.parent / name).resolve().read_bytes()
            for level, name in json.loads(path.read_text())["levels"].items()
        }
        for path in (study, GUIDED_VALUE_LEAF)
    }
    assert named[study] == named[GUIDED_VALUE_LEAF]


def test_the_learning_section_is_computed_from_the_paired_files(tmp_path):
    """Each paired row reads its results file (a changed difference shows up) and a file not
    yet committed leaves its row out rather than failing or inventing it."""
    rl = provider("rl")
    source, baseline, agent, _, _ = rl.PAIRED_RUNS[0]
    results = json.loads((REPO / source).read_text())
    pair = next(
        c
        for c in results["comparisons"]
        if (c["baseline"], c["agent"], c["level"]) == (baseline, agent, 2)
    )
    pair["win_rate_difference"] = [0.123, 0.1, 0.15]
    (tmp_path / source).parent.mkdir(parents=True)
    (tmp_path / source).write_text(json.dumps(results))
    section = rl.learning_paired_section(tmp_path)
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
        provider("environment").env_actions_section()
    )


# ------------------------------------------------------------------- the README


def _python_blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, re.DOTALL)


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


#: The ranges the README and the environment page state for hazards beaten a game, before
#: and after training (what the snippet prints depends on the CPU and library versions).
SB3_RANGES = re.compile(r"rise from under (\d+) to between (\d+) and (\d+)")
#: What the snippet prints: hazards beaten a game and games won, before and after training.
SB3_PRINTED = re.compile(
    r"^(?:un)?trained policy: +([\d.]+) hazards beaten a game, (\d+) of 50 won$"
)
#: The CPU the README and the environment page say the whole snippet takes, at most.
SB3_CPU = ("under two minutes of CPU", 120)


def _sb3_ranges(text: str) -> tuple[float, float, float]:
    ((under, low, high),) = SB3_RANGES.findall(" ".join(text.split()))
    return float(under), float(low), float(high)


def test_the_sb3_snippet_is_the_same_in_the_readme_and_the_environment_page():
    page = (REPO / "docs" / "environment.md").read_text(encoding="utf-8")
    readme = README.read_text(encoding="utf-8")
    assert _sb3_snippet(readme) == _sb3_snippet(page)
    assert '"reward": "progress"' in _sb3_snippet(readme)
    assert _sb3_ranges(readme) == _sb3_ranges(page)
    assert all(SB3_CPU[0] in " ".join(text.split()) for text in (readme, page))


@pytest.mark.slow
def test_the_sb3_snippet_prints_what_the_readme_says(tmp_path):
    """The README's claim, measured: the snippet as written prints hazards beaten a game
    within the ranges the README states, before and after training, within the CPU it states."""
    import resource  # POSIX only, as the slow tests' machines are

    readme = README.read_text(encoding="utf-8")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [sys.executable, "-c", _sb3_snippet(readme)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=1800,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert done.returncode == 0, done.stderr
    lines = [SB3_PRINTED.match(line) for line in done.stdout.splitlines()]
    assert len(lines) == 2 and all(lines), done.stdout
    (untrained, _), (trained, _) = (line.groups() for line in lines)
    under, low, high = _sb3_ranges(readme)
    assert float(untrained) < under and low <= float(trained) <= high, done.stdout
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    assert cpu < SB3_CPU[1], f"{cpu:.0f} s of CPU"


def _friday_commands(text: str) -> list[str]:
    """The README's ``friday`` command lines with options (in bash blocks or inline code),
    leaving out those with a placeholder (``NAME``, ``FILE``) and bare command names."""
    lines = [
        part.split("#")[0].strip()
        for block in re.findall(r"```bash\n(.*?)```", text, re.DOTALL)
        for line in block.splitlines()
        for part in line.split("&&")
    ]
    lines += re.findall(r"`(friday [^`]+)`", text)
    return sorted(
        {
            line
            for line in lines
            if line.startswith("friday ")
            and " --" in line
            and not re.search(r"\b[A-Z]{3,}\b", line)
        }
    )


def test_the_readmes_friday_commands_parse():
    """Every ``friday`` command the README shows is accepted by the command as written: a
    renamed or removed flag fails here, not for the reader."""
    from friday_agents.cli import parse_args

    commands = _friday_commands(README.read_text(encoding="utf-8"))
    assert any(c.startswith("friday eval --agents") for c in commands), commands
    for command in commands:
        words = shlex.split(command)[1:]
        try:
            args = parse_args(words)
        except SystemExit:
            pytest.fail(f"the README's command does not parse: {command}")
        assert args.command == words[0]


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
        "license": project["license"],
    }
    assert f"title   = {{{fields['title']}}}" in cite
    assert f"license = {{{fields['license']}}}" in cite
