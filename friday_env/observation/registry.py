"""The encoder protocol and the registry of encoders by name (the env's ``observation=``).

An encoder is a class with a ``name``, a gymnasium ``space`` and ``encode(game)``, built from
open information only ([`friday_env.information`][friday_env.information]). Registering one makes it
a value of ``gymnasium.make("Friday-v0", observation=name)`` and of
[`make_encoder`][friday_env.observation.make_encoder]::

    @register_encoder
    class MyEncoder:
        name = "mine"

        def __init__(self) -> None:
            self.space = gymnasium.spaces.Box(...)

        def encode(self, game: Game) -> np.ndarray: ...
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar

if TYPE_CHECKING:
    from gymnasium import spaces

    from friday_env.core import Game


class Encoder(Protocol):
    """What the env asks of an encoder.

    ## Attributes

    - ``name``: the registry key, e.g. ``"flat"``.
    - ``space``: the gymnasium space every encoding lies in.

    ## Methods

    - ``encode(game)``: the observation of a [`Game`][friday_env.engine.game.Game], a pure function
      of its public view
      ([`friday_env.information.public_view`][friday_env.information.public_view]).
    """

    name: ClassVar[str]
    space: spaces.Space

    def encode(self, game: Game) -> Any: ...


E = TypeVar("E", bound=type)

#: Encoder classes by name.
ENCODERS: dict[str, type[Encoder]] = {}


def register_encoder(cls: E) -> E:
    """Class decorator: register ``cls`` under ``cls.name``. Raises ``ValueError`` if another
    class holds that name already."""
    name = getattr(cls, "name", None)
    if not isinstance(name, str) or not name:
        raise ValueError(f"encoder {cls.__name__} needs a non-empty string attribute 'name'")
    if ENCODERS.get(name, cls) is not cls:
        raise ValueError(f"an encoder named {name!r} is registered already: {ENCODERS[name]}")
    ENCODERS[name] = cls
    return cls


def encoder_names() -> tuple[str, ...]:
    """The registered encoder names, sorted (the values of the env's ``observation=``)."""
    return tuple(sorted(ENCODERS))


def make_encoder(name: str, **kwargs: Any) -> Encoder:
    """A new encoder called ``name`` (``kwargs`` go to its constructor)."""
    if name not in ENCODERS:
        raise ValueError(
            f"unknown observation encoder {name!r}; choose one of {', '.join(encoder_names())}"
        )
    return ENCODERS[name](**kwargs)
