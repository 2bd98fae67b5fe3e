"""Gymnasium spaces built once and copied.

Gymnasium's ``Box`` formats its bounds into a repr when it is made (about 40 ms for the flat
observation's 991 bounds, a few ms for the dict observation's boxes), and encoders and envs
are made often: one per env, per test, per evaluation worker. So each space is built by a
function decorated with `built_once`, which builds it once and hands out copies.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable, Hashable
from typing import TypeVar

import numpy as np
from gymnasium import spaces

S = TypeVar("S", bound=spaces.Space)

#: Distinct arguments remembered per builder (a batched space is built per ``num_envs``).
_KEPT_BUILDS = 8

#: Spaces without subspaces.
_LEAVES = (spaces.Box, spaces.Discrete, spaces.MultiBinary, spaces.MultiDiscrete, spaces.Text)


def built_once(build: Callable[..., S]) -> Callable[..., S]:
    """Decorator: ``build(*args)`` runs once per distinct (hashable, positional) ``args``; every
    call returns a copy of that space which behaves as a freshly built one: it has its own
    random generator (unseeded, made when first used), and a ``Dict`` or ``Tuple`` has its
    own copies of its subspaces. Bounds and other arrays are shared by all copies, so they
    are made read-only."""
    built = functools.lru_cache(maxsize=_KEPT_BUILDS)(_read_only_space(build))

    @functools.wraps(build)
    def fresh_copy(*args: Hashable) -> S:
        return _copy_space(built(*args))

    return fresh_copy


def _read_only_space(build: Callable[..., S]) -> Callable[..., S]:
    def build_read_only(*args: Hashable) -> S:
        space = build(*args)
        _freeze_arrays(space)
        return space

    return build_read_only


def _subspaces(space: spaces.Space) -> tuple[spaces.Space, ...]:
    if isinstance(space, spaces.Dict):
        return tuple(space.spaces.values())
    if isinstance(space, spaces.Tuple):
        return space.spaces
    if isinstance(space, _LEAVES):
        return ()
    # a Sequence, Graph or OneOf keeps its subspaces elsewhere, and copies would share them
    raise TypeError(f"built_once cannot copy a {type(space).__name__} space")


def _freeze_arrays(space: spaces.Space) -> None:
    for value in vars(space).values():
        if isinstance(value, np.ndarray):
            value.setflags(write=False)
    for subspace in _subspaces(space):
        _freeze_arrays(subspace)


def _copy_space(space: S) -> S:
    fresh = copy.copy(space)
    # gymnasium makes a space's generator on first use when this is None, as in a new space
    fresh._np_random = None
    if isinstance(fresh, spaces.Dict):
        fresh.spaces = {key: _copy_space(sub) for key, sub in fresh.spaces.items()}
    elif isinstance(fresh, spaces.Tuple):
        fresh.spaces = tuple(_copy_space(sub) for sub in fresh.spaces)
    return fresh
