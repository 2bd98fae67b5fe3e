"""Rendering: the ansi text, "human" printing and the rgb_array picture of the table."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

from friday_env import actions as act
from friday_env import scenario
from friday_env.cards import KEY
from friday_env.core import python_copy
from friday_env.env import FridayEnv
from friday_env.render import HEIGHT, WIDTH, render_rgb
from friday_env.text import render_text


def fight_game():
    """A yellow-step fight against exploring/food with genius doubled and a stupid card."""
    game = scenario(
        level=2,
        step="yellow",
        robinson_stack=["genius", "further/repeat", "stupid", "weak"],
        hazard_stack=["exploring/food", "cannibals/weapon", "raft/books", "raft/food"],
        life=15,
    )
    game.apply(act.CHOOSE_HAZARD_0)
    game.apply(act.DRAW_FREE)
    game.apply(act.DRAW_FREE)
    game.apply(act.USE_0 + 1)
    game.apply(act.TARGET_0 + 0)
    return game


def test_ansi_text_shows_the_fight_the_table_and_the_decision():
    game = fight_game()
    text = render_text(game)
    assert "level 2" in text and "step yellow" in text and "life 15" in text
    assert "hazard exploring/food (values 1/3/6): value 3" in text
    assert "total 6 against 3" in text
    assert "genius (2)" in text and "left, doubled" in text and "left, used" in text
    assert "decision: fight" in text
    for action in game.legal_actions():
        assert game.describe(action) in text


def test_ansi_text_of_a_hazard_choice_lists_the_offer():
    env = FridayEnv(render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    assert isinstance(text, str)
    for card in env.game.offer:
        assert KEY[card] in text
    assert "decision: choose a hazard" in text


def test_human_mode_prints_every_step(capsys):
    env = gym.make("Friday-v0", render_mode="human")
    _, info = env.reset(seed=1)
    assert "Friday level 1" in capsys.readouterr().out
    assert env.render() is None
    assert "Friday level 1" in capsys.readouterr().out
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert "last: fight" in capsys.readouterr().out


def test_rgb_array_is_an_image_and_differs_between_situations():
    env = gym.make("Friday-v0", level=2, render_mode="rgb_array")
    env.reset(seed=2)
    first = env.render()
    assert first.shape == (HEIGHT, WIDTH, 3) and first.dtype == np.uint8
    assert len(np.unique(first.reshape(-1, 3), axis=0)) > 20  # not a blank canvas
    env.step(act.CHOOSE_HAZARD_0)
    second = env.render()
    env.step(act.DRAW_FREE)
    third = env.render()
    assert second.shape == third.shape == first.shape
    assert not np.array_equal(first, second)
    assert not np.array_equal(second, third)
    env.reset(seed=2)
    assert np.array_equal(env.render(), first)  # the same situation draws the same picture


def test_rgb_array_of_flags_differs_from_the_plain_table():
    game = python_copy(fight_game())  # its flags are edited in place: the reference engine
    doubled = render_rgb(game)
    game.flags[0] = 0  # the same cards without the double and the used mark
    game.flags[1] = 0
    assert not np.array_equal(doubled, render_rgb(game))


def test_a_crowded_pirate_fight_and_a_finished_game_render():
    from test_env import _all_hazards_scenario

    env = FridayEnv(level=3, render_mode="rgb_array")
    env.reset(seed=0, options={"scenario": _all_hazards_scenario()})
    env.step(act.CHOOSE_PIRATE_1)
    while env.action_masks()[act.DRAW_FREE]:
        env.step(act.DRAW_FREE)
    frame = env.render()
    assert frame.shape == (HEIGHT, WIDTH, 3)
    assert "pirate pirate/all-hazards (fight all remaining hazards): value 138" in render_text(
        env.game
    )
    env = FridayEnv(render_mode="ansi", illegal_action="loss")
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    terminated = False
    while not terminated:
        legal = np.flatnonzero(env.action_masks())
        *_, terminated, _, _ = env.step(int(legal[rng.integers(len(legal))]))
    assert "game over: lost" in env.render()
    assert render_rgb(env.game).shape == (HEIGHT, WIDTH, 3)


def test_render_without_a_mode_warns_and_returns_none():
    env = FridayEnv()
    env.reset(seed=0)
    with pytest.warns(UserWarning, match="render_mode"):
        assert env.render() is None


@pytest.mark.parametrize("mode", ["ansi", "rgb_array"])
def test_rendering_envs_refuse_bad_actions_like_the_others(mode):
    from friday_env.errors import IllegalActionError

    env = FridayEnv(render_mode=mode, illegal_action="raise")
    env.reset(seed=0)
    for action in ("0", 2.5, -3, act.END_FIGHT):
        with pytest.raises(IllegalActionError):
            env.step(action)
