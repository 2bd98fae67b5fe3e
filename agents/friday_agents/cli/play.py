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
import secrets

from friday_agents.cli.arguments import plain
from friday_agents.harness.errors import BadInputError
from friday_agents.harness.files import check_out_path
from friday_agents.players.human import HumanAgent, play
from friday_env import Game, GameRecord
from friday_env.errors import FridayError


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
        seed = secrets.randbelow(2**31)  # a fresh deal, printed so that it can be replayed
    try:
        game = Game.new(args.level, seed)
    except (FridayError, TypeError, ValueError) as err:
        raise BadInputError(str(err)) from None
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
