"""Bad input gets a clear error naming what was wrong, and leaves the state untouched:
unknown levels, illegal actions, malformed scenarios."""

from __future__ import annotations

import numpy as np
import pytest

from friday_env import (
    FridayError,
    Game,
    IllegalActionError,
    InvalidLevelError,
    ScenarioError,
    scenario,
)
from friday_env import actions as act
from friday_env.record import state_digest
from friday_env.scenario import from_spec

BAD_LEVELS = [0, 5, -1, "x", "1", 1.0, 2.5, True, False, None, [1]]

# ---------------------------------------------------------------- levels


@pytest.mark.parametrize("level", BAD_LEVELS, ids=repr)
def test_unknown_level_is_refused_by_game_new(level):
    with pytest.raises(
        InvalidLevelError, match=r"unknown level .*levels are the integers 1, 2, 3, 4"
    ):
        Game.new(level, 0)


@pytest.mark.parametrize("level", BAD_LEVELS, ids=repr)
def test_unknown_level_is_refused_by_scenario(level):
    with pytest.raises(InvalidLevelError, match="unknown level"):
        scenario(level)


def test_errors_are_value_errors():
    for error in (InvalidLevelError, IllegalActionError, ScenarioError):
        assert issubclass(error, FridayError) and issubclass(error, ValueError)


@pytest.mark.parametrize("seed", [-1, "x", 1.5, None, True])
def test_bad_seed_is_refused_with_a_clear_message(seed):
    with pytest.raises((TypeError, ValueError), match="seed must be"):
        Game.new(1, seed)


# ---------------------------------------------------------------- illegal actions


def _fight() -> Game:
    game = Game.new(2, 17)
    game.apply(act.CHOOSE_HAZARD_0)
    game.apply(act.DRAW_FREE)
    return game


def _situations() -> dict[str, Game]:
    over = Game.new(1, 3)
    while not over.done:
        over.apply(over.legal_actions()[-1])
    return {"choose hazard": Game.new(1, 8), "fight": _fight(), "game over": over}


@pytest.mark.parametrize("situation", ["choose hazard", "fight", "game over"])
@pytest.mark.parametrize(
    "action",
    [-1, act.NUM_ACTIONS, 10**9, True, False, "0", "draw", None, 0.0, 6.0, [0], np.float64(0)],
    ids=repr,
)
def test_illegal_action_names_itself_and_the_decision_and_changes_nothing(situation, action):
    game = _situations()[situation]
    digest, legal, history = state_digest(game), list(game.legal_actions()), list(game.history)
    with pytest.raises(IllegalActionError) as caught:
        game.apply(action)
    message = str(caught.value)
    assert f"illegal action {action!r}" in message
    assert f"in phase {game.phase.name}" in message
    assert state_digest(game) == digest
    assert game.legal_actions() == legal and game.history == history


def test_action_of_another_phase_is_refused_with_the_legal_list():
    game = Game.new(1, 8)  # choosing a hazard
    with pytest.raises(IllegalActionError) as caught:
        game.apply(act.DRAW_FREE)
    message = str(caught.value)
    assert "illegal action 6 (draw a free card) in phase CHOOSE_HAZARD" in message
    assert f"0 ({game.describe(0)})" in message and f"1 ({game.describe(1)})" in message


def test_draw_free_is_refused_outside_a_fight_and_use_of_an_empty_slot_inside():
    game = _fight()
    digest = state_digest(game)
    for action in (act.CHOOSE_HAZARD_0, act.USE_0 + 5, act.TARGET_0, act.DESTROY_0):
        with pytest.raises(IllegalActionError, match="in phase FIGHT"):
            game.apply(action)
    assert state_digest(game) == digest


def test_action_after_the_game_is_over_says_so():
    game = _situations()["game over"]
    with pytest.raises(IllegalActionError, match="none, the game is over"):
        game.apply(act.CHOOSE_HAZARD_0)


@pytest.mark.parametrize("action", ["0", 1.5, None, True])
def test_describing_a_non_integer_action_says_what_an_action_is(action):
    game = Game.new(1, 0)
    with pytest.raises(TypeError, match=f"integer id 0..198, not {type(action).__name__}"):
        game.describe(action)


def test_numpy_integer_actions_are_accepted():
    game = Game.new(1, 8)
    game.apply(np.int64(act.CHOOSE_HAZARD_1))
    assert game.history == [act.CHOOSE_HAZARD_1]
    assert type(game.history[0]) is int  # records stay JSON-friendly


# ---------------------------------------------------------------- malformed scenarios


MALFORMED = {
    "unknown card key": (dict(robinson_stack=["genius", "dragon"]), "unknown card key 'dragon'"),
    "empty card key": (dict(robinson_stack=[""]), "unknown card key ''"),
    "non-string card key": (dict(robinson_stack=[3]), "card keys are strings, got 3"),
    "too many copies": (dict(robinson_stack=["genius", "genius"]), "too many 'genius' cards"),
    "too many across piles": (
        dict(robinson_stack=["eating"], robinson_discard=["eating"]),
        "too many 'eating' cards",
    ),
    "nine weak cards": (dict(robinson_discard=["weak"] * 9), "the game has 8"),
    "very stupid at level 1": (dict(aging_stack=["very stupid"]), "not in the game at level 1"),
    "pirate in the robinson stack": (
        dict(robinson_stack=["pirate/20"]),
        "robinson_stack: 'pirate/20' is a pirate card",
    ),
    "starting card among hazards": (
        dict(hazard_stack=["genius"]),
        "hazard_stack: 'genius' is a starting card",
    ),
    "hazard in the aging stack": (
        dict(aging_stack=["raft/food"]),
        "aging_stack: 'raft/food' is a hazard card",
    ),
    "aging card as a pirate": (dict(pirates=["stupid", "pirate/20"]), "'stupid' is a aging card"),
    "step card": (dict(robinson_stack=["step/red"]), "'step/red' is a step card"),
    "one pirate": (dict(pirates=["pirate/20"]), "exactly 2 are needed, got 1"),
    "three pirates": (dict(pirates=["pirate/20", "pirate/25", "pirate/30"]), "got 3"),
    "same pirate twice": (dict(pirates=["pirate/20", "pirate/20"]), "too many 'pirate/20'"),
    "hazards left at the pirates": (
        dict(step="pirates", hazard_stack=["raft/food"]),
        "hazard_stack must be empty at the pirates",
    ),
    "life too high": (dict(life=23), "life must be an integer from 0 to 22 at level 1, got 23"),
    "life negative": (dict(life=-1), "got -1"),
    "life float": (dict(life=5.0), "got 5.0"),
    "life string": (dict(life="5"), "got '5'"),
    "life bool": (dict(life=True), "got True"),
    "level 4 life": (dict(level=4, life=21), "from 0 to 20 at level 4"),
    "unknown step": (dict(step="blue"), "unknown step 'blue': steps are green, yellow"),
    "step out of range": (dict(step=4), "unknown step 4"),
    "step bool": (dict(step=True), "unknown step True"),
    "step float": (dict(step=1.0), "unknown step 1.0"),
    "known top beyond the stack": (
        dict(robinson_stack=["genius"], known_top=2),
        "known_top must be 0..1",
    ),
    "known top negative": (dict(known_top=-1), "got -1"),
    "known top bool": (dict(robinson_stack=["genius"], known_top=True), "got True"),
    "string instead of a list": (
        dict(robinson_stack="genius"),
        "robinson_stack must be a list of card keys, not the string 'genius'",
    ),
    "pirates as a string": (dict(pirates="pirate/20"), "pirates must be a list"),
    "None instead of a list": (dict(hazard_stack=None), "hazard_stack must be a list"),
    "number instead of a list": (dict(robinson_discard=3), "robinson_discard must be a list"),
    "dict instead of a list": (dict(aging_stack={"stupid": 1}), "aging_stack must be a list"),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_scenario_is_refused_with_a_clear_message(name):
    kwargs, message = MALFORMED[name]
    with pytest.raises(ScenarioError) as caught:
        scenario(**kwargs)
    assert message in str(caught.value)


def test_unknown_scenario_field_is_refused():
    with pytest.raises(ScenarioError, match="colour"):
        from_spec({"level": 1, "colour": "blue"})


def test_a_scenario_at_its_limits_is_accepted():
    """The checks above refuse only what cannot exist: all 8 weak cards, life 0 and the
    whole stack known are fine."""
    game = scenario(1, robinson_stack=["weak"] * 8, known_top=8, life=0, hazard_stack=["raft/food"])
    assert game.life == 0 and game.reserve == 22 and game.known_top == 8
    assert game.phase == act.Phase.LAST_HAZARD
