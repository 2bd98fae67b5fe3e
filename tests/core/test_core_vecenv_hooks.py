"""The native vector env's hooks for trainers: ``set_next_deals`` (the deals of the next
autoresets) and ``set_game`` (one env plays a copy of a given game), on both cores, and their
refusals, which change nothing. A ``test_core_*`` file, so the sanitizer run covers the C
behind them; and ``CoreGame._legal_mask``, the env's mask written in C."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

from friday_env import Game, available_cores
from friday_env.actions.mask import action_mask
from friday_env.errors import EnvOptionError
from friday_env.observation import FlatEncoder


@pytest.mark.parametrize("core", available_cores())
def test_set_next_deals_chooses_the_next_game(core):
    envs = gym.make_vec("Friday-v0", 2, vectorization_mode="vector_entry_point", core=core)
    _, info = envs.reset(options={"deal": [1_000_001, 1_000_002]})
    next_deals = [1_000_005, 1_000_006]
    envs.unwrapped.set_next_deals(next_deals)
    rng = np.random.default_rng(0)
    terminated = np.zeros(2, bool)
    while not terminated.any():
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in info["action_mask"]])
        obs, _, terminated, _, info = envs.step(actions)
    for i in np.flatnonzero(terminated):
        expected = FlatEncoder().encode(Game.new(1, next_deals[i]))
        np.testing.assert_array_equal(obs[i], expected)


@pytest.mark.parametrize("core", available_cores())
def test_set_game_puts_a_game_in_one_env(core):
    envs = gym.make_vec("Friday-v0", 3, vectorization_mode="vector_entry_point", core=core)
    _, info = envs.reset(options={"deal": [1, 2, 3]})
    game = Game.new(1, 1_000_009, core=core)
    for _ in range(7):
        game.apply(game.legal_actions()[0])
    row, mask = envs.unwrapped.set_game(1, game)
    np.testing.assert_array_equal(row, FlatEncoder().encode(game))
    assert np.flatnonzero(mask).tolist() == list(game.legal_actions())
    action = np.array(
        [
            np.flatnonzero(info["action_mask"][0])[0],
            game.legal_actions()[0],
            np.flatnonzero(info["action_mask"][2])[0],
        ]
    )
    obs2, *_ = envs.step(action)
    game.apply(game.legal_actions()[0])
    if not game.done:
        np.testing.assert_array_equal(obs2[1], FlatEncoder().encode(game))


@pytest.mark.parametrize(
    ("env", "game", "message"),
    [
        (3, Game.new(1, 5), "not in 0..2"),
        (True, Game.new(1, 5), "must be an int"),
        (0, "a game", "must be a Friday game"),
        (0, Game.new(2, 5), "level 1"),
    ],
)
def test_set_game_refuses_bad_input_and_changes_nothing(env, game, message):
    envs = gym.make_vec("Friday-v0", 3, vectorization_mode="vector_entry_point")
    obs, _ = envs.reset(options={"deal": [1, 2, 3]})
    with pytest.raises(EnvOptionError, match=message):
        envs.unwrapped.set_game(env, game)
    np.testing.assert_array_equal(envs.unwrapped._out.obs, obs)


def test_set_next_deals_refuses_bad_deals():
    envs = gym.make_vec("Friday-v0", 2, vectorization_mode="vector_entry_point")
    envs.reset(seed=0)
    before = envs.unwrapped._out.next_seeds.copy()
    for bad in ([1], [1, -2], [1, "x"], 7):
        with pytest.raises(EnvOptionError, match="set_next_deals"):
            envs.unwrapped.set_next_deals(bad)
    np.testing.assert_array_equal(envs.unwrapped._out.next_seeds, before)


@pytest.mark.skipif("c" not in available_cores(), reason="the compiled core is not built")
def test_the_compiled_mask_is_the_legal_actions_in_every_state():
    rng = np.random.default_rng(5)
    for level in (1, 2, 3, 4):
        game = Game.new(level, 300 + level, core="c")
        reference = game.to_python()
        while not game.done:
            flags = np.frombuffer(game._legal_mask(), np.uint8)
            assert np.flatnonzero(flags).tolist() == list(game.legal_actions())
            assert (action_mask(game) == action_mask(reference)).all()
            action = int(rng.choice(game.legal_actions()))
            game.apply(action)
            reference.apply(action)
        assert not np.frombuffer(game._legal_mask(), np.uint8).any()
