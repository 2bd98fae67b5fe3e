"""The compiled core's edges: its counters as wide as the game needs, seeds refused outside
64 bits, test hooks that survive items changing their list, and the hardened build.

Each test here failed before its fix (a review found the defects): the shuffle counter was
32-bit and wrapped, ``_new`` took ``-1`` as the seed ``2**64 - 1``, the shuffle hooks read
a list that an item's ``__index__`` had emptied, the extension was built without a
stack protector or full RELRO, and it claimed a FORTIFY build that changed no call.
"""

from __future__ import annotations

import importlib.util
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from friday_env import Game, available_cores
from friday_env.core import STATE_FIELDS
from friday_env.errors import StateError

pytestmark = pytest.mark.skipif("c" not in available_cores(), reason="compiled core not built")
REPO = Path(__file__).resolve().parents[2]

if "c" in available_cores():
    from friday_env._core import _test_hooks as core
    from friday_env.core import CompiledGame


def _state(game: Game) -> dict[str, object]:
    return {name: getattr(game, name) for name in STATE_FIELDS} | {"legal": game.legal_actions()}


@pytest.mark.parametrize("shuffles", [2**31 - 1, 2**32 + 5, 2**62 - 100])
def test_a_shuffle_counter_past_32_bits_deals_as_the_reference(shuffles: int) -> None:
    most = 0
    for play in range(20):  # until a game shuffles twice (past 2**31 - 1 with the first)
        reference = Game.new(3, 11, core="python")
        reference.shuffles = shuffles
        compiled = CompiledGame.from_python(reference)
        assert compiled.shuffles == shuffles
        rng = random.Random(play)
        while not reference.done:  # free draws, then end the fight: the stack runs out
            legal = reference.legal_actions()
            action = 6 if 6 in legal else 8 if 8 in legal else rng.choice(legal)
            reference.apply(action)
            compiled.apply(action)
            assert _state(compiled) == _state(reference)
        most = max(most, reference.shuffles - shuffles)
        if most >= 2:
            break
    assert most >= 2


@pytest.mark.parametrize("shuffles", [-1, 2**62 + 1, 2**64])
def test_a_shuffle_counter_beyond_the_limit_is_refused_naming_it(shuffles: int) -> None:
    reference = Game.new(1, 0, core="python")
    reference.shuffles = shuffles
    with pytest.raises(StateError, match="shuffles"):
        CompiledGame.from_python(reference)
    game = CompiledGame.new(1, 0)
    with pytest.raises(StateError, match="shuffles"):
        game.shuffles = shuffles
    assert game.shuffles == 5  # untouched: the setup's five shuffles


@pytest.mark.parametrize("seed", [-1, -(2**64), 2**64, 2**70])
def test_a_seed_outside_64_bits_is_refused_not_wrapped(seed: int) -> None:
    with pytest.raises(StateError, match=r"seed.*0 <= seed < 2\*\*64"):
        CompiledGame._new(1, seed)
    game = CompiledGame.new(1, 3)
    with pytest.raises(StateError, match="seed"):
        game._determinized(seed)
    with pytest.raises(StateError, match="seed"):
        game.seed = seed
    assert game.seed == 3
    if seed > 0:  # the reference core takes it; the compiled one refuses it from there too
        with pytest.raises(StateError, match="seed"):
            CompiledGame.from_python(Game.new(1, seed, core="python"))


class _Shrinking:
    """A card (5) whose ``__index__``, which the hooks call to read it, empties its list."""

    def __init__(self, home: list) -> None:
        self.home = home

    def __index__(self) -> int:
        self.home.clear()
        return 5


def _shrinking_cards() -> list:
    cards: list = []
    cards.extend([_Shrinking(cards), 1, 2, 3])
    return cards


def test_the_shuffle_hook_reads_its_own_copy_of_the_cards() -> None:
    expected = core._shuffle(7, 2, [5, 1, 2, 3])
    assert core._shuffle(7, 2, _shrinking_cards()) == expected


def test_the_batched_shuffle_hook_reads_its_own_copy_of_the_piles() -> None:
    expected = core._shuffle_many(7, 2, [[5, 1, 2, 3], [4, 6]])
    piles: list = [_shrinking_cards(), [4, 6]]
    assert core._shuffle_many(7, 2, piles) == expected


# ---------------------------------------------------------------- the hardened build


def _readelf(*args: str) -> str:
    return subprocess.run(
        ["readelf", "-W", *args, core.__file__], capture_output=True, text=True, check=True
    ).stdout


@pytest.mark.skipif(shutil.which("readelf") is None, reason="needs readelf (binutils)")
def test_the_extension_is_built_with_full_relro_and_a_stack_protector() -> None:
    if not _readelf("-h").strip():
        pytest.skip("not an ELF build")
    assert "GNU_RELRO" in _readelf("-l"), "no RELRO segment"
    assert "BIND_NOW" in _readelf("-d") or "NOW" in _readelf("-d"), "partial RELRO only"
    assert "__stack_chk_fail" in _readelf("--dyn-syms"), "no stack protector"


_EXTENSIONS = ("friday_env._core.compiled", "friday_agents.players._kernels")
#: Where the build says it fortifies: setup.py's flags, or the docs saying the extensions are
#: built with it.
_FORTIFY_CLAIMS = {
    "setup.py": re.compile(r"-D_FORTIFY_SOURCE="),
    "docs/compiled-core.md": re.compile(r"builds? the extensions? with[^.]*_FORTIFY_SOURCE"),
    "README.md": re.compile(r"_FORTIFY_SOURCE"),
}


def _checked_calls(path: str) -> list[str]:
    """The fortified ``__*_chk`` libc functions a built file imports (the stack protector's
    ``__stack_chk_fail`` is not one)."""
    symbols = subprocess.run(
        ["nm", "-D", "--undefined-only", path], capture_output=True, text=True, check=True
    ).stdout.split()
    return [s for s in symbols if s.endswith("_chk") or "_chk@" in s if "stack_chk" not in s]


@pytest.mark.skipif(shutil.which("nm") is None, reason="needs nm (binutils)")
def test_fortify_is_claimed_only_where_the_built_files_show_it() -> None:
    """``-D_FORTIFY_SOURCE`` changes a build only where it turns a libc call into its checked
    twin; a claim of it needs such a call in every extension, else it is withdrawn."""
    claims = [
        name
        for name, pattern in _FORTIFY_CLAIMS.items()
        if (REPO / name).exists() and pattern.search((REPO / name).read_text())
    ]
    for module in _EXTENSIONS:
        spec = importlib.util.find_spec(module)
        if spec is None or spec.origin is None or not spec.origin.endswith(".so"):
            pytest.skip(f"{module} is not a built ELF extension here")
        if claims:
            assert _checked_calls(spec.origin), (
                f"{', '.join(claims)} claim FORTIFY, but {module} imports no __*_chk function"
            )
