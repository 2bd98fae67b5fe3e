"""The deals the trainer plays: training deals only, never a validation or evaluation one.

The vector env's own autoreset draws 63-bit seeds, which could land on an evaluation deal
(every seed from 10,000,000 on is one). The trainer instead chooses every game it starts:
training deal ``index`` of its level with ``index`` drawn uniformly from
``0 .. VALIDATION_FIRST_INDEX - 1`` ([`friday_agents.harness.deals`][friday_agents.harness.deals]),
so the held-out curve, measured on validation deals, and every evaluation stay on deals the policy
never played.
"""

from __future__ import annotations

import numpy as np

from friday_agents.harness.deals import (
    VALIDATION_FIRST_INDEX,
    is_evaluation_seed,
    is_validation_seed,
    training_seed,
    validation_seed,
)


def draw_training_deals(level: int, count: int, rng: np.random.Generator) -> np.ndarray:
    """``count`` training deal seeds of ``level`` (uint64), drawn with ``rng``."""
    indices = rng.integers(0, VALIDATION_FIRST_INDEX, size=count)
    seeds = np.array([training_seed(level, int(i)) for i in indices], np.uint64)
    return seeds


def is_training_deal(seed: int) -> bool:
    """True for the deals the trainer may play (neither validation nor evaluation)."""
    return not is_evaluation_seed(seed) and not is_validation_seed(seed)


def heldout_deals(level: int, count: int) -> list[int]:
    """The first ``count`` validation deals of ``level``: the held-out curve's fixed set."""
    return [validation_seed(level, i) for i in range(count)]
