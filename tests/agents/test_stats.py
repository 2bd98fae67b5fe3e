"""The evaluation's statistics against values worked out independently."""

from __future__ import annotations

import math
import tracemalloc

import numpy as np
import pytest

from friday_agents.harness.stats import (
    bootstrap_interval,
    paired_difference_interval,
    paired_points,
    wilson_interval,
    win_rate_in_percent,
    z_value,
)

Z95 = 1.959963984540054  # the 97.5% standard normal quantile


def test_z_value_is_the_normal_quantile():
    assert z_value(0.95) == pytest.approx(Z95, abs=1e-12)
    assert z_value(0.99) == pytest.approx(2.5758293035489, abs=1e-9)
    with pytest.raises(ValueError):
        z_value(1.0)


def test_wilson_5_of_10_by_hand():
    # p = 1/2, n = 10: centre (p + z²/2n) / (1 + z²/n) = 1/2 by symmetry;
    # half-width z sqrt(p(1-p)/n + z²/4n²) / (1 + z²/n)
    z2 = Z95**2
    half = Z95 * math.sqrt(0.25 / 10 + z2 / 400) / (1 + z2 / 10)
    low, high = wilson_interval(5, 10)
    assert (low, high) == pytest.approx((0.5 - half, 0.5 + half), abs=1e-12)
    assert (low, high) == pytest.approx((0.2366, 0.7634), abs=5e-5)  # published table value


def test_wilson_0_of_20_by_hand():
    # p = 0: centre = half-width = (z²/2n) / (1 + z²/n), so the interval is [0, z²/n / (1+z²/n)]
    z2 = Z95**2
    upper = (z2 / 20) / (1 + z2 / 20)
    low, high = wilson_interval(0, 20)
    assert low == 0.0
    assert high == pytest.approx(upper, abs=1e-12)
    assert high == pytest.approx(0.1611, abs=5e-5)


def test_wilson_is_symmetric_and_shrinks_with_trials():
    low, high = wilson_interval(3, 40)
    mirror_low, mirror_high = wilson_interval(37, 40)
    assert (low, high) == pytest.approx((1 - mirror_high, 1 - mirror_low), abs=1e-12)
    assert wilson_interval(30, 400)[1] - wilson_interval(30, 400)[0] < high - low


@pytest.mark.parametrize(("wins", "games"), [(-1, 10), (11, 10), (0, 0)])
def test_wilson_rejects_impossible_counts(wins, games):
    with pytest.raises(ValueError):
        wilson_interval(wins, games)


def test_bootstrap_mean_interval_matches_the_normal_theory_width():
    """For n normal draws the mean's 95% interval is about ±1.96 σ/√n; the median's about
    ±1.96 · 1.2533 σ/√n (the median's standard error is √(π/2) σ/√n)."""
    rng = np.random.default_rng(1)
    data = rng.normal(10.0, 2.0, size=2000)
    low, high = bootstrap_interval(data, "mean", seed=3)
    assert low < data.mean() < high
    assert high - low == pytest.approx(2 * Z95 * 2.0 / math.sqrt(2000), rel=0.1)
    low, high = bootstrap_interval(data, "median", seed=3)
    assert low < np.median(data) < high
    expected = 2 * Z95 * math.sqrt(math.pi / 2) * 2.0 / math.sqrt(2000)
    assert high - low == pytest.approx(expected, rel=0.2)


def test_bootstrap_mean_covers_the_true_mean_about_95_percent():
    rng = np.random.default_rng(2)
    trials = 300
    covered = 0
    for trial in range(trials):
        sample = rng.normal(0.0, 1.0, size=60)
        low, high = bootstrap_interval(sample, "mean", resamples=1000, seed=trial)
        covered += low <= 0.0 <= high
    # binomial(300, 0.95) stays within 0.91..0.99 with overwhelming probability; the
    # percentile bootstrap under-covers slightly at n = 60
    assert 0.90 <= covered / trials <= 0.99


def test_bootstrap_is_seeded():
    data = np.arange(50.0) ** 1.5
    assert bootstrap_interval(data, seed=4) == bootstrap_interval(data, seed=4)
    assert bootstrap_interval(data, seed=4) != bootstrap_interval(data, seed=5)


def test_bootstrap_of_a_constant_is_the_constant():
    assert bootstrap_interval([7.0] * 30, "median") == (7.0, 7.0)


def test_bootstrap_custom_statistic_and_bad_input():
    low, high = bootstrap_interval(np.arange(100.0), lambda s: s.max(axis=1), seed=0)
    assert 90 <= low <= high <= 99
    with pytest.raises(ValueError):
        bootstrap_interval([], "mean")
    with pytest.raises(ValueError):
        bootstrap_interval([1.0, 2.0], "mode")


def test_paired_difference():
    first = np.arange(40.0)
    assert paired_difference_interval(first, first + 3.0) == pytest.approx((3.0, 3.0, 3.0))
    mean, low, high = paired_difference_interval(first, first[::-1])
    assert mean == pytest.approx(0.0) and low < 0 < high
    with pytest.raises(ValueError):
        paired_difference_interval([1.0], [1.0, 2.0])


def test_a_studys_win_rate_and_paired_points_are_in_percent():
    wins = [1.0] * 3 + [0.0]
    low, high = wilson_interval(3, 4)
    assert win_rate_in_percent(wins) == {
        "wins": 3,
        "games": 4,
        "win_rate": 75.0,
        "interval": [round(100 * low, 1), round(100 * high, 1)],
    }
    first, second = [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0]
    mean, low, high = paired_difference_interval(first, second)
    assert paired_points(first, second) == {
        "points": 50.0,
        "interval": [round(100 * low, 1), round(100 * high, 1)],
    }
    assert mean == 0.5


# ------------------------------------------------------------------ memory flat in the games (R14)


def _all_at_once(values, statistic, resamples, seed):
    """The interval as the bootstrap computed it before it drew its resamples in blocks."""
    data = np.asarray(values, dtype=float)
    rng = np.random.default_rng(seed)
    samples = data[rng.integers(0, data.size, size=(resamples, data.size))]
    estimates = samples.mean(axis=1) if statistic == "mean" else np.median(samples, axis=1)
    low, high = np.quantile(estimates, [0.025, 0.975])
    return float(low), float(high)


@pytest.mark.parametrize("games", [1, 7, 1000, 2**17 + 3, 2**18 + 1])
@pytest.mark.parametrize("statistic", ["mean", "median"])
def test_the_bootstrap_in_blocks_gives_the_intervals_it_gave_all_at_once(games, statistic):
    """Blocks of rows draw the same resamples: the same interval to the last bit, for games
    that fill many rows per block, a few, or one (the last block cut short)."""
    scores = np.random.default_rng(games).integers(-20, 40, size=games)
    resamples = 2000 if games <= 1000 else 9
    mine = bootstrap_interval(scores, statistic, resamples=resamples, seed=5)
    assert mine == _all_at_once(scores, statistic, resamples, seed=5)


def _peak_bytes(games: int) -> int:
    scores = np.random.default_rng(0).integers(-20, 40, size=games).astype(float)
    tracemalloc.start()
    try:
        bootstrap_interval(scores, "median", resamples=100, seed=1)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_the_bootstrap_memory_stays_flat_in_the_number_of_games():
    """100 resamples of 200,000 games held 320 MB at once; in blocks the peak is the same few
    MB as for 20,000 games (measured by tracemalloc, which sees numpy's arrays)."""
    small, large = _peak_bytes(20_000), _peak_bytes(200_000)
    assert large < 3 * small, (small, large)
