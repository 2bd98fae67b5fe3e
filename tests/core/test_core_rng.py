"""The compiled shuffle (friday_env/_core/rng.c) is CPython's, bit for bit.

The engine shuffles with ``random.Random(f"{seed}:{k}").shuffle(cards)``; the compiled core
re-implements that chain (SHA-512 of the seed string, MT19937 seeded by array, getrandbits,
rejection sampling, Fisher-Yates) and must give the same order for every seed, k and length.
"""

from __future__ import annotations

import random

import pytest

# the compiled shuffle is called through the test-only module (a development build's)
core = pytest.importorskip("friday_env._core._test_hooks", reason="the test hooks are not built")

EDGE_SEEDS = (0, 1, 2, 9, 10, 99, 2**31 - 1, 2**32, 2**63 - 1, 2**64 - 2, 2**64 - 1)
EDGE_KS = (0, 1, 9, 10, 123, 2**31 - 1)


def python_shuffle(seed: int, k: int, cards: list[int]) -> list[int]:
    out = list(cards)
    random.Random(f"{seed}:{k}").shuffle(out)
    return out


@pytest.mark.parametrize("seed", EDGE_SEEDS)
def test_edge_seeds_every_length(seed: int) -> None:
    for k in EDGE_KS:
        for n in range(71):
            cards = list(range(n))
            assert core._shuffle(seed, k, cards) == python_shuffle(seed, k, cards), (seed, k, n)


def test_random_seeds_ks_and_lengths() -> None:
    draw = random.Random(19)
    for _ in range(3000):
        seed = draw.randrange(2**64) >> draw.randrange(64)  # short and long seed strings
        k = draw.randrange(2**31) >> draw.randrange(31)
        cards = [draw.randrange(-128, 128) for _ in range(draw.randrange(71))]
        assert core._shuffle(seed, k, cards) == python_shuffle(seed, k, cards), (seed, k, cards)


def test_long_list_runs_past_one_generator_round() -> None:
    """A 2000-card shuffle draws more than 624 words: the generator twists a second round."""
    cards = [i % 256 - 128 for i in range(2000)]
    for seed in (0, 5, 2**64 - 1):
        assert core._shuffle(seed, 3, cards) == python_shuffle(seed, 3, cards)


def test_input_list_is_not_modified() -> None:
    cards = list(range(20))
    core._shuffle(7, 0, cards)
    assert cards == list(range(20))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((-1, 0, [1, 2]), "seed"),
        ((2**64, 0, [1, 2]), "seed"),
        ((0, -1, [1, 2]), "k must be an int in 0..2"),
        ((0, 0, [1, 200]), "card 1 of pile 0"),
        ((0, 0, [1, "x"]), "card 1"),
        ((0, 0, 5), "sequence"),
        ((0, 0, [0] * 5000), "at most"),
    ],
)
def test_bad_arguments_are_named(args: tuple, message: str) -> None:
    with pytest.raises((ValueError, TypeError), match=message):
        core._shuffle(*args)


def test_batched_shuffles_equal_one_by_one() -> None:
    """fr_shuffle_many runs several generators side by side; each pile must come out as
    its own shuffle would, across runs of k whose digit count changes (9 -> 10, 99 -> 100)."""
    draw = random.Random(23)
    for _ in range(300):
        seed = draw.randrange(2**64) >> draw.randrange(64)
        k_first = draw.choice((0, 3, 95, 998, 2**31 - 20, draw.randrange(1000)))
        piles = [[draw.randrange(128) for _ in range(draw.randrange(71))] for _ in range(16)]
        piles = piles[: draw.randrange(17)]
        expected = [python_shuffle(seed, k_first + i, pile) for i, pile in enumerate(piles)]
        assert core._shuffle_many(seed, k_first, piles) == expected, (seed, k_first)


def test_batched_bad_arguments_are_named() -> None:
    with pytest.raises(ValueError, match="at most 16 piles"):
        core._shuffle_many(0, 0, [[1, 2]] * 17)
    with pytest.raises(ValueError, match="card 0 of pile 1"):
        core._shuffle_many(0, 0, [[1, 2], [500]])


@pytest.mark.parametrize("wide", [True, False], ids=["wide seeding", "eight scalar lanes"])
def test_prefetched_generators_shuffle_as_python(wide: bool) -> None:
    """fr_rng_prefetch seeds up to 48 generators at once: in batches of equal key length,
    up to 24 in AVX2 registers where the processor has them (``wide``), else eight scalar
    lanes at a time. Each shuffle taken from the cache must be CPython's, whatever the mix of
    key lengths (seed and k digit counts) and batch sizes."""
    draw = random.Random(29 + wide)
    for _ in range(150):
        count = draw.choice((1, 8, 9, 23, 24, 25, 40, 48, draw.randrange(49)))
        base = draw.choice((0, 9, 99_999, 2**64 - 30, draw.randrange(2**40)))
        seeds = [min(base + draw.randrange(3), 2**64 - 1) for _ in range(count)]
        ks = [draw.choice((0, 4, 9, 10, draw.randrange(200))) for _ in range(count)]
        piles = [[draw.randrange(128) for _ in range(draw.randrange(71))] for _ in range(count)]
        expected = [python_shuffle(s, k, p) for s, k, p in zip(seeds, ks, piles, strict=True)]
        assert core._prefetched_shuffles(seeds, ks, piles, wide) == expected, (seeds, ks)


def test_prefetch_bad_arguments_are_named() -> None:
    with pytest.raises(ValueError, match="at most 48"):
        core._prefetched_shuffles([0] * 49, [0] * 49, [[1]] * 49, True)
    with pytest.raises(ValueError, match="as many seeds, ks and piles"):
        core._prefetched_shuffles([0, 1], [0], [[1], [2]], True)
    with pytest.raises(ValueError, match="card 0 of pile 1"):
        core._prefetched_shuffles([0, 0], [0, 1], [[1, 2], [500]], False)
