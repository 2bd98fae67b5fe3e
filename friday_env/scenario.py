"""Scenarios: start a game anywhere, with every pile given in order by card keys.

For tests and research::

    game = scenario(
        level=1, step="green",
        robinson_stack=["genius", "weak", "very tired"],   # top first
        hazard_stack=["animals/vision", "raft/food"],       # top first
        pirates=["pirate/20", "pirate/half"], life=12,
    )

Piles not given are empty; cards not placed anywhere are out of the game (in the box).
The game starts at the beginning of a turn in ``step`` (R04 applies at once: an empty
hazard stack moves on to the next step). Aging cards in the Robinson stack are unseen
(R26) unless they lie within its ``known_top`` cards.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from friday_env.cards import CARD_TYPE, CARD_TYPES, NUM_CARDS, PIRATE_IDS, Kind, type_index
from friday_env.core import Game, check_core, to_core
from friday_env.engine import STEP_NAMES, level_aging_cards, level_life, seed_from
from friday_env.engine import Game as ReferenceGame
from friday_env.errors import ScenarioError, check_level

_ROBINSON_KINDS = (Kind.STARTING, Kind.AGING, Kind.HAZARD)
_PILE_KINDS = {
    "robinson_stack": _ROBINSON_KINDS,
    "robinson_discard": _ROBINSON_KINDS,
    "hazard_stack": (Kind.HAZARD,),
    "hazard_discard": (Kind.HAZARD,),
    "aging_stack": (Kind.AGING,),
    "pirates": (Kind.PIRATE,),
}


def scenario(
    level: int = 1,
    step: str | int = "green",
    *,
    robinson_stack: Sequence[str] = (),
    robinson_discard: Sequence[str] = (),
    hazard_stack: Sequence[str] = (),
    hazard_discard: Sequence[str] = (),
    aging_stack: Sequence[str] = (),
    pirates: Sequence[str] | None = None,
    life: int | None = None,
    known_top: int = 0,
    seed: int | np.random.Generator = 0,
    core: str | None = None,
) -> Game:
    """A game set up as described; raises [`ScenarioError`][friday_env.errors.ScenarioError] if it
    cannot exist.

    Piles are listed top first. ``pirates`` defaults to two drawn with ``seed``; ``life``
    to the level's starting life (the rest of the level's tokens form the reserve, R01).
    ``core`` chooses the engine that plays it ([`friday_env.core`][friday_env.core]; None: the
    default).
    """
    check_level(level)
    core = check_core(core)
    step_index = _step_index(step)
    piles = {
        "robinson_stack": robinson_stack,
        "robinson_discard": robinson_discard,
        "hazard_stack": hazard_stack,
        "hazard_discard": hazard_discard,
        "aging_stack": aging_stack,
    }
    if pirates is not None:
        piles["pirates"] = pirates
    _check_lists(piles)
    game_seed = seed_from(seed)
    spec: dict[str, object] = {"level": level, "step": STEP_NAMES[step_index], "seed": game_seed}
    spec |= {name: list(keys) for name, keys in piles.items()}
    game = ReferenceGame()
    game.level, game.seed, game.step = level, game_seed, step_index
    ids = _assign_ids(level, piles)
    game.stack = ids["robinson_stack"][::-1]
    game.discard = ids["robinson_discard"]
    game.hazard_stack = ids["hazard_stack"][::-1]
    game.hazard_discard = ids["hazard_discard"]
    game.aging = ids["aging_stack"][::-1]
    game.pirates = ids.get("pirates") or _random_pirates(game)
    _check_shape(step_index, game)
    placed = {c for cards in ids.values() for c in cards} | set(game.pirates)
    game.box = [c for c in range(NUM_CARDS) if c not in placed]
    game.aging_total = len(level_aging_cards(level))
    game.life, game.reserve = _life_and_reserve(level, life)
    game.known_top = _known_top(known_top, len(game.stack))
    hidden = game.stack[: len(game.stack) - game.known_top]
    game.unseen = [c for c in hidden if CARD_TYPES[CARD_TYPE[c]].kind == Kind.AGING]
    if pirates is not None:  # drawn pirates are drawn again from the seed (one shuffle)
        spec |= {"pirates": [CARD_TYPES[CARD_TYPE[c]].key for c in game.pirates]}
    spec |= {"life": game.life, "known_top": game.known_top}
    game.origin = {"scenario": spec}
    game.start_turn()
    return _on_core(game, core)


def _on_core(game: ReferenceGame, core: str) -> Game:
    """The scenario's game on ``core``: laid out on the reference engine, then copied (to
    the compiled core; on the reference core it is the game itself)."""
    try:
        return to_core(game, core)
    except ValueError as err:
        raise ScenarioError(f"this scenario cannot play on the compiled core: {err}") from None


def from_spec(spec: dict, core: str | None = None) -> Game:
    """Rebuild a scenario from the ``origin["scenario"]`` dict a game records, on ``core``."""
    try:
        return scenario(**spec, core=core)
    except TypeError as err:
        raise ScenarioError(f"malformed scenario {spec!r}: {err}") from None


def _step_index(step: str | int) -> int:
    if isinstance(step, str) and step in STEP_NAMES:
        return STEP_NAMES.index(step)
    if isinstance(step, int) and not isinstance(step, bool) and 0 <= step < len(STEP_NAMES):
        return step
    raise ScenarioError(f"unknown step {step!r}: steps are {', '.join(STEP_NAMES)}")


def _check_lists(piles: dict[str, Sequence[str]]) -> None:
    """Each pile is a list (or tuple) of keys: a string, None or a dict is a mistake."""
    for name, keys in piles.items():
        if isinstance(keys, str):
            raise ScenarioError(f"{name} must be a list of card keys, not the string {keys!r}")
        if not isinstance(keys, Sequence):
            raise ScenarioError(f"{name} must be a list of card keys, not {keys!r}")


def _assign_ids(level: int, piles: dict[str, Sequence[str]]) -> dict[str, list[int]]:
    """Turn keys into physical card ids, checking kinds and counts."""
    in_game = _cards_in_game(level)
    free: dict[int, list[int]] = {}
    for card in in_game:
        free.setdefault(CARD_TYPE[card], []).append(card)
    ids: dict[str, list[int]] = {}
    for name, keys in piles.items():
        ids[name] = []
        for key in keys:
            ids[name].append(_take(free, name, key, level))
    return ids


def _cards_in_game(level: int) -> list[int]:
    aging = set(level_aging_cards(level))
    return [
        c for c in range(NUM_CARDS) if CARD_TYPES[CARD_TYPE[c]].kind != Kind.AGING or c in aging
    ]


def _take(free: dict[int, list[int]], pile: str, key: object, level: int) -> int:
    if not isinstance(key, str):
        raise ScenarioError(f"{pile}: card keys are strings, got {key!r}")
    try:
        type_id = type_index(key)
    except KeyError as err:
        raise ScenarioError(f"{pile}: {err.args[0]}") from None
    card_type = CARD_TYPES[type_id]
    if card_type.kind not in _PILE_KINDS[pile]:
        raise ScenarioError(f"{pile}: {key!r} is a {card_type.kind.name.lower()} card")
    if not free.get(type_id):
        raise ScenarioError(
            f"{pile}: too many {key!r} cards: the game has {card_type.count} at level {level}"
            if type_id in free
            else f"{pile}: {key!r} is not in the game at level {level}"
        )
    return free[type_id].pop(0)


def _random_pirates(game: ReferenceGame) -> list[int]:
    return sorted(game.shuffled(PIRATE_IDS)[:2])


def _check_shape(step: int, game: ReferenceGame) -> None:
    if len(game.pirates) != 2:
        raise ScenarioError(f"pirates: exactly 2 are needed, got {len(game.pirates)}")
    if step == STEP_NAMES.index("pirates") and game.hazard_stack:
        raise ScenarioError("hazard_stack must be empty at the pirates: it is no longer used")


def _life_and_reserve(level: int, life: int | None) -> tuple[int, int]:
    total = level_life(level) + 2
    if life is None:
        life = level_life(level)
    if isinstance(life, bool) or not isinstance(life, int) or not 0 <= life <= total:
        raise ScenarioError(
            f"life must be an integer from 0 to {total} at level {level}, got {life!r}"
        )
    return life, total - life


def _known_top(known_top: int, stack_size: int) -> int:
    if (
        isinstance(known_top, bool)
        or not isinstance(known_top, int)
        or not 0 <= known_top <= stack_size
    ):
        raise ScenarioError(
            f"known_top must be 0..{stack_size} (the stack size), got {known_top!r}"
        )
    return known_top
