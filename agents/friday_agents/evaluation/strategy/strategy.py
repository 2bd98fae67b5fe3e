"""What strong play looks like: a recorded player's games against the heuristic's, same deals.

Reads a games file (JSON lines, ``.jsonl`` or ``.jsonl.gz``: ``{"level", "seed",
"actions", ...}`` per game, as ``friday imitate collect`` writes them; ``won`` and ``score``,
when present, are checked against the replay), replays every game into its events
(`friday_agents.evaluation.strategy.trace`), plays the heuristic live on the same deals (seeded as
[`friday_agents.players.base.play_game`][friday_agents.players.base.play_game] seeds it) and counts,
per level and per player: which hazards are fought and which discarded in each step, the fights lost
on purpose and with how much life, what is destroyed, which knowledge cards are won and still held
at the pirates, and the life left when the pirates come. Per-game measures are also compared on the
same deals (the recorded player minus the heuristic, 95% bootstrap intervals).

    friday strategy --games FILE --out RESULTS.json

writes the results file and prints the outcomes per level; the study's tables and findings
are rendered from a committed results file by ``python tools/docs_sections.py``. Swap in another
player's games file to analyse it.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from friday_agents.evaluation.report import aligned_table
from friday_agents.evaluation.strategy.measures import paired, summarise
from friday_agents.evaluation.strategy.trace import Trace, trace_game
from friday_agents.harness.errors import BadInputError, require
from friday_agents.harness.files import write_text_atomically
from friday_agents.harness.games_file import GamesFileError, check_replayable, read_games_file
from friday_agents.players.base import play_game
from friday_agents.players.heuristic.agent import HeuristicAgent
from friday_env.errors import FridayError
from friday_env.json_text import JsonTextError, read_json
from friday_env.regular_file import why_not_a_file

RESULTS_FORMAT = "friday-strategy-analysis-v1"


class AnalysisInputError(BadInputError):
    """A games file that is missing, malformed, or does not replay as recorded (or settings
    that cannot run): ``friday strategy`` refuses it in one line, exit status 2."""


# ------------------------------------------------------------------ input


def load_games(path: Path) -> list[dict[str, Any]]:
    """The games of a games file
    ([`friday_agents.harness.games_file`][friday_agents.harness.games_file]), each checked to have a
    level, a seed and actions."""
    try:
        found = read_games_file(path)
        games = [check_replayable(game, found.where(n)) for n, game in enumerate(found.games)]
    except GamesFileError as err:
        raise AnalysisInputError(str(err)) from None
    if not games:
        raise AnalysisInputError(f"games file {str(path)!r} holds no games")
    return games


def replay_trace(game: dict[str, Any]) -> Trace:
    """The trace of a recorded game; `AnalysisInputError` if it does not replay to
    the end, or ends otherwise than its ``won``/``score`` say."""
    name = f"game level {game['level']} seed {game['seed']}"
    try:
        trace = trace_game(game["level"], game["seed"], game["actions"])
    except (FridayError, ValueError) as err:
        raise AnalysisInputError(f"{name} does not replay: {err}") from None
    for key in ("won", "score"):
        if key in game and game[key] != getattr(trace, key):
            raise AnalysisInputError(
                f"{name} replays to {key}={getattr(trace, key)!r}, the file says {game[key]!r}"
            )
    return trace


def heuristic_trace(level: int, seed: int) -> Trace:
    """The heuristic's game on the deal ``(level, seed)``, as a trace."""
    game = play_game(HeuristicAgent(), level, seed)
    return trace_game(level, seed, game.history)


def select(games: list[dict[str, Any]], per_level: int | None) -> list[dict[str, Any]]:
    """The first ``per_level`` games of each level (all games when None), in file order."""
    if per_level is None:
        return games
    taken: Counter[int] = Counter()
    chosen = []
    for game in games:
        if taken[game["level"]] < per_level:
            taken[game["level"]] += 1
            chosen.append(game)
    return chosen


# ------------------------------------------------------------- analysis


def analyse(
    games: list[dict[str, Any]],
    name: str = "search",
    progress: bool = False,
) -> dict[str, Any]:
    """The analysis of ``games`` (the player called ``name``) against the heuristic on the
    same deals: per level, each player's `summarise`
    and the `paired` comparison."""
    if name == "heuristic":
        raise ValueError("the recorded player needs another name than 'heuristic'")
    bar = _progress_bar(len(games), progress)
    by_level: dict[int, tuple[list[Trace], list[Trace]]] = {}
    for game in games:
        recorded, heuristic = by_level.setdefault(game["level"], ([], []))
        recorded.append(replay_trace(game))
        heuristic.append(heuristic_trace(game["level"], game["seed"]))
        bar.update(1)
    bar.close()
    levels = {}
    for level in sorted(by_level):
        recorded, heuristic = by_level[level]
        levels[str(level)] = {
            name: summarise(recorded),
            "heuristic": summarise(heuristic),
            "paired": paired(recorded, heuristic),
        }
    pooled = {
        player: summarise([t for pair in by_level.values() for t in pair[side]])
        for side, player in enumerate((name, "heuristic"))
    }
    return {"format": RESULTS_FORMAT, "player": name, "levels": levels, "all_levels": pooled}


class _NoBar:
    def update(self, _: int) -> None: ...

    def close(self) -> None: ...


def _progress_bar(total: int, enabled: bool) -> Any:
    if not enabled:
        return _NoBar()
    from tqdm import tqdm

    return tqdm(total=total, unit="game", desc="strategy analysis")


def load_results(path: Path) -> dict[str, Any]:
    """A results file this module wrote; `AnalysisInputError` if it is not one."""
    problem = why_not_a_file(path)
    if problem is not None:
        raise AnalysisInputError(f"results file {str(path)!r} {problem}")
    try:
        results = read_json(path)
    except JsonTextError as err:
        raise AnalysisInputError(f"{str(path)!r} is not JSON: {err}") from None
    if not isinstance(results, dict) or results.get("format") != RESULTS_FORMAT:
        raise AnalysisInputError(f"{str(path)!r} is not a {RESULTS_FORMAT} results file")
    return results


# ------------------------------------------------------------- the run


@dataclass(frozen=True)
class StrategySettings:
    """One analysis (``friday strategy``): the games file, where the results go, the
    recorded player's name, and how many games of each level (None: all)."""

    games: Path
    out: Path
    name: str = "search"
    per_level: int | None = None
    progress: bool = True

    def check(self) -> StrategySettings:
        """These settings, or `AnalysisInputError` naming the first one that cannot run."""
        if self.per_level is not None and self.per_level < 1:
            raise AnalysisInputError("--per-level must be at least 1")
        if self.name == "heuristic":
            raise AnalysisInputError("the recorded player needs another --name than 'heuristic'")
        return self

    def command_line(self) -> str:
        """The command that rebuilds these results (stored with them, quoted in the docs)."""
        parts = [f"friday strategy --games {self.games}"]
        if self.name != "search":
            parts.append(f"--name {self.name}")
        if self.per_level is not None:
            parts.append(f"--per-level {self.per_level}")
        parts.append(f"--out {self.out}")
        return " ".join(parts)


def run_analysis(settings: StrategySettings, say: Callable[[str], None] = print) -> dict[str, Any]:
    """Analyse the games, write the results file and return the results; ``say`` hears the
    outcomes per level and the file written. Bad input (`AnalysisInputError`, a missing
    progress bar library) is refused before anything is written."""
    settings.check()
    if settings.progress:
        require("the progress bar (--no-progress runs without it)", "tqdm")
    games = select(load_games(settings.games), settings.per_level)
    results = analyse(games, settings.name, progress=settings.progress)
    results["command"] = settings.command_line()
    settings.out.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomically(settings.out, json.dumps(results, indent=1) + "\n")
    say(summary(results))
    say(f"wrote {settings.out}")
    return results


def summary(results: dict[str, Any]) -> str:
    """The outcomes per level and player as a text table."""
    rows = []
    for level, data in results["levels"].items():
        for player in (results["player"], "heuristic"):
            games, pirates = data[player]["games"], data[player]["pirates"]
            rows.append([level, player, games, data[player]["wins"], pirates["reached"]])
    header = ["level", "player", "games", "won", "reached the pirates"]
    return aligned_table(header, rows)


if __name__ == "__main__":  # the command moved into `friday`: say where, run nothing
    import sys

    sys.exit(f"python -m {__spec__.name}: error: gone: it is now `friday strategy`")
