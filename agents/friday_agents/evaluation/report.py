"""Turn an evaluation's per-game rows into numbers, files and plots.

Per agent and level: games, wins, the win rate with its 95% Wilson interval, mean and median
score with 95% bootstrap intervals, mean game length (actions and fights) and games/s (one
core). Consecutive fair agents in the list are also compared on the deals both played
(paired differences; a cheating agent such as ``oracle`` is left out), and each level says
whether the later agent beats the earlier one by a margin outside both 95% intervals — by
win rate, else by mean score.

Everything written (``results.json``, ``results.csv``, ``winrate.png``, ``scores.png``)
comes from ``games.jsonl`` alone, so a report can be rebuilt at any time. Markdown is not
written here: ``python tools/docs_sections.py`` renders the documentation's results table
from a committed ``results.json``.
"""

from __future__ import annotations

import csv
import itertools
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from friday_agents.evaluation import game_ends
from friday_agents.evaluation.runner import EvalConfig
from friday_agents.harness.deals import EVAL_SEED_BASE, EVAL_SEEDS_PER_LEVEL, VALIDATION_FIRST_INDEX
from friday_agents.harness.files import replace_atomically, write_text_atomically
from friday_agents.harness.stats import (
    bootstrap_interval,
    paired_difference_interval,
    wilson_interval,
)
from friday_agents.players.registry import is_cheating, parse_spec
from friday_agents.players.resolved import resolve_specs

SEED_RULE = (
    f"deal i of level L has seed {EVAL_SEED_BASE:_} + L * {EVAL_SEEDS_PER_LEVEL:_} + i "
    "(friday_agents.harness.deals.evaluation_seed)"
)
#: The seed rule of each deal set (`friday_agents.harness.deals.DEAL_SETS`).
SEED_RULES = {
    "evaluation": SEED_RULE,
    "validation": f"validation deals: deal i of level L has seed L * 1_000_000 + "
    f"{VALIDATION_FIRST_INDEX:_} + i (friday_agents.harness.deals.validation_seed)",
}
#: One line per known agent, to describe it beside its results; other agents are listed by spec.
AGENT_NOTES = {
    "random": "uniform over the legal actions (`agents/friday_agents/players/random_agent.py`)",
    "heuristic": "hand-written rules: hazard choice, free draws, pay-or-lose lookahead, "
    "deliberate losses destroying aging and bad cards, abilities "
    "(`agents/friday_agents/players/heuristic/`)",
    "search": "determinized Monte-Carlo over engine clones: every candidate action tried in "
    "the same sampled worlds, heuristic rollouts to the end of the fight, a value fitted on "
    "heuristic games (`agents/friday_agents/players/search/`)",
    "guided": "the search guided by what it learned from its own games: the `net` agent's "
    "network before the net-scale study (model `net-v1`) proposes its best action (its best "
    "three on level 4) and the search referees "
    "between them and the heuristic's choice; the leaf value, chosen per level on validation "
    "deals, is a linear model with a weight per card type Robinson holds, fitted on guided's "
    "and the search's games (levels 1-3), or a network of the probability of winning (level 4) "
    "(`agents/friday_agents/players/search/guided.py`; see 'Stronger search')",
    "oracle": "CHEATS, an upper bound and not ranked: the search planning on the true hidden "
    "state (the real stack orders; only future shuffles left to chance) "
    "(`agents/friday_agents/players/search/oracle.py`)",
    "ppo": "a MaskablePPO policy network (one for all levels) that imitates the search agent: "
    "heuristic imitation, then 370 search games per level with the search's action values as "
    "soft targets, then one DAgger round labelled by search (`agents/friday_agents/players/ppo/`, "
    "`agents/friday_agents/models/ppo_all_levels.zip`, recipe in `experiments/imitation/`; see "
    "'Learned agents')",
}
#: What a spec's option changes about its agent, said after the agent's own note: a spec is
#: described whole (``oracle:prior=guided-prior`` is not the plain oracle). An option
#: not listed here is shown as written. Models are named by role (friday_agents.models).
OPTION_NOTES = {
    ("prior", "guided-prior"): "the policy prior fitted on the search's action values prunes "
    "the candidates, as guided's before the level-4 leaf study (model `guided-prior`)",
    ("prior", "net"): "the `net` agent's network prunes the candidates (model `net`)",
    ("prior", "net-v1"): "the `net` agent's network before the net-scale study prunes the "
    "candidates, as guided's (model `net-v1`)",
    ("model", "net-v1"): "the `net` network before the net-scale study (model `net-v1`)",
    ("value", "guided-value-per-level"): "leaf value chosen per level, as guided's before the "
    "level-4 leaf study (model `guided-value-per-level`: linear on every level)",
    ("value", "guided-value-leaf"): "leaf value chosen per level, as guided's "
    "(model `guided-value-leaf`)",
    ("value", "value-net"): "the value network as leaf value (model `value-net`)",
    ("rollout", "guided-prior"): "rollouts played by the policy network",
    ("top", "1"): "the prior's best action alone on every level, as guided's before the "
    "level-4 breadth study",
}
#: Options that replace what the agent's note describes (its committed model): the spec is
#: then described by this note instead.
REPLACING_OPTIONS = {("ppo", "model"): "a MaskablePPO policy loaded from a checkpoint"}
#: The agents that search, so that a simulation budget applies to them.
SEARCHING = ("search", "guided", "oracle")


def _cell(rows: list[dict[str, Any]], agent: str, level: int) -> list[dict[str, Any]]:
    return sorted(
        (r for r in rows if r["agent"] == agent and r["level"] == level), key=lambda r: r["index"]
    )


def summarize(rows: list[dict[str, Any]], config: EvalConfig, seed: int = 0) -> list[dict]:
    """One summary per agent and level that has at least one finished game."""
    summary = []
    for agent in config.agents:
        for level in config.levels:
            games = _cell(rows, agent, level)
            if games:
                summary.append(_summary(agent, level, games, config.games[agent], seed))
    return summary


def _summary(agent: str, level: int, games: list[dict], planned: int, seed: int) -> dict:
    n = len(games)
    wins = sum(1 for g in games if g["won"])
    scores = np.array([g["score"] for g in games], dtype=float)
    seconds = sum(g["seconds"] for g in games)
    return {
        "agent": agent,
        "level": level,
        "games": n,
        "planned": planned,
        "wins": wins,
        "win_rate": wins / n,
        "win_rate_ci": list(wilson_interval(wins, n)),
        "mean_score": float(scores.mean()),
        "mean_score_ci": list(bootstrap_interval(scores, "mean", seed=seed)),
        "median_score": float(np.median(scores)),
        "median_score_ci": list(bootstrap_interval(scores, "median", seed=seed)),
        "mean_actions": float(np.mean([g["actions"] for g in games])),
        "mean_fights": float(np.mean([g["fights"] for g in games])),
        "games_per_second": n / seconds if seconds > 0 else float("inf"),
        # mean hazards beaten and where the games end (rows of older runs lack them)
        **game_ends.progress_summary(games, seed=seed),
    }


def compare(rows: list[dict], config: EvalConfig, summary: list[dict], seed: int = 0) -> list[dict]:
    """Each fair agent against the fair agent listed before it, per level, on their common
    deals. Cheating agents (`friday_agents.players.registry.CHEATING_AGENTS`) are not ranked."""
    by_cell = {(s["agent"], s["level"]): s for s in summary}
    comparisons = []
    fair = [agent for agent in config.agents if not is_cheating(agent)]
    for before, after in itertools.pairwise(fair):
        for level in config.levels:
            first = {g["index"]: g for g in _cell(rows, before, level)}
            second = {g["index"]: g for g in _cell(rows, after, level)}
            common = sorted(first.keys() & second.keys())
            if not common or (before, level) not in by_cell or (after, level) not in by_cell:
                continue
            score_diff = paired_difference_interval(
                [first[i]["score"] for i in common], [second[i]["score"] for i in common], seed=seed
            )
            win_diff = paired_difference_interval(
                [first[i]["won"] for i in common], [second[i]["won"] for i in common], seed=seed
            )
            comparisons.append(
                {
                    "baseline": before,
                    "agent": after,
                    "level": level,
                    "common_games": len(common),
                    "score_difference": list(score_diff),
                    "win_rate_difference": list(win_diff),
                    "beats_by": beats_by(by_cell[(before, level)], by_cell[(after, level)]),
                }
            )
    return comparisons


def beats_by(baseline: dict, agent: dict) -> str | None:
    """``"win rate"`` if the agent's win-rate interval lies wholly above the baseline's,
    else ``"mean score"`` if its mean-score interval does, else None."""
    if agent["win_rate_ci"][0] > baseline["win_rate_ci"][1]:
        return "win rate"
    if agent["mean_score_ci"][0] > baseline["mean_score_ci"][1]:
        return "mean score"
    return None


def build_results(rows: list[dict], config: EvalConfig, command: str, seed: int = 0) -> dict:
    summary = summarize(rows, config, seed)
    planned = sum(config.games[a] for a in config.agents) * len(config.levels)
    return {
        "format": "friday-env/evaluation-results",
        "command": command,
        "seeds": SEED_RULES[config.deals],
        "bootstrap_seed": seed,
        "complete": len(rows) == planned,
        "games_played": len(rows),
        "games_planned": planned,
        "config": config.to_json()["config"],
        # what each spec played: every option and each model file by role and SHA-256
        "resolved": resolve_specs(config.agents, sims=config.search_sims),
        "summary": summary,
        "comparisons": compare(rows, config, summary, seed),
    }


# ---------------------------------------------------------------- text


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def interval(low: float, high: float, *, percent: bool = False) -> str:
    if percent:
        return f"[{100 * low:.1f}, {100 * high:.1f}]"
    return f"[{low:.1f}, {high:.1f}]"


def agent_label(spec: str) -> str:
    """How a table names an agent: a cheating one says so beside its spec."""
    return f"{spec} (cheats)" if is_cheating(spec) else spec


def row_cells(s: dict) -> list[str]:
    return [
        agent_label(s["agent"]),
        str(s["level"]),
        str(s["games"]),
        str(s["wins"]),
        f"{_pct(s['win_rate'])} {interval(*s['win_rate_ci'], percent=True)}",
        f"{s['mean_score']:.1f} {interval(*s['mean_score_ci'])}",
        f"{s['median_score']:.1f} {interval(*s['median_score_ci'])}",
        f"{s['mean_actions']:.0f}",
        f"{s['mean_fights']:.1f}",
        f"{s['games_per_second']:.1f}",
    ]


HEADERS = [
    "agent",
    "level",
    "games",
    "wins",
    "win rate [95% CI]",
    "mean score [95% CI]",
    "median score [95% CI]",
    "actions",
    "fights",
    "games/s",
]


def aligned_table(header: list[str], rows: Sequence[Sequence[object]]) -> str:
    """A plain-text table: left-aligned columns, a dashed rule under the header."""
    table = [header] + [[str(cell) for cell in row] for row in rows]
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)) for row in table]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def text_table(results: dict) -> str:
    """The summary as an aligned plain-text table; with the progress columns
    (`friday_agents.evaluation.game_ends`) where the games hold them."""
    summary = results["summary"]
    if not any("ends" in s for s in summary):  # a run written before they existed
        return aligned_table(HEADERS, [row_cells(s) for s in summary])
    rows = [[*row_cells(s), *game_ends.progress_cells(s)] for s in summary]
    return aligned_table([*HEADERS, *game_ends.HEADERS], rows)


def agent_description(spec: str, search_sims: int) -> str:
    """What the agent a spec names is, from the whole spec: the agent's note, then what each
    of its options changes (`OPTION_NOTES`), then its simulation budget if it searches
    (``sims=`` in the spec, else ``search_sims``)."""
    name, options = parse_spec(spec)
    parts = [AGENT_NOTES.get(name, "")]
    for key, value in options.items():
        if (name, key) in REPLACING_OPTIONS:
            parts[0] = REPLACING_OPTIONS[name, key]
        if key != "sims":
            default = f"`{key}={value}` instead of the default"
            parts.append(OPTION_NOTES.get((key, str(value)), default))
    if name in SEARCHING:
        parts.append(f"{options.get('sims', search_sims)} simulations per decision")
    return "; ".join(part for part in parts if part)


# --------------------------------------------------------------- files


def write_json(results: dict, path: Path) -> None:
    """``results.json``, replaced whole (a full disk or a kill leaves the last one)."""
    write_text_atomically(path, json.dumps(results, indent=1) + "\n")


def write_csv(results: dict, path: Path) -> None:
    """``results.csv``, replaced whole as `write_json` is."""
    replace_atomically(path, lambda temporary: _write_csv(results, temporary))


def _write_csv(results: dict, path: Path) -> None:
    fields = [
        "agent", "level", "games", "wins", "win_rate", "win_rate_low", "win_rate_high",
        "mean_score", "mean_score_low", "mean_score_high", "median_score", "median_score_low",
        "median_score_high", "mean_actions", "mean_fights", "games_per_second",
        "mean_hazards_beaten", *(f"ends_{place}" for place in game_ends.END_PLACES),
    ]  # fmt: skip
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields)
        writer.writeheader()
        for s in results["summary"]:
            row = {k: s[k] for k in fields if k in s}
            for name in ("win_rate", "mean_score", "median_score"):
                row[f"{name}_low"], row[f"{name}_high"] = s[f"{name}_ci"]
            row |= {f"ends_{place}": share for place, share in s.get("ends", {}).items()}
            writer.writerow(row)


if __name__ == "__main__":  # this module rendered the results section until 0.2
    import sys

    from friday_agents.harness.errors import README_GONE

    sys.exit(f"python -m friday_agents.evaluation.report: error: gone: {README_GONE}")
