"""``net``: a policy network that plays on its own, without search.

[`NetAgent`][friday_agents.players.net.agent.NetAgent] reads the public flat observation
([`friday_env.observation`][friday_env.observation], R26: no hidden order), runs a small tanh
network in numpy and plays the legal action it rates highest. One network plays every level. By
default it loads the model ``net`` (``net.npz`` in [`friday_agents.models`][friday_agents.models]),
the strongest committed network on the validation deals: an expert-iteration network (``friday
distill``, ``experiments/expert-iteration/``) fine-tuned by PPO (``friday rl``,
``experiments/rl/``); ``net:model=FILE.npz`` plays another network of the same format
(`PolicyNetwork`, e.g. a round's network or one
fine-tuned by RL). Torch is needed only to fit a network, never to play one.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from friday_agents.harness.files import read_model_file
from friday_agents.models import NET, SCRATCH, SCRATCH_DISTILLED, model_file
from friday_agents.players.networks.policy_net import PolicyPrior, load_policy_network
from friday_env import Game


class NetAgent:
    """The legal action a policy network rates highest (see the module docstring).

    ## Arguments

    - ``model`` — the network: ``""`` (default) the committed model ``net``; another
      role (``guided-prior``) or an ``.npz`` file of one's own.

    ## Speed

    One forward pass of the network per decision with two or more legal actions (about
    0.1 ms of CPU for the committed size); forced moves cost nothing.
    """

    name = "net"
    #: The network an empty ``model`` names.
    default_model = NET

    def __init__(self, model: str = "") -> None:
        if not isinstance(model, str):
            raise ValueError(
                f"model must be a model role or an .npz file (or empty), got {model!r}"
            )
        path = self.default_model if model == "" else model_file(model, "model")
        if path.suffix != ".npz":
            raise ValueError(
                f"net model {model!r} must be a policy network (net, guided-prior or an .npz)"
            )
        self.policy = PolicyPrior(read_model_file(load_policy_network, path, "net model"))

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


class ScratchAgent(NetAgent):
    """``scratch``: the best policy learned from nothing, played as ``net`` plays its network.

    From nothing: the rules, the reward and what the agent learned; no heuristic, no search
    labels, no demonstrations, no hand-written prior. The model (role ``scratch``) is the
    no-teacher study's policy (``experiments/no-teacher/PLAN.md``): PPO from nothing on the
    progress reward, chosen on validation deals and copied by
    ``experiments/no-teacher/register.py``, which records its source and SHA-256. It takes no
    options: ``net:model=FILE`` plays any other network.
    """

    name = "scratch"
    default_model = SCRATCH
    #: The model it loads, by option and role (its resolved spec's: it takes no option).
    fixed_models: ClassVar[dict[str, str]] = {"model": "scratch"}

    def __init__(self) -> None:
        super().__init__("")


class ScratchDistilledAgent(NetAgent):
    """``scratch-distilled``: the last network of the no-teacher study's expert iteration
    (``experiments/no-teacher/PLAN.md``, stage 6), played as ``net`` plays its network.

    ``scratch``'s network fitted, round after round, on the decisions of ``scratch-search``'s
    search with the round's network as its prior: no heuristic, no model made with one. The
    model (role ``scratch-distilled``) is copied by
    ``experiments/no-teacher/register_search.py``. It takes no options.
    """

    name = "scratch-distilled"
    default_model = SCRATCH_DISTILLED
    #: The model it loads, by option and role (its resolved spec's: it takes no option).
    fixed_models: ClassVar[dict[str, str]] = {"model": "scratch-distilled"}

    def __init__(self) -> None:
        super().__init__("")
