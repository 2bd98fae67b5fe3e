"""Extending the env: registering an observation encoder, named views of the flat vector,
and ``api_test`` on the env and on a user's wrapper."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium import spaces

from friday_env import FridayEnv, Game
from friday_env.observation import (
    ENCODERS,
    FLAT_LAYOUT,
    FLAT_TABLE_SLOTS,
    TABLE_FEATURES,
    FlatEncoder,
    FlatView,
    encoder_names,
    make_encoder,
    register_encoder,
)
from friday_env.testing import api_test


class LifeEncoder:
    """A tiny user encoder: life and reserve."""

    name = "test_life"

    def __init__(self, scale: float = 1.0) -> None:
        self.scale = scale
        self.space = spaces.Box(0.0, 22.0 * scale, (2,), np.float32)

    def encode(self, game: Game) -> np.ndarray:
        return np.array([game.life, game.reserve], np.float32) * self.scale


@pytest.fixture
def life_encoder():
    register_encoder(LifeEncoder)
    yield LifeEncoder
    del ENCODERS[LifeEncoder.name]


def test_a_registered_encoder_is_an_observation_option(life_encoder):
    assert "test_life" in encoder_names()
    env = FridayEnv(observation="test_life")
    obs, _ = env.reset(seed=0)
    assert np.array_equal(obs, [20.0, 2.0]) and env.observation_space == life_encoder().space
    assert make_encoder("test_life", scale=2.0).encode(env.game).tolist() == [40.0, 4.0]


def test_registering_needs_a_name_and_refuses_a_taken_one(life_encoder):
    assert register_encoder(LifeEncoder) is LifeEncoder  # the same class again: fine
    taken = type("Other", (), {"name": "test_life"})
    with pytest.raises(ValueError, match="registered already"):
        register_encoder(taken)
    with pytest.raises(ValueError, match="needs a non-empty string attribute 'name'"):
        register_encoder(type("Nameless", (), {}))
    assert ENCODERS["test_life"] is LifeEncoder


def test_the_builtin_encoders_are_registered_under_their_names():
    for name in ("flat", "dict", "flat_mask"):
        assert ENCODERS[name].name == name


def test_flat_view_names_the_pieces_as_views_of_the_vector():
    game = Game.new(1, 0)
    obs = FlatEncoder().encode(game)
    view = FlatView(obs)
    assert list(view) == [p.name for p in FLAT_LAYOUT.pieces]
    assert view["table"].shape == (FLAT_TABLE_SLOTS, TABLE_FEATURES)
    assert view["life"][0] == obs[FLAT_LAYOUT.offsets["life"]] > 0
    view["life"][0] = 0.5  # a view, not a copy
    assert obs[FLAT_LAYOUT.slice("life")][0] == 0.5
    batch = np.stack([obs, obs])
    assert FlatView(batch)["offer"].shape == (2, 2, FLAT_LAYOUT["offer"].size // 2)
    with pytest.raises(ValueError, match="entries in its last axis"):
        FlatView(obs[:-1])


@pytest.mark.parametrize("observation", ["flat", "dict", "flat_mask"])
def test_api_test_passes_on_friday_v0(observation):
    api_test(gym.make("Friday-v0", observation=observation), episodes=2)


class _LeakyMask(gym.Wrapper):
    """A broken wrapper: its info mask allows every action."""

    def reset(self, **kwargs):
        obs, info = self.env.reset(**kwargs)
        return obs, {**info, "action_mask": np.ones(self.action_space.n, bool)}


class _Unseeded(gym.Wrapper):
    """A broken wrapper: it ignores the seed."""

    def reset(self, *, seed=None, options=None):
        return self.env.reset(seed=None, options=options)


@pytest.mark.parametrize(
    ("wrapper", "message"),
    [(_LeakyMask, "action_masks"), (_Unseeded, "did not replay the same")],
)
def test_api_test_names_what_a_wrapper_broke(wrapper, message):
    with pytest.raises(AssertionError, match=message):
        api_test(wrapper(gym.make("Friday-v0")), episodes=2)
