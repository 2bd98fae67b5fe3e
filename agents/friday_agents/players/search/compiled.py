"""The search's simulations on the compiled core: one C call per decision.

`SearchAgent.act` plays, for each world
seed and each candidate action, a determinized world, the action and a rollout (the
heuristic's, or a policy network's), and values where the rollout ends. When the game is a
compiled-core game and every ingredient has a C version, `compiled_search` returns a
`CompiledSearch` that does all of it in ``friday_agents.players._kernels.search_rollouts``
(``search.c`` beside this file) except the last step: C reports
each rollout's end (game over or not, level, step, score, result) and the leaf value's
feature row, computed as `friday_agents.players.networks.linear_value.features` /
`card_features` compute them, and Python
values each end exactly as ``ValueModel.value``
(`friday_agents.players.networks.linear_value`) does
(``float(row @ weights)``: numpy's own dot product on the same numbers). So the totals are
the same floats, and the agent the same choices, on either core. A learned leaf network
(`friday_agents.players.networks.leaf_net`) is valued in C instead, where each rollout ends
(``leaf_net.c``): its values agree with the numpy twin's to float rounding, not to the bit.

A policy network that plays the rollouts (``rollout=``, e.g. ``rollout=scratch``) plays them
in C too (``policy_net.c``: the flat observation from the env's own encoder, the layers in
double, the first legal action of highest logit, as `PolicyPrior.best` chooses). numpy runs
the layers in float32, so the logits agree to float32 rounding: a rollout step whose two best
legal logits tie that closely could go either way, and then the totals differ
(``tests/agents/test_network_rollouts.py`` requires 99.9 % of the choices and 99 % of the
searched decisions of real games to agree, and any different choice to be such a tie).

The agent tells `compiled_search` which world to sample (``WORLDS``: the fair search's or
the oracle's) and what plays its rollouts (the heuristic, or a `PolicyNetwork`); this
module imports no agent. What has no C version keeps the Python path, by an explicit test
here (never a silently different result): a value network of the final score
(``value=value-net``, or a per-level file naming one for the game's level), a rollout policy
other than the heuristic or a network on the ``flat`` observation within C's sizes
(`has_c_version`: e.g. one on ``flat_mask``), a world with no C sampler (``world=None``),
and games of the Python core.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from friday_agents.players.networks import linear_value as value_module
from friday_agents.players.networks.leaf_net import LeafNetwork
from friday_agents.players.networks.linear_value import ValueModel
from friday_agents.players.networks.policy_net import PolicyNetwork
from friday_agents.players.search.value_levels import PerLevelValue
from friday_env import Game
from friday_env.cards import CARD_TYPE, KIND, NUM_CARDS, Kind

try:
    import friday_agents.players._kernels as _kernels
except ImportError:  # the compiled core is not built: every game plays in Python
    _kernels = None

#: The worlds the C rollouts sample, by the name an agent passes as ``world``: the fair
#: search's (every hidden order resampled, as
#: [`friday_env.determinized`][friday_env.information.determinized] does) and the
#: oracle's (the true state, with a fresh seed for the shuffles to come).
WORLDS = ("determinized", "true")
#: Columns of the leaf row that C writes before the ability groups (value._summary's list).
SUMMARY_FIXED = 15
#: Rows are padded to a multiple of this many float64s, so each row starts 16-byte aligned
#: like the arrays the reference builds (ddot does not depend on it on this machine's
#: OpenBLAS; the padding makes sure it cannot).
ROW_ALIGN = 8


@lru_cache(maxsize=4)
def leaf_layout(feature_set: str) -> tuple[bytes, int]:
    """The layout bytes ``search_rollouts`` reads for a feature set, and its row length:
    flags and column counts, then per card its ability group, deck type and pirate type
    columns (-1: none), all taken from `friday_agents.players.networks.linear_value`'s
    own tables."""
    cards = feature_set == "cards"
    groups = value_module.GROUP_OF
    deck = value_module.DECK_COLUMN
    pirate = value_module.PIRATE_COLUMN
    n_groups = len(value_module.ABILITY_GROUPS)
    if len(value_module.FEATURE_NAMES) != SUMMARY_FIXED + n_groups:
        raise RuntimeError("value.FEATURE_NAMES changed: update search.c and SUMMARY_FIXED")
    columns = [
        [groups.get(value_module.ABILITY[c], -1) for c in range(NUM_CARDS)],
        [deck.get(CARD_TYPE[c], -1) for c in range(NUM_CARDS)],
        [pirate.get(CARD_TYPE[c], -1) if KIND[c] == Kind.PIRATE else -1 for c in range(NUM_CARDS)],
    ]
    header = [int(cards), n_groups, len(deck), len(pirate)]
    layout = np.array([*header, *columns[0], *columns[1], *columns[2]], dtype=np.int8).tobytes()
    names = value_module.FEATURE_SETS[feature_set][0]
    return layout, len(names)


#: The observation a rollout network must read to play in C (the env's encoder in C).
POLICY_OBSERVATION = "flat"
#: A rollout network packed for C: its layer sizes (inputs first) and every weight in one
#: float64 array (``policy_net.h``'s order: the last layer's weights transposed).
PackedPolicy = tuple[tuple[int, ...], np.ndarray]
#: Networks packed so far, by id (each entry keeps its network alive, so an id is not reused).
_packed_policies: dict[int, tuple[PolicyNetwork, PackedPolicy]] = {}


def has_c_version(network: PolicyNetwork) -> bool:
    """Whether ``network`` can play the rollouts in C: it reads the flat observation and
    fits ``policy_net.h``'s limits on layers and widths."""
    if _kernels is None or network.observation != POLICY_OBSERVATION:
        return False
    widths = [w.shape[1] for w, _ in network.layers[:-1]]
    return 1 <= len(network.layers) <= _kernels.POLICY_NET_MAX_LAYERS and all(
        width <= _kernels.POLICY_NET_MAX_WIDTH for width in widths
    )


def packed_policy(network: PolicyNetwork) -> PackedPolicy:
    """The ``policy`` argument of ``search_rollouts`` for ``network`` (its float32 weights
    widened to float64 exactly), packed once per network."""
    entry = _packed_policies.get(id(network))
    if entry is None:
        sizes = (network.layers[0][0].shape[0], *(b.shape[0] for _, b in network.layers))
        *hidden, (last_w, last_b) = network.layers
        parts = [array.ravel() for layer in hidden for array in layer]
        parts += [last_w.T.ravel(), last_b]  # the last layer by column
        params = np.ascontiguousarray(np.concatenate(parts), dtype=np.float64)
        entry = _packed_policies[id(network)] = (network, (sizes, params))
    return entry[1]


def is_compiled_game(game: object) -> bool:
    """Whether ``game`` is a compiled-core game (``search_rollouts`` can read it)."""
    return _kernels is not None and bool(_kernels.is_core_game(game))


def compiled_model(model: object, level: int) -> ValueModel | LeafNetwork | None:
    """The linear model or leaf network that values level ``level``'s rollout ends, or None
    if the leaf value has no C version there (a network of the final score)."""
    if isinstance(model, PerLevelValue):
        model = model.models.get(level)
    return model if isinstance(model, ValueModel | LeafNetwork) else None


@dataclass
class CompiledSearch:
    """One decision's simulations on the compiled core (see the module docstring)."""

    model: ValueModel | LeafNetwork
    horizon: int
    finish: int
    oracle: bool
    max_actions: int
    max_fights_left: int
    #: The network that plays the rollouts (None: the heuristic).
    rollout_network: PolicyNetwork | None = None

    def totals(self, game: Game, actions: list[int], seeds: list[int]) -> np.ndarray:
        """Each candidate's summed leaf values over the worlds ``seeds``, as the Python path
        sums them (world by world, in the order of ``actions``)."""
        layout, size = leaf_layout(self.model.feature_set)
        stride = -(-size // ROW_ALIGN) * ROW_ALIGN
        n = len(actions)
        ends = np.empty((len(seeds) * n, 5), dtype=np.int32)
        rows = np.empty((len(seeds) * n, stride))
        options = (self.horizon, self.finish, self.max_actions, self.max_fights_left, self.oracle)
        arguments = [game, actions, seeds, options, layout, ends, rows]
        net = self.model.compiled() if isinstance(self.model, LeafNetwork) else None
        values = np.empty(len(seeds) * n)
        if self.rollout_network is not None:
            arguments += [net, values, packed_policy(self.rollout_network)]
        elif net is not None:
            arguments += [net, values]
        _kernels.search_rollouts(*arguments)
        if isinstance(self.model, ValueModel):  # C reported the rows: numpy values them
            values = linear_leaf_values(self.model, ends, rows[:, :size])
        totals = np.zeros(n)
        for world in range(len(seeds)):
            for i in range(n):
                totals[i] += values[world * n + i]
        return totals


def linear_leaf_values(model: ValueModel, ends: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Each rollout end's leaf value under a linear model, as `ValueModel.value` computes it."""
    weights, bonus = model.models, model.win_bonus
    values = []
    for k, (done, level, step, score, won) in enumerate(ends.tolist()):
        if done:
            values.append(score + bonus * bool(won))
        else:
            values.append(float(rows[k] @ weights[(level, step)]))
    return np.array(values)


def compiled_search(
    game: Game,
    *,
    world: str | None,
    leaf_value: object,
    horizon: int,
    finish: int,
    heuristic_rollouts: bool,
    limits: tuple[int, int],
    rollout_network: PolicyNetwork | None = None,
) -> CompiledSearch | None:
    """The compiled simulations of a search deciding in ``game``, sampling ``world`` (one of
    `WORLDS`; None: the agent's worlds have no C sampler), valuing rollout ends with
    ``leaf_value`` and playing rollouts with the heuristic (``heuristic_rollouts``) or else
    with ``rollout_network`` (a policy network's best action; None with no heuristic: a
    policy with no C version) within ``limits`` (actions per fight, fights); or None where
    an ingredient has no C version (the Python path then plays; see the module docstring)."""
    if world is not None and world not in WORLDS:
        raise ValueError(f"unknown world {world!r} for the compiled search: one of {WORLDS}")
    if heuristic_rollouts:
        rollout_network = None
    elif rollout_network is None or not has_c_version(rollout_network):
        return None
    if world is None or not is_compiled_game(game):
        return None
    model = compiled_model(leaf_value, game.level)
    if model is None:
        return None
    return CompiledSearch(model, horizon, finish, world == "true", *limits, rollout_network)
