"""The human player of ``friday play``: a terminal menu of the legal actions (the command's
flags are in `friday_agents.cli.play`)."""

from __future__ import annotations

from collections.abc import Callable

from friday_env import Game, Phase
from friday_env import actions as act
from friday_env.cards import ABILITY_NAMES, CARD_TYPE, CARD_TYPES, Ability
from friday_env.text import render_text


class QuitGame(Exception):
    """The player asked to stop (``q`` or end of input)."""


class HumanAgent:
    """A person choosing from a numbered menu of the named legal actions.

    ## Description

    Shows the open information of the game and the legal actions described in context
    (``game.describe``), then reads a choice. Invalid input is explained and asked again.

    ## Arguments

    - ``read`` — returns one line of input per call (``input`` by default); raising
      ``EOFError`` means the input has ended.
    - ``write`` — prints one block of text (``print`` by default).
    - ``hint`` — also show the heuristic agent's choice.
    """

    name = "human"

    def __init__(
        self,
        read: Callable[[str], str] = input,
        write: Callable[[str], None] = print,
        hint: bool = False,
    ) -> None:
        self.read = read
        self.write = write
        self.hint = hint

    def reset(self, seed: int) -> None:
        """A person needs no seed."""

    def act(self, game: Game) -> int:
        legal = game.legal_actions()
        self.write(render_text(game, legal=()))
        if len(legal) == 1:
            self.write(f"  (only choice) {game.describe(legal[0])}")
            return legal[0]
        for number, action in enumerate(legal, 1):
            self.write(f"  {number:>2}. {game.describe(action)}{gain_note(game, action)}")
        if self.hint:
            from friday_agents.players.heuristic.agent import heuristic_action

            suggestion = legal.index(heuristic_action(game)) + 1
            self.write(f"  hint: the heuristic would choose {suggestion}")
        return legal[self._choose(len(legal)) - 1]

    def _choose(self, options: int) -> int:
        while True:
            try:
                text = self.read(f"choose 1-{options} (q to quit): ").strip().lower()
            except EOFError:
                raise QuitGame from None
            if text in ("q", "quit", "exit"):
                raise QuitGame
            if text.isdigit() and 1 <= int(text) <= options:
                return int(text)
            self.write(f"  please type a number from 1 to {options}, or q to quit")


#: Hazard-choice actions and the offered card each one fights.
_FIGHTS_OFFER = {act.CHOOSE_HAZARD_0: 0, act.CHOOSE_HAZARD_1: 1, act.FIGHT_LAST_HAZARD: 0}


def gain_note(game: Game, action: int) -> str:
    """For an action that picks a hazard to fight: what beating it gives (R21), e.g.
    "; beating it gives food: value 1, +1 life"; empty for any other action."""
    if action not in _FIGHTS_OFFER or game.phase not in (Phase.CHOOSE_HAZARD, Phase.LAST_HAZARD):
        return ""
    knowledge = CARD_TYPES[CARD_TYPE[game.offer[_FIGHTS_OFFER[action]]]]
    ability = ABILITY_NAMES[knowledge.ability]
    if knowledge.ability == Ability.NONE:
        ability = "no ability"
    return f"; beating it gives {knowledge.title}: value {knowledge.value}, {ability}"


def play(game: Game, agent: HumanAgent) -> int:
    """Play until the game ends or the player quits (``q`` or end of input): both are a
    normal end, status 0."""
    try:
        while not game.done:
            game.apply(agent.act(game))
    except QuitGame:
        agent.write(f"\nstopped after {len(game.history)} actions; score now {game.score()}")
        return 0
    agent.write(render_text(game, legal=()))
    outcome = "Robinson leaves the island: you won" if game.won else "Robinson is lost"
    agent.write(f"{outcome}. Score {game.score()}.")
    return 0
