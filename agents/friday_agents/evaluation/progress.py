"""``friday eval``'s progress bar and its time-left estimate.

A bar that divides the games left by the games per second so far is several times too long
at the start of a default run: the first deals mix the slow search games with fast
heuristic ones, the later deals are heuristic and random only. `EtaEstimator`
weighs instead: each game left costs what the finished games of its agent and level cost
(their CPU seconds), and the run turns CPU seconds into wall time at the rate it has so
far. Until every agent and level still to play has finished `MIN_GAMES` games there is
nothing honest to say, and the bar says so ("ETA estimating").
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from friday_agents.evaluation.runner import Task
from friday_agents.harness.progress import BAR_FORMAT, format_duration

#: Finished games of an agent on a level before its cost counts as known.
MIN_GAMES = 2


class EtaEstimator:
    """Wall-clock seconds left for ``todo``, from the cost of each finished game.

    ``finished_rows`` are games from an earlier session of the run (``--resume``): they say
    what games cost, not how fast this session plays. ``clock`` is injectable for tests.
    """

    def __init__(
        self,
        todo: Sequence[Task],
        finished_rows: Iterable[dict[str, Any]] = (),
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._left = Counter((t.agent, t.level) for t in todo)
        self._games: Counter[tuple[str, int]] = Counter()
        self._cost: defaultdict[tuple[str, int], float] = defaultdict(float)
        for row in finished_rows:
            self._add(row)
        self._clock = clock
        self._start = clock()
        self._session_cost = 0.0

    def _add(self, row: dict[str, Any]) -> tuple[str, int]:
        key = (row["agent"], row["level"])
        self._games[key] += 1
        self._cost[key] += float(row.get("seconds", 0.0))
        return key

    def finished(self, row: dict[str, Any]) -> None:
        """Count a game this session finished (a ``games.jsonl`` row)."""
        key = self._add(row)
        self._left[key] -= 1
        self._session_cost += float(row.get("seconds", 0.0))

    def seconds_left(self) -> float | None:
        """The estimate, or None while some agent and level lack `MIN_GAMES` games."""
        waiting = {key: n for key, n in self._left.items() if n > 0}
        if any(self._games[key] < MIN_GAMES for key in waiting):
            return None
        elapsed = self._clock() - self._start
        if self._session_cost <= 0 or elapsed <= 0:
            return None if waiting else 0.0
        cost_left = sum(n * self._cost[key] / self._games[key] for key, n in waiting.items())
        return cost_left * elapsed / self._session_cost

    def text(self) -> str:
        """What the bar shows: ``ETA 2.5 min``, ``ETA estimating``, or "" when all is done."""
        if not any(n > 0 for n in self._left.values()):
            return ""
        left = self.seconds_left()
        return "ETA estimating" if left is None else f"ETA {format_duration(left)}"


def progress_bar(total: int, initial: int, disabled: bool, eta: EtaEstimator):
    """A tqdm bar of ``total`` games showing ``eta``'s estimate; advance it with
    `advance`."""
    from tqdm import tqdm

    return tqdm(
        total=total,
        initial=initial,
        unit="game",
        disable=disabled,
        desc="friday eval",
        bar_format=BAR_FORMAT,
        postfix=eta.text(),
    )


def advance(bar, eta: EtaEstimator, row: dict[str, Any]) -> None:
    """One game finished: update the estimate, then the bar."""
    eta.finished(row)
    bar.set_postfix_str(eta.text(), refresh=False)
    bar.update()
