"""``friday view FILE|DIR``: write a game viewer page to open in a browser.

FILE is a game record (``friday play --save``, ``GameRecord.save``) or a ``games.jsonl``;
DIR is the output directory of ``friday eval --save-games``. The page (one self-contained
HTML file: no network, nothing else to install) replays a game decision by decision: the
hazard or pirate, the table, life, piles, the legal actions with the one taken highlighted.
Step with the arrow keys, jump with the slider, press F for the next fight. With many games
it lists them, filterable by agent, level and result; ``--agent``, ``--level`` and
``--result`` choose which games go into the page at all.

Exit status: 0 written, 2 bad input (no such file, no saved games, a record that does not
replay to its result, no game left after the filters).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from friday_agents.harness.errors import BadInputError
from friday_agents.harness.games_file import (
    GAMES_FILE,
    GamesFileError,
    games_from_text,
    read_games_file,
)
from friday_env import GameRecord, RecordError
from friday_env.json_text import JsonTextError, read_text
from friday_env.viewer import ViewerGame, write_viewer

DEFAULT_MAX_GAMES = 500


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = __doc__.split("\n\n", 1)[1]
    parser.add_argument("path", type=Path, help="a game record, a games.jsonl, or an eval DIR")
    parser.add_argument(
        "--out", type=Path, help="the HTML file (default: FILE.html, or DIR/games.html)"
    )
    parser.add_argument("--agent", help="only games of this agent (name or full spec)")
    parser.add_argument("--level", type=int, choices=(1, 2, 3, 4), help="only games of a level")
    parser.add_argument(
        "--result",
        choices=("won", "lost", "not-finished"),
        help="only won, lost, or not finished (quit) games",
    )
    parser.add_argument(
        "--max-games",
        type=int,
        default=DEFAULT_MAX_GAMES,
        help=f"at most this many games in the page, the first ones by agent, level and deal "
        f"(default {DEFAULT_MAX_GAMES})",
    )


def saved_rows(path: Path, text: str | None = None) -> list[dict[str, Any]]:
    """Every line of a ``games.jsonl`` that holds a saved game record (``text``: the file's
    content when already read)."""
    try:
        found = read_games_file(path) if text is None else games_from_text(text, path)
    except GamesFileError as err:
        raise RecordError(f"{err} (expected a game record or a games file)") from None
    saved = [row for row in found.games if "record" in row]
    if not saved:
        raise RecordError(f"{path} {_why_no_record(len(found.games))}")
    return saved


def _why_no_record(games: int) -> str:
    """Why a games file has nothing to show, for each command that writes one."""
    if games == 0:
        return (
            "holds no game: friday explore writes only the games it won (none in this run), "
            "friday eval one per game played"
        )
    return (
        f"holds {games} game(s) without a record to replay: friday eval stores records "
        "with --save-games"
    )


def _game_of(row: dict[str, Any]) -> ViewerGame:
    record = GameRecord.from_json(json.dumps(row["record"]))
    return ViewerGame(record, agent=str(row.get("agent", "")), deal=row.get("index"))


def load_games(path: Path) -> list[ViewerGame]:
    """The games in a record file, a ``games.jsonl`` or an evaluation directory."""
    if path.is_dir():
        path = path / GAMES_FILE
        if not path.exists():
            raise RecordError(f"{path} does not exist: is this an output directory of friday eval?")
    if path.suffix != ".jsonl":
        try:
            text = read_text(path)
        except JsonTextError as err:
            raise RecordError(f"cannot read {path}: {err}") from None
        try:
            return [ViewerGame(GameRecord.from_json(text))]
        except RecordError:
            pass  # perhaps JSON lines under another name
    return [_game_of(row) for row in saved_rows(path)]


def chosen(games: list[ViewerGame], args: argparse.Namespace) -> list[ViewerGame]:
    """The games the filters keep."""

    def keep(game: ViewerGame) -> bool:
        meta = game.meta(len(game.record.actions))
        if args.agent and args.agent not in (game.agent, game.agent.split(":")[0]):
            return False
        if args.level and meta["level"] != args.level:
            return False
        return not args.result or meta["result"] == args.result.replace("-", " ")

    return [g for g in games if keep(g)]


def list_order(game: ViewerGame) -> tuple:
    """The page lists games by agent, level and deal (the seed for a game without a deal
    index), whatever order they finished in."""
    meta = game.meta(len(game.record.actions))
    seed = game.record.origin.get("seed")
    deal = meta["deal"] if meta["deal"] is not None else -1
    return (meta["agent"], meta["level"], deal, seed if isinstance(seed, int) else -1)


def default_out(path: Path) -> Path:
    return path / "games.html" if path.is_dir() else path.with_suffix(".html")


def run(args: argparse.Namespace) -> int:
    if args.max_games < 1:
        raise BadInputError(f"--max-games must be at least 1, got {args.max_games}")
    try:
        games = load_games(args.path)
        kept = sorted(chosen(games, args), key=list_order)
        if not kept:
            raise BadInputError(f"no game of {args.path} matches the filters ({len(games)} games)")
        note = ""
        if len(kept) > args.max_games:
            note = f"The first {args.max_games} of {len(kept)} games (friday view --max-games)."
        out = args.out or default_out(args.path)
        write_viewer(kept[: args.max_games], out, title=f"Friday: {args.path.name}", note=note)
    except RecordError as err:
        raise BadInputError(str(err)) from None
    shown = min(len(kept), args.max_games)
    print(f"wrote {out} ({shown} game{'s' if shown != 1 else ''}): open it in a browser")
    return 0
