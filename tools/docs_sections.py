"""The generated sections of the README and the documentation pages.

A generated section lies between ``<!-- section:NAME -->`` and ``<!-- /section:NAME -->``
(:mod:`friday_agents.sections` splices it). This tool writes the ones built from the code and
from the committed results, so no table can drift from what it describes:

- ``docs/cards.md``: ``cards``, every card with its key and counts (from ``friday_env.cards``);
- ``docs/environment.md``: ``env-options``, ``env-actions`` and ``env-observations``, the
  env's options, action ids and observation layouts (from ``friday_env``'s env and encoders);
- ``docs/results.md``: ``results-other-runs``, the agents measured in other runs on the same
  deals (``net`` among them), from their committed results files;
- ``README.md``: ``env-summary``, the env in one table, and ``headline``, the headline
  results table (from the committed results file ``experiments/results/readme_results.json``),
  and ``cite``, the citation (from ``pyproject.toml``).

Run from the repository root::

    python tools/docs_sections.py            # rewrite every section that changed
    python tools/docs_sections.py --check    # exit status 1 if any is out of date

The other generated sections are written by the command that measures them (``friday eval``,
``friday bench``, the study scripts), each named on its page.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tomllib
from collections.abc import Callable, Sequence
from pathlib import Path

from gymnasium import spaces

from friday_agents.players.registry import is_cheating
from friday_agents.sections import replace_section
from friday_env.actions import codec as act
from friday_env.cards import ABILITY_NAMES, CARD_TYPES, Ability, Kind
from friday_env.core import CORES
from friday_env.env import (
    ILLEGAL_ACTION_MODES,
    RENDER_MODES,
    REWARD_MODES,
    SCORE_SCALE,
)
from friday_env.observation import (
    CARD_FEATURES,
    CODE_OF_TYPE,
    DICT_KEYS,
    FLAT_LAYOUT,
    FLAT_SIZE,
    FLAT_TABLE_SLOTS,
    TABLE_EXTRA_FEATURES,
    TABLE_FEATURES,
    DictEncoder,
    card_feature_names,
    encoder_names,
)

REPO = Path(__file__).resolve().parent.parent
COMMAND = "python tools/docs_sections.py"
#: The committed results of the README's evaluation run (``friday eval ... --out``).
HEADLINE_RESULTS = Path("experiments/results/readme_results.json")
#: Rows of the headline table measured in other runs on the same evaluation deals: (results
#: file, agent). ``net`` was measured paired against the network RL fine-tuning started from.
HEADLINE_EXTRA: list[tuple[Path, str]] = [
    (Path("experiments/rl/eval/net_vs_start.json"), "net"),
    (
        Path("experiments/rl/eval/guided_priors.json"),
        "guided:prior=agents/friday_agents/models/net.npz",
    ),
]
#: The committed ``friday bench`` run (``docs/performance.md`` is its full rendering).
BENCH_RESULTS = Path("benchmarks/results.json")


def _table(header: list[str], rows: Sequence[Sequence[object]], align: str = "") -> list[str]:
    """A Markdown table; ``align`` holds one of ``l``/``r`` per column (default left)."""
    align = align or "l" * len(header)
    rule = ["---:" if a == "r" else "---" for a in align]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(rule) + " |"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return lines


# ------------------------------------------------------------------------ cards


def _hazard_side(card) -> str:
    if card.kind == Kind.PIRATE:
        if card.key == "pirate/all-hazards":
            return "sum of the red values of the hazard discard pile"
        if card.key == "pirate/aging":
            return "2 per aging card added"
        return str(card.hazard_values[0])
    if card.kind == Kind.HAZARD:
        return " / ".join(str(v) for v in card.hazard_values)
    return ""


def _card_row(index: int) -> list[object]:
    card = CARD_TYPES[index]
    fighting = card.kind in (Kind.STARTING, Kind.AGING, Kind.HAZARD)
    ability = ABILITY_NAMES[card.ability] if card.ability != Ability.NONE else ""
    if card.kind == Kind.PIRATE:
        ability = card.title if card.special else ""
    kind = card.kind.name.lower()
    if card.kind == Kind.AGING:
        kind = "aging (difficult)" if card.difficult else "aging"
    free = card.free if card.kind in (Kind.HAZARD, Kind.PIRATE) else ""
    return [
        f"`{card.key}`",
        kind,
        card.value if fighting else "",
        ability,
        free,
        _hazard_side(card),
        card.count,
        CODE_OF_TYPE.get(index, ""),
    ]


def cards_section() -> str:
    """The card list of ``docs/cards.md``: one row per distinct card."""
    rows = [_card_row(i) for i in range(len(CARD_TYPES))]
    total = sum(card.count for card in CARD_TYPES)
    lines = [
        *_table(
            ["key", "kind", "value", "ability", "free", "hazard value", "count", "code"],
            rows,
            "llrlrlrr",
        ),
        "",
        f"{total} cards in all. Generated by `{COMMAND}` from `friday_env/cards.py`.",
    ]
    return "\n".join(lines)


# -------------------------------------------------------------------------- env


def _constants() -> dict[int, str]:
    """Action id -> name of the constant in ``friday_env.actions`` that starts there."""
    found: dict[int, str] = {}
    for name, value in vars(act).items():
        sizes = name.startswith(("NUM_", "MAX_")) or name == "SORT_SIZE"
        if name.isupper() and isinstance(value, int) and not sizes:
            found.setdefault(value, name)
    return found


def _action_rows() -> list[list[object]]:
    constants = _constants()
    rows: list[list[object]] = []
    start = 0
    while start < act.NUM_ACTIONS:
        pattern = re.sub(r"\d+", "#", act.ACTION_NAMES[start])
        end = start + 1
        while (
            end < act.NUM_ACTIONS
            and end not in constants
            and re.sub(r"\d+", "#", act.ACTION_NAMES[end]) == pattern
        ):
            end += 1
        ids = str(start) if end == start + 1 else f"{start}–{end - 1}"
        constant = constants[start]
        name = act.ACTION_NAMES[start]
        if end > start + 1:  # a range: USE_0 + k is "use slot k"
            constant = f"{constant.removesuffix('_0')}_k"
            name = pattern.replace("#", f"k (k = 0–{end - start - 1})")
        rows.append([ids, f"`{constant}`", name])
        start = end
    return rows


def _flat_rows() -> list[list[object]]:
    offsets = FLAT_LAYOUT.offsets
    return [
        [offsets[p.name], p.size, f"`{p.name}`", f"{p.low:g} … {p.high:g}", p.meaning]
        for p in FLAT_LAYOUT.pieces
    ]


def _space_text(space: spaces.Space) -> str:
    """A short name of a space: ``MultiDiscrete(59 x 49)``, ``Box(int64, (38,), 0..8)``."""
    if isinstance(space, spaces.MultiDiscrete):
        return f"MultiDiscrete({len(space.nvec)} × {int(space.nvec[0])})"
    if isinstance(space, spaces.Box):
        return f"Box({space.dtype}, {space.shape}, {space.low.min():g}…{space.high.max():g})"
    return str(space)


def _dict_rows() -> list[list[object]]:
    space = DictEncoder().space
    return [[f"`{key}`", _space_text(space[key]), meaning] for key, meaning in DICT_KEYS.items()]


def env_options_section() -> str:
    """The options of ``gymnasium.make("Friday-v0", ...)``."""
    options = [
        ["`level`", "1, 2, 3, 4", "difficulty (R24)"],
        [
            "`observation`",
            ", ".join(f'`"{n}"`' for n in encoder_names()),
            "a registered encoder (`friday_env.observation.encoder_names()`)",
        ],
        [
            "`reward`",
            ", ".join(f'`"{n}"`' for n in REWARD_MODES),
            f"+1/-1 at the end, or the final score (R25) / {SCORE_SCALE:g}",
        ],
        [
            "`illegal_action`",
            ", ".join(["`None`", *(f'`"{n}"`' for n in ILLEGAL_ACTION_MODES)]),
            "default: end the episode as a loss, with a warning; or the same silently, or "
            "raise `IllegalActionError`",
        ],
        ["`render_mode`", ", ".join(f'`"{n}"`' for n in RENDER_MODES), "text, printed, image"],
    ]
    return "\n".join(_table(["option", "values", "meaning"], options))


def env_actions_section() -> str:
    """The action ids of ``Friday-v0`` (the engine's own)."""
    lines = [
        f"`Discrete({act.NUM_ACTIONS})` on every level: the engine's own action ids "
        f"(`friday_env.actions`), with {act.MAX_SLOTS} table slots — every fighting card of "
        "the game — so no legal move is ever inexpressible. The mask is "
        "`game.legal_actions()`.",
        "",
        *_table(["ids", "constant", "name"], _action_rows()),
    ]
    return "\n".join(lines)


def env_observations_section() -> str:
    """The layouts of the ``flat``, ``dict`` and ``flat_mask`` observations."""
    card_features = ", ".join(card_feature_names())
    extra = ", ".join(TABLE_EXTRA_FEATURES)
    lines = [
        f'`observation="flat"`: `Box(float32, ({FLAT_SIZE},))`, these pieces in order '
        "(`friday_env.observation.FLAT_LAYOUT`; `FLAT_LAYOUT.names()` names every entry):",
        "",
        *_table(["offset", "size", "piece", "range", "meaning"], _flat_rows(), "rrlll"),
        "",
        f"Card features ({CARD_FEATURES} per card): {card_features}. Table features "
        f"({TABLE_FEATURES} per slot, {FLAT_TABLE_SLOTS} slots): the card features, then "
        f"{extra}.",
        "",
        '`observation="dict"`: integer arrays (card codes as in the '
        "[card list](cards.md#the-card-list)):",
        "",
        *_table(["key", "space", "meaning"], _dict_rows()),
        "",
        '`observation="flat_mask"`: `{"observation": <flat>, "action_mask": <int8 mask>}`.',
    ]
    return "\n".join(lines)


def env_summary_section() -> str:
    """The README's one table of ``Friday-v0``: spaces, rewards, options, from the code."""
    dict_space = DictEncoder().space
    rows = [
        ["id", "`Friday-v0` (`import friday_env` registers it)"],
        [
            "actions",
            f"`Discrete({act.NUM_ACTIONS})`, the engine's own action ids, on every level; "
            'the legal ones in `info["action_mask"]` and `env.action_masks()` (int8)',
        ],
        [
            "observations",
            f'`"flat"` (default): `Box(float32, ({FLAT_SIZE},))`; `"dict"`: '
            f'{len(dict_space.spaces)} integer arrays; `"flat_mask"`: '
            '`{"observation", "action_mask"}`; only open information',
        ],
        [
            "reward",
            f'0 until the last step; `"win_loss"` (default) +1 / -1, `"score"` the final '
            f"score / {SCORE_SCALE:g}",
        ],
        [
            "episode",
            "one game, about 50 (random play) to 300 (strong play) decisions; ends with "
            "`terminated=True`, never truncated",
        ],
        [
            "options",
            "`level` 1-4, `observation`, `reward`, `illegal_action` "
            f"({', '.join(f'`{m}`' for m in ('None', *ILLEGAL_ACTION_MODES))}), "
            f"`render_mode` ({', '.join(f'`{m}`' for m in RENDER_MODES)}), "
            f"`core` ({', '.join(f'`{c}`' for c in CORES)})",
        ],
        ["reset options", '`{"deal": n}` (a given deal), `{"scenario": {...}}` (start anywhere)'],
        ["last `info`", "`final_score`, `won`, `level`, `fights`, `steps`"],
    ]
    return "\n".join(_table(["", "`Friday-v0`"], rows))


def cite_section() -> str:
    """The README's citation, from the version in ``pyproject.toml`` (as ``CITATION.cff``)."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    lines = [
        "```bibtex",
        "@software{friday_env,",
        f"  title   = {{{project['name']}}},",
        "  author  = {{The friday-env developers}},",
        f"  version = {{{project['version']}}},",
        f"  license = {{{project['license']['text']}}},",
        "}",
        "```",
    ]
    return "\n".join(lines)


# ------------------------------------------------------------------- headline


def _headline_cell(summary: dict) -> str:
    low, high = summary["win_rate_ci"]
    return f"{100 * summary['win_rate']:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


def headline_section(results: dict | None = None, extra: list | None = None) -> str:
    """The README's one results table: win rate per agent and level, from the committed run."""
    if results is None:
        results = json.loads((REPO / HEADLINE_RESULTS).read_text(encoding="utf-8"))
    levels = results["config"]["levels"]
    cells = {(s["agent"], s["level"]): s for s in results["summary"]}
    rows = []
    for agent in results["config"]["agents"]:
        games = sorted({cells[agent, level]["games"] for level in levels})
        label = f"`{agent}`" + (" (cheats)" if is_cheating(agent) else "")
        row = [label, "/".join(str(g) for g in games)]
        rows.append(row + [_headline_cell(cells[agent, level]) for level in levels])
    extra_commands = []
    if extra is None:
        extra = [(json.loads((REPO / f).read_text(encoding="utf-8")), a) for f, a in HEADLINE_EXTRA]
    for other, agent in extra:
        cells = {(s["agent"], s["level"]): s for s in other["summary"]}
        games = sorted({cells[agent, level]["games"] for level in levels})
        row = [f"`{agent}`", "/".join(str(g) for g in games)]
        fair_rows = sum(1 for r in rows if "(cheats)" not in r[0])
        rows.insert(fair_rows, row + [_headline_cell(cells[agent, level]) for level in levels])
        extra_commands.append(f"`{agent}`: `{other['command']}`")
    cpu_hours = sum(s["games"] / s["games_per_second"] for s in results["summary"]) / 3600
    lines = [
        *_table(
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
        *(
            [f"The other rows, on the same deals: {'; '.join(extra_commands)}.", ""]
            if extra
            else []
        ),
        f"This table is generated by `{COMMAND}` from `{HEADLINE_RESULTS.as_posix()}`"
        + "".join(f" and `{Path(f).as_posix()}`" for f, _ in HEADLINE_EXTRA)
        + ".",
    ]
    return "\n".join(lines)


def other_runs_section() -> str:
    """docs/results.md's rows for the agents measured in other runs on the same evaluation
    deals (``HEADLINE_EXTRA``, the README's extra headline rows), in the full table's columns."""
    # the full table's own row format (friday eval's report), so both tables read alike
    from friday_agents.evaluation.report import HEADERS, _row_cells

    lines = ["| " + " | ".join(HEADERS) + " |", "|" + "|".join("---" for _ in HEADERS) + "|"]
    commands = []
    for path, agent in HEADLINE_EXTRA:
        run = json.loads((REPO / path).read_text(encoding="utf-8"))
        lines += [
            "| " + " | ".join(_row_cells(s)) + " |" for s in run["summary"] if s["agent"] == agent
        ]
        commands.append(f"- `{agent}`: `{run['command']}` (`{path.as_posix()}`)")
    return "\n".join([*lines, "", "Measured by:", "", *commands, "", f"Generated by `{COMMAND}`."])


# ----------------------------------------------------------------- core speeds

#: The rows of the committed bench run that compare the cores, as the README names them.
CORE_SPEED_ROWS = (
    ("core_api_ratio", "`legal_actions()` + `apply()` through the `Game` API"),
    ("core_random_play_ratio", "random legal play inside the core, many games in one C call"),
    ("vector_env_c_over_blackjack", "native vector env vs Blackjack-v1 in a `SyncVectorEnv`"),
    ("search_guided_ratio", "`guided`: CPU seconds per game, Python core / compiled core"),
)


def core_speeds_section(doc: dict | None = None) -> str:
    """The README's few lines on the compiled core's speed, from the committed bench run."""
    if doc is None:
        doc = json.loads((REPO / BENCH_RESULTS).read_text(encoding="utf-8"))
    results, targets = doc["results"], doc.get("targets", {})
    rows = []
    for key, label in CORE_SPEED_ROWS:
        if key not in results:
            continue
        bound = targets.get(key, {}).get("bound")
        target = f"≥ {bound:g}×" if bound is not None else ""
        rows.append([label, f"{results[key]['median']:.1f}×", target])
    differing = results.get("search_guided_differing", {}).get("median")
    lines = [
        *_table(["compiled core over", "speed-up", "target"], rows, "lrr"),
        "",
        f"Medians of `{doc['meta']['command']}` on this project's 2-core machine "
        f"(`{BENCH_RESULTS.as_posix()}`; every row in [`docs/performance.md`]"
        "(docs/performance.md)).",
    ]
    if differing is not None:
        lines[-1] += f" Games of `guided` that differ between the cores: {differing:.0f}."
    ppo = results.get("ppo_fps_ratio")
    if ppo is not None:
        bound = targets.get("ppo_fps_ratio", {}).get("bound")
        wanted = f" (target ≥ {100 * bound:g} %)" if bound is not None else ""
        lines[-1] += (
            f" MaskablePPO trains on `Friday-v0` at {100 * ppo['median']:.1f} % of its speed on "
            f"a trivial env with the same spaces{wanted}: the game costs training little."
        )
    return "\n".join(lines)


# ------------------------------------------------------------ expert iteration

#: The expert-iteration study's results (``friday exit`` writes them).
EXIT_RESULTS = Path("experiments/expert-iteration/results")


def _rates(levels: dict[str, float]) -> str:
    return " / ".join(f"{100 * levels[k]:.1f}" for k in sorted(levels))


def exit_rounds_section(out: Path | None = None) -> str:
    """Each expert-iteration round's validation strength, from ``curve.json``."""
    curve = json.loads(((out or REPO / EXIT_RESULTS) / "curve.json").read_text(encoding="utf-8"))
    start = curve["start"]
    rows = [["start", "0.00", _rates(start["net"]), _rates(start["search"])]]
    for row in curve["rows"]:
        cells = [_rates(row["net"]), _rates(row["search"])]
        rows.append([str(row["round"]), f"{row['cpu_hours']:.2f}", *cells])
    config = json.loads(((out or REPO / EXIT_RESULTS) / "config.json").read_text())
    lines = [
        *_table(
            ["round", "CPU hours", "network alone, levels 1/2/3/4 (%)", "guided with it (%)"],
            rows,
            "rrrr",
        ),
        "",
        f"Validation win rates ({config['validation_net']} deals per level for the network "
        f"alone, {config['validation_search']} for `guided:prior=` the round's network); CPU "
        "hours of the games and fits, cumulative. Generated by "
        f"`{COMMAND}` from `{EXIT_RESULTS.as_posix()}/curve.json` (written by `friday exit`).",
    ]
    return "\n".join(lines)


# ------------------------------------------------------------------ RL runs

#: The RL study's summary (``python experiments/rl/report.py`` writes it from the runs).
RL_SUMMARY = Path("experiments/rl/summary.json")


def rl_runs_section(path: Path | None = None) -> str:
    """Each ``friday rl`` run of the study: budget so far and its held-out curve."""
    runs = json.loads((path or REPO / RL_SUMMARY).read_text(encoding="utf-8"))
    rows = []
    for run in runs:
        low, high = run["start_wilson95"]
        rows.append(
            [
                f"`{run['run']}`",
                run["method"],
                f"{run['frames'] / 1e6:.2f} M",
                f"{run['cpu_hours']:.2f}",
                f"{100 * run['start']['win_rate']:.1f} [{100 * low:.1f}, {100 * high:.1f}]",
                f"{100 * run['last']['win_rate']:.1f}",
                f"{100 * run['lowest_win_rate']:.1f} / {100 * run['highest_win_rate']:.1f}",
                f"{run['start']['mean_score']:.1f} → {run['last']['mean_score']:.1f}",
            ]
        )
    header = ["run", "method", "frames", "CPU h", "start (95 % CI)", "last", "low / high", "score"]
    lines = [
        *_table(header, rows, "llrrrrrr"),
        "",
        "Level-1 validation win rates (%) of the greedy policy "
        f"({runs[0]['heldout_deals']} deals), at the start, at the last evaluation, and the "
        "lowest and highest of the curve; mean score start → last. Generated by "
        f"`{COMMAND}` from `{RL_SUMMARY.as_posix()}` (`python experiments/rl/report.py`).",
    ]
    return "\n".join(lines)


# ------------------------------------------------------- learning, paired

#: The learning study's paired runs on the evaluation deals: (results file, baseline, agent,
#: what the row says, the script that plays them). A file not yet committed leaves its row out.
PAIRED_RUNS: list[tuple[Path, str, str, str, str]] = [
    (
        Path("experiments/rl/eval/net_vs_start.json"),
        "net:model=experiments/expert-iteration/results/round-01/network.npz",
        "net",
        "`net` − its start (expert-iteration round 1): RL fine-tuning",
        "experiments/rl/evaluate.sh",
    ),
    (
        Path("experiments/rl/eval/guided_priors.json"),
        "guided",
        "guided:prior=agents/friday_agents/models/net.npz",
        "`guided:prior=agents/friday_agents/models/net.npz` − `guided`",
        "experiments/rl/evaluate.sh",
    ),
    (
        Path("experiments/rl/eval/scratch.json"),
        "net:model=experiments/rl/scratch50m-ppo-l1/policy.npz",
        "net:model=experiments/rl/scratch50m-counts-l1/policy.npz",
        "from scratch, 50 M frames each: count bonus − plain PPO",
        "experiments/rl/evaluate_scratch.sh",
    ),
]


def _points(difference: list[float]) -> str:
    point, low, high = (100 * v for v in difference)
    return f"{point:+.1f} [{low:+.1f}, {high:+.1f}]"


def learning_paired_section(root: Path | None = None) -> str:
    """Paired win-rate differences of the learning study on the evaluation deals."""
    root = root or REPO
    rows, scripts, absolute = [], [], []
    for path, baseline, agent, label, script in PAIRED_RUNS:
        if not (root / path).exists():
            continue
        results = json.loads((root / path).read_text(encoding="utf-8"))
        pairs = {
            c["level"]: c
            for c in results["comparisons"]
            if c["baseline"] == baseline and c["agent"] == agent
        }
        deals = sorted({c["common_games"] for c in pairs.values()})
        cells = [
            _points(pairs[level]["win_rate_difference"]) if level in pairs else "–"
            for level in (1, 2, 3, 4)
        ]
        rows.append([label, "/".join(f"{d:,}" for d in deals), *cells])
        if f"`bash {script}`" not in scripts:
            scripts.append(f"`bash {script}`")
        if path.name == "scratch.json":
            cells = {(s["agent"], s["level"]): s for s in results["summary"]}
            for name, spec in (("plain PPO", baseline), ("count bonus", agent)):
                cell = cells[spec, 1]
                fights = f"{cell['mean_fights']:.1f} fights a game"
                absolute.append(f"{name} {_headline_cell(cell)} ({fights})")
    header = ["paired on the evaluation deals", "deals", "level 1", "level 2", "level 3", "level 4"]
    lines = [
        *_table(header, rows, "lrrrrr"),
        "",
        "Win-rate differences in points, 95 % bootstrap intervals, on the same deals; played by "
        + " and ".join(scripts)
        + f" into `experiments/rl/eval/`, generated by `{COMMAND}`.",
    ]
    if absolute:
        lines[-1] += (
            " The from-scratch policies alone, level 1: "
            + ", ".join(absolute)
            + f" (the heuristic, the aim: {_headline_rate(root, 'heuristic', 1)})."
        )
    return "\n".join(lines)


def _headline_rate(root: Path, agent: str, level: int) -> str:
    """``agent``'s win rate on ``level`` in the README's headline run."""
    results = json.loads((root / HEADLINE_RESULTS).read_text(encoding="utf-8"))
    cell = next(s for s in results["summary"] if (s["agent"], s["level"]) == (agent, level))
    return _headline_cell(cell)


# ---------------------------------------------------------------------- files

#: File (relative to the repository) -> its generated sections, each with its generator.
TARGETS: dict[str, dict[str, Callable[[], str]]] = {
    "README.md": {
        "env-summary": env_summary_section,
        "headline": headline_section,
        "cite": cite_section,
        "core-speeds": core_speeds_section,
        "exit-rounds": exit_rounds_section,
        "rl-runs": rl_runs_section,
        "learning-paired": learning_paired_section,
    },
    "docs/cards.md": {"cards": cards_section},
    "docs/results.md": {"results-other-runs": other_runs_section},
    "docs/environment.md": {
        "env-options": env_options_section,
        "env-actions": env_actions_section,
        "env-observations": env_observations_section,
    },
}


def rewrite(text: str, sections: dict[str, Callable[[], str]]) -> str:
    """``text`` with each of ``sections`` replaced by its generator's output."""
    for name, generate in sections.items():
        text = replace_section(text, name, generate())
    return text


def stale_files(root: Path = REPO) -> list[str]:
    """The files under ``root`` whose generated sections are out of date."""
    stale = []
    for name, sections in TARGETS.items():
        text = (root / name).read_text(encoding="utf-8")
        if rewrite(text, sections) != text:
            stale.append(name)
    return stale


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=COMMAND,
        description="Rewrite the generated sections of the README and the docs pages "
        "(between <!-- section:NAME --> markers).",
    )
    parser.add_argument("--root", type=Path, default=REPO, help="the repository (default: this)")
    parser.add_argument("--check", action="store_true", help="only check, write nothing")
    args = parser.parse_args(argv)
    if args.check:
        stale = stale_files(args.root)
        for name in stale:
            print(f"{name}: generated sections are out of date; run {COMMAND}")
        if not stale:
            print("generated sections: up to date")
        return 1 if stale else 0
    for name, sections in TARGETS.items():
        path = args.root / name
        text = path.read_text(encoding="utf-8")
        new = rewrite(text, sections)
        if new != text:
            path.write_text(new, encoding="utf-8")
        print(f"{name}: {'rewritten' if new != text else 'already up to date'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
