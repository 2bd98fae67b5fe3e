"""Which deals are for evaluation and which for training, fixed once for everyone.

Evaluation deal ``i`` of level ``L`` has the seed ``10_000_000 + L * 1_000_000 + i``
(``i`` below one million): every agent plays the same deals, and results are comparable
across runs and machines. Training, tuning and fitting use seeds below
`TRAINING_SEED_LIMIT` = 10,000,000 only, so no evaluation deal is ever trained on.

Validation deal ``i`` of level ``L`` is the training deal ``900_000 + i`` of that level
([`validation_seed`][friday_agents.harness.deals.validation_seed]): a training-range seed that no
value or policy fitting of the search reads (recorded games on these deals are refused as fitting
data), kept
for choosing between variants (``friday eval --deals validation``) without looking at the evaluation
deals.

The two rules every learning command follows (``friday train``, ``friday rl``): a trainer's
games are drawn by `draw_training_deals`, uniformly from the training indices below the
validation deals (so training never meets a held-out deal), and its held-out curve plays
`heldout_deals`, the first validation deals of the level.
"""

from __future__ import annotations

import numpy as np

from friday_env.errors import check_level

#: Every training seed is below this; every evaluation seed is at or above it.
TRAINING_SEED_LIMIT = 10_000_000
EVAL_SEED_BASE = 10_000_000
EVAL_SEEDS_PER_LEVEL = 1_000_000


def evaluation_seed(level: int, index: int) -> int:
    """The seed of evaluation deal ``index`` (0-based) of ``level``."""
    check_level(level)
    if not 0 <= index < EVAL_SEEDS_PER_LEVEL:
        raise ValueError(f"evaluation deal index must be in 0..{EVAL_SEEDS_PER_LEVEL - 1}")
    return EVAL_SEED_BASE + level * EVAL_SEEDS_PER_LEVEL + index


def evaluation_seeds(level: int, games: int) -> list[int]:
    """The first ``games`` evaluation seeds of ``level``."""
    return [evaluation_seed(level, i) for i in range(games)]


def training_seed(level: int, index: int) -> int:
    """A training seed: ``level * 1_000_000 + index`` (``index`` below one million), always
    below `TRAINING_SEED_LIMIT` and distinct per level."""
    check_level(level)
    if not 0 <= index < 1_000_000:
        raise ValueError("training deal index must be in 0..999999")
    return level * 1_000_000 + index


def is_evaluation_seed(seed: int) -> bool:
    return seed >= TRAINING_SEED_LIMIT


#: Validation deals are the training indices from here on (see the module docstring).
VALIDATION_FIRST_INDEX = 900_000
VALIDATION_DEALS_PER_LEVEL = 100_000
#: The deal sets ``friday eval --deals`` can play.
DEAL_SETS = ("evaluation", "validation")


def validation_seed(level: int, index: int) -> int:
    """The seed of validation deal ``index`` (0-based) of ``level``: training deal
    ``900_000 + index``."""
    if not 0 <= index < VALIDATION_DEALS_PER_LEVEL:
        raise ValueError(f"validation deal index must be in 0..{VALIDATION_DEALS_PER_LEVEL - 1}")
    return training_seed(level, VALIDATION_FIRST_INDEX + index)


def is_validation_seed(seed: int) -> bool:
    return not is_evaluation_seed(seed) and seed % 1_000_000 >= VALIDATION_FIRST_INDEX


def deal_seed(deals: str, level: int, index: int) -> int:
    """The seed of deal ``index`` of ``level`` in the deal set ``deals`` (`DEAL_SETS`)."""
    if deals == "evaluation":
        return evaluation_seed(level, index)
    if deals == "validation":
        return validation_seed(level, index)
    raise ValueError(f"unknown deal set {deals!r}: choose from {', '.join(DEAL_SETS)}")


def draw_training_deals(level: int, count: int, rng: np.random.Generator) -> np.ndarray:
    """``count`` training deal seeds of ``level`` (uint64) drawn with ``rng``: training deal
    ``index`` with ``index`` uniform in ``0 .. VALIDATION_FIRST_INDEX - 1``."""
    indices = rng.integers(0, VALIDATION_FIRST_INDEX, size=count)
    return np.array([training_seed(level, int(i)) for i in indices], np.uint64)


def is_training_deal(seed: int) -> bool:
    """True for the deals a trainer may play (neither validation nor evaluation)."""
    return not is_evaluation_seed(seed) and not is_validation_seed(seed)


def heldout_deals(level: int, count: int) -> list[int]:
    """The first ``count`` validation deals of ``level``: every learning curve's fixed
    held-out set."""
    return [validation_seed(level, i) for i in range(count)]
