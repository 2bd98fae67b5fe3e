"""The native vector env (friday_env.vector): a SyncVectorEnv of Friday-v0 envs with same-step
autoreset, array for array, stepped in one call; bad input refused before anything moves."""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

from friday_env import EnvOptionError, Game, IllegalActionError, InvalidLevelError
from friday_env.core import CoreError, available_cores
from friday_env.observation import FLAT_SIZE, FlatEncoder
from friday_env.vector import FridayVectorEnv

CORES = available_cores()


def make_vector(num_envs: int, core: str, **kwargs) -> FridayVectorEnv:
    envs = gym.make_vec(
        "Friday-v0", num_envs=num_envs, vectorization_mode="vector_entry_point", core=core, **kwargs
    )
    assert isinstance(envs, FridayVectorEnv)
    return envs


def make_reference(num_envs: int, core: str, **kwargs) -> gym.vector.SyncVectorEnv:
    """N single envs on the same core in a SyncVectorEnv with same-step autoreset."""
    single = {"core": core} if core == "c" else {}
    return gym.vector.SyncVectorEnv(
        [lambda: gym.make("Friday-v0", **single, **kwargs) for _ in range(num_envs)],
        autoreset_mode=AutoresetMode.SAME_STEP,
    )


def assert_same(ours, theirs, path: str = "") -> None:
    """Equal values, dtypes, shapes and info keys (object arrays: None or equal arrays)."""
    if isinstance(theirs, tuple):
        assert len(ours) == len(theirs), path
        for k, (mine, ref) in enumerate(zip(ours, theirs, strict=True)):
            assert_same(mine, ref, f"{path}[{k}]")
        return
    if isinstance(theirs, dict):
        assert set(ours) == set(theirs), (path, set(ours) ^ set(theirs))
        for key in theirs:
            assert_same(ours[key], theirs[key], f"{path}/{key}")
        return
    ours, theirs = np.asarray(ours), np.asarray(theirs)
    assert (ours.dtype, ours.shape) == (theirs.dtype, theirs.shape), path
    if theirs.dtype == object:
        for mine, ref in zip(ours, theirs, strict=True):
            assert (mine is None and ref is None) or np.array_equal(mine, ref), path
    else:
        assert np.array_equal(ours, theirs), path


def random_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(row)) for row in masks], np.int64)


def play_side_by_side(envs, reference, steps: int, seed: int, illegal_every: int = 0) -> int:
    """Random legal actions (an illegal one now and then if asked) to both; every output
    compared. Returns the games ended."""
    rng = np.random.default_rng(seed)
    obs, info = envs.reset(seed=seed)
    assert_same((obs, info), reference.reset(seed=seed))
    ended = 0
    for t in range(steps):
        actions = random_legal(info["action_mask"], rng)
        if illegal_every and t % illegal_every == 0:
            env = int(rng.integers(envs.num_envs))
            actions[env] = int(rng.choice(np.flatnonzero(info["action_mask"][env] == 0)))
        result = envs.step(actions)
        assert_same(result, reference.step(actions), f"step {t}")
        info = result[4]
        ended += int(result[2].sum())
    return ended


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize(
    ("level", "reward"), [(1, "win_loss"), (2, "score"), (4, "win_loss"), (3, "progress")]
)
def test_equals_sync_vector_env_of_single_envs(core, level, reward):
    envs = make_vector(3, core, level=level, reward=reward)
    reference = make_reference(3, core, level=level, reward=reward)
    assert play_side_by_side(envs, reference, 400, seed=level) >= 3


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("reward", ["win_loss", "score", "progress"])
def test_illegal_loss_mode_equals_single_envs(core, reward):
    envs = make_vector(2, core, reward=reward, illegal_action="loss")
    reference = make_reference(2, core, reward=reward, illegal_action="loss")
    assert play_side_by_side(envs, reference, 150, seed=7, illegal_every=9) >= 10


@pytest.mark.parametrize("core", CORES)
def test_default_illegal_mode_warns_once(core):
    envs = make_vector(2, core)
    _, info = envs.reset(seed=0)

    def illegal_in_env_0(masks: np.ndarray) -> np.ndarray:
        legal = random_legal(masks, np.random.default_rng(0))
        return np.array([np.flatnonzero(masks[0] == 0)[0], legal[1]])

    with pytest.warns(UserWarning, match="illegal action in env 0"):
        _, reward, terminated, _, info = envs.step(illegal_in_env_0(info["action_mask"]))
    assert terminated.tolist() == [True, False] and reward[0] == -1.0
    assert info["final_info"]["illegal_action"].tolist() == [True, False]
    assert not info["final_info"]["won"][0]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the second illegal action is not reported
        envs.step(illegal_in_env_0(info["action_mask"]))


def snapshot(envs) -> tuple:
    """Everything a step could change, and the next step's results on legal actions."""
    return envs._out.obs.copy(), envs._out.masks.copy(), envs._out.next_seeds.copy()


@pytest.mark.parametrize("core", CORES)
def test_raise_mode_names_env_and_action_and_steps_nothing(core):
    envs = make_vector(3, core, illegal_action="raise")
    twin = make_vector(3, core, illegal_action="raise")
    _, info = envs.reset(seed=11)
    twin.reset(seed=11)
    masks = info["action_mask"]
    actions = random_legal(masks, np.random.default_rng(0))
    bad = actions.copy()
    bad[2] = int(np.flatnonzero(masks[2] == 0)[0])
    before = snapshot(envs)
    with pytest.raises(IllegalActionError, match=rf"env 2: action {bad[2]} .*not legal"):
        envs.step(bad)
    assert all(np.array_equal(a, b) for a, b in zip(before, snapshot(envs), strict=True))
    # the refused step left no trace: the next legal step matches an env that never saw it
    assert_same(envs.step(actions), twin.step(actions))


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("mode", ["loss", "raise"])
@pytest.mark.parametrize("action", [-1, 199, 10**6])
def test_out_of_range_action_always_raises(core, mode, action):
    envs = make_vector(2, core, illegal_action=mode)
    envs.reset(seed=0)
    before = snapshot(envs)
    with pytest.raises(IllegalActionError, match=rf"env 1: action {action} is not an action id"):
        envs.step(np.array([0, action]))
    assert all(np.array_equal(a, b) for a, b in zip(before, snapshot(envs), strict=True))


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize(
    ("actions", "error", "message"),
    [
        (np.array([0.0, 1.0]), TypeError, "integer action ids.*float64"),
        (np.array([True, False]), TypeError, "integer action ids.*bool"),
        (np.array(["0", "1"]), TypeError, "integer action ids"),
        (np.array([0, 1, 2]), ValueError, r"shape \(2,\).*got shape \(3,\)"),
        (np.array([[0, 1]]), ValueError, r"shape \(2,\).*got shape \(1, 2\)"),
        (np.int64(0), ValueError, r"got shape \(\)"),
        (np.array([2**64 - 1, 0], np.uint64), IllegalActionError, "env 0: action"),
    ],
)
def test_bad_actions_are_named(core, actions, error, message):
    envs = make_vector(2, core)
    envs.reset(seed=0)
    before = snapshot(envs)
    with pytest.raises(error, match=message):
        envs.step(actions)
    assert all(np.array_equal(a, b) for a, b in zip(before, snapshot(envs), strict=True))


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"observation": "dict"}, EnvOptionError, "observation='flat' only"),
        ({"render_mode": "ansi"}, EnvOptionError, "does not render"),
        ({"reward": "dense"}, EnvOptionError, "unknown reward mode 'dense'"),
        ({"illegal_action": "ignore"}, EnvOptionError, "unknown illegal_action mode"),
        ({"level": 5}, InvalidLevelError, "unknown level 5"),
        ({"core": "fortran"}, CoreError, "unknown core 'fortran'"),
        ({"num_envs": 0}, EnvOptionError, "num_envs must be a positive integer"),
    ],
)
def test_unsupported_options_are_named(kwargs, error, message):
    with pytest.raises(error, match=message):
        FridayVectorEnv(**{"num_envs": 2, "core": "python", **kwargs})


@pytest.mark.parametrize("core", CORES)
def test_reset_options(core):
    envs = make_vector(2, core, level=3)
    with pytest.raises(EnvOptionError, match="unknown reset options"):
        envs.reset(options={"scenario": {}})
    with pytest.raises(EnvOptionError, match=r"2 integer game seeds in 0..2\*\*64-1"):
        envs.reset(options={"deal": [1]})
    with pytest.raises(EnvOptionError, match="seed must be an int, None or a sequence of 2"):
        envs.reset(seed=[1, 2, 3])
    obs, _ = envs.reset(options={"deal": [5, 2**63]})
    for row, deal in zip(obs, (5, 2**63), strict=True):
        assert np.array_equal(row, FlatEncoder().encode(Game.new(3, deal)))


@pytest.mark.parametrize("core", CORES)
def test_same_seed_same_games_and_other_seed_other_games(core):
    def trajectory(seed: int) -> list[np.ndarray]:
        envs = make_vector(4, core)
        obs, info = envs.reset(seed=seed)
        rng, seen = np.random.default_rng(0), [obs]
        for _ in range(120):  # past a few autoresets
            obs, _, _, _, info = envs.step(random_legal(info["action_mask"], rng))
            seen.append(obs)
        return seen

    first = trajectory(3)
    assert all(np.array_equal(a, b) for a, b in zip(first, trajectory(3), strict=True))
    assert not np.array_equal(first[0], trajectory(4)[0])


@pytest.mark.parametrize("core", CORES)
def test_spaces_metadata_and_gymnasium_vector_wrappers(core):
    envs = make_vector(3, core)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    assert envs.single_action_space == gym.spaces.Discrete(199)
    assert envs.action_space == gym.spaces.MultiDiscrete([199] * 3)
    assert envs.observation_space.shape == (3, FLAT_SIZE)
    wrapped = gym.wrappers.vector.RecordEpisodeStatistics(envs)
    obs, info = wrapped.reset(seed=0)
    assert envs.observation_space.contains(obs)
    rng, episodes = np.random.default_rng(1), 0
    for _ in range(200):
        obs, _, terminated, _, info = wrapped.step(random_legal(info["action_mask"], rng))
        assert envs.observation_space.contains(obs)
        episodes += int(terminated.sum())
        if terminated.any():
            assert info["_episode"].tolist() == terminated.tolist()
    assert episodes > 0


@pytest.mark.parametrize("core", CORES)
def test_copy_false_returns_the_envs_own_arrays(core):
    envs = make_vector(2, core, copy=False)
    obs, info = envs.reset(seed=0)
    obs2, *_ = envs.step(random_legal(info["action_mask"], np.random.default_rng(0)))
    assert obs2 is obs  # overwritten in place: the caller copies what it keeps


def test_step_before_reset_is_refused():
    with pytest.raises(EnvOptionError, match="call reset"):
        FridayVectorEnv(num_envs=2, core="python").step(np.zeros(2, np.int64))


def test_default_make_vec_mode_is_the_native_vector_env():
    envs = gym.make_vec("Friday-v0", num_envs=2)
    assert isinstance(envs.unwrapped, FridayVectorEnv)


@pytest.mark.skipif("c" not in CORES, reason="needs the compiled core")
def test_the_c_object_checks_every_buffer_it_is_given():
    """VecEnvCore (vecenv_py.c) takes numpy arrays to write into: a wrong one is an error
    naming it, never a write out of bounds."""
    from friday_env._core import compiled as _compiled
    from friday_env.vector import _Buffers

    def make(**replace):
        out = _Buffers(2)
        buffers = {name: getattr(out, name) for name in vars(out)} | replace
        return _compiled.VecEnvCore(2, 1, 0, 0.0, 0, **buffers)

    with pytest.raises(ValueError, match=r"obs \(float32, N x FLAT_SIZE\): need 1982 items"):
        make(obs=np.zeros((1, FLAT_SIZE), np.float32))
    with pytest.raises(TypeError, match=r"masks .*wrong dtype"):
        make(masks=np.zeros((2, 199), np.float32))
    with pytest.raises(TypeError, match=r"rewards .*C-contiguous writable"):
        make(rewards=np.zeros((2, 2))[:, 0])
    with pytest.raises(TypeError, match=r"next_seeds .*C-contiguous writable"):
        frozen = np.zeros(2, np.uint64)
        frozen.flags.writeable = False
        make(next_seeds=frozen)
    core = make()
    with pytest.raises(RuntimeError, match="reset"):
        core.step(np.zeros(2, np.int64))
    with pytest.raises(ValueError, match=r"seeds \(uint64, N\): need 2 items"):
        core.reset(np.zeros(3, np.uint64))
    core.reset(np.arange(2, dtype=np.uint64))
    with pytest.raises(TypeError, match=r"actions .*wrong dtype"):
        core.step(np.zeros(2, np.int32))
    with pytest.raises(ValueError, match="env 1: action 500 refused"):
        core.step(np.array([0, 500]))
