"""``net``: a policy network that plays on its own, without search.

[`NetAgent`][friday_agents.players.net.agent.NetAgent] reads the public flat observation
([`friday_env.observation`][friday_env.observation], R26: no hidden order), runs a small tanh
network in numpy and plays the legal action it rates highest. One network plays every level. By
default it loads ``agents/friday_agents/models/net.npz``, the strongest committed network on the
validation deals: an expert-iteration network (``friday exit``, ``experiments/expert-iteration/``)
fine-tuned by PPO (``friday rl``, ``experiments/rl/``); ``net:model=FILE.npz`` plays another network
of the same format (`PolicyNetwork`, e.g. a round's network or one
fine-tuned by RL). Torch is needed only to fit a network, never to play one.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from friday_agents.models import NET
from friday_agents.players.search.policy_net import PolicyPrior, load_policy_network
from friday_env import Game


class NetAgent:
    """The legal action a policy network rates highest (see the module docstring).

    ## Arguments

    - ``model`` — the network file (``.npz``); ``""`` (default) the committed
      ``agents/friday_agents/models/net.npz``.

    ## Speed

    One forward pass of the network per decision with two or more legal actions (about
    0.1 ms of CPU for the committed size); forced moves cost nothing.
    """

    name = "net"

    def __init__(self, model: str = "") -> None:
        if not isinstance(model, str):
            raise ValueError(f"model must be an .npz file path (or empty), got {model!r}")
        path = NET if model == "" else Path(model)
        if path.suffix != ".npz":
            raise ValueError(f"net model {model!r} must be an .npz policy network")
        self.policy = PolicyPrior(load_policy_network(path))

    def reset(self, seed: int) -> None:
        """Nothing to reset: the network plays deterministically."""

    def act(self, game: Game) -> int:
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return self.policy.best(game)

    def probabilities(self, game: Game) -> np.ndarray:
        """The network's probability of each legal action, in the order of
        ``game.legal_actions()``."""
        return self.policy.probabilities(game, list(game.legal_actions()))
