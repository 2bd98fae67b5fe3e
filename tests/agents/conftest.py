"""Fixtures shared by the agents' tests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

#: ``friday rl`` on a tiny budget: 4 envs of 32 steps a rollout, an 8-8 network, 3 held-out
#: deals, an evaluation and a checkpoint every 2 rollouts.
TINY_RL = {
    "num_envs": 4,
    "num_steps": 32,
    "hidden": "8,8",
    "eval_deals": 3,
    "eval_every": 2,
    "checkpoint_every": 2,
    "num_minibatches": 2,
    "update_epochs": 2,
}


@pytest.fixture
def tiny_rl() -> Callable[..., Any]:
    """``tiny_rl(out, **changes)``: an ``RLConfig`` writing to ``out`` on the tiny budget
    (``TINY_RL``, 4 rollouts unless ``frames`` says), ``changes`` applied."""
    pytest.importorskip("torch")
    from friday_agents.learning.rl.config import RLConfig

    def make(out: Path, **changes: Any) -> RLConfig:
        return RLConfig(out=str(out), **{**TINY_RL, "frames": 4 * 4 * 32, **changes})

    return make
