"""A game record replayed with the engine into one snapshot per decision, for the viewer.

Snapshot ``k`` is the situation before the ``k``-th action (and the last one the finished
game): only open information (R26), in plain JSON, with the legal actions named by the
engine's own [`friday_env.Game.describe`][friday_env.engine.game.Game.describe] and the action taken
marked. The page draws these snapshots and computes nothing about the game itself.
"""

from __future__ import annotations

from typing import Any

from friday_env.actions import PHASE_NAMES
from friday_env.cards import KEY, KIND, VALUE, Kind
from friday_env.core import Game
from friday_env.engine import DOUBLED, DOWN, LEFT, STEP_NAMES, USED
from friday_env.information import known_top_cards, unseen_aging_count
from friday_env.record import GameRecord, replay, start
from friday_env.text import ability_text, hazard_text, pirate_rule

#: Card kinds as the page names them (its colours follow these names).
KIND_NAMES = {
    Kind.STARTING: "starting",
    Kind.AGING: "aging",
    Kind.HAZARD: "knowledge",
    Kind.PIRATE: "pirate",
}


def _table(game: Game) -> list[dict[str, Any]]:
    values = game.card_values()
    return [
        {
            "card": KEY[card],
            "kind": KIND_NAMES[KIND[card]],
            "side": "free" if flags & LEFT else "paid",
            "value": values[slot],
            "ability": ability_text(card),
            "used": bool(flags & USED),
            "doubled": bool(flags & DOUBLED),
            "destroyed": bool(flags & DOWN),
        }
        for slot, (card, flags) in enumerate(zip(game.table, game.flags, strict=True))
    ]


def _fight(game: Game) -> dict[str, Any] | None:
    """The hazard or pirate being fought, with what beating it takes now."""
    card = game.hazard
    if card < 0:
        return None
    pirate = KIND[card] == Kind.PIRATE
    return {
        "card": KEY[card],
        "pirate": pirate,
        "value": game.fight_value(),
        "total": game.fight_total(),
        "free_total": game.free_total,
        "free_left": game.free_total - game.free_used,
        "step_down": game.step_down,
        "special": pirate_rule(card),
        "knowledge": "" if pirate else f"value {VALUE[card]} {ability_text(card)}".strip(),
    }


def _piles(game: Game) -> dict[str, Any]:
    return {
        "stack": len(game.stack),
        "unseen": unseen_aging_count(game),
        "known_top": [KEY[c] for c in known_top_cards(game)],
        "discard": len(game.discard),
        "destroyed": len(game.destroyed),
        "aging": len(game.aging),
        "hazard_stack": len(game.hazard_stack),
        "hazard_discard": len(game.hazard_discard),
    }


def snapshot(game: Game, taken: int | None) -> dict[str, Any]:
    """The open situation of ``game`` and the action about to be taken (None at the end)."""
    legal = [] if game.done else game.legal_actions()
    return {
        "step": STEP_NAMES[game.step],
        "phase": PHASE_NAMES[game.phase],
        "life": game.life,
        "reserve": game.reserve,
        "fights": game.fights,
        "score": game.score(),
        "done": game.done,
        "won": game.won,
        "fight": _fight(game),
        "table": _table(game) if game.hazard >= 0 else [],
        "offer": [hazard_text(game, c) for c in game.offer],
        "pirates": [hazard_text(game, c) for c in game.pirates],
        "beaten": [KEY[c] for c in game.beaten],
        "piles": _piles(game),
        "sort_hand": [KEY[c] for c in game.sort_taken],
        "budget": game.budget,
        "legal": [[a, game.describe(a)] for a in legal],
        "taken": taken,
    }


def record_snapshots(record: GameRecord) -> list[dict[str, Any]]:
    """One snapshot per decision of ``record`` and one of the finished game. The record is
    first checked to replay to the result it claims
    ([`friday_env.replay`][friday_env.record.replay]), so a tampered record raises
    [`RecordError`][friday_env.errors.RecordError] instead of being shown."""
    replay(record)
    game = start(record.origin)
    snapshots = []
    for action in record.actions:
        snapshots.append(snapshot(game, action))
        game.apply(action)
    snapshots.append(snapshot(game, None))
    return snapshots


def fight_starts(snapshots: list[dict[str, Any]]) -> list[int]:
    """Indices of the decisions that open a fight (the first one with a new hazard or
    pirate on the table), for the viewer's "next fight" jump."""
    starts = []
    for index, shot in enumerate(snapshots):
        before = snapshots[index - 1] if index else None
        opened = shot["fight"] is not None and (
            before is None or before["fight"] is None or before["fights"] != shot["fights"]
        )
        if opened:
            starts.append(index)
    return starts
