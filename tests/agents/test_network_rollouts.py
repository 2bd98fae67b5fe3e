"""The search's network rollouts in C: a policy network (``rollout=``, e.g. ``scratch``) plays the
compiled search's rollouts as the Python path plays them (issue 42's expert iteration).

C runs the network in double where numpy runs it in float32, so a choice could differ only where
two legal logits tie to float32 rounding. The tests measure it: the C choice against
``PolicyPrior.best`` on thousands of states (any difference must be such a tie), and the whole
search, C path against Python path, on every searched decision of real games on levels 1 and 4
(the same choices and the same totals, to the bit). Neither the search nor its rollouts call
the heuristic, Python's or C's; bad network arguments are one clear error each.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import friday_agents.players.search.agent as search_agent
from friday_agents.harness.deals import evaluation_seed, training_seed
from friday_agents.players.networks.policy_net import PolicyNetwork, PolicyPrior, policy_prior
from friday_agents.players.registry import make_agent
from friday_agents.players.search import compiled
from friday_env import NUM_ACTIONS, Game

pytestmark = pytest.mark.skipif(
    compiled._kernels is None, reason="the compiled core (with its search part) is not built"
)

#: The no-teacher expert iteration's search: the prior, the anchor and the rollouts are the
#: network ``scratch``.
SPEC = "search:anchor=prior:prior=scratch:top=2:rollout=scratch"
#: The largest float32 logit gap a C-vs-numpy difference may come from (float32 rounds the
#: logits, a few units at most, to about 1e-6).
FLOAT32_TIE = 1e-4


@pytest.fixture
def compiled_calls(monkeypatch):
    """Counts the decisions searched through the C call, and the ones with a network rollout."""
    calls = []
    original = compiled.CompiledSearch.totals

    def counted(self, game, actions, seeds):
        calls.append(self.rollout_network is not None)
        return original(self, game, actions, seeds)

    monkeypatch.setattr(compiled.CompiledSearch, "totals", counted)
    return calls


@pytest.fixture
def no_heuristic(monkeypatch):
    """The search's heuristic, made to fail if anything in Python calls it."""

    def refuse(*args, **kwargs):
        raise AssertionError("the heuristic was called")

    monkeypatch.setattr(search_agent, "heuristic_action", refuse)


def random_states(count: int, seed: int = 11):
    """Compiled games at decisions with two or more legal actions, from random play on
    training deals of every level."""
    rng = random.Random(seed)
    found = 0
    while found < count:
        level = rng.choice((1, 2, 3, 4))
        game = Game.new(level, training_seed(level, rng.randrange(100_000)), core="c")
        while not game.done and found < count:
            legal = game.legal_actions()
            if len(legal) > 1:
                yield game
                found += 1
            game.apply(rng.choice(legal))


def test_the_c_choice_is_the_networks_best_legal_action():
    prior = policy_prior("scratch")
    policy = compiled.packed_policy(prior.network)
    differ = 0
    for n, game in enumerate(random_states(3000)):
        chosen = compiled._kernels.policy_action(game, policy)
        if chosen != prior.best(game):
            legal = list(game.legal_actions())
            logits = np.sort(prior.legal_logits(game, legal))
            assert logits[-1] - logits[-2] < FLOAT32_TIE, f"state {n}: no tie explains it"
            differ += 1
    assert differ <= 3, f"{differ} of 3000 choices differ"  # agreement at least 99.9 %


def test_a_one_layer_network_ranks_as_in_numpy():
    """A network without hidden layers (logits straight from the observation), ties included:
    the first legal action of equal logits, as ``np.argmax`` picks."""
    weights = np.zeros((991, NUM_ACTIONS), np.float32)
    bias = np.zeros(NUM_ACTIONS, np.float32)
    bias[::3] = 1.0  # every third action id ties at the top
    network = PolicyNetwork("flat", ((weights, bias),))
    prior = PolicyPrior(network)
    policy = compiled.packed_policy(network)
    for game in random_states(300, seed=3):
        assert compiled._kernels.policy_action(game, policy) == prior.best(game)


def lockstep(level: int, index: int, compiled_calls) -> tuple[int, int]:
    """One game of `SPEC` on the compiled path and on the Python path side by side, the Python
    path's choice played. Returns (searched decisions, decisions with other totals or choice)."""
    seed = evaluation_seed(level, index)
    on_c, in_python = make_agent(SPEC), make_agent(SPEC)
    in_python.compiled_search = lambda game: None
    for agent in (on_c, in_python):
        agent.reset(seed)
    game = Game.new(level, seed, core="c")
    searched = differ = 0
    while not game.done:
        calls = len(compiled_calls)
        chosen = on_c.act(game), in_python.act(game)
        assert (on_c.last_values is None) == (in_python.last_values is None)
        if on_c.last_values is not None:
            assert len(compiled_calls) == calls + 1 and compiled_calls[-1]
            searched += 1
            differ += on_c.last_values != in_python.last_values or chosen[0] != chosen[1]
        game.apply(chosen[1])
    return searched, differ


def test_compiled_network_rollouts_give_the_python_paths_choices_and_totals(compiled_calls):
    """Every searched decision of two games on level 1 and two on level 4: the same totals
    (``last_values``, to the bit) and the same choice on the C path as on the Python path."""
    searched = differ = 0
    for level in (1, 4):
        for index in range(2):
            games_searched, games_differ = lockstep(level, index, compiled_calls)
            searched += games_searched
            differ += games_differ
    assert searched >= 100
    assert differ <= searched // 100, f"{differ} of {searched} decisions differ"


def test_the_same_seed_plays_the_same_game(compiled_calls):
    histories = []
    for _ in range(2):
        agent = make_agent(SPEC)
        game = Game.new(4, evaluation_seed(4, 1), core="c")
        agent.reset(5)
        while not game.done:
            game.apply(agent.act(game))
        histories.append(game.history)
    assert compiled_calls and all(compiled_calls) and histories[0] == histories[1]


def test_network_rollouts_play_the_network_not_the_heuristic(no_heuristic, compiled_calls):
    """The whole search on the C path calls no heuristic in Python, and its C rollouts are the
    network's: their totals differ from the heuristic's C rollouts in the same worlds."""
    network = make_agent(SPEC)
    game = Game.new(1, evaluation_seed(1, 0), core="c")
    network.reset(1)
    other = 0
    while not game.done:
        action = network.act(game)
        if network.last_values is not None:
            actions = [a for a, _ in network.last_values]
            seeds = [int(s) for s in np.random.default_rng(len(game.history)).integers(0, 9, 8)]
            searched = network.compiled_search(game)
            totals = searched.totals(game, actions, seeds)
            searched.rollout_network = None  # the same search with the heuristic's C rollouts
            other += not np.array_equal(totals, searched.totals(game, actions, seeds))
        game.apply(action)
    assert compiled_calls and other > 0


def test_a_rollout_policy_without_a_c_version_keeps_the_python_path():
    game = Game.new(1, evaluation_seed(1, 0), core="c")
    agent = make_agent(SPEC)
    network = agent.rollout_network()
    assert network is not None and agent.compiled_search(game).rollout_network is network
    best = agent.rollout_policy
    agent.rollout_policy = lambda state: best(state)  # a policy the search cannot see into
    assert agent.compiled_search(game) is None
    layers = network.layers
    assert not compiled.has_c_version(PolicyNetwork("flat_mask", layers))
    wide = np.zeros((991, compiled._kernels.POLICY_NET_MAX_WIDTH + 1), np.float32)
    out = np.zeros((wide.shape[1], NUM_ACTIONS), np.float32)
    too_wide = ((wide, np.zeros(wide.shape[1], np.float32)), (out, np.zeros(NUM_ACTIONS)))
    assert not compiled.has_c_version(PolicyNetwork("flat", too_wide))
    assert compiled.has_c_version(PolicyNetwork("flat", layers))


def test_bad_policy_arguments_are_clear_errors_and_leave_the_game_untouched():
    game = Game.new(1, evaluation_seed(1, 0), core="c")
    before = (game.history, list(game.stack), game.seed, game.shuffles)
    sizes, params = compiled.packed_policy(policy_prior("scratch").network)
    layout, size = compiled.leaf_layout("basic")
    ends, rows = np.empty((2, 5), np.int32), np.empty((2, size))
    options = (1, 3, 400, 40, False)
    legal = game.legal_actions()[:1]
    layers = (compiled._kernels.POLICY_NET_MAX_LAYERS + 1) * (4,)
    bad = [
        ((sizes, params[:-1]), "policy params must be a C-contiguous 1-D array of"),
        ((sizes, params.astype(np.float32)), "policy params"),
        ((sizes, params[::2]), "contiguous"),
        (((990, *sizes[1:]), params), "policy sizes must be 991 inputs"),
        (((*sizes[:-1], NUM_ACTIONS - 1), params), "then 199 logits"),
        (((sizes[0], 0, sizes[-1]), params), "hidden widths of 1 to"),
        (((sizes[0], *layers, sizes[-1]), params), "must hold 1 to"),
        (((sizes[0],), params), "policy sizes must be"),
        ((sizes,), "policy"),
    ]
    for policy, words in bad:
        with pytest.raises((ValueError, TypeError, BufferError), match=words):
            compiled._kernels.search_rollouts(
                game, legal, [1, 2], options, layout, ends, rows, None, None, policy
            )
        with pytest.raises((ValueError, TypeError, BufferError), match=words):
            compiled._kernels.policy_action(game, policy)
    assert (game.history, list(game.stack), game.seed, game.shuffles) == before
