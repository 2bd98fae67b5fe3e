"""A policy prior for the search agent: which candidate actions deserve its worlds.

The search tries every legal action in ``max(1, sims // candidates)`` determinized worlds, so
a decision with ten legal actions gets three worlds per action at 32 simulations. A policy
network that ranks the legal actions lets the search try only the few it rates highest (and
always the heuristic's own choice), each in more worlds. `PolicyNetwork` is a tanh
multilayer perceptron over a public observation (an encoder of
[`friday_env.observation`][friday_env.observation], which reads only open information, R26) with one
logit per action id, evaluated in numpy: playing needs no torch.

The weights are stored as ``.npz`` (plain arrays, no pickle), named by role in
[`friday_agents.models`][friday_agents.models]: ``guided-prior`` (``guided_prior.npz``) is guided's
prior before the level-4 leaf study, fitted on the search's own action values by
``friday fit policy-net``; ``net`` (``net.npz``) is the
``net`` agent's network, which a search may use as its prior too (``guided:prior=net``);
``net-v1`` (``net_v1.npz``), the ``net`` agent's network before the net-scale study, is
guided's prior.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from friday_agents.harness.files import read_model_file, write_npz_atomically
from friday_agents.models import GUIDED_PRIOR, check_not_moved, model_file
from friday_agents.players.networks.layers import Layers, forward, layer_arrays, read_layers
from friday_env import Game
from friday_env.actions import NUM_ACTIONS
from friday_env.observation import make_encoder

POLICY_FILE = GUIDED_PRIOR


@dataclass(frozen=True)
class PolicyNetwork:
    """``layers`` of ``(weights, bias)`` over the ``observation`` encoding: tanh after every
    layer but the last, whose outputs are one logit per action id. A policy-and-value
    network also has ``value_layers``, a separate tanh network from the same observation to
    one number: the expected outcome of the game from here (+1 a win, -1 a loss) under the
    policy it was fitted for (on disk ``vw0, vb0, ...``; empty for a policy alone)."""

    observation: str
    layers: Layers
    value_layers: Layers = ()

    def logits(self, obs: np.ndarray) -> np.ndarray:
        """Logits of a batch of encoded observations (shape ``(n, observation size)``)."""
        return forward(obs, self.layers)

    def values(self, obs: np.ndarray) -> np.ndarray:
        """The value head's output for a batch of encoded observations (shape ``(n,)``)."""
        if not self.value_layers:
            raise ValueError("this network has no value head (a policy prior alone)")
        return forward(obs, self.value_layers)[:, 0]

    def astype(self, dtype: type) -> PolicyNetwork:
        """This network with every weight and bias as ``dtype`` (float16 halves a file)."""

        def cast(layers: Layers) -> Layers:
            return tuple((w.astype(dtype), b.astype(dtype)) for w, b in layers)

        return PolicyNetwork(self.observation, cast(self.layers), cast(self.value_layers))

    def arrays(self) -> dict[str, np.ndarray]:
        return {
            "observation": np.array(self.observation),
            **layer_arrays(self.layers),
            **layer_arrays(self.value_layers, prefix="v"),
        }


def save_policy_network(network: PolicyNetwork, path: Path) -> None:
    """The network in ``path`` (``.npz``), whole or not at all."""
    write_npz_atomically(path, network.arrays())


@lru_cache(maxsize=8)
def load_policy_network(path: Path = POLICY_FILE) -> PolicyNetwork:
    """The network ``friday fit policy-net`` wrote into
    ``path``."""
    check_not_moved(path)
    if not Path(path).exists():
        raise FileNotFoundError(f"{path} is missing: fit it with `friday fit policy-net`")
    with np.load(path, allow_pickle=False) as data:
        layers, value_layers = (
            tuple((w.astype(np.float32), b.astype(np.float32)) for w, b in read_layers(data, p))
            for p in ("", "v")
        )
        network = PolicyNetwork(str(data["observation"]), layers, value_layers)
    shape = make_encoder(network.observation).space.shape
    if shape is None or len(shape) != 1:
        raise ValueError(f"{path} names {network.observation!r}, not a flat observation")
    size = shape[0]
    if layers[0][0].shape[0] != size or layers[-1][0].shape[1] != NUM_ACTIONS:
        raise ValueError(
            f"{path} maps {layers[0][0].shape[0]} inputs to {layers[-1][0].shape[1]} actions; "
            f"the {network.observation!r} observation has {size} and the game {NUM_ACTIONS}: "
            "refit it"
        )
    if value_layers and (value_layers[0][0].shape[0] != size or value_layers[-1][0].shape[1] != 1):
        raise ValueError(f"{path}'s value head does not map the observation to one number")
    return network


class PolicyPrior:
    """A policy network with its own encoder, ranking a game's legal actions.

    ## Arguments

    - ``network`` — the `PolicyNetwork` (``load_policy_network`` reads one).
    """

    def __init__(self, network: PolicyNetwork) -> None:
        self.network = network
        self.encoder = make_encoder(network.observation)

    def legal_logits(self, game: Game, legal: list[int]) -> np.ndarray:
        """The network's logit of each action of ``legal``, in that order."""
        return self.network.logits(self.encoder.encode(game)[None, :])[0, legal]

    def probabilities(self, game: Game, legal: list[int]) -> np.ndarray:
        """The network's probability of each action of ``legal`` (summing to 1 over them)."""
        logits = self.legal_logits(game, legal).astype(np.float64)
        weights = np.exp(logits - logits.max())
        return weights / weights.sum()

    def best(self, game: Game) -> int:
        """The legal action the network rates highest (ties to the earlier action)."""
        legal = list(game.legal_actions())
        return legal[int(np.argmax(self.legal_logits(game, legal)))]

    def candidates(self, game: Game, legal: list[int], keep: int, default: int) -> list[int]:
        """The ``keep`` actions of ``legal`` the network rates highest, plus ``default`` (the
        heuristic's choice) if it is not among them, in the order of ``legal``. Ties go to
        the earlier action, so the result depends on nothing but the public view."""
        if len(legal) <= keep:
            return list(legal)
        order = np.argsort(-self.probabilities(game, legal), kind="stable")
        chosen = set(order[:keep].tolist()) | {legal.index(default)}
        return [action for i, action in enumerate(legal) if i in chosen]


def policy_prior(prior: str, option: str = "prior") -> PolicyPrior | None:
    """The network the spec option ``option`` names by ``prior`` (see
    [`SearchAgent`][friday_agents.players.search.agent.SearchAgent]): none for ``""``, else a
    policy network's role (``net-v1``, ``net``, ``guided-prior``) or an ``.npz`` file of one's
    own."""
    if not isinstance(prior, str):
        raise ValueError(f"{option} must be '', a model role or an .npz file, got {prior!r}")
    if prior == "":
        return None
    path = model_file(prior, option)
    if path.suffix != ".npz":
        raise ValueError(
            f"{option}={prior} must be an .npz policy network "
            "(or a role: net-v1, net, guided-prior)"
        )
    return PolicyPrior(read_model_file(load_policy_network, path, f"{option}= file"))
