"""``friday replay FILE``: step through a saved game.

FILE is a game record (``friday play --save``, ``GameRecord.save``) or the ``games.jsonl`` of
``friday eval --save-games`` (pick a game with ``--game K``). The record is first checked to
replay to the result it claims ([`friday_env.replay`][friday_env.record.replay]), then shown one
action at a time: Enter for the next action, ``b`` for the one before, a number to jump to that
action, ``q`` to stop; ``--all`` prints the whole game at once.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

from friday_agents.cli.view import saved_rows
from friday_env import GameRecord, RecordError, replay
from friday_env.json_text import JsonTextError, read_text
from friday_env.record import start
from friday_env.text import render_text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, help="a game record, or games.jsonl of friday eval")
    parser.add_argument("--all", action="store_true", help="print every step without pausing")
    parser.add_argument(
        "--game", type=int, default=0, help="which game of a games.jsonl (0-based, default 0)"
    )


def load_record(path: Path, game: int = 0) -> tuple[GameRecord, str]:
    """The record in ``path`` and a line describing where it came from."""
    try:
        text = read_text(path)
    except JsonTextError as err:
        raise RecordError(f"cannot read {path}: {err}") from None
    try:
        return GameRecord.from_json(text), f"{path}"
    except RecordError:
        pass
    saved = saved_rows(path, text)
    if not 0 <= game < len(saved):
        raise RecordError(f"{path} holds {len(saved)} games: --game must be in 0..{len(saved) - 1}")
    row = saved[game]
    record = GameRecord.from_json(json.dumps(row["record"]))
    where = f"{path} game {game} of {len(saved)}: {row.get('agent')}, level {row.get('level')}"
    return record, f"{where}, deal {row.get('index')} (seed {row.get('seed')})"


def run(args: argparse.Namespace) -> int:
    try:
        record, where = load_record(args.file, args.game)
        replay(record)  # refuses a record that does not replay to its result
        game = start(record.origin)
    except RecordError as err:
        print(f"friday replay: error: {err}", file=sys.stderr)
        return 2
    print(f"Replaying {where}: {len(record.actions)} actions\n")
    return step_through(game, record.actions, None if args.all else input, print)


PROMPT = "[Enter] next, b back, a number jumps to that action, q quit: "


def step_through(
    game, actions: list[int], read: Callable[[str], str] | None, write: Callable[[str], None]
) -> int:
    """Show the game before each action and the action taken. ``read`` None prints every
    step at once; otherwise it is asked after each step: Enter shows the next action, ``b``
    the one before, a number ``k`` jumps to action k, ``q`` (or the end of input) stops."""
    if read is None:
        for number, action in enumerate(actions, 1):
            _show(game, number, actions, write)
            game.apply(action)
        write(render_text(game, legal=()))
        return 0
    states = [game]  # states[k]: the game before action k + 1 (clones are a few µs)
    for action in actions:
        states.append(states[-1].clone())
        states[-1].apply(action)
    position = 0
    while position < len(actions):
        _show(states[position], position + 1, actions, write)
        position = _next_position(position, len(actions), read, write)
        if position < 0:
            return 0
    write(render_text(states[-1], legal=()))
    return 0


def _show(game, number: int, actions: list[int], write: Callable[[str], None]) -> None:
    write(render_text(game, legal=()))
    write(f">>> action {number} of {len(actions)}: {game.describe(actions[number - 1])}\n")


def _next_position(
    position: int, total: int, read: Callable[[str], str], write: Callable[[str], None]
) -> int:
    """The 0-based action to show next, asked of ``read``; -1 to stop."""
    while True:
        try:
            answer = read(PROMPT).strip().lower()
        except EOFError:
            return -1
        if answer == "":
            return position + 1
        if answer == "q":
            return -1
        if answer == "b":
            return max(position - 1, 0)
        if answer.isdigit() and 1 <= int(answer) <= total:
            return int(answer) - 1
        what = f"no action {answer}" if answer.isdigit() else f"unknown command {answer!r}"
        write(f"  {what}: type Enter, b, q or a number from 1 to {total}")
