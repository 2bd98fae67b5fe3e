"""The games a round plays: the search's own (teacher) games, the network's own (student)
games labelled by the search (DAgger), and validation games. Each is one job for
[`run_games`][friday_agents.harness.parallel.run_games], so rounds run on a process pool or Ray.

Games files are the imitation format (`friday_agents.learning.imitation.data`): one
JSON line per game with its actions and, per searched decision, ``q``: ``[[action, mean
rollout value], ...]`` for every action the search tried.
"""

from __future__ import annotations

import time
from typing import Any

from friday_agents.harness.deals import training_seed, validation_seed
from friday_agents.players.registry import make_agent
from friday_env import Game

#: Agents are built once per worker process (loading networks costs more than a game).
_AGENTS: dict[str, Any] = {}


def cached_agent(spec: str) -> Any:
    if spec not in _AGENTS:
        _AGENTS[spec] = make_agent(spec)
    return _AGENTS[spec]


def teacher_job(job: tuple[str, int, int]) -> dict[str, Any]:
    """``(search spec, level, training deal index)``: the search's game, every searched
    decision labelled."""
    spec, level, index = job
    return _labelled_game(spec, spec, level, index)


def student_job(job: tuple[str, str, int, int]) -> dict[str, Any]:
    """``(student spec, teacher spec, level, training deal index)``: the student plays the
    deal; the teacher labels every decision with a choice that the student faces."""
    return _labelled_game(*job)


def _labelled_game(student_spec: str, teacher_spec: str, level: int, index: int) -> dict:
    """The student plays (the teacher itself in a teacher game) and the teacher's search
    values every decision with a choice."""
    student, teacher = cached_agent(student_spec), cached_agent(teacher_spec)
    seed = training_seed(level, index)
    started = time.process_time()
    game = Game.new(level, seed)
    student.reset(seed)
    teacher.reset(seed)
    q: dict[str, list] = {}
    while not game.done:
        if len(game.legal_actions()) > 1:
            choice = teacher.act(game)
            if teacher.last_values is not None:
                q[str(len(game.history))] = [[a, round(v, 3)] for a, v in teacher.last_values]
            game.apply(choice if student is teacher else student.act(game))
        else:
            game.apply(game.legal_actions()[0])
    return {
        "level": level,
        "seed": seed,
        "index": index,
        "teacher": teacher_spec,
        "student": None if student is teacher else student_spec,
        "actions": [int(a) for a in game.history],
        "won": bool(game.won),
        "score": int(game.score()),
        "seconds": round(time.process_time() - started, 4),
        "q": q,
    }


def validation_job(job: tuple[str, int, int]) -> dict[str, Any]:
    """``(agent spec, level, validation deal index)``: the outcome and CPU seconds of one
    game, played as ``friday eval`` plays it (the agent reset with the deal's seed)."""
    spec, level, index = job
    agent = cached_agent(spec)
    seed = validation_seed(level, index)
    started = time.process_time()
    game = Game.new(level, seed)
    agent.reset(seed)
    decisions = 0
    while not game.done:
        if len(game.legal_actions()) > 1:
            decisions += 1
        game.apply(agent.act(game))
    return {
        "spec": spec,
        "level": level,
        "index": index,
        "won": bool(game.won),
        "score": int(game.score()),
        "seconds": time.process_time() - started,
        "decisions": decisions,
    }
