"""Games files, and the one reader every tool uses for them.

A games file holds one game per line as a JSON object: ``friday eval``'s ``games.jsonl``
(``{"agent", "level", "index", "seed", "won", "score", ...}``, with ``"record"`` under
``--save-games``), ``friday imitate collect``'s teacher games and the recorded games under
``experiments/data/`` (``{"level", "seed", "actions", "won", "score", ...}``). The readers of
``friday eval --resume``, ``friday view``, ``friday imitate``, the strategy analysis and the
value and prior fits all read them here, with one tolerance policy:

- a name ending in ``.gz`` is read gzip-compressed;
- blank lines are skipped;
- a last line without its newline that is not valid JSON is a write cut short by a kill
  (every writer ends each line with a newline): it is dropped, and
  `GamesFile.cut_short` says so, so a writer can repair the file before appending
  ([`drop_cut_short_line`][friday_agents.harness.games_file.drop_cut_short_line]);
- any other line that is not a JSON object is an error naming the file and the line;
- a missing or unreadable file is an error (or no games, with ``missing_ok``).

What a line must hold is the caller's to check;
[`check_replayable`][friday_agents.harness.games_file.check_replayable] checks what a replay needs
(a level, a seed and the actions).
"""

from __future__ import annotations

import gzip
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from friday_agents.harness.files import replace_atomically
from friday_agents.harness.paths import plain_or_compressed
from friday_env.errors import FridayError
from friday_env.json_text import JsonTextError, parse_json, read_text
from friday_env.regular_file import why_not_a_file

#: The games file in an output directory of ``friday eval``.
GAMES_FILE = "games.jsonl"


class GamesFileError(FridayError):
    """A games file that is missing, unreadable, or holds a line that is not a game."""


@dataclass(frozen=True)
class GamesFile:
    """The games of one file, in file order, the line number of each, and whether the last
    line was cut short."""

    path: Path
    games: list[dict[str, Any]]
    line_numbers: list[int]
    cut_short: bool

    def where(self, position: int) -> str:
        """``file:line`` of the game at ``position`` in `games` (for error messages)."""
        return f"{self.path}:{self.line_numbers[position]}"


def read_games_file(path: Path | str, missing_ok: bool = False) -> GamesFile:
    """The games of ``path`` under the module's tolerance policy (``path.gz`` when only that
    exists: a finished run's games over 1 MB are committed compressed)."""
    path = plain_or_compressed(path)
    problem = why_not_a_file(path)
    if problem is not None:
        if missing_ok and not path.exists():
            return GamesFile(path, [], [], False)
        raise GamesFileError(f"games file {str(path)!r} {problem}")
    return games_from_text(_text(path), path)


def games_from_text(text: str, path: Path) -> GamesFile:
    """The games of a games file's ``text`` already read from ``path``."""
    lines = text.splitlines()
    games: list[dict[str, Any]] = []
    numbers: list[int] = []
    cut_short = False
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            game = parse_json(line)
        except JsonTextError as err:
            if number == len(lines) and not text.endswith("\n"):
                cut_short = True
                break
            raise GamesFileError(f"{path}:{number} is not a JSON line ({err})") from None
        if not isinstance(game, dict):
            raise GamesFileError(f"{path}:{number} is not a JSON object")
        games.append(game)
        numbers.append(number)
    return GamesFile(path, games, numbers, cut_short)


def read_games(path: Path | str, missing_ok: bool = False) -> list[dict[str, Any]]:
    """The games of ``path`` (see
    [`read_games_file`][friday_agents.harness.games_file.read_games_file])."""
    return read_games_file(path, missing_ok).games


def drop_cut_short_line(path: Path) -> None:
    """Remove ``path``'s last line (a write cut short) so that appending to it stays valid:
    a plain file is cut in place after its last newline (one step, and the file stays the
    one a writer's lock holds, [`run_lock`][friday_agents.harness.run_lock]); a compressed one is
    rewritten whole."""
    if path.suffix != ".gz":
        with path.open("rb+") as handle:
            data = handle.read()
            handle.truncate(data.rfind(b"\n") + 1)
        return
    kept = "".join(line + "\n" for line in _text(path).splitlines()[:-1])
    replace_atomically(path, lambda temporary: temporary.write_text(kept))


def check_replayable(game: dict[str, Any], where: str) -> dict[str, Any]:
    """``game`` itself if it names a level (1-4), a non-negative integer seed and a list of
    integer actions; else a [`GamesFileError`][friday_agents.harness.games_file.GamesFileError]
    naming ``where`` (``file:line``)."""
    level, seed, actions = game.get("level"), game.get("seed"), game.get("actions")
    if level not in (1, 2, 3, 4) or isinstance(level, bool):
        raise GamesFileError(f"{where}: 'level' must be 1, 2, 3 or 4, got {level!r}")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise GamesFileError(f"{where}: 'seed' must be a non-negative integer, got {seed!r}")
    if not isinstance(actions, list) or not all(
        isinstance(a, int) and not isinstance(a, bool) for a in actions
    ):
        raise GamesFileError(f"{where}: 'actions' must be a list of integers")
    return game


def _text(path: Path) -> str:
    try:
        if path.suffix == ".gz":
            with gzip.open(path, "rt") as handle:
                return handle.read()
        return read_text(path)
    except JsonTextError as err:
        raise GamesFileError(f"games file {str(path)!r} cannot be read: {err}") from None
    except (OSError, UnicodeDecodeError, EOFError) as err:
        raise GamesFileError(f"games file {str(path)!r} cannot be read: {err}") from None
