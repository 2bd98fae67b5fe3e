"""Confidence intervals for the evaluation: Wilson for win rates, bootstrap for scores.

Win rates near 0 (random play never wins) make the normal approximation useless: the Wilson
score interval stays inside [0, 1] and is honest for 0 wins. Scores are skewed (a won game is
worth far more than a lost one), so their mean and median get percentile bootstrap intervals,
seeded so a report is reproducible.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from statistics import NormalDist

import numpy as np

DEFAULT_RESAMPLES = 2000
#: Resampled values held at once: the bootstrap draws its resamples in blocks of rows this
#: size, so its memory stays a few MB however many games it is given (all at once, 2,000
#: resamples held 31 KB per game: ``python benchmarks/bootstrap_memory.py``); the draws are
#: the same in any blocks.
BLOCK_VALUES = 2**18


def z_value(confidence: float) -> float:
    """The two-sided normal quantile: 1.959963... for 0.95."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence}")
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


def wilson_interval(successes: int, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion ``successes / trials``."""
    if trials <= 0:
        raise ValueError(f"trials must be positive, got {trials}")
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must be in 0..{trials}, got {successes}")
    z = z_value(confidence)
    p = successes / trials
    denominator = 1.0 + z * z / trials
    centre = (p + z * z / (2.0 * trials)) / denominator
    half = z * math.sqrt(p * (1.0 - p) / trials + z * z / (4.0 * trials * trials)) / denominator
    # the bounds are exactly 0 with no successes and 1 with no failures; say so exactly
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


def bootstrap_interval(
    values: Sequence[float] | np.ndarray,
    statistic: Callable[[np.ndarray], np.ndarray] | str = "mean",
    *,
    confidence: float = 0.95,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
) -> tuple[float, float]:
    """Percentile bootstrap interval of ``statistic`` ("mean", "median" or a function mapping
    a ``(rows, n)`` array of resamples to ``rows`` values along its last axis); the resamples
    are drawn in blocks of rows (`BLOCK_VALUES`), the same draws as all at once."""
    data = np.asarray(values, dtype=float)
    if data.ndim != 1 or data.size == 0:
        raise ValueError("bootstrap needs a non-empty 1-d sequence of values")
    z_value(confidence)  # validates the level
    if resamples < 1:
        raise ValueError(f"resamples must be at least 1, got {resamples}")
    estimate = _STATISTICS.get(statistic) if isinstance(statistic, str) else statistic
    if not callable(estimate):
        raise ValueError(f"unknown statistic {statistic!r}: use 'mean', 'median' or a function")
    rng = np.random.default_rng(seed)
    rows = max(1, BLOCK_VALUES // data.size)
    estimates = np.concatenate([
        np.asarray(estimate(data[rng.integers(0, data.size, size=(min(rows, left), data.size))]))
        for left in range(resamples, 0, -rows)
    ])  # fmt: skip
    alpha = (1.0 - confidence) / 2.0
    low, high = np.quantile(estimates, [alpha, 1.0 - alpha])
    return float(low), float(high)


_STATISTICS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "mean": lambda samples: samples.mean(axis=1),
    "median": lambda samples: np.median(samples, axis=1),
}


def paired_difference_interval(
    first: Sequence[float] | np.ndarray,
    second: Sequence[float] | np.ndarray,
    *,
    confidence: float = 0.95,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
) -> tuple[float, float, float]:
    """Mean of ``second - first`` over paired observations (the same deals) and its
    bootstrap interval: ``(mean, low, high)``."""
    a, b = np.asarray(first, dtype=float), np.asarray(second, dtype=float)
    if a.shape != b.shape:
        raise ValueError(f"paired samples differ in length: {a.size} and {b.size}")
    diff = b - a
    low, high = bootstrap_interval(diff, confidence=confidence, resamples=resamples, seed=seed)
    return float(diff.mean()), low, high


def win_rate_in_percent(wins: Sequence[float]) -> dict:
    """Games won of ``wins`` (1 a win, 0 a loss) as a study's report gives them: wins, games,
    the win rate in percent and its 95 % Wilson interval, to one decimal."""
    won = int(sum(wins))
    low, high = wilson_interval(won, len(wins))
    return {
        "wins": won,
        "games": len(wins),
        "win_rate": round(100 * won / len(wins), 1),
        "interval": [round(100 * low, 1), round(100 * high, 1)],
    }


def paired_points(first: Sequence[float], second: Sequence[float]) -> dict:
    """``second - first`` on the same deals in win-rate points, with its 95 % bootstrap
    interval (`paired_difference_interval`), to one decimal."""
    mean, low, high = paired_difference_interval(first, second)
    return {"points": round(100 * mean, 1), "interval": [round(100 * low, 1), round(100 * high, 1)]}
