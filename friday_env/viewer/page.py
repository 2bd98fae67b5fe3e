"""The viewer page: one self-contained HTML file (style, script and every game inline).

The page loads nothing: a Content-Security-Policy of ``default-src 'none'`` forbids it any
request, so it works offline and from any folder. Each game's snapshots
(`friday_env.viewer.snapshots`) are stored gzip-compressed in base64, about a twentieth
of their JSON, and unpacked by the browser when the game is opened.
"""

from __future__ import annotations

import base64
import gzip
import html
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from friday_env.errors import RecordError
from friday_env.record import GameRecord
from friday_env.viewer.snapshots import fight_starts, record_snapshots


@dataclass(frozen=True)
class ViewerGame:
    """One game for the page: its record and who played it where.

    ## Attributes

    - ``record`` — the game ([`friday_env.GameRecord`][friday_env.record.GameRecord]), replayed and
      checked.
    - ``agent`` — who played it (a name for the title and the agent filter), or ``""``:
      then the record's own ``agent``, if it names one.
    - ``deal`` — which deal it was (e.g. the evaluation deal index), or ``None``.
    """

    record: GameRecord
    agent: str = ""
    deal: int | None = None

    def meta(self, decisions: int) -> dict[str, Any]:
        """What the game list and the title show, and what the filters match."""
        origin = self.record.origin
        spec = origin.get("scenario", origin)
        level, seed = spec.get("level", 1), spec.get("seed")
        won, score = bool(self.record.result.get("won")), self.record.result.get("score")
        agent = self.agent or self.record.agent or "player not recorded"
        detail = ""
        if self.deal is not None:
            where = f"deal {self.deal}"
            detail = f" (seed {seed})" if seed is not None else ""
        else:
            where = "scenario" if "scenario" in origin else f"seed {seed}"
        result = outcome(self.record)
        return {
            "agent": agent,
            "level": level,
            "deal": self.deal,
            "won": won,
            "result": result,
            "score": score,
            "decisions": decisions,
            "label": f"{agent} · L{level} · {where}",
            "title": f"{agent}, level {level}, {where}{detail}: {result}, score {score}, "
            f"{decisions} decisions",
        }


def outcome(record: GameRecord) -> str:
    """``won``, ``lost``, or ``not finished`` for a game stopped before its end (a quit
    game of ``friday play``): its score is the score when it stopped, not a loss's."""
    result = record.result
    if result.get("phase", "GAME_OVER") != "GAME_OVER":
        return "not finished"
    return "won" if result.get("won") else "lost"


def _packed(value: Any) -> str:
    raw = json.dumps(value, separators=(",", ":")).encode()
    return base64.b64encode(gzip.compress(raw, mtime=0)).decode("ascii")


def game_entry(game: ViewerGame) -> dict[str, Any]:
    """The page's data for one game: ``meta`` in the clear, the snapshots packed."""
    snapshots = record_snapshots(game.record)
    data = {"snapshots": snapshots, "fight_starts": fight_starts(snapshots)}
    return {"meta": game.meta(len(snapshots) - 1), "data": _packed(data)}


#: The template's placeholders, each filled once (`viewer_html`).
_PLACEHOLDER = re.compile(r"__(?:TITLE|STYLE|SCRIPT|DATA)__")


def _asset(name: str) -> str:
    return resources.files("friday_env.viewer").joinpath("assets", name).read_text("utf-8")


def _script_json(value: Any) -> str:
    """JSON safe inside a ``<script>`` element: no ``<`` can close it."""
    return json.dumps(value, separators=(",", ":")).replace("<", "\\u003c")


def viewer_html(
    games: Sequence[ViewerGame], title: str = "Friday game viewer", note: str = ""
) -> str:
    """The HTML page replaying ``games`` (the first one opens; more give a filterable list).
    ``note`` is shown under the list (e.g. that games were left out)."""
    if not games:
        raise RecordError("the viewer needs at least one game")
    data = {"games": [game_entry(g) for g in games], "note": note}
    parts = {
        "__TITLE__": html.escape(title),
        "__STYLE__": _asset("viewer.css"),
        "__SCRIPT__": _asset("viewer.js"),
        "__DATA__": _script_json(data),
    }
    # one pass over the template: text put in (a file called __DATA__.json in the title, a
    # game's data) is never searched for a placeholder again
    return _PLACEHOLDER.sub(lambda found: parts[found.group(0)], _asset("viewer.html"))


def write_viewer(
    games: Sequence[ViewerGame], path: str | Path, title: str = "Friday game viewer", note: str = ""
) -> Path:
    """Write `viewer_html` to ``path`` and return it."""
    path = Path(path)
    path.write_text(viewer_html(games, title, note), encoding="utf-8")
    return path
