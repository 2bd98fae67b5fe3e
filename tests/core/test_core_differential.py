"""Differential tests: the compiled core and the Python reference engine, action by action.

Each test plays the same game on both cores with the same actions and compares, after every
action, the whole state (every field, hidden piles, shuffle count and history included), the
legal actions in order, and every read-only rule (score, fight total and value, card values,
penalty, drawing tests). Starts: new games on all four levels, random deals anywhere in a
game (``friday_env.testing.games.random_deal``) and hand-written scenarios; players: uniformly
random legal play and the heuristic agent. ``determinized`` is compared on both cores too.

The default suite plays a reduced budget (about 50,000 actions); ``pytest -m slow`` plays
more than 1,000,000 actions over all levels and starts.
"""

from __future__ import annotations

import random

import pytest

from friday_env import Game, determinized, scenario
from friday_env.core import STATE_FIELDS, available_cores, to_core
from friday_env.testing.games import random_deal

pytestmark = pytest.mark.skipif("c" not in available_cores(), reason="compiled core not built")

LEVELS = (1, 2, 3, 4)
RULES = (
    "score", "can_draw", "free_draw_available", "paid_draw_cost", "robinson_cards",
    "hazards_beaten", "pirates_beaten",
)  # fmt: skip
FIGHT_RULES = ("fight_total", "fight_value", "card_values", "end_of_fight_penalty")


def full_state(game: Game) -> dict[str, object]:
    """Every field of the state, the legal actions and what every read-only rule says."""
    state = {name: getattr(game, name) for name in STATE_FIELDS}
    state["phase"] = (int(game.phase), game.phase.name)
    state["resolving"] = (int(game.resolving), game.resolving.name)
    state["legal"] = list(game.legal_actions())
    state["done"], state["in_pirate_fight"] = game.done, game.in_pirate_fight
    state["origin"] = game.origin
    for rule in RULES + (FIGHT_RULES if game.hazard >= 0 else ()):
        state[rule] = getattr(game, rule)()
    return state


def assert_same(reference: Game, compiled: Game, context: str) -> None:
    expected, actual = full_state(reference), full_state(compiled)
    for key in expected:
        assert actual[key] == expected[key], f"{key} differs {context}"


def play_both(reference: Game, compiled: Game, choose, max_actions: int = 10_000) -> int:
    """Play both games with the actions ``choose(reference)`` picks; compare after each.
    Returns the number of actions played."""
    assert_same(reference, compiled, f"at the start ({reference.origin})")
    played = 0
    while not reference.done and played < max_actions:
        action = choose(reference)
        reference.apply(action)
        compiled.apply(action)
        played += 1
        assert_same(reference, compiled, f"after action {played} ({reference.origin})")
    return played


def random_chooser(seed: int):
    rng = random.Random(seed)
    return lambda game: rng.choice(game.legal_actions())


def heuristic_chooser(seed: int):
    from friday_agents.players.heuristic.agent import heuristic_action

    return heuristic_action


def new_pair(level: int, seed: int) -> tuple[Game, Game]:
    return Game.new(level, seed, core="python"), Game.new(level, seed, core="c")


def deal_pair(level: int, seed: int) -> tuple[Game, Game]:
    """The same random deal on both cores (each dealt from its own equal generator)."""
    reference = random_deal(level, random.Random(seed), core="python")
    compiled = random_deal(level, random.Random(seed), core="c")
    return reference, compiled


STARTS = {"new": new_pair, "deal": deal_pair}
PLAYERS = {"random": random_chooser, "heuristic": heuristic_chooser}


def run(start: str, player: str, games: int, first_seed: int) -> int:
    """Play ``games`` games from ``start`` with ``player`` on both cores; return actions."""
    actions = 0
    for index in range(games):
        seed = first_seed + index
        reference, compiled = STARTS[start](LEVELS[index % 4], seed)
        actions += play_both(reference, compiled, PLAYERS[player](seed))
    return actions


# ---------------------------------------------------------------- the default budget


@pytest.mark.parametrize(
    ("start", "player", "games", "at_least"),
    [
        ("new", "random", 400, 15_000),
        ("deal", "random", 400, 8_000),
        ("new", "heuristic", 60, 4_000),
        ("deal", "heuristic", 60, 1_500),
    ],
)
def test_both_cores_play_identically(start, player, games, at_least):
    actions = run(start, player, games, first_seed=1000)
    assert actions >= at_least  # whole games were compared, not stubs


def test_a_large_seed_deals_the_same_on_both_cores():
    seed = 2**64 - 1  # the largest seed the compiled core holds
    for level in LEVELS:
        reference, compiled = new_pair(level, seed)
        assert play_both(reference, compiled, random_chooser(level)) > 0


SCENARIOS = {
    "pirates": dict(
        level=3,
        step="pirates",
        robinson_stack=["genius", "focused", "cannibals/weapon", "animals/vision", "eating"],
        robinson_discard=["weak", "hungry"],
        hazard_discard=["raft/food", "further/food"],
        pirates=["pirate/half", "pirate/all-hazards"],
        life=10,
    ),
    "sort and exchange": dict(
        level=2,
        step="yellow",
        robinson_stack=["further/vision", "weak", "animals/realization", "stupid", "genius"],
        robinson_discard=["distracted", "exploring/weapon"],
        hazard_stack=["animals/strategy", "raft/food", "exploring/food", "further/food"],
        aging_stack=["hungry", "scared", "very tired"],
        known_top=2,
    ),
    "thin deck": dict(
        level=4,
        step="red",
        robinson_stack=["weak"],
        hazard_stack=["cannibals/weapon", "raft/food"],
        aging_stack=["suicidal", "moronic"],
        life=3,
    ),
}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_scenario_starts_play_identically(name):
    actions = 0
    for seed in range(30):
        spec = {**SCENARIOS[name], "seed": seed}
        reference, compiled = scenario(**spec, core="python"), scenario(**spec, core="c")
        actions += play_both(reference, compiled, random_chooser(seed))
    assert actions >= 30


def test_clones_of_both_cores_play_the_same_future():
    reference, compiled = new_pair(2, 77)
    choose = random_chooser(77)
    for _ in range(25):
        action = choose(reference)
        reference.apply(action)
        compiled.apply(action)
    ref_clone, c_clone = reference.clone(), compiled.clone()
    assert type(c_clone) is type(compiled) and c_clone is not compiled
    assert play_both(ref_clone, c_clone, random_chooser(5)) > 0
    assert_same(reference, compiled, "after their clones played on")  # originals untouched


def _states(count: int, seed: int) -> list[tuple[Game, Game]]:
    """Pairs of equal states from random play of both starts, one every few actions."""
    rng = random.Random(seed)
    pairs = []
    while len(pairs) < count:
        start = rng.choice(list(STARTS))
        reference, compiled = STARTS[start](rng.choice(LEVELS), rng.randrange(10**6))
        while not reference.done and len(pairs) < count:
            if rng.random() < 0.2:
                pairs.append((reference.clone(), compiled.clone()))
            action = rng.choice(reference.legal_actions())
            reference.apply(action)
            compiled.apply(action)
    return pairs


def test_determinized_is_identical_on_both_cores():
    for index, (reference, compiled) in enumerate(_states(400, seed=3)):
        for seed in (index, 2**64 - 1 - index):
            ref_world, c_world = determinized(reference, seed), determinized(compiled, seed)
            assert type(c_world) is type(compiled)
            assert_same(ref_world, c_world, f"in the world of seed {seed} ({reference.origin})")
            # and the resampled worlds play on identically
            if index % 20 == 0:
                play_both(ref_world, c_world, random_chooser(seed))
        assert_same(reference, compiled, "after determinizing (the game is untouched)")


def test_conversions_round_trip_every_state():
    for reference, compiled in _states(300, seed=4):
        assert_same(reference, to_core(reference, "c"), "python -> c")
        assert_same(reference, compiled.to_python(), "c -> python")


# ---------------------------------------------------------------- the full budget


@pytest.mark.slow
def test_a_million_actions_play_identically_on_both_cores():
    actions = (
        run("new", "random", 9_000, first_seed=100_000)  # ~430k actions
        + run("deal", "random", 11_000, first_seed=200_000)  # ~370k
        + run("new", "heuristic", 2_000, first_seed=300_000)  # ~300k
        + run("deal", "heuristic", 2_000, first_seed=400_000)  # ~90k
    )
    for name in sorted(SCENARIOS):
        for seed in range(500):
            spec = {**SCENARIOS[name], "seed": seed}
            reference, compiled = scenario(**spec, core="python"), scenario(**spec, core="c")
            actions += play_both(reference, compiled, random_chooser(seed))
    assert actions >= 1_000_000, actions
