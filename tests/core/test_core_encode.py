"""The flat observation in C (``encode.c``): bit for bit the Python encoder's, on the same
states, whichever core plays; its generated tables are current; bad output buffers give
clear errors.

Every game (new games and random deals) is played on both cores side by side (same state,
same actions), and the compiled game's encodings (``flat``, ``flat_mask``, the action mask)
are compared with the Python game's as raw bits. ``-m slow`` plays many more games.
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Iterator

import numpy as np
import pytest

from friday_agents.players.heuristic.agent import heuristic_action
from friday_env import Game, available_cores
from friday_env import actions as act
from friday_env.actions import action_mask
from friday_env.core import to_core
from friday_env.observation import FLAT_SIZE, FlatEncoder, FlatMaskEncoder
from friday_env.testing.games import random_deal

pytestmark = pytest.mark.skipif("c" not in available_cores(), reason="compiled core not built")


def twin_games(level: int, seed: int, policy: str) -> Iterator[tuple[Game, Game]]:
    """Every state of one game played on both cores with the same actions: the compiled
    game and its Python twin, before each action and at the end. Odd seeds start from a
    random deal (:func:`random_deal`: pirates, thin decks, long tables), even ones from a
    new game."""
    rng = random.Random(seed)
    if seed % 2:
        python = to_core(random_deal(level, rng), "python")
    else:
        python = Game.new(level, seed, core="python")
    compiled = to_core(python, "c")
    while True:
        yield compiled, python
        if python.done:
            return
        legal = python.legal_actions()
        action = heuristic_action(python) if policy == "heuristic" else rng.choice(legal)
        python.apply(action)
        compiled.apply(action)


def bits(vector: np.ndarray) -> np.ndarray:
    """The raw bits of a float32 vector (so -0.0 and 0.0, or two NaNs, are told apart)."""
    assert vector.dtype == np.float32 and vector.shape == (FLAT_SIZE,)
    return vector.view(np.uint32)


class Encoders:
    """The encoders compared at every state: reused ones (their caches see both cores)."""

    def __init__(self) -> None:
        self.python, self.compiled, self.flat_mask = FlatEncoder(), FlatEncoder(), FlatMaskEncoder()
        self.rows = np.zeros((3, FLAT_SIZE), np.float32)

    def check(self, compiled: Game, python: Game, where: str) -> None:
        """Every encoding of ``compiled`` equals the Python game's, bit for bit."""
        expected = self.python.encode(python)  # (a reused encoder equals a fresh one)
        differ = np.flatnonzero(bits(self.compiled.encode(compiled)) != bits(expected))
        assert differ.size == 0, f"{where}: entries {differ.tolist()} differ"
        self.compiled.encode_into(compiled, self.rows[1])  # straight into a row of a batch
        assert np.array_equal(bits(self.rows[1]), bits(expected)), where
        assert not self.rows[0].any() and not self.rows[2].any(), "wrote outside its row"
        both = self.flat_mask.encode(compiled), self.flat_mask.encode(python)
        assert np.array_equal(bits(both[0]["observation"]), bits(expected)), where
        assert both[0]["action_mask"].dtype == both[1]["action_mask"].dtype
        assert np.array_equal(both[0]["action_mask"], both[1]["action_mask"]), where
        assert np.array_equal(action_mask(compiled), action_mask(python)), where


def check_same_encodings(games: int, first_seed: int) -> int:
    """Play ``games`` games per level and policy on both cores; compare every encoding.
    Returns the number of states compared."""
    encoders = Encoders()
    compared = 0
    for level in (1, 2, 3, 4):
        for policy in ("random", "heuristic"):
            for seed in range(first_seed, first_seed + games):
                for compiled, python in twin_games(level, seed, policy):
                    actions = len(python.history)
                    encoders.check(
                        compiled, python, f"level {level}, seed {seed}, {policy}, {actions}"
                    )
                    compared += 1
    return compared


def test_compiled_flat_encodings_equal_the_python_ones_bit_for_bit():
    assert check_same_encodings(games=8, first_seed=0) > 4000


@pytest.mark.slow
def test_compiled_flat_encodings_equal_the_python_ones_bit_for_bit_many_games():
    assert check_same_encodings(games=150, first_seed=1000) > 80000


def test_encode_into_a_non_contiguous_or_other_dtype_array_converts():
    compiled = Game.new(2, 7, core="c")
    expected = FlatEncoder().encode(Game.new(2, 7, core="python"))
    strided = np.zeros((FLAT_SIZE, 2), np.float32)[:, 0]
    FlatEncoder().encode_into(compiled, strided)
    assert np.array_equal(strided, expected)
    wide = np.zeros(FLAT_SIZE, np.float64)
    FlatEncoder().encode_into(compiled, wide)
    assert np.array_equal(wide, expected.astype(np.float64))


def test_encode_flat_takes_any_float32_buffer():
    from friday_env._core.compiled import encode_flat

    compiled = Game.new(3, 11, core="c")
    expected = FlatEncoder().encode(Game.new(3, 11, core="python"))
    out = array("f", bytes(4 * FLAT_SIZE))
    encode_flat(compiled, out)
    assert np.array_equal(np.frombuffer(out, np.float32), expected)


@pytest.mark.parametrize(
    ("out", "error", "words"),
    [
        (np.zeros(FLAT_SIZE, np.float64), ValueError, "dtype is not float32"),
        (np.zeros(FLAT_SIZE, np.int32), ValueError, "dtype is not float32"),
        (np.zeros(FLAT_SIZE - 1, np.float32), ValueError, "shape is wrong"),
        (np.zeros((1, FLAT_SIZE), np.float32), ValueError, "shape is wrong"),
        (np.zeros((FLAT_SIZE, 2), np.float32)[:, 0], TypeError, "not a writable contiguous"),
        ([0.0] * FLAT_SIZE, TypeError, "not a writable contiguous"),
        (bytes(4 * FLAT_SIZE), TypeError, "not a writable contiguous"),
        (None, TypeError, "not a writable contiguous"),
    ],
)
def test_encode_flat_refuses_a_wrong_output_with_a_clear_error(out, error, words):
    from friday_env._core.compiled import encode_flat

    before = np.array(out, copy=True) if isinstance(out, np.ndarray) else None
    with pytest.raises(error, match=words) as raised:
        encode_flat(Game.new(1, 0, core="c"), out)
    assert f"({FLAT_SIZE},)" in str(raised.value)
    if before is not None:
        assert np.array_equal(out, before), "a refused output was written to"


def test_encode_flat_refuses_a_read_only_array_and_a_python_game():
    from friday_env._core.compiled import encode_flat

    frozen = np.zeros(FLAT_SIZE, np.float32)
    frozen.flags.writeable = False
    with pytest.raises(TypeError, match="writable"):
        encode_flat(Game.new(1, 0, core="c"), frozen)
    with pytest.raises(TypeError, match="compiled game"):
        encode_flat(Game.new(1, 0, core="python"), np.zeros(FLAT_SIZE, np.float32))
    with pytest.raises(TypeError, match="2 arguments"):
        encode_flat(Game.new(1, 0, core="c"))


def test_fill_legal_mask_writes_the_python_mask_into_every_entry_in_many_states():
    """``_fill_legal_mask`` (the env's masks on the compiled core) against the Python
    core's mask, over random and heuristic games from new games and random deals: every
    entry written, whatever the array held, in each one-byte dtype it takes."""
    compared = 0
    for level in (1, 2, 3, 4):
        # an even seed starts from a new game, an odd one from a random deal
        plays = ((2 * level, "random"), (10 + level, "heuristic"), (21 + level, "random"))
        for seed, policy in plays:
            for compiled, python in twin_games(level, seed, policy):
                expected = action_mask(python)  # the Python core's loop over legal_actions()
                for dtype in (np.int8, np.uint8, np.bool_):
                    out = np.ones(act.NUM_ACTIONS, dtype)  # 1 everywhere: zeros must be written
                    compiled._fill_legal_mask(out)
                    assert np.array_equal(out.astype(np.int8), expected), (level, seed)
                compared += 1
    assert compared > 400


@pytest.mark.parametrize(
    ("out", "error", "words"),
    [
        (np.zeros(act.NUM_ACTIONS, np.int16), ValueError, "not one-byte integers"),
        (np.zeros(act.NUM_ACTIONS, np.float32), ValueError, "not one-byte integers"),
        (np.zeros(act.NUM_ACTIONS - 1, np.int8), ValueError, "shape is wrong"),
        (np.zeros((1, act.NUM_ACTIONS), np.int8), ValueError, "shape is wrong"),
        (np.zeros((act.NUM_ACTIONS, 2), np.int8)[:, 0], TypeError, "not a writable contiguous"),
        (bytes(act.NUM_ACTIONS), TypeError, "not a writable contiguous"),
        ([0] * act.NUM_ACTIONS, TypeError, "not a writable contiguous"),
        (None, TypeError, "not a writable contiguous"),
    ],
)
def test_fill_legal_mask_refuses_a_wrong_output_with_a_clear_error(out, error, words):
    before = np.array(out, copy=True) if isinstance(out, np.ndarray) else None
    with pytest.raises(error, match=words) as raised:
        Game.new(1, 0, core="c")._fill_legal_mask(out)
    assert f"({act.NUM_ACTIONS},)" in str(raised.value)
    if before is not None:
        assert np.array_equal(out, before), "a refused output was written to"


def test_fill_legal_mask_refuses_a_read_only_array():
    frozen = np.zeros(act.NUM_ACTIONS, np.int8)
    frozen.flags.writeable = False
    with pytest.raises(TypeError, match="writable"):
        Game.new(1, 0, core="c")._fill_legal_mask(frozen)
    assert not frozen.any()
