"""Exceptions of the engine. All are ``ValueError`` subclasses: each names what was wrong."""

from __future__ import annotations


class FridayError(ValueError):
    """Base class of every error the engine raises on bad input."""


class IllegalActionError(FridayError):
    """An action that is not legal in the pending decision. The state is unchanged."""


class InvalidLevelError(FridayError):
    """A level other than the integers 1, 2, 3, 4."""


class ScenarioError(FridayError):
    """A scenario that names unknown cards or cannot exist (too many copies, bad pile...)."""


class RecordError(FridayError):
    """A game record that is malformed or does not replay to what it claims."""


def check_level(level: object) -> int:
    """Return ``level`` if it is one of 1..4, else raise
    [`InvalidLevelError`][friday_env.errors.InvalidLevelError]."""
    if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= 4:
        raise InvalidLevelError(f"unknown level {level!r}: levels are the integers 1, 2, 3, 4")
    return level


class EnvOptionError(FridayError):
    """An unknown or malformed option of [`FridayEnv`][friday_env.env.FridayEnv] (at ``make`` or
    ``reset``)."""


class StateError(FridayError):
    """A game state the rules cannot reach (a field out of range, a card in two places or
    in a pile that never holds its kind, a phase whose needs are not met, a live game with
    no legal action...). The compiled core refuses such a state, naming the field; nothing
    is changed."""
