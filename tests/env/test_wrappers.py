"""friday_env.wrappers: the mask under the key names other libraries read."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import friday_env  # noqa: F401
from friday_env.errors import EnvOptionError
from friday_env.wrappers import (
    RLLIB_KEYS,
    TIANSHOU_KEYS,
    MaskInObservation,
    for_rllib,
    for_tianshou,
)


@pytest.mark.parametrize(
    ("wrap", "keys", "dtype"),
    [(for_rllib, RLLIB_KEYS, np.float32), (for_tianshou, TIANSHOU_KEYS, np.bool_)],
)
@pytest.mark.parametrize("observation", ["flat", "dict"])
def test_every_step_carries_the_mask_under_the_library_keys(wrap, keys, dtype, observation):
    env = wrap(gym.make("Friday-v0", level=2, observation=observation))
    plain = gym.make("Friday-v0", level=2, observation=observation)
    obs_key, mask_key = keys
    obs, info = env.reset(seed=3)
    expected, _ = plain.reset(seed=3)
    rng = np.random.default_rng(0)
    terminated = False
    while not terminated:
        assert set(obs) == {obs_key, mask_key}
        assert env.observation_space.contains(obs)
        assert obs[mask_key].dtype == dtype
        assert np.array_equal(obs[mask_key].astype(bool), info["action_mask"])
        if observation == "flat":
            assert np.array_equal(obs[obs_key], expected)
        action = int(rng.choice(np.flatnonzero(obs[mask_key])))
        obs, _, terminated, _, info = env.step(action)
        expected, *_ = plain.step(action)
    assert not obs[mask_key].any()  # a finished game has no legal action


def test_custom_keys_and_bad_arguments():
    env = MaskInObservation(gym.make("Friday-v0"), "x", "m", mask_dtype=np.int8)
    obs, _ = env.reset(seed=0)
    assert obs["m"].dtype == np.int8 and obs["x"].shape == (991,)
    with pytest.raises(EnvOptionError, match="must differ"):
        MaskInObservation(gym.make("Friday-v0"), "a", "a")
    with pytest.raises(EnvOptionError, match="mask_dtype"):
        MaskInObservation(gym.make("Friday-v0"), mask_dtype=np.int64)
    with pytest.raises(EnvOptionError, match="action_masks"):
        MaskInObservation(gym.make("CartPole-v1"))
