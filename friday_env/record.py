"""Game records: a game as its setup plus its action list, saved as JSON and replayed.

A record holds how the game was set up (``{"level", "seed"}`` or ``{"scenario": ...}``), the
actions, and what the game came to (phase, won, score, life, a digest of the final state).
[`replay`][friday_env.record.replay] plays the actions again and checks every claim, so a malformed
or tampered record raises [`RecordError`][friday_env.errors.RecordError] instead of replaying to
something else.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from friday_env.core import MAX_SEED, Game, check_core, new_game
from friday_env.engine.state import State
from friday_env.errors import FridayError, RecordError
from friday_env.json_text import JsonTextError, parse_json, read_text

FORMAT = "friday-env/game-record"
VERSION = 1


def state_digest(game: Game) -> str:
    """A short hash of the whole state (hidden order included): equal digests, equal games."""
    parts = [
        game.level, game.seed, game.shuffles, int(game.phase), game.step, game.life,
        game.reserve, game.won, game.hazard, game.free_used, game.free_total, game.step_down,
        game.budget, game.known_top, game.pirate_value, game.aging_total, game.fights,
        game.source, int(game.resolving), game.exchanges_left, game.sort_placed,
    ]  # fmt: skip
    parts += [getattr(game, name) for name in State.LIST_FIELDS if name != "history"]
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]


@dataclass
class GameRecord:
    origin: dict[str, Any]
    actions: list[int]
    result: dict[str, Any] = field(default_factory=dict)
    #: Who played (e.g. ``"human"`` for ``friday play``), shown by the viewer; optional,
    #: written only when known, and not part of what [`replay`][friday_env.record.replay] checks.
    agent: str = ""

    @classmethod
    def of(cls, game: Game, agent: str = "") -> GameRecord:
        """The record of ``game`` as it is now (``agent``: who played it, if known)."""
        return cls(dict(game.origin), list(game.history), _result(game), agent)

    def to_json(self) -> str:
        data = {
            "format": FORMAT,
            "version": VERSION,
            "origin": self.origin,
            "actions": self.actions,
            "result": self.result,
        }
        if self.agent:
            data["agent"] = self.agent
        return json.dumps(data)

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        try:
            data = parse_json(text)
        except JsonTextError as err:
            raise RecordError(f"game record: {err}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError(f"not a game record: expected format {FORMAT!r}")
        if data.get("version") != VERSION:
            raise RecordError(f"unsupported game record version {data.get('version')!r}")
        for key, kind in (("origin", dict), ("actions", list), ("result", dict)):
            if not isinstance(data.get(key), kind):
                raise RecordError(f"game record field {key!r} must be a {kind.__name__}")
        if not all(isinstance(a, int) and not isinstance(a, bool) for a in data["actions"]):
            raise RecordError("game record actions must be integers")
        agent = data.get("agent", "")
        if not isinstance(agent, str):
            raise RecordError("game record field 'agent' must be a str")
        return cls(data["origin"], data["actions"], data["result"], agent)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json() + "\n")

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        try:
            text = read_text(path)
        except JsonTextError as err:
            raise RecordError(f"cannot read game record {path}: {err}") from None
        return cls.from_json(text)


def _result(game: Game) -> dict[str, Any]:
    return {
        "phase": game.phase.name,
        "won": game.won,
        "score": game.score(),
        "life": game.life,
        "digest": state_digest(game),
    }


def start(origin: dict[str, Any], core: str | None = None) -> Game:
    """The game a record's origin describes, before any action, on ``core`` (None: the
    default core; the reference one for a seed too large for the compiled core, which a
    record made on the reference core may hold)."""
    from friday_env.scenario import from_spec

    if core is not None:
        check_core(
            core
        )  # a core that is unknown or not built is the caller's error, not the record's
    try:
        if "scenario" in origin:
            spec = origin["scenario"]
            return from_spec(
                spec, core=_core_for(spec.get("seed") if isinstance(spec, dict) else None, core)
            )
        if set(origin) != {"level", "seed"}:
            raise RecordError(f"game record origin needs 'level' and 'seed', got {origin!r}")
        return new_game(origin["level"], origin["seed"], core=_core_for(origin["seed"], core))
    except (FridayError, TypeError, ValueError) as err:
        if isinstance(err, RecordError):
            raise
        raise RecordError(f"game record origin {origin!r} is invalid: {err}") from None


def _core_for(seed: object, core: str | None) -> str | None:
    big = isinstance(seed, int) and seed > MAX_SEED
    return "python" if core is None and big else core


def replay(record: GameRecord, core: str | None = None) -> Game:
    """Replay a record on ``core`` (either core replays a record made on either) and check
    that it ends where it says it does."""
    game = start(record.origin, core)
    total = len(record.actions)
    for number, action in enumerate(record.actions, 1):  # counted from 1, as people count
        try:
            game.apply(action)
        except FridayError as err:
            raise RecordError(
                f"game record action {number} of {total} ({action}) is illegal: {err}"
            ) from None
    if record.result and _result(game) != record.result:
        raise RecordError(
            f"game record does not replay to its result: recorded {record.result}, "
            f"replayed {_result(game)}"
        )
    return game
