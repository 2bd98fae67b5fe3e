"""The torch networks of every fit and trainer of ours, and their weights as numpy layers.

One module for the three jobs that fit a network ``players/networks/`` then plays without
torch (`friday_agents.players.networks.layers`' format):

- [`tanh_mlp`][friday_agents.learning.networks.tanh_mlp] — the one builder: torch's default
  initialisation for the supervised fits (``learning.fitting``' policy prior and value network, and
  the expert iteration's rounds, ``friday distill``);
- [`ActorCritic`][friday_agents.learning.networks.ActorCritic] — our own PPO's (``friday rl``)
  policy (actor) and value (critic), separate tanh MLPs in orthogonal initialisation;
- [`numpy_layers`][friday_agents.learning.networks.numpy_layers] /
  [`mlp_from_layers`][friday_agents.learning.networks.mlp_from_layers] — torch to numpy layers and
  back.

Imported only by code that trains: importing it imports torch.

The actor and critic both read the flat observation (991 numbers). The actor gives one
logit per action id and the logits of illegal actions are masked out before any probability
is taken; the critic gives one number, the expected return from the state. The layout is
exactly `PolicyNetwork`'s (tanh after
every layer but the last), so a network loads from such an ``.npz`` (the actor from ``w0,
b0, ...``, the critic from ``vw0, vb0, ...`` when the file has a value head) and exports
back to one that the ``net`` agent plays.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import torch
from torch import nn

from friday_agents.players.networks.layers import Layers
from friday_agents.players.networks.policy_net import (
    PolicyNetwork,
    load_policy_network,
    save_policy_network,
)
from friday_env.actions import NUM_ACTIONS
from friday_env.observation import FLAT_SIZE

#: What a masked logit becomes: far below any real logit, finite so that 0 * it is 0.
MASKED_LOGIT = -1e9


def tanh_mlp(sizes: Sequence[int], last_gain: float | None = None) -> nn.Sequential:
    """Linear layers of ``sizes`` with tanh between them, the one builder of every network
    we fit. The layers are created first to last, so a seeded fit draws the same weights
    every time. Initialisation: torch's default (``last_gain`` None: the supervised fits),
    or orthogonal with zero biases, gain sqrt(2) and ``last_gain`` on the last layer (small
    for ``friday rl``'s actor, so that the first policy is near uniform over the legal
    actions)."""
    modules: list[nn.Module] = []
    for k, (n_in, n_out) in enumerate(itertools.pairwise(sizes)):
        last = k == len(sizes) - 2
        linear = nn.Linear(n_in, n_out)
        if last_gain is not None:
            nn.init.orthogonal_(linear.weight, last_gain if last else np.sqrt(2))
            nn.init.zeros_(linear.bias)
        modules.append(linear)
        if not last:
            modules.append(nn.Tanh())
    return nn.Sequential(*modules)


def numpy_layers(model: nn.Module) -> Layers:
    """The linear layers of ``model``, in order, as numpy ``(weights (in, out), bias)``
    copies."""
    return tuple(
        (m.weight.detach().cpu().numpy().T.copy(), m.bias.detach().cpu().numpy().copy())
        for m in model.modules()
        if isinstance(m, nn.Linear)
    )


def mlp_from_layers(layers: Layers) -> nn.Sequential:
    """A torch MLP holding ``layers`` (``(weights (in, out), bias)`` as PolicyNetwork keeps
    them; [`numpy_layers`][friday_agents.learning.networks.numpy_layers] is its inverse)."""
    sizes = [layers[0][0].shape[0], *(w.shape[1] for w, _ in layers)]
    mlp = tanh_mlp(sizes, last_gain=1.0)
    copy_layers(mlp, layers)
    return mlp


def copy_layers(mlp: nn.Module, layers: Layers) -> None:
    """Set the linear layers of ``mlp`` to ``layers`` (of the same sizes, in order): a fit that
    starts from a network's weights instead of a random draw."""
    linears = [m for m in mlp.modules() if isinstance(m, nn.Linear)]
    with torch.no_grad():
        for linear, (w, b) in zip(linears, layers, strict=True):
            linear.weight.copy_(torch.as_tensor(np.asarray(w, np.float32).T))
            linear.bias.copy_(torch.as_tensor(np.asarray(b, np.float32)))


def hidden_sizes(mlp: nn.Sequential) -> list[int]:
    return [m.out_features for m in mlp if isinstance(m, nn.Linear)][:-1]


class ActorCritic(nn.Module):
    """The policy ``actor`` and the value ``critic`` (separate networks: the value loss
    never moves the policy, which the critic warm-up relies on)."""

    def __init__(self, actor: nn.Sequential, critic: nn.Sequential) -> None:
        super().__init__()
        self.actor = actor
        self.critic = critic

    @classmethod
    def new(cls, hidden: Sequence[int], critic_hidden: Sequence[int] | None = None) -> ActorCritic:
        """Fresh random networks (the actor's last layer small: a near-uniform start)."""
        critic_hidden = hidden if critic_hidden is None else critic_hidden
        return cls(
            tanh_mlp([FLAT_SIZE, *hidden, NUM_ACTIONS], last_gain=0.01),
            tanh_mlp([FLAT_SIZE, *critic_hidden, 1], last_gain=1.0),
        )

    @classmethod
    def from_file(cls, path: Path) -> tuple[ActorCritic, bool]:
        """The networks of a PolicyNetwork file, and whether its critic came from the file
        (a file without a value head gets a fresh critic of the actor's hidden sizes)."""
        network = load_policy_network(Path(path))
        if network.observation != "flat":
            raise ValueError(
                f"{path} reads the {network.observation!r} observation; the trainer's vector "
                "env gives 'flat' only"
            )
        actor = mlp_from_layers(network.layers)
        if network.value_layers:
            return cls(actor, mlp_from_layers(network.value_layers)), True
        critic = tanh_mlp([FLAT_SIZE, *hidden_sizes(actor), 1], last_gain=1.0)
        return cls(actor, critic), False

    def masked_logits(self, obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """The actor's logits with every illegal action's set to `MASKED_LOGIT`."""
        return self.actor(obs).masked_fill(~mask, MASKED_LOGIT)

    def value(self, obs: torch.Tensor) -> torch.Tensor:
        return self.critic(obs).squeeze(-1)

    def policy_network(self) -> PolicyNetwork:
        """The networks as a PolicyNetwork (actor layers, critic value layers)."""
        return PolicyNetwork("flat", numpy_layers(self.actor), numpy_layers(self.critic))

    def save_npz(self, path: Path) -> None:
        """Write the networks as a PolicyNetwork ``.npz`` (``net:model=path`` plays it)."""
        save_policy_network(self.policy_network(), Path(path))
        load_policy_network.cache_clear()  # a rewritten file must not be read from the cache


def masked_log_probs(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Log-probabilities of masked logits, exactly 0 (not -inf) on illegal actions, so that
    sums of ``p * log p`` over all actions stay finite."""
    return torch.log_softmax(logits, dim=-1).masked_fill(~mask, 0.0)


def kl_to_reference(
    logits: torch.Tensor, reference_logits: torch.Tensor, mask: torch.Tensor
) -> torch.Tensor:
    """KL(reference || policy) over the legal actions of each state (one number per row):
    the cross-entropy to the starting policy's choices minus its (constant) entropy, the loss
    an imitation fit minimises, so the penalty pulls back towards what was learned."""
    log_p = masked_log_probs(logits, mask)
    log_q = masked_log_probs(reference_logits, mask)
    q = log_q.exp() * mask
    return (q * (log_q - log_p)).sum(-1)
