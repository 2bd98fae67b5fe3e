"""The README's headline results table, from the committed ``friday eval`` runs.

Each run's specs are shown (rows and commands) as they played: the spec that plays today as
the run's stored resolved spec says it played
([`played_spec`][friday_agents.players.resolved.played_spec]). A run played before the level-4
leaf study changed ``guided``'s defaults shows ``guided`` as
``guided:prior=guided-prior:value=guided-value-per-level:top=1``, and one played before the
net-scale study gave the role ``net`` its network shows ``net`` as ``net:model=net-v1``. The
row named ``guided`` is its defaults since the level-4 breadth study, from the two studies'
evaluation runs.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

from friday_agents.models import ROLES
from friday_agents.players.registry import is_cheating
from friday_agents.players.resolved import file_sha256, played_specs
from sections import COMMAND, read_json, table, wilson_cell

#: The committed results of the README's evaluation run (``friday eval ... --out``).
HEADLINE_RESULTS = Path("experiments/results/readme_results.json")
#: guided with the ``net`` agent's network as prior, beside the network fine-tuned from it.
GUIDED_PRIORS_RUN = Path("experiments/rl/eval/guided_priors.json")
#: The registered ``scratch``'s one play of the evaluation deals, beside the heuristic and
#: guided (the no-teacher study, ``experiments/no-teacher/``).
SCRATCH_RUN = Path("experiments/no-teacher/results/eval/scratch.json")
#: The registered ``scratch-search`` and ``scratch-distilled``'s one play of the evaluation
#: deals, beside the heuristic and guided (the no-teacher study's stage 6).
SCRATCH_SEARCH_RUN = Path("experiments/no-teacher/results/eval/scratch-search.json")
#: Rows of the headline table measured in other runs on the same evaluation deals: (results
#: file, agent). ``net`` was measured paired against the network RL fine-tuning started from,
#: ``scratch`` paired against the heuristic and guided.
HEADLINE_EXTRA: list[tuple[Path, str]] = [
    (Path("experiments/rl/eval/net_vs_start.json"), "net"),
    (GUIDED_PRIORS_RUN, "guided:prior=net"),
    (SCRATCH_RUN, "scratch"),
    (SCRATCH_SEARCH_RUN, "scratch-search"),
    (SCRATCH_SEARCH_RUN, "scratch-distilled"),
]
#: The script step that wrote a row's results file, where one did (it also copies the run's
#: results.json to the file): shown beside the run's own command.
WRITTEN_BY = {
    SCRATCH_RUN: "bash experiments/no-teacher/run.sh eval-scratch",
    SCRATCH_SEARCH_RUN: "bash experiments/no-teacher/run.sh eval-scratch-search",
}


class RowRun(NamedTuple):
    """One run giving cells of a row: its results file and the spec as the file names it."""

    path: Path
    spec: str


def played_names(results: dict) -> dict[str, str]:
    """Each spec of a committed run -> the spec that played, from its resolved specs."""
    return played_specs(results)


def check_played_today(path: Path, results: dict, spec: str) -> None:
    """Raise ValueError unless every model file ``spec`` loaded by role in the run at ``path``
    (its resolved spec's SHA-256) is that role's file today. A spec that takes no option (such
    as ``scratch``) reads the same after its role's file is replaced, so without this a row
    would name today's agent with an earlier file's results."""
    for model in results["resolved"][spec]["models"]:
        role = model["role"]
        if role is not None and model["sha256"] != file_sha256(ROLES[role]):
            raise ValueError(
                f"{path}: {spec!r} played a {role} file (SHA-256 {model['sha256'][:12]}) that "
                f"is not today's {ROLES[role].name}; play the evaluation deals again"
            )


def reproduced_by(path: Path, command: str) -> str:
    """A row's command, with the script step that wrote its results file where one did."""
    step = WRITTEN_BY.get(path)
    return f"`{command}`" + (f" (`{step}`)" if step else "")


#: The level-4 leaf study's runs on the evaluation deals (``leaf_per_level.json`` names the
#: models of ``guided-value-leaf``, a test checks it), played before guided's defaults changed:
#: guided with one prior candidate on levels 1-3 and on level 4.
LEAF_STUDY_SPEC = "guided:prior=net:value=experiments/level4-value/results/leaf_per_level.json"
LEAF_STUDY_RUNS = (
    RowRun(
        Path("experiments/level4-value/results/evaluation/levels1-3/results.json"), LEAF_STUDY_SPEC
    ),
    RowRun(
        Path("experiments/level4-value/results/evaluation/level4/results.json"), LEAF_STUDY_SPEC
    ),
)
#: The level-4 breadth study's run on 1,000 level-4 evaluation deals (rule 3), of the
#: configuration ``guided`` plays on level 4 since (``experiments/level4-breadth/``), played
#: after guided's last change and before ``net``'s.
BREADTH_STUDY_RUN = RowRun(
    Path("experiments/level4-breadth/results/evaluation/level4/results.json"), "guided:top=3"
)
BREADTH_STUDY_GAMES = 1000
#: The net-scale study's stage 4 (``experiments/net-scale/evaluate.sh``): its chosen network on
#: 1,000 evaluation deals per level, played by its file before it was installed as ``net``.
NET_SCALE_RUN = Path("experiments/net-scale/results/eval/results.json")
NET_SCALE_CHOICE = Path("experiments/net-scale/results/selection/choice.json")
NET_SCALE_GAMES = 1000


def default_guided_runs(repo: Path) -> tuple[str, list[RowRun]] | None:
    """The label of the row of ``guided``'s defaults and the runs its cells come from (each
    run's levels), or None while a file is missing: levels 1-3 from the leaf study (guided
    plays there as it did then), level 4 from the breadth study's run. A breadth run
    committed incomplete is an error."""
    levels13, _ = LEAF_STUDY_RUNS
    if not all((repo / run.path).exists() for run in (levels13, BREADTH_STUDY_RUN)):
        return None
    run = BREADTH_STUDY_RUN
    _whole_run(repo, run.path, run.spec, BREADTH_STUDY_GAMES, "guided's level-4 cell")
    return "guided", [levels13, run]


def _whole_run(repo: Path, path: Path, spec: str, games: int, waiting: str) -> dict:
    """The run at ``path``, which must be complete with ``games`` games of ``spec`` on each of
    its levels, else an error saying that ``waiting`` waits for the whole run."""
    results = read_json(repo, path)
    cells = _cells(results, spec)
    if not results.get("complete") or {cell["games"] for cell in cells.values()} != {games}:
        held = min((cell["games"] for cell in cells.values()), default=0)
        raise ValueError(
            f"{path} holds {held} of the {games} games of {spec} a level (complete: "
            f"{results.get('complete')}): {waiting} waits for the whole run"
        )
    return results


def _row(label: str, cells: dict[int, dict], levels: list[int]) -> list[str]:
    games = sorted({cells[level]["games"] for level in levels})
    label = f"`{label}`" + (" (cheats)" if is_cheating(label) else "")
    return [label, "/".join(str(g) for g in games)] + [wilson_cell(cells[lv]) for lv in levels]


def _cells(results: dict, agent: str) -> dict[int, dict]:
    return {s["level"]: s for s in results["summary"] if s["agent"] == agent}


def explicit_command(results: dict) -> str:
    """A committed run's command with each spec of its ``--agents`` named as it played."""
    names = played_names(results)

    def explicit(match: re.Match) -> str:
        specs = match.group(2).split(",")
        return match.group(1) + ",".join(names[s] for s in specs)

    return re.sub(r"(--agents )(\S+)", explicit, results["command"])


def as_measured(results: dict) -> dict:
    """A copy of a committed run with its specs named as they played (agents, summaries,
    comparisons and command)."""
    names = played_names(results)
    measured = dict(results)
    measured["config"] = dict(results["config"])
    measured["config"]["agents"] = [names[a] for a in results["config"]["agents"]]
    for key in ("summary", "comparisons"):
        measured[key] = [
            {**row, **{k: names[row[k]] for k in ("agent", "baseline") if k in row}}
            for row in results.get(key, [])
        ]
    measured["command"] = explicit_command(results)
    return measured


def net_row(repo: Path, levels: list[int]) -> tuple[list[str], str] | None:
    """The row of ``net`` (the network the net-scale study chose and installed) and its
    command, from stage 4's run, or None before that run is committed. The run names the
    network by its file; an incomplete run is an error."""
    if not (repo / NET_SCALE_RUN).exists():
        return None
    spec = read_json(repo, NET_SCALE_CHOICE)["chosen"]
    results = _whole_run(repo, NET_SCALE_RUN, spec, NET_SCALE_GAMES, "the `net` row")
    command = f"`net` (`{spec}` before it was installed as `net`): `{results['command']}`"
    return _row("net", _cells(results, spec), levels), command


class DefaultRow(NamedTuple):
    """The row of ``guided``'s defaults, the note under the table and the files it is from."""

    row: list[str]
    lines: list[str]
    files: list[Path]


def default_guided_row(repo: Path, levels: list[int]) -> DefaultRow | None:
    """The row of ``guided``'s defaults, with a note naming each run it comes from (its
    levels, the spec it played as and its command), or None while a file is missing."""
    found = default_guided_runs(repo)
    if found is None:
        return None
    label, runs = found
    cells, notes = {}, []
    for run in runs:
        results = read_json(repo, run.path)
        mine = {lv: cell for lv, cell in _cells(results, run.spec).items() if lv not in cells}
        cells |= mine
        played = played_names(results)[run.spec]
        notes.append(f"{_levels_text(sorted(mine))} as `{played}`: `{explicit_command(results)}`")
    files = [run.path for run in runs]
    return DefaultRow(_row(label, cells, levels), _default_guided_lines(repo, notes), files)


def _levels_text(levels: list[int]) -> str:
    if len(levels) == 1:
        return f"level {levels[0]}"
    return f"levels {levels[0]}-{levels[-1]}"


def _default_guided_lines(repo: Path, notes: list[str]) -> list[str]:
    """The note under the table on the row of guided's defaults."""
    played = [
        played_names(read_json(repo, path))[spec]
        for path, spec in ((HEADLINE_RESULTS, "guided"), (GUIDED_PRIORS_RUN, "guided:prior=net"))
    ]
    then = " and ".join(f"`{spec}`" for spec in played)
    what = (
        "`guided` is its defaults since the level-4 breadth study (`net-v1` as prior, "
        "`guided-value-leaf` as value, the prior's best action tried on levels 1-3 and its "
        "best three on level 4)"
    )
    return [
        f"{what}, on the same deals: {'; '.join(notes)}. The rows {then} are guided "
        "with its value before the level-4 leaf study (the first is its defaults then).",
        "",
    ]


def headline_section(repo: Path) -> str:
    """The README's one results table: win rate per agent and level, from the committed run."""
    results = as_measured(read_json(repo, HEADLINE_RESULTS))
    levels = results["config"]["levels"]
    rows = [_row(agent, _cells(results, agent), levels) for agent in results["config"]["agents"]]
    default = default_guided_row(repo, levels)
    if default is not None:
        where = next(n for n, row in enumerate(rows) if row[0].startswith("`guided:"))
        rows.insert(where, default.row)
    extra_commands = []
    net = net_row(repo, levels)
    if net is not None:
        rows.insert(sum(1 for r in rows if "(cheats)" not in r[0]), net[0])
        extra_commands.append(net[1])
    played_by: dict[Path, tuple[list[str], str]] = {}  # file -> its agents, its command
    for path, agent in HEADLINE_EXTRA:
        run = read_json(repo, path)
        check_played_today(path, run, agent)
        other, agent = as_measured(run), played_names(run)[agent]
        fair_rows = sum(1 for r in rows if "(cheats)" not in r[0])
        rows.insert(fair_rows, _row(agent, _cells(other, agent), levels))
        played_by.setdefault(path, ([], reproduced_by(path, other["command"])))[0].append(agent)
    for agents, command in played_by.values():
        extra_commands.append(f"{', '.join(f'`{a}`' for a in agents)}: {command}")
    cpu_hours = sum(s["games"] / s["games_per_second"] for s in results["summary"]) / 3600
    extra_files = dict.fromkeys(f for f, _ in HEADLINE_EXTRA)  # one file may give two rows
    files = [HEADLINE_RESULTS, *extra_files, *(default.files if default else [])]
    files += [NET_SCALE_RUN] if net is not None else []
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
        *(default.lines if default else []),
        f"The other rows, on the same deals: {'; '.join(extra_commands)}.",
        "",
        f"This table is generated by `{COMMAND}` from "
        + " and ".join(f"`{Path(f).as_posix()}`" for f in files)
        + ".",
    ]
    return "\n".join(lines)


SECTIONS = {"headline": ("README.md", headline_section)}
