"""What the viewer must show at a decision, read straight off the engine (not off the
viewer's snapshots), so the viewer tests compare it with an independent source."""

from __future__ import annotations

from typing import Any

from friday_agents.harness.deals import evaluation_seed
from friday_agents.players.base import play_game
from friday_agents.players.registry import make_agent
from friday_env import Game, GameRecord
from friday_env.cards import KEY, KIND, Kind
from friday_env.engine import DOUBLED, DOWN, LEFT, STEP_NAMES, USED

#: A heuristic game that meets every table mark and a pirate fight (found by the tests'
#: own search below, not assumed: ``decisions_of_interest`` fails if one is missing).
LEVEL, DEAL = 1, 0


def heuristic_record() -> GameRecord:
    return GameRecord.of(play_game(make_agent("heuristic"), LEVEL, evaluation_seed(LEVEL, DEAL)))


def engine_states(record: GameRecord) -> list[Game]:
    """The game before each action and after the last one."""
    game = Game.new(record.origin["level"], record.origin["seed"])
    states = [game.clone()]
    for action in record.actions:
        game.apply(action)
        states.append(game.clone())
    return states


def expected(game: Game, taken: int | None) -> dict[str, Any]:
    """Life, step, hazard, table and the action taken, as the page must show them."""
    values = game.card_values() if game.hazard >= 0 else []
    return {
        "life": game.life,
        "reserve": game.reserve,
        "step": STEP_NAMES[game.step],
        "hazard": KEY[game.hazard] if game.hazard >= 0 else None,
        "hazard_value": game.fight_value() if game.hazard >= 0 else None,
        "table": [
            {
                "card": KEY[card],
                "side": "free" if flags & LEFT else "paid",
                "value": values[slot],
                "used": bool(flags & USED),
                "doubled": bool(flags & DOUBLED),
                "destroyed": bool(flags & DOWN),
            }
            for slot, (card, flags) in enumerate(zip(game.table, game.flags, strict=True))
        ]
        if game.hazard >= 0
        else [],
        "taken": taken,
        "legal": [] if game.done else list(game.legal_actions()),
    }


def decisions_of_interest(states: list[Game]) -> dict[str, int]:
    """The first decision with a used, a doubled and a destroyed card on the table, and the
    first of a pirate fight."""
    found: dict[str, int] = {}
    tests = {
        "used": lambda g: any(f & USED for f in g.flags),
        "doubled": lambda g: any(f & DOUBLED for f in g.flags),
        "destroyed": lambda g: any(f & DOWN for f in g.flags),
        "pirate": lambda g: g.hazard >= 0 and KIND[g.hazard] == Kind.PIRATE,
    }
    for index, game in enumerate(states):
        for name, test in tests.items():
            if name not in found and test(game):
                found[name] = index
    missing = sorted(set(tests) - set(found))
    assert not missing, f"the test game never shows {missing}: choose another deal"
    return found


def fight_openings(states: list[Game]) -> list[int]:
    """Decisions where a new fight is on: in a fight, and the decision before was not, or
    belonged to a fight already finished."""
    return [
        i
        for i, g in enumerate(states)
        if g.hazard >= 0
        and (i == 0 or states[i - 1].hazard < 0 or states[i - 1].fights != g.fights)
    ]
