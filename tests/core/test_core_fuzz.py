"""Fuzzing the compiled core: arbitrary action ids and objects, legal and illegal, sent to
compiled games of every level next to a Python twin.

A hypothesis state machine plays a compiled game and its Python twin (same level, same seed)
and checks after every step that the two full states (hidden piles, seed and shuffle counter
included) and legal actions are equal. Its rules send:

- legal actions, as ints and as numpy integers of every width;
- anything else: ints far out of range, negative, huge, bools, numpy bools, floats, None,
  strings, arrays; each must raise :class:`IllegalActionError` on both cores and leave the
  compiled game's full state untouched (the Python twin says what is legal);
- clones and determinized copies (same seed: same world on both cores), which must be equal
  and independent of the game they were made from.

A second state machine does the same with the vector env (``friday_env.vector``): a
compiled and a Python-core env, same seed, sent legal action arrays and arrays of every
dtype and shape (both must refuse the same ones and step nothing), and wrong buffers straight
into the compiled ``VecEnvCore``.

``FRIDAY_FUZZ_EXAMPLES`` sets the number of games of both machines (default 40 and 25; 1500
and 500 in the ``-m slow`` tests); the
sanitized run (``tests/core/test_core_sanitize.py``) runs this file against an ASan/UBSan build.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from friday_env import Game, available_cores, determinized
from friday_env.errors import IllegalActionError

pytestmark = pytest.mark.skipif("c" not in available_cores(), reason="compiled core not built")

#: Every field of a game's state (friday_env.engine.state.State), hidden ones included.
SCALAR_FIELDS = (
    "seed", "shuffles", "level", "phase", "step", "life", "reserve", "aging_total", "won",
    "fights", "hazard", "pirate_value", "free_total", "free_used", "step_down", "source",
    "resolving", "exchanges_left", "sort_placed", "budget", "known_top",
)  # fmt: skip
PILE_FIELDS = (
    "stack", "discard", "hazard_stack", "hazard_discard", "aging", "destroyed", "box",
    "pirates", "beaten", "offer", "table", "flags", "spent", "sort_taken", "unseen", "history",
)  # fmt: skip


def full_state(game: Game) -> dict[str, Any]:
    """Every field of ``game`` as plain ints and lists of ints (either core)."""
    state: dict[str, Any] = {name: int(getattr(game, name)) for name in SCALAR_FIELDS}
    state.update({name: [int(c) for c in getattr(game, name)] for name in PILE_FIELDS})
    state["legal"] = list(game.legal_actions())
    return state


NUMPY_INTEGERS = (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)

#: Anything a caller might pass as an action: mostly integers around and far beyond the
#: action ids, and objects that are not action ids at all.
ANY_ACTION = st.one_of(
    st.integers(-3, 202),
    st.integers(-(2**70), 2**70),
    st.sampled_from([2**31 - 1, 2**31, 2**32, 2**63 - 1, 2**63, 2**64, -(2**31), -(2**63)]),
    st.booleans(),
    st.sampled_from([np.True_, np.False_]),
    st.tuples(st.sampled_from(NUMPY_INTEGERS), st.integers(0, 127)).map(lambda p: p[0](p[1])),
    st.integers(128, 2**16 - 1).map(np.uint16),
    st.integers(-128, -1).map(np.int64),
    st.floats(allow_nan=True),
    st.sampled_from([None, "3", b"\x03", 3.0, 1j, [3], (3,), np.array(3), np.array([3])]),
)


def fuzz_settings(default_games: int) -> settings:
    """``default_games`` games of up to 60 inputs each (``FRIDAY_FUZZ_EXAMPLES`` overrides)."""
    return settings(
        max_examples=int(os.environ.get("FRIDAY_FUZZ_EXAMPLES", default_games)),
        stateful_step_count=60,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )


class TwinGames(RuleBasedStateMachine):
    """A compiled game and its Python twin, sent the same inputs."""

    compiled: Game
    python: Game

    @initialize(level=st.integers(1, 4), seed=st.integers(0, 2**63 - 1))
    def start(self, level: int, seed: int) -> None:
        self.compiled = Game.new(level, seed, core="c")
        self.python = Game.new(level, seed, core="python")

    def _legal(self, pick: int) -> int | None:
        legal = self.python.legal_actions()
        return legal[pick % len(legal)] if legal else None

    @rule(pick=st.integers(0, 2**16))
    def play_a_legal_action(self, pick: int) -> None:
        action = self._legal(pick)
        if action is not None:
            self.python.apply(action)
            self.compiled.apply(action)

    @rule(pick=st.integers(0, 2**16), kind=st.sampled_from(NUMPY_INTEGERS))
    def play_a_legal_action_as_a_numpy_integer(self, pick: int, kind: type) -> None:
        action = self._legal(pick)
        if action is not None:
            kind = np.int16 if action > np.iinfo(kind).max else kind  # ids go up to 198
            self.python.apply(kind(action))
            self.compiled.apply(kind(action))

    @rule(action=ANY_ACTION)
    def send_anything(self, action: Any) -> None:
        before = full_state(self.compiled)
        try:
            self.python.apply(action)
        except IllegalActionError:
            with pytest.raises(IllegalActionError):
                self.compiled.apply(action)
            assert full_state(self.compiled) == before, f"{action!r} changed the refused game"
        else:
            self.compiled.apply(action)  # legal on the reference: legal here too

    @rule(pick=st.integers(0, 2**16))
    def clone_is_equal_and_independent(self, pick: int) -> None:
        before = full_state(self.compiled)
        clone = self.compiled.clone()
        assert full_state(clone) == before
        action = self._legal(pick)
        if action is not None:
            clone.apply(action)
            assert full_state(self.compiled) == before, "playing a clone changed its original"

    @rule(seed=st.integers(0, 2**63 - 1), pick=st.integers(0, 2**16))
    def determinized_copies_are_equal_on_both_cores(self, seed: int, pick: int) -> None:
        before = full_state(self.compiled)
        world_c = determinized(self.compiled, seed)
        world_py = determinized(self.python, seed)
        assert full_state(world_c) == full_state(world_py)
        legal = world_py.legal_actions()
        if legal:  # play on in the resampled worlds: they stay twins
            world_py.apply(legal[pick % len(legal)])
            world_c.apply(legal[pick % len(legal)])
            assert full_state(world_c) == full_state(world_py)
        assert full_state(self.compiled) == before, "determinizing changed the game"

    @invariant()
    def twins_are_equal(self) -> None:
        if hasattr(self, "compiled"):
            assert full_state(self.compiled) == full_state(self.python)
            assert self.compiled.score() == self.python.score()


class TestCompiledGamesUnderArbitraryInput(TwinGames.TestCase):  # type: ignore[name-defined]
    settings = fuzz_settings(40)


@pytest.mark.slow
class TestCompiledGamesUnderArbitraryInputLong(TwinGames.TestCase):  # type: ignore[name-defined]
    settings = fuzz_settings(1500)


# ------------------------------------------------------------------ the vector env

#: Action arrays of every kind: integer dtypes, and what the vector env must refuse (other
#: dtypes, other shapes, lists of junk), built for ``n`` envs from a drawn recipe.
ARRAY_DTYPES = (*NUMPY_INTEGERS, np.float32, np.float64, np.bool_, np.complex64, object)


def _action_array(recipe: tuple[Any, int, int, list[int]], n: int) -> Any:
    dtype, extra_rows, extra_dims, values = recipe
    shape = (n + extra_rows,) + (1,) * extra_dims
    if shape[0] < 0:
        return np.zeros(0, np.int64)
    flat = [values[i % len(values)] for i in range(int(np.prod(shape)))]
    if dtype is list:
        return flat
    return np.array(flat, dtype=np.int64).astype(dtype).reshape(shape)


ACTION_ARRAYS = st.tuples(
    st.sampled_from([*ARRAY_DTYPES, list]),
    st.sampled_from([0, 0, 0, 1, -1]),
    st.sampled_from([0, 0, 0, 1]),
    st.lists(st.integers(-300, 300), min_size=1, max_size=8),
)


def vector_state(env: Any) -> tuple[bytes, bytes]:
    """The observations and masks the vector env holds (what any step rewrites)."""
    return env._out.obs.tobytes(), env._out.masks.tobytes()


class TwinVectorEnvs(RuleBasedStateMachine):
    """A vector env on the compiled core and one on the Python core, sent the same actions."""

    @initialize(
        num_envs=st.integers(1, 4),
        level=st.integers(1, 4),
        seed=st.integers(0, 2**32),
        illegal=st.sampled_from(["raise", "loss"]),
    )
    def start(self, num_envs: int, level: int, seed: int, illegal: str) -> None:
        from friday_env.vector import FridayVectorEnv

        self.envs = [
            FridayVectorEnv(num_envs, level, illegal_action=illegal, core=core)
            for core in ("c", "python")
        ]
        self.outputs = [env.reset(seed=seed) for env in self.envs]

    def _step_both(self, actions: Any) -> None:
        """Step both envs; they must agree on refusing or on every output."""
        results: list[Any] = []
        for env in self.envs:
            before = vector_state(env)
            try:
                results.append(env.step(actions))
            except (TypeError, ValueError) as error:  # IllegalActionError is a ValueError
                assert vector_state(env) == before, f"a refused step moved {env.core}"
                results.append(type(error))
        assert type(results[0]) is type(results[1]), f"{actions!r}: {results}"
        if isinstance(results[0], type):
            assert results[0] is results[1], f"{actions!r}: {results}"
            return
        for got, expected in zip(results[0][:4], results[1][:4], strict=True):
            assert got.dtype == expected.dtype and np.array_equal(got, expected)
        masks = [r[4]["action_mask"] for r in results]
        assert np.array_equal(masks[0], masks[1])

    @rule(picks=st.lists(st.integers(0, 2**16), min_size=4, max_size=4))
    def step_legal_actions(self, picks: list[int]) -> None:
        masks = self.envs[1]._out.masks
        actions = [np.flatnonzero(row)[p % row.sum()] for row, p in zip(masks, picks, strict=False)]
        self._step_both(np.array(actions, np.int64))

    @rule(recipe=ACTION_ARRAYS)
    def step_any_array(self, recipe: tuple[Any, int, int, list[int]]) -> None:
        self._step_both(_action_array(recipe, self.envs[0].num_envs))

    @rule(recipe=ACTION_ARRAYS, strided=st.booleans())
    def send_any_array_to_the_core(
        self, recipe: tuple[Any, int, int, list[int]], strided: bool
    ) -> None:
        """``VecEnvCore`` itself refuses buffers of the wrong kind (no Python check first)."""
        env = self.envs[0]
        actions = _action_array(recipe, env.num_envs)
        if strided:
            actions = np.repeat(np.asarray(actions), 2)[::2]
        native = isinstance(actions, np.ndarray) and actions.dtype == np.int64
        if native and actions.flags.c_contiguous and actions.size == env.num_envs:
            return  # the core's own format (its shape aside): the env rules cover it
        before = vector_state(env)
        for call in (env._batch.core.check, env._batch.core.step):
            with pytest.raises((TypeError, ValueError, BufferError)):
                call(actions)
        assert vector_state(env) == before


class TestVectorEnvUnderArbitraryActions(TwinVectorEnvs.TestCase):  # type: ignore[name-defined]
    settings = fuzz_settings(25)


@pytest.mark.slow
class TestVectorEnvUnderArbitraryActionsLong(TwinVectorEnvs.TestCase):  # type: ignore[name-defined]
    settings = fuzz_settings(500)
