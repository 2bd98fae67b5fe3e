"""Recorded search games as training data for the value models.

A data file (``.jsonl``, or ``.jsonl.gz`` compressed) holds one game per line,
``{"level", "seed", "actions", "won", "score", ...}`` (extra keys are ignored), played on
training deals. `turn_start_examples` replays each game with the engine and yields
the states at a turn's start — what the value models are fitted on — with the game's
outcome. An evaluation or validation deal
([`friday_agents.harness.deals`][friday_agents.harness.deals]) is refused; a game whose replay fails
(an illegal action, or an ending other than the recorded one) is skipped and counted.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from friday_agents.harness.deals import is_evaluation_seed, is_validation_seed
from friday_agents.harness.errors import BadInputError
from friday_agents.harness.games_file import check_replayable, read_games_file
from friday_agents.players.networks.linear_value import TURN_START_PHASES
from friday_env import Game


@dataclass
class ReplayCount:
    """How many games of a data file were replayed and how many were skipped."""

    replayed: int = 0
    skipped: int = 0
    skipped_seeds: list[int] = field(default_factory=list)


def turn_start_examples(
    path: Path, count: ReplayCount, level: int | None = None
) -> Iterator[tuple[Game, dict]]:
    """``(state, game line)`` for every turn-start state of every game in ``path`` (of
    ``level`` only, if given); ``count`` is updated as games are replayed or skipped."""
    for game_data in training_games(path):
        if level is not None and game_data["level"] != level:
            continue
        try:
            states = _turn_starts(game_data)
        except ValueError:  # an illegal action or a different ending: counted, not fatal
            count.skipped += 1
            count.skipped_seeds.append(game_data["seed"])
            continue
        count.replayed += 1
        for state in states:
            yield state, game_data


def recorded_games(path: Path) -> Iterator[dict]:
    """The games of ``path`` (``.jsonl`` or ``.jsonl.gz``, read by
    [`friday_agents.harness.games_file`][friday_agents.harness.games_file]), each checked to name a
    level, a seed and actions."""
    found = read_games_file(path)
    for position, game in enumerate(found.games):
        yield check_replayable(game, found.where(position))


def training_games(path: Path) -> Iterator[dict]:
    """The game lines of ``path``, refusing any game on an evaluation or validation deal:
    nothing fitted may have seen the deals its choice or its results are measured on."""
    for game_data in recorded_games(path):
        for kind, check in (
            ("an evaluation", is_evaluation_seed),
            ("a validation", is_validation_seed),
        ):
            if check(game_data["seed"]):
                raise BadInputError(f"{path}: seed {game_data['seed']} is {kind} deal")
        yield game_data


def _turn_starts(game_data: dict) -> list[Game]:
    game = Game.new(game_data["level"], game_data["seed"])
    states = []
    for action in game_data["actions"]:
        if game.phase in TURN_START_PHASES:
            states.append(game.clone())
        game.apply(action)
    if not game.done or (game.won, game.score()) != (game_data["won"], game_data["score"]):
        raise ValueError("the replay does not end as recorded")
    return states


def target(game_data: dict, win_bonus: float) -> float:
    """The value models' target: the final score plus ``win_bonus`` for a win."""
    return game_data["score"] + win_bonus * game_data["won"]
