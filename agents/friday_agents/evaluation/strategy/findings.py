"""The findings of a strategy analysis in sentences, every number read from the results.

Each function returns one sentence (Markdown) about the recorded player against the
heuristic; the numbers are filled in from `friday_agents.evaluation.strategy.strategy.analyse`'s
results, so a new games file rewrites the findings with its own numbers. The sentences
state numbers side by side and leave the judgement to the reader.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from friday_agents.evaluation.strategy.measures import PAIRED_MEASURES

#: Paired measures that are outcomes rather than play; left out of "where they differ most".
OUTCOME_MEASURES = ("won", "reached_pirates")


def _pct(part: float, whole: float) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "-"


def _per(part: float, whole: float) -> str:
    return f"{part / whole:.2f}" if whole else "-"


def _one(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def _sum(counts: dict[str, int], test: Any = None) -> int:
    return sum(v for k, v in counts.items() if test is None or test(k))


def pirates_finding(results: dict[str, Any]) -> str:
    name, levels = results["player"], results["levels"]
    parts = []
    for level in dict.fromkeys((next(iter(levels)), list(levels)[-1])):
        mine, theirs = (levels[level][p] for p in (name, "heuristic"))
        parts.append(
            f"level {level}: {_pct(mine['pirates']['reached'], mine['games'])} of its "
            f"{mine['games']} games, with {_one(mine['pirates']['life_mean'])} life on average "
            f"(heuristic {_pct(theirs['pirates']['reached'], theirs['games'])}, with "
            f"{_one(theirs['pirates']['life_mean'])})"
        )
    bins = results["all_levels"][name]["pirates"]["life_bins"]
    low = bins["0-5"]
    high = {k: sum(b[k] for label, b in bins.items() if label != "0-5") for k in ("games", "wins")}
    return (
        f"**Life at the pirates.** `{name}` reaches the pirates on {'; '.join(parts)}. "
        f"Over all levels it won {low['wins']} of the {low['games']} games in which it met "
        f"them with 0-5 life and {high['wins']} of {high['games']} with 6 or more."
    )


def hazard_finding(results: dict[str, Any]) -> str:
    name = results["player"]
    h = {p: s["hazards"] for p, s in results["all_levels"].items()}

    def take(player: str, step: str, kind: str) -> str:
        rates = h[player][step]["kinds"].get(kind, {"taken": 0, "offered": 0})
        return _pct(rates["taken"], rates["offered"])

    def harder(player: str, step: str) -> str:
        return _pct(h[player][step]["harder"], h[player][step]["choices"])

    return (
        f"**Hazards.** In the green step `{name}` fights the harder of the two hazards in "
        f"{harder(name, 'green')} of its choices (heuristic {harder('heuristic', 'green')}) "
        f"and takes the raft in {take(name, 'green', 'raft')} of the offers beside another "
        f"hazard (heuristic {take('heuristic', 'green', 'raft')}). In the red step it takes "
        f"Wild animals in {take(name, 'red', 'animals')} and Cannibals in "
        f"{take(name, 'red', 'cannibals')} of such offers (heuristic "
        f"{take('heuristic', 'red', 'animals')}, {take('heuristic', 'red', 'cannibals')}) "
        f"and fights the harder hazard in {harder(name, 'red')} of its choices (heuristic "
        f"{harder('heuristic', 'red')})."
    )


def _both(results: dict[str, Any], stats: Callable[[dict[str, Any]], dict[str, Any]]) -> tuple:
    """``stats`` of the recorded player's and the heuristic's results over all levels."""
    data = results["all_levels"]
    return stats(data[results["player"]]), stats(data["heuristic"])


def _purpose_stats(s: dict[str, Any]) -> dict[str, Any]:
    f = s["fights"]
    purpose = sum(x["on_purpose"] for x in f.values())
    return {
        "per_game": _per(purpose, s["games"]),
        "quit": _pct(sum(x["outcomes"]["quit"] for x in f.values()), purpose),
        "life": [_one(f[step]["on_purpose_life"]) for step in ("green", "yellow", "red")],
        "unused": _one(f["green"]["on_purpose_unused"]),
    }


def purpose_finding(results: dict[str, Any]) -> str:
    name = results["player"]
    mine, theirs = _both(results, _purpose_stats)
    return (
        f"**Losing on purpose.** Over all levels `{name}` loses {mine['per_game']} hazard "
        f"fights per game on purpose, the heuristic {theirs['per_game']}; {mine['quit']} of "
        f"`{name}`'s end with free cards still to draw (heuristic {theirs['quit']}). It gives "
        f"up with {mine['life'][0]}, {mine['life'][1]} and {mine['life'][2]} life on average "
        f"in the green, yellow and red steps, the heuristic with {theirs['life'][0]}, "
        f"{theirs['life'][1]} and {theirs['life'][2]}. Of the points a green loss costs, "
        f"{mine['unused']} on average buy no destroy (heuristic {theirs['unused']})."
    )


def _destroy_stats(s: dict[str, Any]) -> dict[str, Any]:
    d, games = s["destroyed"], s["games"]
    knowledge = d["by_group"].get("knowledge", 0)
    return {
        "aging": _per(d["by_group"].get("aging", 0), games),
        "aging_ability": _pct(
            d["by_route"].get("aging, ability", 0), d["by_group"].get("aging", 0)
        ),
        "starting": _per(d["by_group"].get("starting", 0), games),
        "focused": _per(d["by_card"].get("focused", 0), games),
        "knowledge": _per(knowledge, games),
        "raft": _pct(_sum(d["by_card"], lambda k: k.startswith("raft/")), knowledge),
        "left": _one(s["pirates"]["starting_mean"]),
    }


def destroy_finding(results: dict[str, Any]) -> str:
    name = results["player"]
    mine, theirs = _both(results, _destroy_stats)
    return (
        f"**Destroying.** Per game `{name}` destroys {mine['aging']} aging cards (heuristic "
        f"{theirs['aging']}), {mine['aging_ability']} of them with a destroy ability rather "
        f"than a lost fight ({theirs['aging_ability']}); {mine['starting']} starting cards "
        f"({theirs['starting']}), {mine['focused']} of them *focused*, worth 1 "
        f"({theirs['focused']}); and {mine['knowledge']} knowledge cards ({theirs['knowledge']}), "
        f"{mine['raft']} of them raft cards, worth 0. It meets the pirates with "
        f"{mine['left']} starting cards left (heuristic {theirs['left']})."
    )


def knowledge_finding(results: dict[str, Any]) -> str:
    name = results["player"]
    data = results["all_levels"]
    mine, theirs = data[name], data["heuristic"]

    def per_game(s: dict[str, Any], card: str) -> float:
        return s["knowledge"]["acquired"].get(card, 0) / s["games"]

    cards = sorted(mine["knowledge"]["acquired"])
    more = sorted(cards, key=lambda c: (per_game(theirs, c) - per_game(mine, c), c))[:3]
    k = mine["knowledge"]
    reaching = k["acquired_reaching"]
    kept = {c: k["at_pirates"].get(c, 0) / reaching[c] for c in reaching}
    least = sorted(kept, key=lambda c: (kept[c], c))[:3]
    return (
        f"**Knowledge.** `{name}` beats "
        f"{_per(_sum(mine['knowledge']['acquired']), mine['games'])} hazards per game "
        f"(heuristic {_per(_sum(theirs['knowledge']['acquired']), theirs['games'])}); it wins "
        + ", ".join(
            f"{c} {per_game(mine, c):.2f} times per game ({per_game(theirs, c):.2f})" for c in more
        )
        + ". In the games that reach the pirates it still holds "
        f"{_pct(_sum(k['at_pirates']), _sum(k['acquired_reaching']))} of the knowledge it won; "
        "the least kept are " + ", ".join(f"{c} ({100 * kept[c]:.0f}%)" for c in least) + "."
    )


def difference_finding(results: dict[str, Any]) -> str:
    name, levels = results["player"], results["levels"]
    effects = {
        measure: sum(levels[lv]["paired"][measure][5] for lv in levels) / len(levels)
        for measure in PAIRED_MEASURES
        if measure not in OUTCOME_MEASURES
    }
    top = sorted(effects, key=lambda m: (-abs(effects[m]), m))[:3]
    return (
        "**Where the two differ most** in play on the same deals (paired mean difference "
        "over its standard deviation, averaged over the levels): "
        + "; ".join(f"{PAIRED_MEASURES[m][0]} ({effects[m]:+.2f})" for m in top)
        + f". Positive: more for `{name}`."
    )


def findings(results: dict[str, Any]) -> list[str]:
    """The findings, one sentence group each, in the order the README shows them."""
    return [
        pirates_finding(results),
        hazard_finding(results),
        purpose_finding(results),
        destroy_finding(results),
        knowledge_finding(results),
        difference_finding(results),
    ]
