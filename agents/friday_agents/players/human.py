"""``friday play``: play Friday in the terminal.

Each decision shows the situation (open information only) and a numbered menu of the legal
actions by name; type a number. A hazard on offer also says what beating it gives (its
knowledge side). A decision with one legal action is played for you and shown.

``--hint`` adds a line under each menu: the number the heuristic agent would choose (a tip
while learning the game, not the best move). ``q``, the end of input (Ctrl-D) or Ctrl-C stops
the game: exit status 0 after ``q`` or Ctrl-D, 130 after Ctrl-C. ``--save FILE`` writes the
game record, finished or not, for ``friday replay FILE`` and ``friday view FILE``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

import numpy as np

from friday_agents.cli.arguments import plain
from friday_agents.harness.files import check_out_path
from friday_env import Game, GameRecord, Phase
from friday_env import actions as act
from friday_env.cards import ABILITY_NAMES, CARD_TYPE, CARD_TYPES, Ability
from friday_env.errors import FridayError
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


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = plain(__doc__.split("\n\n", 1)[1])
    parser.add_argument("--level", type=int, default=1, help="level 1-4 (default 1)")
    parser.add_argument("--seed", type=int, help="the deal (default: a fresh one, printed)")
    parser.add_argument("--save", metavar="FILE", help="write the game record to FILE at the end")
    parser.add_argument(
        "--hint",
        action="store_true",
        help="under each menu, show the number the heuristic agent would choose",
    )


def run(args: argparse.Namespace) -> int:
    seed = args.seed
    if seed is None:
        seed = int(np.random.SeedSequence().entropy % 2**31)
    try:
        game = Game.new(args.level, seed)
    except (FridayError, TypeError, ValueError) as err:
        print(f"friday play: error: {err}", file=sys.stderr)
        return 2
    if args.save:  # a record that cannot be written is found out now, not after the game
        check_out_path(args.save, folder=False, flag="--save")
    print(f"Friday, level {args.level}, deal {seed} (replay this deal with --seed {seed})\n")
    try:
        status = play(game, HumanAgent(hint=args.hint))
    except KeyboardInterrupt:  # Ctrl-C: keep what was played, no traceback
        print(f"\ninterrupted after {len(game.history)} actions; score now {game.score()}")
        status = 130
    if args.save:
        GameRecord.of(game, agent=HumanAgent.name).save(args.save)
        print(f"saved the game record to {args.save} (view it with: friday replay {args.save})")
    return status


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
