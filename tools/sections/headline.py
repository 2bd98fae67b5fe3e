"""The README's headline results table, from the committed ``friday eval`` runs.

Every run here but `DEFAULT_GUIDED`'s was played before the level-4 leaf study changed
``guided``'s defaults, so its ``guided`` specs are shown (rows and commands) by their explicit
spec of then (``guided`` is ``guided:prior=guided-prior:value=guided-value-per-level``); the
row named ``guided`` is its defaults since, from the study's evaluation runs.
"""

from __future__ import annotations

import re
from pathlib import Path

from friday_agents.players.registry import is_cheating
from friday_agents.players.search.guided import as_before_leaf_study
from sections import COMMAND, read_json, table, wilson_cell

#: The committed results of the README's evaluation run (``friday eval ... --out``).
HEADLINE_RESULTS = Path("experiments/results/readme_results.json")
#: Rows of the headline table measured in other runs on the same evaluation deals: (results
#: file, agent). ``net`` was measured paired against the network RL fine-tuning started from,
#: ``scratch`` paired against the heuristic.
HEADLINE_EXTRA: list[tuple[Path, str]] = [
    (Path("experiments/rl/eval/net_vs_start.json"), "net"),
    (
        Path("experiments/rl/eval/guided_priors.json"),
        "guided:prior=net",
    ),
    (Path("experiments/tracks/eval/scratch.json"), "scratch"),
]
#: ``guided`` with its defaults since the level-4 leaf study, put together from the study's
#: runs on the evaluation deals, one per level group: (results file, the spec it was played
#: as). ``leaf_per_level.json`` names the models of ``guided-value-leaf`` (a test checks it).
#: A file not yet committed leaves the row out.
LEAF_STUDY_SPEC = "guided:prior=net:value=experiments/level4-value/results/leaf_per_level.json"
DEFAULT_GUIDED: tuple[str, list[tuple[Path, str]]] = (
    "guided",
    [
        (
            Path("experiments/level4-value/results/evaluation/levels1-3/results.json"),
            LEAF_STUDY_SPEC,
        ),
        (Path("experiments/level4-value/results/evaluation/level4/results.json"), LEAF_STUDY_SPEC),
    ],
)


def _row(label: str, cells: dict[int, dict], levels: list[int]) -> list[str]:
    games = sorted({cells[level]["games"] for level in levels})
    label = f"`{label}`" + (" (cheats)" if is_cheating(label) else "")
    return [label, "/".join(str(g) for g in games)] + [wilson_cell(cells[lv]) for lv in levels]


def _cells(results: dict, agent: str) -> dict[int, dict]:
    return {s["level"]: s for s in results["summary"] if s["agent"] == agent}


def explicit_command(command: str) -> str:
    """``command`` with each ``guided`` spec of its ``--agents`` named as it played before the
    level-4 leaf study (what a run committed before it measured)."""

    def explicit(match: re.Match) -> str:
        specs = match.group(2).split(",")
        return match.group(1) + ",".join(as_before_leaf_study(s) for s in specs)

    return re.sub(r"(--agents )(\S+)", explicit, command)


def as_measured(results: dict) -> dict:
    """A copy of a run committed before the level-4 leaf study with its ``guided`` specs named
    as they played (agents, summaries, comparisons and command)."""
    results = dict(results)
    results["config"] = dict(results["config"])
    results["config"]["agents"] = [as_before_leaf_study(a) for a in results["config"]["agents"]]
    for key in ("summary", "comparisons"):
        results[key] = [
            {**row, **{k: as_before_leaf_study(row[k]) for k in ("agent", "baseline") if k in row}}
            for row in results.get(key, [])
        ]
    results["command"] = explicit_command(results["command"])
    return results


def default_guided_row(repo: Path, levels: list[int]) -> tuple[list[str], list[str]] | None:
    """The row of ``guided``'s defaults and its commands, or None while a file is missing."""
    label, sources = DEFAULT_GUIDED
    if not all((repo / path).exists() for path, _ in sources):
        return None
    cells, commands = {}, []
    for path, spec in sources:
        results = read_json(repo, path)  # played before guided's new defaults: spelled out
        cells |= _cells(results, spec)
        commands.append(f"`{explicit_command(results['command'])}`")
    return _row(label, cells, levels), commands


def headline_section(repo: Path) -> str:
    """The README's one results table: win rate per agent and level, from the committed run."""
    results = as_measured(read_json(repo, HEADLINE_RESULTS))
    levels = results["config"]["levels"]
    rows = [_row(agent, _cells(results, agent), levels) for agent in results["config"]["agents"]]
    default = default_guided_row(repo, levels)
    if default is not None:
        where = next(n for n, row in enumerate(rows) if row[0].startswith("`guided:"))
        rows.insert(where, default[0])
    extra_commands = []
    for path, agent in HEADLINE_EXTRA:
        other, agent = as_measured(read_json(repo, path)), as_before_leaf_study(agent)
        fair_rows = sum(1 for r in rows if "(cheats)" not in r[0])
        rows.insert(fair_rows, _row(agent, _cells(other, agent), levels))
        extra_commands.append(f"`{agent}`: `{other['command']}`")
    cpu_hours = sum(s["games"] / s["games_per_second"] for s in results["summary"]) / 3600
    files = [HEADLINE_RESULTS, *(f for f, _ in HEADLINE_EXTRA)]
    default_lines = []
    if default is not None:
        files += [f for f, _ in DEFAULT_GUIDED[1]]
        default_lines = [
            f"`guided` is its defaults since the level-4 leaf study (`net` as prior, "
            f"`guided-value-leaf` as value), played as `{LEAF_STUDY_SPEC}` (the same models) "
            f"on the same deals: {'; '.join(default[1])}. The rows "
            f"`{as_before_leaf_study('guided')}` and `{as_before_leaf_study('guided:prior=net')}`"
            " are guided with its value before that study (the first is its defaults then).",
            "",
        ]
    lines = [
        *table(
            ["agent", "games per level", *(f"level {level}" for level in levels)],
            rows,
            "lr" + "r" * len(levels),
        ),
        "",
        f"Win rates with 95% Wilson intervals, on the same evaluation deals for every agent "
        f"({results['games_played']:,} games, about {cpu_hours:.1f} CPU-hours: about "
        f"{cpu_hours / 2:.1f} hours on 2 cores). Reproduce with",
        "",
        "```bash",
        results["command"],
        "```",
        "",
        *default_lines,
        f"The other rows, on the same deals: {'; '.join(extra_commands)}.",
        "",
        f"This table is generated by `{COMMAND}` from "
        + " and ".join(f"`{Path(f).as_posix()}`" for f in files)
        + ".",
    ]
    return "\n".join(lines)


SECTIONS = {"headline": ("README.md", headline_section)}
