"""Errors of *Friday the 13th*: ``ValueError`` subclasses, each message one line naming what
was wrong; the game is unchanged when one is raised."""

from __future__ import annotations


class ThirteenError(ValueError):
    """Base class of every error the *Friday the 13th* rules raise on bad input."""


class IllegalMoveError(ThirteenError):
    """An action that is not legal now (not held, wrong pile, not an action id, game over)."""


class SetupError(ThirteenError):
    """Bad arguments to ``Game13.new`` or ``Game13.scenario`` (player count, seed, cards)."""


class OptionError(ThirteenError):
    """An unknown or malformed option of the *Friday the 13th* environments."""
