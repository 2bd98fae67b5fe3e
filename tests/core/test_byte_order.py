"""Arrays of another byte order, width, layout or kind handed to the vector env and the
encoders (N9): converted to what the core reads, or refused in one line; never read as raw
bytes of another layout (a big-endian action 1 read as 2**56)."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from friday_env import Game, available_cores
from friday_env.observation.flat import FLAT_SIZE, FlatEncoder
from friday_env.vector import FridayVectorEnv

CORES = available_cores()
needs_c = pytest.mark.skipif("c" not in CORES, reason="compiled core not built")
#: The byte order this machine does not use.
FOREIGN = ">" if sys.byteorder == "little" else "<"


def _last_legal(masks: np.ndarray) -> np.ndarray:
    return np.array([np.flatnonzero(row)[-1] for row in masks], np.int64)


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize(
    "dtype", [f"{FOREIGN}i8", f"{FOREIGN}i4", f"{FOREIGN}u2", "i2", "u1", "=i8"]
)
def test_actions_of_any_integer_layout_step_as_their_values(core: str, dtype: str) -> None:
    envs = [FridayVectorEnv(3, level=1, core=core) for _ in range(2)]
    try:
        masks = [env.reset(seed=4)[1]["action_mask"] for env in envs]
        actions = _last_legal(masks[0])
        assert actions.max() > 0  # a value whose bytes differ between the orders
        plain = envs[0].step(actions)
        other = envs[1].step(actions.astype(np.dtype(dtype)))
        for mine, theirs in zip(plain[:4], other[:4], strict=True):
            assert np.array_equal(mine, theirs)
        assert np.array_equal(plain[4]["action_mask"], other[4]["action_mask"])
    finally:
        for env in envs:
            env.close()


@pytest.mark.parametrize("core", CORES)
def test_strided_actions_step_as_their_values(core: str) -> None:
    env = FridayVectorEnv(3, level=1, core=core)
    try:
        mask = env.reset(seed=4)[1]["action_mask"]
        strided = np.repeat(_last_legal(mask), 2)[::2]
        assert not strided.flags["C_CONTIGUOUS"]
        env.step(strided)
    finally:
        env.close()


@needs_c
@pytest.mark.parametrize("dtype", [f"{FOREIGN}i8", "i4", "f8"])
def test_the_native_vector_core_refuses_a_buffer_it_would_misread(dtype: str) -> None:
    """The compiled batch below the env reads raw memory: another byte order or width is
    refused naming the buffer, before anything is stepped."""
    env = FridayVectorEnv(2, level=1, core="c")
    try:
        actions = _last_legal(env.reset(seed=4)[1]["action_mask"])
        core = env._batch.core
        assert core.check(actions) == -1
        with pytest.raises(TypeError, match=r"actions \(int64, N\): wrong dtype"):
            core.check(actions.astype(np.dtype(dtype)))
        with pytest.raises(TypeError, match=r"actions \(int64, N\): wrong dtype"):
            core.step(actions.astype(np.dtype(dtype)))
        assert env.step(actions)[0].shape[0] == 2  # nothing was stepped: still playable
    finally:
        env.close()


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("dtype", [f"{FOREIGN}f4", f"{FOREIGN}f8", "f8", "=f4"])
def test_encode_into_a_float_array_of_any_layout(core: str, dtype: str) -> None:
    game, encoder = Game.new(2, 9, core=core), FlatEncoder()
    out = np.zeros(FLAT_SIZE, np.dtype(dtype))
    encoder.encode_into(game, out)
    assert np.array_equal(out.astype(np.float32), encoder.encode(game))
    strided = np.zeros(2 * FLAT_SIZE, np.float32)[::2]
    encoder.encode_into(game, strided)
    assert np.array_equal(strided, encoder.encode(game))


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("dtype", ["i4", f"{FOREIGN}i8", "u1"])
def test_encode_into_an_integer_array_is_refused(core: str, dtype: str) -> None:
    out = np.full(FLAT_SIZE, 7, np.dtype(dtype))
    with pytest.raises(TypeError, match="out must be a float array"):
        FlatEncoder().encode_into(Game.new(1, 9, core=core), out)
    assert (out == 7).all()
