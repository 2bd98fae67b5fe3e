"""The strategy study's ``strategy`` section (``experiments/strategy/REPORT.md``), from its
committed results file.

`markdown` turns the results of `friday_agents.evaluation.strategy.strategy.analyse` into
tables (per level; per step and per card over all levels) and the findings in sentences,
every number read from the results.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from friday_agents.evaluation.strategy.measures import HAZARD_STEPS, PAIRED_MEASURES
from friday_agents.evaluation.strategy.strategy import load_results
from friday_agents.evaluation.strategy.trace import HAZARD_KINDS
from sections import COMMAND, compact_table
from sections._strategy_findings import findings

#: The committed results of the study (``friday strategy``).
RESULTS = Path("experiments/strategy/results/strategy.json")


def pct(part: float, whole: float) -> str:
    """``part / whole`` as a whole percentage, or a dash when ``whole`` is 0."""
    return f"{100 * part / whole:.0f}%" if whole else "-"


def ratio(part: float, whole: float, digits: int = 2) -> str:
    return f"{part / whole:.{digits}f}" if whole else "-"


def number(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def players(results: dict[str, Any]) -> tuple[str, str]:
    return results["player"], "heuristic"


# ------------------------------------------------------------------ tables


def outcome_table(results: dict[str, Any]) -> list[str]:
    rows = []
    for level, data in results["levels"].items():
        for player in players(results):
            s, p = data[player], data[player]["pirates"]
            quartiles = p["life_quartiles"]
            life = "-" if quartiles is None else f"{p['life_mean']:.1f} ({quartiles[1]:.0f})"
            rows.append(
                [level, player, s["games"], pct(s["wins"], s["games"]),
                 pct(p["reached"], s["games"]), life, pct(p["wins"], p["reached"])]
            )  # fmt: skip
    header = [
        "level", "player", "games", "won", "reached the pirates", "life there: mean (median)",
        "won from there",
    ]  # fmt: skip
    return compact_table(header, rows)


def deck_table(results: dict[str, Any]) -> list[str]:
    rows = []
    for level, data in results["levels"].items():
        for player in players(results):
            s = data[player]
            games, p, by_group = s["games"], s["pirates"], s["destroyed"]["by_group"]
            purpose = sum(f["on_purpose"] for f in s["fights"].values())
            quit_ = sum(f["outcomes"]["quit"] for f in s["fights"].values())
            rows.append(
                [level, player, ratio(sum(s["knowledge"]["acquired"].values()), games, 1),
                 f"{purpose / games:.1f} ({quit_ / games:.2f})",
                 *(ratio(by_group.get(g, 0), games) for g in ("aging", "starting", "knowledge")),
                 f"{number(p['starting_mean'])} / {number(p['aging_mean'])} / "
                 f"{number(p['knowledge_mean'])}"]
            )  # fmt: skip
    header = [
        "level", "player", "hazards beaten", "lost on purpose (free cards left)",
        "aging destroyed", "starting destroyed", "knowledge destroyed",
        "at the pirates: starting / aging / knowledge cards",
    ]  # fmt: skip
    return compact_table(header, rows)


def paired_table(results: dict[str, Any]) -> list[str]:
    levels = list(results["levels"])
    rows = []
    for name, (description, _) in PAIRED_MEASURES.items():
        cells = []
        for level in levels:
            _, _, diff, low, high, _ = results["levels"][level]["paired"][name]
            cells.append(f"{diff:+.2f} [{low:+.2f}, {high:+.2f}]")
        rows.append([description, *cells])
    return compact_table(["per game", *(f"level {lv}" for lv in levels)], rows)


def hazard_table(results: dict[str, Any]) -> list[str]:
    rows = []
    for step in HAZARD_STEPS:
        for player in players(results):
            h = results["all_levels"][player]["hazards"][step]
            kinds = [h["kinds"].get(k, {"taken": 0, "offered": 0}) for k in HAZARD_KINDS]
            rows.append(
                [step, player, h["choices"], pct(h["harder"], h["choices"]),
                 *(pct(k["taken"], k["offered"]) for k in kinds),
                 pct(h["last_fought"], h["last_offered"])]
            )  # fmt: skip
    header = ["step", "player", "choices", "fought the harder", *HAZARD_KINDS, "last one fought"]
    return compact_table(header, rows)


def fight_table(results: dict[str, Any]) -> list[str]:
    rows = []
    for step in HAZARD_STEPS:
        for player in players(results):
            s = results["all_levels"][player]
            f, games = s["fights"][step], s["games"]
            rows.append(
                [step, player, ratio(f["fights"], games, 1), pct(f["outcomes"]["won"], f["fights"]),
                 pct(f["on_purpose"], f["fights"]), pct(f["outcomes"]["quit"], f["on_purpose"]),
                 number(f["on_purpose_life"]), number(f["on_purpose_shortfall"]),
                 number(f["on_purpose_destroyed"]), number(f["on_purpose_unused"]),
                 pct(f["outcomes"]["died"], f["fights"])]
            )  # fmt: skip
    header = [
        "step", "player", "fights per game", "won", "lost on purpose", "of those, free cards left",
        "life then", "points short", "cards destroyed", "points unused", "died",
    ]  # fmt: skip
    return compact_table(header, rows)


def destroyed_table(results: dict[str, Any], rows_shown: int = 14) -> list[str]:
    per_game = {}
    for player in players(results):
        s = results["all_levels"][player]
        per_game[player] = {k: v / s["games"] for k, v in s["destroyed"]["by_card"].items()}
    cards = sorted(
        set().union(*per_game.values()),
        key=lambda card: (-sum(p.get(card, 0.0) for p in per_game.values()), card),
    )
    rows = [[card, *(f"{p.get(card, 0.0):.2f}" for p in per_game.values())] for card in cards]
    return compact_table(["card destroyed, per game", *players(results)], rows[:rows_shown])


def knowledge_table(results: dict[str, Any]) -> list[str]:
    data = {player: results["all_levels"][player] for player in players(results)}
    cards = sorted(set().union(*(d["knowledge"]["acquired"] for d in data.values())))
    rows = []
    for card in cards:
        won = [ratio(d["knowledge"]["acquired"].get(card, 0), d["games"]) for d in data.values()]
        kept = [
            pct(k["at_pirates"].get(card, 0), k["acquired_reaching"].get(card, 0))
            for k in (d["knowledge"] for d in data.values())
        ]
        rows.append([card, " / ".join(won), " / ".join(kept)])
    names = " / ".join(players(results))
    header = ["knowledge card", f"won per game ({names})", f"kept at the pirates ({names})"]
    return compact_table(header, rows)


# ---------------------------------------------------------------- section


def markdown(results: dict[str, Any]) -> str:
    """The ``strategy`` section's body (tables and findings) for ``results``."""
    name = results["player"]
    games = ", ".join(
        f"{data[name]['games']} on level {level}" for level, data in results["levels"].items()
    )
    parts = [
        f"`{name}`'s recorded games against `heuristic` played on the same deals ({games}), "
        f"written by `{results['command']}` "
        f"(this section: `{COMMAND}`). "
        "*Per game* averages over all games of a level; *at the pirates* over the games "
        "that reach them.",
        "",
        *outcome_table(results),
        "",
        *deck_table(results),
        "",
        f"The same per-game measures on the same deals, `{name}` minus `heuristic` "
        "(95% bootstrap intervals):",
        "",
        *paired_table(results),
        "",
        "Hazard choice, all levels together: of the choices between two hazards, the share "
        "in which the one with the higher value in this step was fought, and each hazard's "
        "take rate when offered beside a hazard of another kind:",
        "",
        *hazard_table(results),
        "",
        "Fights against hazards by step, all levels together (*life then*, *points short*, "
        "*cards destroyed* and *points unused* are means over the fights lost on purpose):",
        "",
        *fight_table(results),
        "",
        *destroyed_table(results),
        "",
        *knowledge_table(results),
        "",
        "Findings:",
        "",
        *(f"- {sentence}" for sentence in findings(results)),
    ]
    return "\n".join(parts) + "\n"


SECTIONS = {
    "strategy": (
        "experiments/strategy/REPORT.md",
        lambda repo: markdown(load_results(repo / RESULTS)),
    )
}
