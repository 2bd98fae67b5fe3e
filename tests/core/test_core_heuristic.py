"""The compiled heuristic (agents/friday_agents/players/heuristic/heuristic.c) decides exactly
as the Python one.

Each game is played twice in lockstep from the same deal: on the Python engine (the twin)
and on the compiled core. In every state both heuristics are asked; the C answer must equal
the Python answer, then the same action is applied to both games. The states come from
evaluation deals played by the heuristic, and from random play (a random prefix, or random
play throughout, the heuristic still asked in every state), on all levels, with the default
and with non-default parameters. The default suite plays a few hundred games; the full
budget (more than 10,000 games) runs under ``-m slow``.
"""

from __future__ import annotations

import dataclasses
import math
import random
import sys

import pytest
from c_calls import run_with_memory_checks

from friday_agents.harness.deals import evaluation_seed
from friday_agents.players.heuristic import HeuristicAgent
from friday_agents.players.heuristic.agent import heuristic_action, python_heuristic_action
from friday_agents.players.heuristic.card_worth import FIGHT_POINTS, WORTH
from friday_agents.players.heuristic.rules import DEFAULT_PARAMS, HeuristicParams
from friday_env import Game
from friday_env.cards import HAZARD_IDS, KEY, PIRATE_IDS, STARTING_IDS
from friday_env.core import CompiledGame
from friday_env.engine import STEP_NAMES, level_aging_cards, level_life
from friday_env.engine import Game as ReferenceGame
from friday_env.errors import ScenarioError
from friday_env.scenario import scenario

core = pytest.importorskip("friday_agents.players._kernels", reason="the kernels are not built")


def kernel_test_hooks():
    """The test-only module of a development build: the C tables and sum() called directly."""
    return pytest.importorskip(
        "friday_agents.players._kernel_test_hooks", reason="the test hooks are not built"
    )


LEVELS = (1, 2, 3, 4)

#: Non-default settings: the tuner's neighbourhood, extremes, ints, the other pirate order.
OTHER_PARAMS = (
    HeuristicParams(hard_pirate_first=True, future_weight=0.3, exchange_margin=-0.25),
    HeuristicParams(life_value=0.7, low_life=11.0, win_bonus=0.1, destroy_weight=0.0),
    HeuristicParams(last_hazard_margin=2.5, future_mean=1.3, low_life=0.0),
    HeuristicParams(life_value=3, low_life=2, win_bonus=4, destroy_weight=5, future_weight=2),
    HeuristicParams(life_value=0.1, destroy_weight=9.5, last_hazard_margin=-6.0),
)


def compiled_twin(level: int, seed: int):
    return Game.new(level, seed, core="c")


def c_params(params: HeuristicParams):
    return None if params is DEFAULT_PARAMS else dataclasses.astuple(params)


def random_scenario(rng: random.Random, level: int) -> Game | None:
    """A game started at a random step with a random deck, piles and pirates (more of the
    rare states: strong decks, pirate choices and pirate fights, few lives), or None when
    the drawn set-up cannot exist."""
    hazards = rng.sample(HAZARD_IDS, len(HAZARD_IDS))
    won = hazards[: rng.randrange(16)]
    aging = rng.sample(level_aging_cards(level), len(level_aging_cards(level)))
    drawn_aging = rng.randrange(5)
    robinson = [c for c in STARTING_IDS if rng.random() < 0.8] + won + aging[:drawn_aging]
    rng.shuffle(robinson)
    split = rng.randrange(len(robinson) + 1)
    step = rng.choice(STEP_NAMES)
    others = hazards[len(won) :]
    in_stack = 0 if step == "pirates" else rng.randrange(1, len(others))
    stack_size = len(robinson) - split
    try:
        return scenario(
            level,
            step,
            robinson_stack=[KEY[c] for c in robinson[split:]],
            robinson_discard=[KEY[c] for c in robinson[:split]],
            hazard_stack=[KEY[c] for c in others[:in_stack]],
            hazard_discard=[KEY[c] for c in others[in_stack:]],
            aging_stack=[KEY[c] for c in aging[drawn_aging:]],
            pirates=[KEY[c] for c in rng.sample(PIRATE_IDS, 2)],
            life=rng.randrange(1, level_life(level) + 3),
            known_top=rng.randrange(min(3, stack_size) + 1),
            seed=rng.randrange(2**32),
            core="python",
        )
    except ScenarioError:
        return None


def play_twins(level: int, seed: int, params: HeuristicParams, random_steps: float, rng) -> int:
    """Plays one deal on both cores; the first ``random_steps`` actions are random, the rest
    the heuristic's. Checks the C heuristic in every state; returns the states checked."""
    return play_both(Game.new(level, seed, core="python"), params, random_steps, rng)


def play_both(python_game: Game, params: HeuristicParams, random_steps: float, rng) -> int:
    """:func:`play_twins` from any Python game (its compiled twin is a copy of it)."""
    assert type(python_game) is ReferenceGame  # the twin plays on the reference engine
    compiled = CompiledGame.from_python(python_game)
    origin = python_game.origin
    tuple_params = c_params(params)
    checked = 0
    while python_game.legal_actions():
        expected = python_heuristic_action(python_game, params)
        got = core.heuristic_action(compiled, tuple_params)
        assert got == expected, (
            f"game {origin}, params {params}: after actions {python_game.history} "
            f"the C heuristic chose {got}, the Python one {expected}"
        )
        checked += 1
        legal = python_game.legal_actions()
        action = rng.choice(legal) if checked <= random_steps else expected
        python_game.apply(action)
        compiled.apply(action)
    assert core.heuristic_action(compiled, tuple_params) == -1  # game over: nothing to decide
    return checked


def run_budget(games_per_level: int, rng_seed: int) -> tuple[int, int]:
    """Games of each kind on every level; returns (games, states checked)."""
    rng = random.Random(rng_seed)
    games = states = 0
    for level in LEVELS:
        for index in range(games_per_level):
            seed = evaluation_seed(level, index)
            states += play_twins(level, seed, DEFAULT_PARAMS, 0, rng)
            params = OTHER_PARAMS[index % len(OTHER_PARAMS)]
            states += play_twins(level, seed, params, 0, rng)
            mid_game = rng.randrange(200)
            states += play_twins(level, rng.randrange(2**63), DEFAULT_PARAMS, mid_game, rng)
            states += play_twins(level, rng.randrange(2**63), params, mid_game, rng)
            states += play_twins(level, rng.randrange(2**63), DEFAULT_PARAMS, math.inf, rng)
            start = None
            while start is None:
                start = random_scenario(rng, level)
            states += play_both(start, params, rng.choice((0, 0, 20)), rng)
            games += 6
    return games, states


def test_c_heuristic_matches_python_decision_by_decision():
    games, states = run_budget(games_per_level=15, rng_seed=1)
    assert games == 360 and states > 20_000


@pytest.mark.slow
def test_c_heuristic_matches_python_over_ten_thousand_games():
    games, states = run_budget(games_per_level=510, rng_seed=2)
    assert games >= 10_000 and states > 1_000_000


def test_default_params_and_card_tables_are_the_python_ones():
    assert core.heuristic_default_params() == dataclasses.astuple(DEFAULT_PARAMS)
    worth, points = kernel_test_hooks()._heuristic_tables()
    assert worth == WORTH and points == FIGHT_POINTS


def test_sum_follows_the_running_interpreter():
    """Python's sum() of floats is compensated from CPython 3.12 on; the C does the same."""
    assert core.heuristic_compensated_sum == (sys.version_info >= (3, 12))
    rng = random.Random(5)
    cases = [[], [-0.0], [0.1] * 10, [1e16, 1.0, -1e16], [2 / 3, 1 / 7, 1.0, 0.25]]
    cases += [[rng.uniform(-1, 1) * 10 ** rng.randrange(-8, 9) for _ in range(9)]] * 50
    differs, hooks = 0, kernel_test_hooks()
    for items in cases:
        got, expected = hooks._py_sum(items), sum(items)
        assert got == expected and math.copysign(1, got) == math.copysign(1, expected), items
        differs += got != math.fsum(items)
    assert differs > 0  # the cases do tell a rounding summation from an exact one


def test_heuristic_play_plays_the_python_heuristics_game():
    for level in LEVELS:
        for index, params in enumerate((DEFAULT_PARAMS, *OTHER_PARAMS[:2])):
            seed = evaluation_seed(level, 100 + index)
            python_game = Game.new(level, seed, core="python")
            while python_game.legal_actions():
                python_game.apply(python_heuristic_action(python_game, params))
            compiled = compiled_twin(level, seed)
            played = core.heuristic_play(compiled, 10_000, c_params(params))
            assert played == len(python_game.history)
            assert list(compiled.history) == python_game.history
            assert compiled.score() == python_game.score()
            assert core.heuristic_play(compiled, 10_000) == 0  # over: nothing more to play


def test_heuristic_play_stops_after_max_actions():
    compiled = compiled_twin(2, 7)
    assert core.heuristic_play(compiled, 5) == 5
    assert len(compiled.history) == 5 and compiled.legal_actions()


def test_agent_and_function_take_the_c_path_on_compiled_games(monkeypatch):
    calls = []
    real = core.heuristic_action
    monkeypatch.setattr(core, "heuristic_action", lambda *a: calls.append(a) or real(*a))
    python_game, compiled = Game.new(3, 11, core="python"), compiled_twin(3, 11)
    agent = HeuristicAgent()
    while python_game.legal_actions():
        action = agent.act(compiled)
        assert action == heuristic_action(python_game) == agent.act(python_game)
        python_game.apply(action)
        compiled.apply(action)
    assert len(calls) == len(python_game.history)


def test_bad_input_is_refused_with_a_clear_error():
    compiled = compiled_twin(1, 3)
    before = list(compiled.legal_actions())
    with pytest.raises(TypeError, match="compiled game"):
        core.heuristic_action(Game.new(1, 3, core="python"))
    with pytest.raises(TypeError, match="HeuristicParams"):
        core.heuristic_action(compiled, (1.0, 2.0))
    with pytest.raises(TypeError, match="params\\[2\\] must be a number"):
        core.heuristic_action(compiled, (1.0, 6.0, "x", 2.0, -1.0, 0.5, 1.0, 0.5, False))
    with pytest.raises(TypeError, match="hard_pirate_first"):
        core.heuristic_action(compiled, (1.0, 6.0, 1.5, 2.0, -1.0, 0.5, 1.0, 0.5, 0.5))
    with pytest.raises(ValueError, match="max_actions"):
        core.heuristic_play(compiled, -1)
    assert compiled.history == [] and list(compiled.legal_actions()) == before


def test_game_over_is_an_error_on_both_cores():
    for game in (Game.new(1, 5, core="python"), compiled_twin(1, 5)):
        while game.legal_actions():
            game.apply(heuristic_action(game))
        with pytest.raises(ValueError, match="game is over"):
            heuristic_action(game)


def test_an_item_that_empties_the_list_cannot_make_py_sum_read_freed_memory():
    """_py_sum read the list itself: an item whose __float__ clears it left C reading freed
    items (issue 27). It now sums a snapshot taken before any item's code runs."""
    kernel_test_hooks()
    out = run_with_memory_checks(
        """
from friday_agents.players import _kernel_test_hooks
class Clearing:
    def __float__(self):
        items.clear()
        return 0.25
items = [0.5, Clearing(), *[0.125] * 40]
print(_kernel_test_hooks._py_sum(items))
"""
    )
    assert float(out) == 0.5 + 0.25 + 0.125 * 40
