"""``Friday-v0`` on its defaults passes Gymnasium's and SB3's environment checkers, its masks
are int8 everywhere (Gymnasium's mask dtype), and vector envs have a documented mask on the
autoreset step."""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import friday_env  # registers Friday-v0
from friday_env.observation import make_encoder
from friday_env.observation.shared_spaces import built_once
from friday_env.vector import FridayVectorEnv
from friday_env.wrappers import MaskInObservation

OBSERVATIONS = ("flat", "dict", "flat_mask")


#: Expected notes: the env's own about an illegal action, and Gymnasium's advice to check
#: ``env.unwrapped`` when given the wrapped env ``gym.make`` returns (checked both ways).
EXPECTED = ("illegal action", "is different from the unwrapped version")


def _foreign_warnings(caught: list[warnings.WarningMessage]) -> list[str]:
    """Warnings other than the expected notes."""
    return [str(w.message) for w in caught if not any(e in str(w.message) for e in EXPECTED)]


@pytest.mark.parametrize("observation", OBSERVATIONS)
def test_gymnasium_check_env_passes_on_the_defaults(observation):
    from gymnasium.utils.env_checker import check_env

    kwargs = {} if observation == "flat" else {"observation": observation}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(gym.make("Friday-v0", **kwargs).unwrapped)
        check_env(gym.make("Friday-v0", **kwargs))
    assert not _foreign_warnings(caught)


@pytest.mark.parametrize("observation", OBSERVATIONS)
def test_sb3_check_env_passes_on_the_defaults(observation):
    from stable_baselines3.common.env_checker import check_env

    kwargs = {} if observation == "flat" else {"observation": observation}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(gym.make("Friday-v0", **kwargs))
    assert not _foreign_warnings(caught)


def _leaves(space: gym.Space) -> list[gym.Space]:
    if isinstance(space, (gym.spaces.Dict, gym.spaces.Tuple)):
        subspaces = space.spaces.values() if isinstance(space, gym.spaces.Dict) else space.spaces
        return [leaf for sub in subspaces for leaf in _leaves(sub)]
    return [space]


def _same_sample(a, b) -> bool:
    if isinstance(a, dict):
        return all(_same_sample(a[key], b[key]) for key in a)
    return np.array_equal(a, b)


def _twice(make) -> tuple[gym.Space, gym.Space]:
    return make(), make()


SPACES_MADE_TWICE = {
    **{f"encoder {name}": lambda name=name: make_encoder(name).space for name in OBSERVATIONS},
    **{
        f"env {name}": lambda name=name: gym.make("Friday-v0", observation=name).observation_space
        for name in OBSERVATIONS
    },
    **{
        f"mask in observation {dtype.__name__}": lambda dtype=dtype: (
            MaskInObservation(gym.make("Friday-v0"), mask_dtype=dtype).observation_space
        )
        for dtype in (np.int8, np.float32, np.bool_)
    },
    "vector observation": lambda: FridayVectorEnv(3).observation_space,
    "vector single observation": lambda: FridayVectorEnv(3).single_observation_space,
    "vector action": lambda: FridayVectorEnv(3).action_space,
}


@pytest.mark.parametrize("made", SPACES_MADE_TWICE)
def test_spaces_built_once_are_independent_copies_with_read_only_bounds(made):
    """Spaces are built once and copied (gymnasium's Box formats its bounds when made): each
    copy equals a fresh build, samples with a generator of its own (seeding one copy leaves
    the other's draws alone; unseeded copies draw differently), and the shared bounds cannot
    be written."""
    a, b = _twice(SPACES_MADE_TWICE[made])
    assert a == b and a is not b
    for leaf_a, leaf_b in zip(_leaves(a), _leaves(b), strict=True):
        assert leaf_a is not leaf_b and leaf_a.np_random is not leaf_b.np_random
    assert not _same_sample(a.sample(), b.sample())
    a.seed(0)
    b.seed(0)
    first = a.sample()
    assert _same_sample(first, b.sample())
    for leaf_a in _leaves(a):
        arrays = [value for value in vars(leaf_a).values() if isinstance(value, np.ndarray)]
        assert all(not array.flags.writeable for array in arrays)


def test_built_once_refuses_a_space_whose_subspaces_it_cannot_copy():
    sequence = built_once(lambda: gym.spaces.Sequence(gym.spaces.Discrete(2)))
    with pytest.raises(TypeError, match="cannot copy a Sequence space"):
        sequence()


def test_the_default_ends_the_episode_on_an_illegal_action_with_a_warning():
    env = gym.make("Friday-v0")
    _, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.warns(UserWarning, match="illegal action"):
        _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["illegal_action"] and not info["won"]
    assert not info["action_mask"].any()


def test_illegal_action_raise_is_still_available():
    env = gym.make("Friday-v0", illegal_action="raise")
    _, info = env.reset(seed=0)
    with pytest.raises(friday_env.IllegalActionError):
        env.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))


@pytest.mark.parametrize("observation", OBSERVATIONS)
def test_every_mask_is_int8(observation):
    env = gym.make("Friday-v0", observation=observation)
    obs, info = env.reset(seed=1)
    masks = [info["action_mask"], env.unwrapped.action_masks()]
    if observation == "flat_mask":
        masks.append(obs["action_mask"])
    for mask in masks:
        assert mask.dtype == np.int8 and mask.shape == (env.action_space.n,)
        assert set(np.unique(mask)) <= {0, 1}
    np.testing.assert_array_equal(masks[0], masks[-1])


def test_action_space_sample_with_the_info_mask_is_always_legal():
    env = gym.make("Friday-v0", level=3)
    env.action_space.seed(5)
    for episode in range(3):
        _, info = env.reset(seed=episode)
        terminated = False
        while not terminated:
            action = env.action_space.sample(mask=info["action_mask"])
            assert info["action_mask"][action] == 1
            _, _, terminated, _, info = env.step(action)
            assert "illegal_action" not in info


def _vector_episodes(mode: AutoresetMode, steps: int):
    """Random play in a 3-env sync vector env, sampling from the info masks row by row;
    yields (episode-ended row, info mask) after every step."""
    envs = gym.make_vec(
        "Friday-v0",
        num_envs=3,
        vectorization_mode="sync",
        vector_kwargs={"autoreset_mode": mode},
    )
    envs.action_space.seed(0)
    _, info = envs.reset(seed=0)
    for _ in range(steps):
        actions = np.array(
            [envs.single_action_space.sample(mask=row) for row in info["action_mask"]]
        )
        _, _, terminated, truncated, info = envs.step(actions)
        assert "illegal_action" not in info or not info["illegal_action"].any()
        yield terminated | truncated, info["action_mask"]
    envs.close()


def test_vector_env_next_step_autoreset_mask_row_is_all_zero_and_any_action_is_ignored():
    """Gymnasium's default autoreset: the step that ends an episode returns an all-zero mask
    row (no action is legal in a finished game); the next step only resets that env and
    ignores its action, so sampling from the zero row (Gymnasium's ``Discrete.sample`` gives
    0) is harmless."""
    ends = 0
    for ended, masks in _vector_episodes(AutoresetMode.NEXT_STEP, 600):
        assert masks.dtype == np.int8
        for row, over in zip(masks, ended, strict=True):
            assert row.any() != over
        ends += int(ended.sum())
    assert ends > 0  # random games end within 600 steps


def test_vector_env_same_step_autoreset_mask_row_is_the_new_games():
    """With ``AutoresetMode.SAME_STEP`` the env resets in the step that ends an episode, and
    the mask row is the new game's: never all zero."""
    ends = 0
    for ended, masks in _vector_episodes(AutoresetMode.SAME_STEP, 600):
        assert masks.any(axis=1).all()
        ends += int(ended.sum())
    assert ends > 0
