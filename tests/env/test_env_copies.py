"""Copies of ``Friday-v0`` (copy, deepcopy, pickle, cloudpickle) are independent envs that
step exactly like the original, in every observation mode.

Search and MCTS code copies envs routinely; a copy whose observations silently stop following
its game is the worst kind of bug, so this is a property test over random games: play a random
prefix, copy, then feed both envs the same actions to the end of the episode and one more
(unseeded) reset, comparing every observation, mask, reward, flag and info.
"""

from __future__ import annotations

import copy
import pickle

import cloudpickle
import gymnasium as gym
import numpy as np
import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

import friday_env  # noqa: F401  (registers Friday-v0)
from friday_env import FridayEnv

OBSERVATIONS = ("flat", "dict", "flat_mask")
COPIERS = {
    "copy": copy.copy,
    "deepcopy": copy.deepcopy,
    "pickle": lambda env: pickle.loads(pickle.dumps(env)),
    "cloudpickle": lambda env: cloudpickle.loads(cloudpickle.dumps(env)),
}


def assert_same(a: object, b: object, what: str) -> None:
    """Equal values of the same structure and dtype (arrays compared bit for bit)."""
    if isinstance(a, dict):
        assert isinstance(b, dict) and a.keys() == b.keys(), what
        for key in a:
            assert_same(a[key], b[key], f"{what}[{key!r}]")
    elif isinstance(a, tuple | list):
        assert isinstance(b, tuple | list) and len(a) == len(b), what
        for index, (x, y) in enumerate(zip(a, b, strict=True)):
            assert_same(x, y, f"{what}[{index}]")
    elif isinstance(a, np.ndarray | np.generic):
        assert isinstance(b, np.ndarray | np.generic), what
        assert a.dtype == b.dtype and np.array_equal(a, b), f"{what} differs"
    else:
        assert a == b, f"{what}: {a!r} != {b!r}"


def play_both(original, twin, rng: np.random.Generator, first_info: dict) -> int:
    """Step both envs with the same random legal actions until the episode ends; return the
    number of steps."""
    info, steps, done = first_info, 0, False
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        one = original.step(action)
        two = twin.step(action)
        for name, a, b in zip(
            ("obs", "reward", "terminated", "truncated", "info"), one, two, strict=True
        ):
            assert_same(a, b, f"step {steps}: {name}")
        info, done, steps = one[4], one[2] or one[3], steps + 1
    return steps


# no shrinking: a failing example is already small enough to read, and shrinking whole
# games takes minutes
@settings(max_examples=40, deadline=None, phases=(Phase.explicit, Phase.reuse, Phase.generate))
@given(
    observation=st.sampled_from(OBSERVATIONS),
    copier=st.sampled_from(sorted(COPIERS)),
    level=st.integers(1, 4),
    seed=st.integers(0, 2**31 - 1),
    prefix=st.integers(0, 120),
    wrapped=st.booleans(),
)
def test_a_copy_steps_exactly_like_the_original(observation, copier, level, seed, prefix, wrapped):
    if wrapped and copier == "copy":
        wrapped = False  # copy.copy of a wrapper stack is shallow by Python's rules: see below
    original = (
        gym.make("Friday-v0", level=level, observation=observation)
        if wrapped
        else FridayEnv(level=level, observation=observation)
    )
    rng = np.random.default_rng(seed)
    _, info = original.reset(seed=seed)
    for _ in range(prefix):  # a random prefix; stop early if the game ends
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, _, terminated, _, info = original.step(action)
        if terminated:
            _, info = original.reset()
    twin = COPIERS[copier](original)
    assert twin is not original
    play_both(original, twin, rng, info)
    # the copies' generators are copies too: the next unseeded reset deals the same game
    first, second = original.reset(), twin.reset()
    assert_same(first, second, "reset after the episode")
    play_both(original, twin, rng, first[1])


@pytest.mark.parametrize("observation", OBSERVATIONS)
@pytest.mark.parametrize("copier", sorted(COPIERS))
def test_a_copy_does_not_move_the_original(observation, copier):
    """Stepping a copy leaves the original's game and observations where they were."""
    original = FridayEnv(level=2, observation=observation)
    obs, info = original.reset(seed=11)
    twin = COPIERS[copier](original)
    twin.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert original.game is not twin.game
    assert len(original.game.history) == 0 and len(twin.game.history) == 1
    assert_same(original.encoder.encode(original.game), obs, "original observation")


@pytest.mark.parametrize("copier", ["deepcopy", "pickle", "cloudpickle"])
def test_a_copy_made_before_reset_works(copier):
    original = gym.make("Friday-v0", observation="flat")
    twin = COPIERS[copier](original)
    first, second = original.reset(seed=3), twin.reset(seed=3)
    assert_same(first, second, "reset")
    play_both(original, twin, np.random.default_rng(3), first[1])


def test_copy_copy_of_a_wrapper_stack_shares_the_env():
    """Documented behaviour: ``copy.copy`` of a Gymnasium wrapper copies only the outer
    wrapper (Python's shallow copy); ``copy.copy(env.unwrapped)`` or ``deepcopy`` copy the
    game."""
    env = gym.make("Friday-v0")
    env.reset(seed=0)
    assert copy.copy(env).unwrapped is env.unwrapped
    assert copy.copy(env.unwrapped).game is not env.unwrapped.game
