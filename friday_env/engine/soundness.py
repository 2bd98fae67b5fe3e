"""Which game states the rules can reach: the check both cores apply to a state handed to them.

A state made by hand (an edited copy, a pickle, the vector env's
[`set_game`][friday_env.vector.FridayVectorEnv.set_game]) is played only if it is *sound*: each
card in one place and of a kind its pile can hold, each counter within what play produces,
each phase's needs met, and at least one legal action while the game is live.
[`unsound`][friday_env.engine.soundness.unsound] says what is wrong with a state, or None. It
is the reference twin of the compiled core's ``fr_check_state`` (``friday_env/_core/game.c``)
and of the field reading around it (``game_py.c``): the same checks in the same order, the same
message; the tampered-state fuzzer ([`friday_env.testing.tamper`][friday_env.testing.tamper])
checks that both give the same verdict.

The check is closed under play: every state legal play reaches from a sound state is sound.
Life tokens are conserved (R01), so life and the reserve stay within the level's tokens; the
shuffle and fight counters grow with the history (at most `SHUFFLES_PER_ACTION` shuffles and
one finished fight per action, and one history entry per action); a use of step -1 (R15) spends
an ability; a table card is turned exactly when its ability was spent (D11), so none is spent
twice; both pirates are in play or beaten, and none beaten before their step, so the pirates'
step never runs out of them; the card whose ability draws or sorts lies on the table, so the
fight it returns to is never one with an empty table and no draw left; an exchange resolving
has one left (two for "exchange 2"), so its counter never goes below 0. The one
bound play could in principle reach is the history's `MAX_HISTORY` actions, which no game
comes near.

The compiled core also refuses what it cannot hold (a seed of 2**64 or more, a shuffle counter
past 64 bits); the reference takes those.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from friday_env.actions import NUM_ACTIONS, Phase
from friday_env.cards import (
    CARD_TYPE,
    CARD_TYPES,
    MAX_TABLE_CARDS,
    NUM_CARDS,
    VERY_STUPID_ID,
    Ability,
    Kind,
)
from friday_env.engine.state import DOUBLED, DOWN, LEFT, PIRATES, USED

PREFIX = "unsound game state: "
#: The shuffle counter a state may be given (a stream of shuffles; a game shuffles a few
#: hundred times) and what play adds per action: a draw's reshuffle, then the hazard piles of
#: two empty steps (3), rounded up.
MAX_SHUFFLES = 2**62
SHUFFLES_PER_ACTION = 4
#: Finished fights a state may count beyond one per action of its history.
FIGHTS_ALLOWANCE = 100_000
#: The longest history a state may hold (a Python list this long takes 8 GiB).
MAX_HISTORY = 2**30
_PILE_CAP = 72  # the compiled core's pile capacity
_SORT_SIZE = 3
_KIND = [CARD_TYPES[CARD_TYPE[c]].kind for c in range(NUM_CARDS)]
_ROBINSON = frozenset({Kind.STARTING, Kind.AGING, Kind.HAZARD})
_ANY = _ROBINSON | {Kind.PIRATE}
_HAZARD, _AGING, _PIRATE = (
    frozenset({Kind.HAZARD}),
    frozenset({Kind.AGING}),
    frozenset({Kind.PIRATE}),
)
_TARGETING = frozenset({Ability.DESTROY, Ability.DOUBLE, Ability.COPY, Ability.EXCHANGE_1,
                        Ability.EXCHANGE_2, Ability.BELOW})  # fmt: skip
#: (field, lowest, highest) of the int fields, in the order they are read.
INT_FIELDS = (
    ("level", 1, 4), ("phase", 0, int(Phase.GAME_OVER)), ("step", 0, PIRATES),
    ("life", -1000, 1000), ("reserve", -1000, 1000), ("aging_total", 0, 11), ("won", 0, 1),
    ("fights", 0, 2**31 - 1), ("hazard", -1, NUM_CARDS - 1), ("pirate_value", -1000, 1000),
    ("free_total", -1000, 1000), ("free_used", -1000, 1000), ("step_down", 0, 1000),
    ("source", -1, _PILE_CAP - 1), ("resolving", 0, 16), ("exchanges_left", 0, 2),
    ("sort_placed", 0, _PILE_CAP), ("budget", -1000, 1000), ("known_top", 0, _PILE_CAP),
)  # fmt: skip
#: The piles, in the order they are read; the first twelve hold their cards alone.
PILES = (
    ("stack", _ROBINSON), ("discard", _ROBINSON), ("hazard_stack", _HAZARD),
    ("hazard_discard", _HAZARD), ("aging", _AGING), ("destroyed", _ROBINSON), ("box", _ANY),
    ("pirates", _PIRATE), ("beaten", _PIRATE), ("offer", _HAZARD), ("table", _ROBINSON),
    ("sort_taken", _ROBINSON),
)  # fmt: skip
_READ_ORDER = ("stack", "discard", "hazard_stack", "hazard_discard", "aging", "destroyed", "box",
               "pirates", "beaten", "offer", "table", "spent", "sort_taken", "unseen")  # fmt: skip


class _Unsound(Exception):
    """What is wrong, as the message (internal: `unsound` returns it)."""


def unsound(game: Any) -> str | None:
    """``"unsound game state: <field>..."`` naming what no play can reach, or None."""
    try:
        fields = _read(game)
        problem = _check(fields, game)
    except _Unsound as err:
        return str(err)
    return None if problem is None else PREFIX + problem


# ------------------------------------------------------------------ reading the fields


def _read(game: Any) -> dict[str, Any]:
    """Every field as plain ints and lists of ints, or `_Unsound` for one that is not."""
    fields: dict[str, Any] = {name: _int(game, name, low, high) for name, low, high in INT_FIELDS}
    for name in _READ_ORDER:
        fields[name] = _ints(game, name, _PILE_CAP, NUM_CARDS - 1)
    fields["flags"] = _ints(game, "flags", _PILE_CAP, 15)
    if len(fields["flags"]) != len(fields["table"]):
        raise _Unsound(
            f"{PREFIX}flags: {len(fields['flags'])} flags for {len(fields['table'])} table cards"
        )
    seed = game.seed
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise _Unsound(f"{PREFIX}seed: must be an int, not {type(seed).__name__}")
    if seed < 0:  # the compiled core also refuses 2**64 and more: it keeps 64 bits
        raise _Unsound(f"{PREFIX}seed: must not be negative, got {seed}")
    fields["shuffles"] = _shuffles(game.shuffles)
    fields["history"] = _history(game)
    return fields


def _int(game: Any, name: str, low: int, high: int) -> int:
    value = getattr(game, name)
    if not isinstance(value, int):
        raise _Unsound(f"{PREFIX}{name} must be an int, not {type(value).__name__}")
    if not low <= value <= high:
        raise _Unsound(f"{PREFIX}{name} out of range ({low}..{high})")
    return int(value)


def _ints(game: Any, name: str, cap: int, high: int) -> list[int]:
    try:
        items = list(getattr(game, name))
    except TypeError:
        raise _Unsound(f"{PREFIX}{name} must be a list of ints") from None
    if len(items) > cap:
        raise _Unsound(f"{PREFIX}{name} holds {len(items)} items (at most {cap})")
    for i, item in enumerate(items):
        if not isinstance(item, int) or isinstance(item, bool) or not 0 <= item <= high:
            raise _Unsound(f"{PREFIX}{name}[{i}] is not an int in 0..{high}")
    return [int(item) for item in items]


def _shuffles(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise _Unsound(f"{PREFIX}shuffles must be an int in 0..2**63-1 on the compiled core")
    return value


def _history(game: Any) -> list[int]:
    if len(game.history) > MAX_HISTORY:
        raise _Unsound(f"{PREFIX}history too long (at most 2**30 actions)")
    return _ints(game, "history", max(64, len(game.history)), NUM_ACTIONS - 1)


# ------------------------------------------------------------------ the checks


def _check(f: dict[str, Any], game: Any) -> str | None:
    """`fr_check_state`: the first problem, or None."""
    where = [False] * NUM_CARDS
    checks: tuple[Callable[[], str | None], ...] = (
        lambda: _ranges(f),
        lambda: _placed(f, where),
        lambda: (
            "box: the very stupid card must stay in the box at levels 1-2"
            if f["level"] < 3 and VERY_STUPID_ID not in f["box"]
            else None
        ),
        lambda: _hazard(f, where),
        lambda: _named(f["spent"], "spent"),
        lambda: _named(f["unseen"], "unseen"),
        lambda: _slots(f),
        lambda: _counters(f),
        lambda: _phase(f),
        lambda: _legal(game, f),
    )
    for check in checks:
        problem = check()
        if problem is not None:
            return problem
    return None


def _ranges(f: dict[str, Any]) -> str | None:
    for problem, broken in (
        ("shuffles: negative", f["shuffles"] < 0),
        ("known_top: must be between 0 and the stack size", f["known_top"] > len(f["stack"])),
        ("offer: holds more than two hazards", len(f["offer"]) > 2),
        ("pirates: more than two pirates in play", len(f["pirates"]) > 2),
        ("beaten: more than two pirates in play", len(f["beaten"]) > 2),
        ("sort_taken: holds more than three cards", len(f["sort_taken"]) > _SORT_SIZE),
        (
            "aging_total: must be the level's number of aging cards (10 at levels 1-2, 11 at 3-4)",
            f["aging_total"] != (10 if f["level"] < 3 else 11),
        ),
        (
            "table: holds more cards than the action ids have slots for (59)",
            len(f["table"]) > MAX_TABLE_CARDS,
        ),
    ):
        if broken:
            return problem
    return None


def _placed(f: dict[str, Any], where: list[bool]) -> str | None:
    """Each physical card lies in one pile at most, a pile that holds its kind."""
    for name, kinds in PILES:
        for card in f[name]:
            if card >= NUM_CARDS:
                return f"{name}: a card id is out of range (0..68)"
            if where[card]:
                return f"{name}: a physical card lies in more than one place"
            if _KIND[card] not in kinds:
                return f"{name}: holds a card of a kind the rules never put there"
            where[card] = True
    return None


def _hazard(f: dict[str, Any], where: list[bool]) -> str | None:
    hazard = f["hazard"]
    if hazard < 0:
        return None
    at_pirates = f["step"] == PIRATES
    if _KIND[hazard] != (Kind.PIRATE if at_pirates else Kind.HAZARD):
        return "hazard: must be a hazard card before the pirates and a pirate at them"
    if (hazard not in f["pirates"]) if at_pirates else where[hazard]:
        return "hazard: the hazard fought also lies in a pile (or, at the pirates, not among them)"
    return None


def _named(cards: list[int], name: str) -> str | None:
    return f"{name}: a card is named twice" if len(set(cards)) != len(cards) else None


def _slots(f: dict[str, Any]) -> str | None:
    table, flags = f["table"], f["flags"]
    if f["phase"] == Phase.TARGET and not 0 <= f["source"] < len(table):
        return "source: not a table slot while an ability is resolving"
    for slot, card in enumerate(table):
        if flags[slot] > (LEFT | USED | DOWN | DOUBLED):
            return "flags: a table flag is out of range"
        if bool(flags[slot] & USED) != (card in f["spent"]):  # D11
            return "spent: a table card must be turned (used) exactly when spent names it (D11)"
    for card in f["unseen"]:
        if card not in f["stack"]:
            return "unseen: an unseen card is not in the stack"
        if _KIND[card] != Kind.AGING:
            return "unseen: an unseen card is not an aging card"
    return None


def _counters(f: dict[str, Any]) -> str | None:
    tokens, actions = (20 if f["level"] == 4 else 22), len(f["history"])
    if f["life"] < 0 or f["reserve"] < 0 or f["life"] + f["reserve"] != tokens:
        return (
            "life: life and reserve must share the level's 22 tokens (20 at level 4), "
            "neither negative (R01)"
        )
    if f["shuffles"] > MAX_SHUFFLES + SHUFFLES_PER_ACTION * actions:
        return "shuffles: more than 2**62 plus 4 per action played"
    if f["fights"] > FIGHTS_ALLOWANCE + actions:
        return "fights: more than 100000 plus one per action played"
    if Phase.FIGHT <= f["phase"] <= Phase.LOSS_DESTROY and f["step_down"] > len(f["spent"]):
        return "step_down: more uses of step -1 than abilities used in this fight"
    if len(f["pirates"]) + len(f["beaten"]) != 2:
        return "pirates: the two pirates must be in play or beaten (R22)"
    if f["beaten"] and f["step"] < PIRATES:
        return "beaten: a pirate is beaten only at the pirates' step (R22)"
    return None


def _can_draw(f: dict[str, Any]) -> bool:
    return bool(f["stack"] or f["discard"] or f["aging"])


def _phase(f: dict[str, Any]) -> str | None:
    """What the pending decision needs (each phase's action reads it)."""
    phase = f["phase"]
    if phase == Phase.GAME_OVER:
        return None
    fighting = Phase.FIGHT <= phase <= Phase.LOSS_DESTROY
    choosing_hazard = phase in (Phase.CHOOSE_HAZARD, Phase.LAST_HAZARD)
    for problem, broken in (
        ("hazard: none while a fight's decision is pending", fighting and f["hazard"] < 0),
        ("hazard: a hazard is fought outside a fight", not fighting and f["hazard"] >= 0),
        ("table: cards on the table outside a fight", not fighting and bool(f["table"])),
        ("step: a hazard choice at the pirates", choosing_hazard and f["step"] == PIRATES),
        (
            "offer: two hazards to choose from are needed",
            phase == Phase.CHOOSE_HAZARD and len(f["offer"]) != 2,
        ),
        ("offer: the last hazard is needed", phase == Phase.LAST_HAZARD and len(f["offer"]) != 1),
        (
            "offer: hazards on offer outside a hazard choice",
            not choosing_hazard and bool(f["offer"]),
        ),
        (
            "step: a pirate choice before the pirates",
            phase == Phase.CHOOSE_PIRATE and f["step"] != PIRATES,
        ),
        ("pirates: none left to choose", phase == Phase.CHOOSE_PIRATE and not f["pirates"]),
        (
            "resolving: not an ability that targets a card",
            phase == Phase.TARGET and f["resolving"] not in _TARGETING,
        ),
        (
            "phase: a pirate fight is never lost by points, so nothing is destroyed (R22)",
            phase == Phase.LOSS_DESTROY and f["step"] == PIRATES,
        ),
        ("stack: no card left to draw another", phase == Phase.DRAW_MORE and not _can_draw(f)),
        (
            "table: empty while a card's ability resolves (the card lies there)",
            Phase.DRAW_MORE <= phase <= Phase.SORT_ORDER and not f["table"],
        ),
        (
            "exchanges_left: an exchange resolving needs one left (one or two for exchange 2)",
            phase == Phase.TARGET and _exchanges_wrong(f["resolving"], f["exchanges_left"]),
        ),
    ):
        if broken:
            return problem
    return _sort(f)


def _exchanges_wrong(resolving: int, left: int) -> bool:
    if resolving == Ability.EXCHANGE_1:
        return left != 1
    return resolving == Ability.EXCHANGE_2 and left < 1


def _sort(f: dict[str, Any]) -> str | None:
    phase, taken, placed = f["phase"], len(f["sort_taken"]), f["sort_placed"]
    if not Phase.SORT_TAKE <= phase <= Phase.SORT_ORDER:
        if taken:
            return "sort_taken: cards taken outside a sort"
        return "sort_placed: cards placed outside a sort" if placed else None
    if phase == Phase.SORT_TAKE and not _can_draw(f):
        return "stack: no card left to take"
    least = 2 if phase == Phase.SORT_ORDER else 1
    most = _SORT_SIZE - 1 if phase == Phase.SORT_TAKE else _SORT_SIZE
    if not least <= taken <= most:
        return "sort_taken: the wrong number of cards for the sort's decision"
    if placed > len(f["stack"]) or (phase != Phase.SORT_ORDER and placed != 0):
        return (
            "sort_placed: cards placed before the sort's order is chosen, or more than the "
            "stack holds"
        )
    return None


def _legal(game: Any, f: dict[str, Any]) -> str | None:
    if f["phase"] == Phase.GAME_OVER:
        return None
    return None if game.legal_actions() else "phase: a live game with no legal action"
