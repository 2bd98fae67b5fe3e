"""The agent protocol every Friday player follows, and the loop that plays one game.

An agent is anything with a ``name``, a ``reset(seed)`` called at the start of each game (it
seeds the agent's own ``np.random.Generator``: no global RNG) and an ``act(game)`` returning a
legal action id. Agents read only the public information of the game (R26): the table, the
hazard, life, phase, legal actions, the open piles and
[`friday_env.information`][friday_env.information] — never ``game.stack``'s hidden order,
``game.aging``, ``game.hazard_stack``'s order, ``game.unseen``, ``game.seed`` or ``game.shuffles``.
Planning agents plan on [`friday_env.determinized`][friday_env.information.determinized] copies
only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from friday_env import Game


@runtime_checkable
class Agent(Protocol):
    """A player of Friday.

    ## Attributes

    - ``name`` — a short name used in tables and plots (``"heuristic"``).

    ## Methods

    - ``reset(seed)`` — start of a game: reseed the agent's own random generator.
    - ``act(game)`` — a legal action id for the pending decision of ``game``. The agent must
      not modify ``game`` (plan on clones) and may read only public information (R26).
    - ``prepare(level)`` (optional) — load what games of ``level`` need (a model file) before
      the first of them: ``friday eval`` calls it before its clock starts, so its games/s
      measures play, not loading.
    """

    name: str

    def reset(self, seed: int) -> None: ...

    def act(self, game: Game) -> int: ...


@dataclass(frozen=True)
class GameOutcome:
    """What one game came to: the numbers the evaluation aggregates."""

    won: bool
    score: int
    life: int
    actions: int
    fights: int
    hazards_beaten: int
    pirates_beaten: int
    end_step: int  # the step the game ended in: 0-3, green to pirates (a won game: 3)


def play_game(agent: Agent, level: int, seed: int, agent_seed: int | None = None) -> Game:
    """Play one whole game of ``agent`` on the deal ``(level, seed)`` and return it.

    ``agent_seed`` seeds the agent (default: the deal's seed), so the same arguments give the
    same game. An illegal action raises
    [`friday_env.IllegalActionError`][friday_env.errors.IllegalActionError].
    """
    game = Game.new(level, seed)
    agent.reset(seed if agent_seed is None else agent_seed)
    while not game.done:
        game.apply(agent.act(game))
    return game


def outcome_of(game: Game) -> GameOutcome:
    """The evaluation numbers of a finished game."""
    return GameOutcome(
        won=game.won,
        score=game.score(),
        life=game.life,
        actions=len(game.history),
        fights=game.fights,
        hazards_beaten=game.hazards_beaten(),
        pirates_beaten=game.pirates_beaten(),
        end_step=int(game.step),
    )
