"""The uniformly random choice of a legal action: the one random policy of the project.

The agents' random baseline (``friday_agents.players.random_agent``) and the testing tools
(`friday_env.testing.policies`: soak runs, golden playthroughs) both choose with it, so
the same generator state gives the same action everywhere. It lives outside
``friday_env.testing`` so that an agent never depends on the testing tools.
"""

from __future__ import annotations

import random

import numpy as np

from friday_env.core import Game


def random_action(game: Game, rng: random.Random | np.random.Generator) -> int:
    """A legal action of ``game`` chosen uniformly with ``rng`` (either kind of generator)."""
    legal = game.legal_actions()
    if isinstance(rng, np.random.Generator):
        return legal[int(rng.integers(len(legal)))]
    return rng.choice(legal)
