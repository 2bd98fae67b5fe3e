"""The measures of a strategy analysis: counts over the traces of one player on one level
(`summarise`) and per-game measures compared on the same deals (`paired`).
Each function's docstring defines what it counts; `friday_agents.evaluation.strategy.trace`
defines the events."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from friday_agents.evaluation.strategy.trace import (
    LOST_FIGHT,
    ON_PURPOSE,
    OUTCOMES,
    QUIT,
    Trace,
    hazard_kind,
)
from friday_agents.harness.stats import paired_difference_interval
from friday_env.cards import CARD_TYPES, TYPE_BY_KEY
from friday_env.engine import STEP_NAMES

HAZARD_STEPS = STEP_NAMES[:3]
#: Life at the pirates, binned: (lowest, highest, label).
LIFE_BINS = ((0, 5, "0-5"), (6, 10, "6-10"), (11, 15, "11-15"), (16, 22, "16+"))


def _mean(values: Iterable[float]) -> float | None:
    data = list(values)
    return round(float(np.mean(data)), 3) if data else None


def _hazard_value(key: str, step: int) -> int:
    return CARD_TYPES[TYPE_BY_KEY[key]].hazard_values[step]


def hazard_choices(traces: list[Trace]) -> dict[str, Any]:
    """Per step: how often the harder of the two hazards (higher value in this step) was
    fought, each hazard side's take rate when offered beside another side, the same per
    knowledge card, and how often the single last hazard was fought."""
    out = {}
    for step, name in enumerate(HAZARD_STEPS):
        choices = [(a, b) for t in traces for s, a, b in t.choices if s == step]
        order = Counter(
            np.sign(_hazard_value(a, step) - _hazard_value(b, step)) for a, b in choices
        )
        last = [fought for t in traces for s, _, fought in t.last_hazards if s == step]
        out[name] = {
            "choices": len(choices),
            "harder": order[1],
            "easier": order[-1],
            "equal": order[0],
            "kinds": _take_rates(choices, hazard_kind),
            "knowledge": _take_rates(choices, lambda key: key),
            "last_offered": len(last),
            "last_fought": sum(last),
        }
    return out


def _take_rates(choices: list[tuple[str, str]], group: Callable[[str], str]) -> dict:
    """``{group: {"offered", "taken"}}`` over the offers whose two cards differ in group."""
    offered: Counter[str] = Counter()
    taken: Counter[str] = Counter()
    for chosen, skipped in choices:
        a, b = group(chosen), group(skipped)
        if a != b:
            offered[a] += 1
            offered[b] += 1
            taken[a] += 1
        # equal groups say nothing about preferring one group to another
    return {g: {"offered": offered[g], "taken": taken[g]} for g in sorted(offered)}


def fights(traces: list[Trace]) -> dict[str, Any]:
    """Per step: fights and how they ended; for the fights lost on purpose, the mean life
    when ending them, points short (= life paid), cards destroyed and points left unused."""
    out = {}
    for step, name in enumerate(HAZARD_STEPS):
        step_fights = [f for t in traces for f in t.fights if f.step == step]
        purpose = [f for f in step_fights if f.on_purpose]
        out[name] = {
            "fights": len(step_fights),
            "outcomes": {o: sum(f.outcome == o for f in step_fights) for o in OUTCOMES},
            "on_purpose": len(purpose),
            "on_purpose_life": _mean(f.life for f in purpose),
            "on_purpose_shortfall": _mean(f.shortfall for f in purpose),
            "on_purpose_destroyed": _mean(len(f.destroyed) for f in purpose),
            "on_purpose_unused": _mean(f.unused for f in purpose),
        }
    return out


def destroyed(traces: list[Trace]) -> dict[str, Any]:
    """Cards destroyed, counted by group (starting, aging, knowledge) and route (a lost
    fight or an ability), by step, and by card."""
    events = [event for t in traces for event in t.destroyed]
    return {
        "by_group": _counts(group for _, _, group, _ in events),
        "by_route": _counts(f"{group}, {route}" for _, _, group, route in events),
        "by_step": _counts(f"{STEP_NAMES[s]}, {group}" for s, _, group, _ in events),
        "by_card": _counts(card for _, card, _, _ in events),
    }


def knowledge(traces: list[Trace]) -> dict[str, Any]:
    """Knowledge cards won (in all games, and in the games that reach the pirates) and
    those still among Robinson's cards when the pirates come, by card. In the games that
    reach the pirates, ``at_pirates / acquired_reaching`` is the share of a card kept."""
    reaching = [t for t in traces if t.pirates is not None]
    return {
        "acquired": _counts(key for t in traces for key in t.acquired),
        "acquired_reaching": _counts(key for t in reaching for key in t.acquired),
        "at_pirates": _counts(key for t in reaching if t.pirates for key in t.pirates.knowledge),
        "games_at_pirates": len(reaching),
    }


def _counts(items: Iterable[str]) -> dict[str, int]:
    """Counts, most common first (ties by name, so the order is reproducible)."""
    counts = Counter(items)
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def pirates(traces: list[Trace]) -> dict[str, Any]:
    """The games that reach the pirates: life then (mean, quartiles, bins with their wins)
    and the make-up of Robinson's cards."""
    reached = [t for t in traces if t.pirates is not None]
    life = [t.pirates.life for t in reached if t.pirates]
    bins = {
        label: {
            "games": sum(low <= t.pirates.life <= high for t in reached if t.pirates),
            "wins": sum(t.won and low <= t.pirates.life <= high for t in reached if t.pirates),
        }
        for low, high, label in LIFE_BINS
    }
    return {
        "reached": len(reached),
        "wins": sum(t.won for t in reached),
        "life_mean": _mean(life),
        "life_quartiles": [float(q) for q in np.percentile(life, [25, 50, 75])] if life else None,
        "life_bins": bins,
        "starting_mean": _mean(t.pirates.starting for t in reached if t.pirates),
        "aging_mean": _mean(t.pirates.aging for t in reached if t.pirates),
        "knowledge_mean": _mean(len(t.pirates.knowledge) for t in reached if t.pirates),
    }


def summarise(traces: list[Trace]) -> dict[str, Any]:
    """Every measure of one player on one level."""
    return {
        "games": len(traces),
        "wins": sum(t.won for t in traces),
        "hazards": hazard_choices(traces),
        "fights": fights(traces),
        "destroyed": destroyed(traces),
        "knowledge": knowledge(traces),
        "pirates": pirates(traces),
    }


def _count(trace: Trace, test: Callable[[Any], bool], events: str) -> int:
    return sum(1 for event in getattr(trace, events) if test(event))


#: Per-game measures compared on the same deals: name -> (description, measure).
PAIRED_MEASURES: dict[str, tuple[str, Callable[[Trace], float]]] = {
    "won": ("games won (share)", lambda t: float(t.won)),
    "on_purpose": (
        "fights lost on purpose",
        lambda t: _count(t, lambda f: f.outcome in ON_PURPOSE, "fights"),
    ),
    "quit": (
        "fights lost on purpose with free cards left",
        lambda t: _count(t, lambda f: f.outcome == QUIT, "fights"),
    ),
    "fights_won": ("hazards beaten", lambda t: len(t.acquired)),
    "aging_destroyed": (
        "aging cards destroyed",
        lambda t: _count(t, lambda d: d[2] == "aging", "destroyed"),
    ),
    "starting_destroyed": (
        "starting cards destroyed",
        lambda t: _count(t, lambda d: d[2] == "starting", "destroyed"),
    ),
    "knowledge_destroyed": (
        "knowledge cards destroyed",
        lambda t: _count(t, lambda d: d[2] == "knowledge", "destroyed"),
    ),
    "destroyed_by_loss": (
        "cards destroyed by lost fights",
        lambda t: _count(t, lambda d: d[3] == LOST_FIGHT, "destroyed"),
    ),
    "reached_pirates": ("reached the pirates (share)", lambda t: float(t.pirates is not None)),
}


def paired(recorded: list[Trace], heuristic: list[Trace]) -> dict[str, list[float]]:
    """Per measure: ``[recorded mean, heuristic mean, difference, low, high, effect]`` on
    the same deals: difference = recorded minus heuristic with its 95% bootstrap interval,
    effect = the mean difference over the differences' standard deviation (0 if they do
    not vary), which ranks the measures by how clearly the two players differ."""
    if [t.seed for t in recorded] != [t.seed for t in heuristic]:
        raise ValueError("paired measures need the same deals in the same order")
    out = {}
    for name, (_, measure) in PAIRED_MEASURES.items():
        mine = np.array([measure(t) for t in recorded], dtype=float)
        theirs = np.array([measure(t) for t in heuristic], dtype=float)
        diff, low, high = paired_difference_interval(theirs, mine)
        spread = float(np.std(mine - theirs))
        effect = diff / spread if spread > 0 else 0.0
        values = (mine.mean(), theirs.mean(), diff, low, high, effect)
        out[name] = [round(float(x), 3) for x in values]
    return out
