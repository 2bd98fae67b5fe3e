"""The reference core's legal list always follows the state it is asked of.

It once cached the list between actions, and the cache outlived the state it was made for: a
field edited by hand (on a copy, a scenario's game, an unpickled game) left ``legal_actions``
and the moves it allowed as they were, and a clone shared its original's list object.
"""

from __future__ import annotations

import pickle

import pytest

from friday_env import Game, Phase
from friday_env.actions import codec as act
from friday_env.errors import IllegalActionError
from friday_env.scenario import scenario


def _fight() -> Game:
    game = Game.new(1, 5, core="python")
    game.apply(act.CHOOSE_HAZARD_0)
    assert game.phase == Phase.FIGHT and act.DRAW_FREE in game.legal_actions()
    return game


def _no_free_draw(game: Game) -> None:
    game.free_used = game.free_total


def test_an_edit_after_a_legal_list_changes_the_next_one():
    game = _fight()
    game.legal_actions()
    _no_free_draw(game)
    assert act.DRAW_FREE not in game.legal_actions()
    with pytest.raises(IllegalActionError):
        game.apply(act.DRAW_FREE)


def test_a_clone_edited_after_its_original_listed_its_actions():
    game = _fight()
    game.legal_actions()
    copy = game.clone()
    _no_free_draw(copy)
    assert act.DRAW_FREE not in copy.legal_actions()
    assert act.DRAW_FREE in game.legal_actions()


def test_a_clone_and_its_original_share_no_list():
    game = _fight()
    copy = game.clone()
    mine = game.legal_actions()
    mine.clear()  # a caller's list is its own
    assert copy.legal_actions() and game.legal_actions()


def test_an_unpickled_game_edited_by_hand():
    game = _fight()
    game.legal_actions()
    loaded = pickle.loads(pickle.dumps(game))
    _no_free_draw(loaded)
    assert act.DRAW_FREE not in loaded.legal_actions()


def test_a_scenario_game_edited_by_hand():
    game = scenario(level=1, step="green", hazard_stack=["raft/food"], core="python")
    assert game.phase == Phase.LAST_HAZARD
    game.legal_actions()
    game.phase = Phase.CHOOSE_PIRATE  # an edit the state check would refuse ...
    game.step = 3
    assert game.legal_actions() == [act.CHOOSE_PIRATE_0, act.CHOOSE_PIRATE_1]  # ... but read
