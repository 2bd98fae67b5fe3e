"""Which engine plays, and the door to both: ``Game``.

Both cores play the same game, action by action: the same legal actions, the same state
after every action (hidden piles and future shuffles included), the same scores. The
compiled one, ``CompiledGame``, is an extension type built from ``friday_env/_core`` when
the package is installed on a machine with a C compiler; the reference one is the
pure-Python engine, [`friday_env.engine.Game`][friday_env.engine.Game].
``docs/compiled-core.md`` says more.

``Game`` ([`friday_env.Game`][friday_env.Game]) is the type of a game of either core:
``isinstance(game, Game)`` holds for both, and ``Game.new(level, seed, core="c" | "python")``
starts one. The same ``core=`` is on
[`friday_env.scenario.scenario`][friday_env.scenario.scenario], ``replay`` and
``gym.make("Friday-v0", core=...)``; ``None`` means the default core, the compiled one where
it is built. The environment variable ``FRIDAY_CORE=python`` makes the reference core the
default everywhere (``FRIDAY_CORE=c`` insists on the compiled one and fails clearly when it
is not built). This module is the only one that picks a core, and the only one that imports
the compiled extension: the encoder, the vector env and the testing tools reach it through
the names below (``COMPILED_CLASSES``, ``encode_flat``, ``VecEnvCore``); the reference
engine (``friday_env.engine``) knows nothing of the compiled one. Every ``core=`` option
is checked by `check_core`, which raises one error type, `CoreError`.
"""

from __future__ import annotations

import os
from abc import ABCMeta
from typing import TYPE_CHECKING, Any, NoReturn, TypeGuard, cast

import numpy as np

from friday_env.engine import Game as ReferenceGame
from friday_env.engine.state import State, seed_from
from friday_env.errors import FridayError, StateError, check_level

try:
    import friday_env._core.compiled as _compiled
except ImportError:  # no C compiler at install time: the reference engine plays
    _compiled = None

#: The compiled core's game type, as a tuple for ``isinstance`` (empty where it is not built).
COMPILED_CLASSES: tuple[type, ...] = () if _compiled is None else (_compiled.CoreGame,)
#: The compiled core's parts that other modules use (None where it is not built): its flat
#: encoder (``encode_flat(game, out)``), its native vector env, its extension's file.
encode_flat: Any = None if _compiled is None else _compiled.encode_flat
VecEnvCore: Any = None if _compiled is None else _compiled.VecEnvCore
COMPILED_FILE: str | None = None if _compiled is None else _compiled.__file__

CORES = ("c", "python")
ENV_VAR = "FRIDAY_CORE"
#: The compiled core keeps the seed in 64 bits; the reference core takes any int.
MAX_SEED = 2**64 - 1

#: Every field of a game's state, as `friday_env.engine.State` names them.
STATE_FIELDS = (
    "level", "seed", "shuffles", "phase", "step", "life", "reserve", "aging_total", "won",
    "fights", "stack", "discard", "hazard_stack", "hazard_discard", "aging", "destroyed",
    "box", "pirates", "beaten", "offer", "hazard", "pirate_value", "free_total", "free_used",
    "step_down", "table", "spent", "flags", "source", "resolving", "exchanges_left",
    "sort_taken", "sort_placed", "budget", "known_top", "unseen", "history",
)  # fmt: skip


class CoreError(FridayError):
    """A core that is unknown, or the compiled one where it is not built."""


def available_cores() -> list[str]:
    """The cores this installation can play on: ``["c", "python"]`` or ``["python"]``."""
    return ["c", "python"] if _compiled is not None else ["python"]


def check_core(core: object, given_by: str = "") -> str:
    """``core`` if it names an available core; ``None`` gives the default core. The one
    check of every ``core=`` option (``Game.new``, ``scenario``, ``replay``, both envs) and
    of ``$FRIDAY_CORE`` (``given_by`` names where the value came from)."""
    if core is None:
        return default_core()
    if not isinstance(core, str) or core not in CORES:
        raise CoreError(
            f"unknown core {core!r}{given_by}: choose one of {', '.join(map(repr, CORES))}"
        )
    if core == "c" and _compiled is None:
        raise CoreError(
            "the compiled core is not built in this installation (no C compiler at install "
            "time?): reinstall with a C compiler, or use core='python'"
        )
    return str(core)


def default_core() -> str:
    """The core used when none is named: ``$FRIDAY_CORE`` if set, else the compiled core
    where it is built, else the reference one."""
    forced = os.environ.get(ENV_VAR, "")
    if forced:
        return check_core(forced, given_by=f" (from ${ENV_VAR})")
    return "c" if _compiled is not None else "python"


def core_of(game: object) -> str:
    """Which core plays ``game``: ``"c"`` or ``"python"``."""
    return "c" if isinstance(game, COMPILED_CLASSES) else "python"


def is_game(obj: object) -> TypeGuard[Game]:
    """Whether ``obj`` is a game of either core: ``isinstance(obj, Game)``, a tenth of its
    time (an ``ABCMeta`` check costs about a microsecond)."""
    return isinstance(obj, CORE_CLASSES)


def check_seed(seed: int, core: str) -> int:
    """A seed the core can hold: the compiled core keeps 64 bits
    ([`StateError`][friday_env.errors.StateError] beyond)."""
    if core == "c" and seed > MAX_SEED:
        raise StateError(
            f"seed {seed} is too large for the compiled core (0 <= seed < 2**64); "
            "use core='python' for larger seeds"
        )
    return seed


def python_copy(game: Any) -> Game:
    """A reference-engine copy of a game of either core, for code that edits a state's
    lists in place (tests that build unusual states; the compiled core's piles are
    read-only)."""
    return game.clone() if core_of(game) == "python" else game.to_python()


def new_game(level: int, seed: int | np.random.Generator, core: str | None = None) -> Any:
    """``Game.new`` on the chosen core."""
    return Game.new(level, seed, core=core)


def to_core(game: Any, core: str | None) -> Any:
    """``game`` on ``core`` (the same object if it is on it already)."""
    core = check_core(core)
    if core == core_of(game):
        return game
    if core == "c":
        return CompiledGame.from_python(game)
    return game.to_python()


if _compiled is not None:

    class CompiledGame(_compiled.CoreGame):
        """One game of Friday on the compiled core, with the API of the reference engine's
        ``Game`` (every state field is a read-only attribute)."""

        __slots__ = ()
        core = "c"

        @classmethod
        def new(cls, level: int, seed: int | np.random.Generator) -> CompiledGame:
            """A new game at ``level`` (1-4), as ``Game.new``."""
            level = check_level(level)
            seed = check_seed(seed_from(seed), "c")
            game = cls._new(level, seed)
            game.origin = {"level": level, "seed": seed}
            return game

        @classmethod
        def from_python(cls, game: ReferenceGame) -> CompiledGame:
            """A compiled copy of a reference game (every field): a state the rules cannot
            reach raises [`StateError`][friday_env.errors.StateError] naming the field."""
            compiled = cls.from_game(game)  # refuses seeds outside 64 bits too
            compiled.origin = dict(game.origin)
            return compiled

        def to_python(self) -> ReferenceGame:
            """A reference-engine copy of this game (every field)."""
            game = ReferenceGame()
            for name in STATE_FIELDS:
                setattr(game, name, getattr(self, name))
            game.origin = dict(self.origin)
            return game

        def __reduce__(self) -> tuple[Any, ...]:
            return (_from_python, (self.to_python(), type(self)))

        def __repr__(self) -> str:
            return State.__repr__(self)

    def _from_python(game: ReferenceGame, cls: type[CompiledGame] = CompiledGame) -> CompiledGame:
        """Unpickling: rebuild a compiled game from its reference copy."""
        return cls.from_python(game)

else:  # pragma: no cover - only without a C compiler
    CompiledGame = None  # type: ignore[assignment,misc]


if TYPE_CHECKING:
    # Type checkers cannot follow ``Game.register``: to them a Game has the reference
    # engine's API, which every core's game has.
    _GameAPI = ReferenceGame
else:
    _GameAPI = object


class Game(_GameAPI, metaclass=ABCMeta):
    """A game of *Friday* on either core, and the door to both: ``Game.new``.

    Games are made by ``Game.new``, ``scenario`` or ``replay``, never by this class itself.
    The reference engine's class ([`friday_env.engine.Game`][friday_env.engine.Game], its
    subclasses included) and ``CompiledGame`` are registered as subclasses, so
    ``isinstance(game, Game)`` holds on both cores; both have the reference's API. To extend
    the rules, subclass the reference engine's class (it plays on the reference core).
    """

    def __new__(cls, *args: object, **kwargs: object) -> Game:
        raise TypeError(
            "friday_env.Game is the type of a game of either core: start one with "
            "Game.new(level, seed, core=...) or scenario(...)"
        )

    def __init_subclass__(cls, **kwargs: object) -> NoReturn:
        raise TypeError(
            f"{cls.__name__} cannot extend friday_env.Game, the door to both cores: extend "
            "the reference engine, friday_env.engine.Game, instead"
        )

    @staticmethod
    def new(level: int, seed: int | np.random.Generator, core: str | None = None) -> Game:
        """A new game at ``level`` (1-4), set up as the rulebook says (R24), on ``core``:
        ``"c"`` the compiled one (a ``CompiledGame``, seeds below 2**64), ``"python"`` the
        reference engine, ``None`` the default core (``default_core``). ``seed`` is an int or
        a numpy ``Generator`` (which advances by one draw)."""
        if check_core(core) == "c":
            return CompiledGame.new(level, seed)
        return cast(Game, ReferenceGame.new(level, seed))  # registered as a Game below


#: The classes of the cores' games, each registered as a ``Game``.
CORE_CLASSES: tuple[type, ...] = (
    (ReferenceGame,) if CompiledGame is None else (ReferenceGame, CompiledGame)
)
for _core_class in CORE_CLASSES:
    Game.register(_core_class)


def core_in_use() -> str:
    """A one-line description of the default core (``friday --version``)."""
    try:
        core = default_core()
    except CoreError as err:
        return f"core: none usable ({err})"
    name = "compiled" if core == "c" else "pure-Python reference"
    return f"core: {core} ({name}; available: {', '.join(available_cores())})"
