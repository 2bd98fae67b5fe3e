"""Games for testing: random legal deals anywhere in a game, seeded game and policy pairs,
and `play_checked`, which plays a game to its end checking every invariant.

Every game is seeded, so a run is reproducible and a failing game can be replayed on its own.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from friday_env.actions import Phase
from friday_env.cards import AGING_IDS, HAZARD_IDS, KEY, PIRATE_IDS, STARTING_IDS, VERY_STUPID_ID
from friday_env.core import Game, new_game
from friday_env.engine import PIRATES, STEP_NAMES, level_life
from friday_env.scenario import scenario
from friday_env.testing.invariants import (
    InvariantViolation,
    Snapshot,
    check_state,
    check_transition,
)
from friday_env.testing.policies import POLICIES, Policy

#: Far beyond any game seen in random or greedy play (at most a few hundred actions); a
#: game that reaches it counts as a failure to terminate.
DEFAULT_MAX_ACTIONS = 5000


# ---------------------------------------------------------------- random deals


def random_deal(
    level: int, rng: random.Random, step: str | None = None, core: str | None = None
) -> Game:
    """A random legal scenario at ``level``: each card of the level placed at random where
    it could be at ``step`` (random if None), random life and known top. A random
    ``strength`` decides how many knowledge cards Robinson has won and how many starting
    and aging cards he has lost, so some deals are strong enough to beat the pirates. It
    reaches situations random play from the start rarely does (the pirates, thin decks).
    ``core`` chooses the engine (None: the default core); the deal is the same on both."""
    step = step or rng.choice(STEP_NAMES)
    strength = rng.random()
    piles: dict[str, list[str]] = {
        name: [] for name in ("robinson", "hazard_stack", "hazard_discard", "aging_stack")
    }
    hazard_places = ["hazard_discard", "box"] + (["hazard_stack"] if step != "pirates" else [])
    for card in HAZARD_IDS:
        won = rng.random() < strength
        _put(piles, "robinson" if won else rng.choice(hazard_places), card)
    for card in AGING_IDS:
        if card != VERY_STUPID_ID or level >= 3:
            added = rng.random() < 0.5 * (1 - strength)
            _put(piles, "robinson" if added else rng.choice(["aging_stack", "box"]), card)
    for card in STARTING_IDS:
        _put(piles, "box" if rng.random() < 0.6 * strength else "robinson", card)
    for name in ("robinson", "hazard_stack", "aging_stack"):
        rng.shuffle(piles[name])
    robinson = piles.pop("robinson")
    split = rng.randint(0, len(robinson))
    total = level_life(level) + 2
    # half the deals name their pirates, half let the scenario draw them from its seed
    pirates = [KEY[c] for c in rng.sample(PIRATE_IDS, 2)] if rng.random() < 0.5 else None
    return scenario(
        level,
        step,
        robinson_stack=robinson[:split],
        robinson_discard=robinson[split:],
        pirates=pirates,
        life=rng.randint(1, total),
        known_top=rng.randint(0, split),
        seed=rng.getrandbits(32),
        core=core,
        **piles,
    )


def _put(piles: dict[str, list[str]], place: str, card: int) -> None:
    if place != "box":
        piles[place].append(KEY[card])


# ---------------------------------------------------------------- playing


@dataclass
class PlayStats:
    """What one checked game came to."""

    actions: int
    won: bool
    score: int
    reached_pirates: bool
    phases: set[Phase] = field(default_factory=set)


def play_checked(
    game: Game, policy: Policy, max_actions: int = DEFAULT_MAX_ACTIONS, checks: bool = True
) -> PlayStats:
    """Play ``game`` to its end with ``policy``, checking every invariant before the first
    action and after each one. Raises `InvariantViolation` on a broken invariant or
    when the game has not ended after ``max_actions`` actions."""
    phases = set()
    if checks:
        check_state(game)
    played = 0
    while not game.done:
        if played >= max_actions:
            raise InvariantViolation(
                f"the game did not end within {max_actions} actions (phase {game.phase.name}, "
                f"step {STEP_NAMES[game.step]})"
            )
        phases.add(game.phase)
        action = policy(game)
        if checks:
            before = Snapshot.of(game)
            game.apply(action)
            check_transition(before, game, action)
            check_state(game)
        else:
            game.apply(action)
        played += 1
    return PlayStats(played, game.won, game.score(), game.step == PIRATES, phases)


def game_seed(seed: int, level: int, index: int) -> int:
    """The seed of game ``index`` at ``level`` in a run seeded with ``seed``, kept below
    2**64 so that both cores take it (the compiled core holds 64-bit seeds)."""
    return ((seed << 40) | (level << 32) | index) % 2**64


STARTS = ("new", "deal")


def make_game(
    start: str, policy: str, level: int, seed: int, core: str | None = None
) -> tuple[Game, Policy]:
    """Game and policy for one soak game: ``start`` is ``new`` (a new game, R24) or ``deal``
    (a `random_deal`), ``policy`` a name in `POLICIES`; both seeded by ``seed``;
    ``core`` chooses the engine (None: the default core)."""
    rng = random.Random(seed)
    if start == "deal":
        game = random_deal(level, rng, core=core)
    else:
        game = new_game(level, seed, core=core)
    return game, POLICIES[policy](rng)
