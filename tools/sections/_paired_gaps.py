"""The paired gaps of a no-teacher agent (``scratch``, ``scratch-search``) to the heuristic and
to ``guided``, from a ``friday eval`` results file in which they played the same deals.

``friday eval`` compares each fair agent with the one listed before it, on their common deals
(``comparisons``: the paired difference of win rates with its bootstrap interval), so a run
``--agents heuristic,scratch,guided`` holds both of scratch's gaps: ``scratch`` − ``heuristic``
as stored, ``scratch`` − ``guided`` as the negated ``guided`` − ``scratch``. A gap the file does
not pair is an error naming the file, never a difference of two unpaired rates.
"""

from __future__ import annotations

from pathlib import Path

from friday_agents.players.resolved import played_specs
from sections import table, wilson_cell

#: The agents each no-teacher agent is measured against, in the table's order.
BASELINES = ("heuristic", "guided")


class GapRun:
    """One committed results file in which ``agent`` played beside `BASELINES`."""

    def __init__(self, path: Path, results: dict, agent: str) -> None:
        self.path, self.results, self.agent = path, results, agent
        self.names = played_specs(results)  # each spec as it played (defaults change)
        for spec in (agent, *BASELINES):
            if spec not in self.names:
                raise ValueError(f"{path}: {spec!r} did not play in it (--agents)")

    def levels(self) -> list[int]:
        return list(self.results["config"]["levels"])

    def cell(self, spec: str, level: int) -> dict:
        """The summary row of ``spec`` on ``level``."""
        for row in self.results["summary"]:
            if (row["agent"], row["level"]) == (spec, level):
                return row
        raise ValueError(f"{self.path}: no summary of {spec!r} on level {level}")

    def gap(self, baseline: str, level: int) -> tuple[float, float, float]:
        """``agent`` − ``baseline`` in win rate on ``level``, paired: (difference, low, high)."""
        for row in self.results["comparisons"]:
            pair = (row["baseline"], row["agent"])
            if row["level"] != level or set(pair) != {self.agent, baseline}:
                continue
            difference, low, high = row["win_rate_difference"]
            return (difference, low, high) if pair[1] == self.agent else (-difference, -high, -low)
        raise ValueError(
            f"{self.path}: {self.agent!r} and {baseline!r} are not paired on level {level}; "
            f"list them side by side in --agents (e.g. heuristic,{self.agent},guided)"
        )


def gap_cell(gap: tuple[float, float, float]) -> str:
    """``+15.6 [+12.9, +18.3]``: a paired gap in points with its interval."""
    difference, low, high = (100 * value for value in gap)
    return f"{difference:+.1f} [{low:+.1f}, {high:+.1f}]"


def gap_rows(run: GapRun, levels: list[int]) -> list[list[str]]:
    """The agent's row (win rate) and one row of its paired gap to each baseline."""
    rows = [[f"`{run.names[run.agent]}`", *(wilson_cell(run.cell(run.agent, lv)) for lv in levels)]]
    for baseline in BASELINES:
        label = f"`{run.names[run.agent]}` − `{run.names[baseline]}` (points)"
        rows.append([label, *(gap_cell(run.gap(baseline, lv)) for lv in levels)])
    return rows


def gaps_lines(runs: list[GapRun]) -> list[str]:
    """The table of each run's agent and its gaps, then the baselines' own rates (from the
    first run), and where each number comes from."""
    levels = runs[0].levels()
    rows = [row for run in runs for row in gap_rows(run, levels)]
    first = runs[0]
    rows += [
        [f"`{first.names[b]}`", *(wilson_cell(first.cell(b, lv)) for lv in levels)]
        for b in BASELINES
    ]
    games = sorted({first.cell(first.agent, lv)["games"] for lv in levels})
    sources = "; ".join(f"`{run.path.as_posix()}`: `{run.results['command']}`" for run in runs)
    return [
        *table(["", *(f"level {lv}" for lv in levels)], rows, "l" + "r" * len(levels)),
        "",
        f"Win rates with 95 % Wilson intervals; each gap is paired on the same "
        f"{'/'.join(map(str, games))} evaluation deals per level (the bootstrap interval of "
        f"the difference of the two agents' results deal by deal). Played by {sources}.",
    ]
