"""What ``friday rl`` adds to the env's reward: ``--shaping fights`` (a potential-based bonus for
each fight finished, all of it taken back when the game ends) and ``--bonus counts`` (a count
bonus for reaching rarely visited cells of the game)."""

from __future__ import annotations

import numpy as np

from friday_agents.learning.rl.config import RLConfig
from friday_env.observation.layout import FLAT_LAYOUT, MAX_FIGHTS

#: Where the flat observation holds "fights finished so far / 50" (``--shaping fights``).
FIGHTS_FEATURE = FLAT_LAYOUT.offsets["fights"]
#: The features ``--bonus counts`` reads its cells from, and how many values each takes.
#: Life is left out on purpose: with it, losing life fast reached rare cells too.
BEATEN_FEATURE = FLAT_LAYOUT.offsets["beaten_pirates"]
STEP_FEATURES = slice(FLAT_LAYOUT.offsets["step"], FLAT_LAYOUT.offsets["step"] + 4)
FIGHT_CELLS, BEATEN_CELLS = MAX_FIGHTS + 1, 3
NUM_CELLS = FIGHT_CELLS * 4 * BEATEN_CELLS


def cell_of(obs: np.ndarray) -> np.ndarray:
    """``--bonus counts``' cell of each flat observation: (fights finished, step, pirates
    beaten), as one index."""
    fights = np.rint(obs[:, FIGHTS_FEATURE] * MAX_FIGHTS).astype(np.int64)
    beaten = np.rint(obs[:, BEATEN_FEATURE] * 2).astype(np.int64)
    step = obs[:, STEP_FEATURES].argmax(1)
    fights = np.clip(fights, 0, FIGHT_CELLS - 1)
    return (fights * 4 + step) * BEATEN_CELLS + np.clip(beaten, 0, BEATEN_CELLS - 1)


class RewardTerms:
    """The shaping and the bonus of one run: ``visits`` holds each cell's visits so far
    (kept in the checkpoint: a resumed run pays what the uninterrupted one would)."""

    def __init__(self, config: RLConfig) -> None:
        self.config = config
        self.visits = np.zeros(NUM_CELLS, np.int64)

    def potential(self, obs: np.ndarray) -> np.ndarray:
        """``--shaping``'s potential of each env's state (0 without shaping). Gamma is 1 and
        the potential after the end is 0, so a game's shaping bonuses add up to minus its
        start's potential, whatever the policy does (Ng, Harada & Russell 1999)."""
        if self.config.shaping == "none":
            return np.zeros(len(obs), np.float32)
        return (self.config.shaping_coef * obs[:, FIGHTS_FEATURE]).astype(np.float32)

    def exploration_bonus(
        self, before: np.ndarray, after: np.ndarray, terminated: np.ndarray
    ) -> np.ndarray:
        """``--bonus counts``: coef / sqrt(visits) for each env that finished a fight and so
        entered a cell (the visit counted first, so a first visit pays the whole coef);
        nothing at the end (``after`` is then the next game's start). Only finished fights
        pay: a bonus for any change of cell would pay for losing life within a fight."""
        bonus = np.zeros(len(after), np.float32)
        if self.config.bonus == "none":
            return bonus
        fought = after[:, FIGHTS_FEATURE] > before[:, FIGHTS_FEATURE]
        entered = np.flatnonzero(fought & ~np.asarray(terminated, bool))
        cells = cell_of(after[entered])
        np.add.at(self.visits, cells, 1)
        bonus[entered] = self.config.bonus_coef / np.sqrt(self.visits[cells])
        return bonus
