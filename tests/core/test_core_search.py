"""The search agents on the compiled core: the same choices and values as on the Python one.

On a compiled-core game, :class:`~friday_agents.players.search.agent.SearchAgent` plays each
decision's simulations in one C call (:mod:`friday_agents.players.search.compiled`). Played in
lockstep on the same deals, the agent on each core must choose the same action at every
decision and report the same ``last_values`` (the same floats: the same worlds, rollouts and
leaf values; with a leaf network, as guided's on level 4, the same to float rounding). The
leaf value's feature rows computed in C must equal the Python ones, and be valued to the same
bits. Ingredients without a C version must take the Python path.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from c_calls import assert_interrupted_promptly, run_with_memory_checks
from leaf_nets import random_leaf_network, random_leaf_network_file

from friday_agents.harness.deals import evaluation_seed, training_seed
from friday_agents.models import GUIDED_VALUE_PER_LEVEL
from friday_agents.players.heuristic.agent import heuristic_action
from friday_agents.players.networks import leaf_net
from friday_agents.players.networks.linear_value import FEATURE_SETS, load_value_model
from friday_agents.players.search import compiled
from friday_agents.players.search.agent import SearchAgent
from friday_agents.players.search.guided import GuidedSearchAgent
from friday_agents.players.search.oracle import OracleSearchAgent
from friday_agents.players.search.value_levels import load_leaf_value
from friday_env import Game

pytestmark = pytest.mark.skipif(
    compiled._kernels is None, reason="the compiled core (with its search part) is not built"
)

LEVELS = (1, 2, 3, 4)


def values_a_network(agent, level: int) -> bool:
    """Whether ``agent`` values ``level``'s leaves with a leaf network (in C, the same values
    as its numpy twin to float rounding, not to the bit)."""
    model = getattr(agent.model, "models", {}).get(level, agent.model)
    return isinstance(model, leaf_net.LeafNetwork)


def lockstep(factory, level: int, seed: int) -> list[int]:
    """Play one game with an agent from ``factory`` on each core, side by side; check every
    decision agrees and every value (to the bit; a leaf network's to float rounding).
    Returns the step of each searched decision."""
    agents = {core: factory() for core in ("python", "c")}
    rounding = 1e-12 if values_a_network(agents["c"], level) else 0.0
    games = {core: Game.new(level, seed, core=core) for core in agents}
    for agent in agents.values():
        agent.reset(seed)
    decisions, searched_steps = 0, []
    while not games["python"].done:
        chosen = {core: agents[core].act(games[core]) for core in agents}
        values = {core: agents[core].last_values for core in agents}
        assert chosen["c"] == chosen["python"], f"decision {decisions}: {chosen}"
        assert (values["c"] is None) == (values["python"] is None), f"decision {decisions}"
        if values["c"] is not None:
            np.testing.assert_allclose(values["c"], values["python"], rtol=0, atol=rounding)
        if values["c"] is not None:
            searched_steps.append(games["c"].step)
        for core, game in games.items():
            game.apply(chosen[core])
        decisions += 1
    assert games["c"].done and games["c"].score() == games["python"].score()
    assert games["c"].history == games["python"].history
    return searched_steps


@pytest.fixture
def compiled_calls(monkeypatch):
    """Counts the decisions searched through the C call (so a test cannot pass by having
    both cores take the Python path)."""
    calls = []
    original = compiled.CompiledSearch.totals

    def counted(self, game, actions, seeds):
        calls.append(len(actions) * len(seeds))
        return original(self, game, actions, seeds)

    monkeypatch.setattr(compiled.CompiledSearch, "totals", counted)
    return calls


#: Agent settings and the deals ``(level, index)`` they play in the default run: short games
#: (lost early) and one won game each for the settings that reach the pirates' rollouts.
AGENTS = {
    "search-default": (SearchAgent, [(3, 0)]),
    "search-sims8": (lambda: SearchAgent(sims=8), [(1, 2), (4, 2)]),
    "search-horizon2": (lambda: SearchAgent(sims=8, horizon=2), [(3, 0)]),
    "search-finish2": (lambda: SearchAgent(sims=4, finish=2), [(1, 2)]),
    "search-finish3-horizon1": (lambda: SearchAgent(sims=6, horizon=1, finish=3), [(4, 1)]),
    "guided": (GuidedSearchAgent, [(1, 2), (4, 2)]),
    "oracle": (lambda: OracleSearchAgent(sims=8), [(3, 0)]),
    # the rollouts a policy network's (policy_net.c: in double where numpy runs float32, the
    # same choices unless two logits tie to float32 rounding, none on this deal)
    "search-network-rollouts": (
        lambda: SearchAgent(sims=8, prior="scratch", top=2, anchor="prior", rollout="scratch"),
        [(1, 2)],
    ),
}


@pytest.mark.parametrize("name", list(AGENTS))
def test_search_agents_play_alike_on_both_cores(name, compiled_calls):
    factory, deals = AGENTS[name]
    steps = []
    for level, index in deals:
        steps += lockstep(factory, level, evaluation_seed(level, index))
    assert steps and len(compiled_calls) == len(steps)
    if name in ("search-sims8", "search-finish2", "guided"):
        assert max(steps) >= 2, "no searched decision where the finish option matters"


#: The slow run: each setting on the first deals of every level (``deals`` per level).
SLOW_AGENTS = {
    "search-default": (SearchAgent, 2),
    "search-horizon2": (lambda: SearchAgent(sims=16, horizon=2), 2),
    "search-finish2": (lambda: SearchAgent(finish=2), 2),
    "guided": (GuidedSearchAgent, 4),
    "guided-horizon2-finish2": (lambda: GuidedSearchAgent(horizon=2, finish=2), 2),
    "guided-before-leaf-study": (
        lambda: GuidedSearchAgent(prior="guided-prior", value="guided-value-per-level"),
        2,
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(SLOW_AGENTS))
def test_search_agents_play_alike_on_both_cores_many_deals(name, compiled_calls):
    factory, deals = SLOW_AGENTS[name]
    for level in LEVELS:
        for index in range(deals):
            lockstep(factory, level, evaluation_seed(level, index))
    assert compiled_calls


def heuristic_states(count: int, seed: int = 7):
    """Pairs (compiled game, Python game) in the same state, from heuristic games on
    training deals, at every kind of decision (a leaf row is valued at turn starts, but its
    features are defined everywhere)."""
    rng = random.Random(seed)
    found = 0
    while found < count:
        level = rng.choice(LEVELS)
        deal = training_seed(level, rng.randrange(100_000))
        games = [Game.new(level, deal, core="c"), Game.new(level, deal, core="python")]
        while not games[1].done and found < count:
            yield games[0], games[1]
            found += 1
            action = heuristic_action(games[1])
            for game in games:
                game.apply(action)


@pytest.mark.parametrize("feature_set", list(FEATURE_SETS))
def test_leaf_rows_equal_the_python_features_and_value_to_the_same_bits(feature_set):
    layout, size = compiled.leaf_layout(feature_set)
    python_features = FEATURE_SETS[feature_set][1]
    linear = load_leaf_value(GUIDED_VALUE_PER_LEVEL).models.values()  # basic and cards models
    models = [load_value_model(), *linear]
    weights = [w for m in models if m.feature_set == feature_set for w in m.models.values()]
    assert weights
    rows = np.empty((64, compiled.ROW_ALIGN * 9))
    for n, (core_game, python_game) in enumerate(heuristic_states(3000)):
        view = rows[n % 64 : n % 64 + 1, :size]  # padded rows, as search_rollouts fills
        compiled._kernels.leaf_features(core_game, layout, view)
        expected = python_features(python_game)
        assert view[0].tolist() == expected.tolist(), f"state {n}"
        for w in weights:
            assert float(view[0] @ w) == float(expected @ w)


def test_an_illegal_candidate_is_a_clear_error_and_leaves_the_game_untouched():
    game = Game.new(2, evaluation_seed(2, 0), core="c")
    before = (game.history, list(game.stack), game.seed, game.shuffles)
    layout, size = compiled.leaf_layout("basic")
    ends, rows = np.empty((2, 5), dtype=np.int32), np.empty((2, size))
    illegal = next(a for a in range(199) if a not in game.legal_actions())
    options = (1, 3, 400, 40, False)
    with pytest.raises(ValueError, match=f"candidate action {illegal} is not legal"):
        compiled._kernels.search_rollouts(game, [illegal], [1, 2], options, layout, ends, rows)
    assert (game.history, list(game.stack), game.seed, game.shuffles) == before
    legal = game.legal_actions()[:1]
    bad_inputs = [
        ((game, legal, [1], options, layout[:-1], ends, rows), ValueError, "layout"),
        ((game, legal, [1], options, layout, ends.astype(np.int64), rows), ValueError, "ends"),
        ((game, legal, [1], options, layout, ends, np.empty((2, 3))), ValueError, "rows"),
        ((game, [], [1], options, layout, ends, rows), ValueError, "actions"),
        ((game, [500], [1], options, layout, ends, rows), ValueError, "out of range"),
        ((game, legal, [-1], options, layout, ends, rows), ValueError, "out of range"),
        ((game, legal, [1], (0, 3, 400, 40, False), layout, ends, rows), ValueError, "horizon=0"),
        (
            (Game.new(2, 1, core="python"), legal, [1], options, layout, ends, rows),
            TypeError,
            "compiled",
        ),
    ]
    for args, error, words in bad_inputs:
        with pytest.raises(error, match=words):
            compiled._kernels.search_rollouts(*args)
    assert (game.history, list(game.stack), game.seed, game.shuffles) == before


def test_ingredients_without_a_c_version_take_the_python_path():
    game = Game.new(1, evaluation_seed(1, 0), core="c")
    assert SearchAgent().compiled_search(game) is not None
    assert GuidedSearchAgent().compiled_search(game) is not None
    assert OracleSearchAgent().compiled_search(game).oracle
    assert not SearchAgent().compiled_search(game).oracle
    assert SearchAgent(value="value-net").compiled_search(game) is None
    assert SearchAgent(rollout="guided-prior").compiled_search(game).rollout_network is not None
    assert opaque_rollouts().compiled_search(game) is None
    assert SearchAgent().compiled_search(Game.new(1, 1, core="python")) is None

    class OtherWorlds(SearchAgent):
        def world(self, game, seed):
            return game.clone()

    assert OtherWorlds.c_world is None and OtherWorlds().compiled_search(game) is None


def test_the_compiled_search_is_told_its_world_and_refuses_an_unknown_one():
    game = Game.new(1, evaluation_seed(1, 0), core="c")
    told = {"leaf_value": SearchAgent().model, "horizon": 1, "finish": 0, "limits": (400, 40)}
    fair = compiled.compiled_search(game, world="determinized", heuristic_rollouts=True, **told)
    oracle = compiled.compiled_search(game, world="true", heuristic_rollouts=True, **told)
    assert (fair.oracle, oracle.oracle) == (False, True)
    assert compiled.compiled_search(game, world=None, heuristic_rollouts=True, **told) is None
    with pytest.raises(ValueError, match="unknown world 'dreamt'"):
        compiled.compiled_search(game, world="dreamt", heuristic_rollouts=True, **told)


def opaque_rollouts() -> SearchAgent:
    """A search whose rollouts are a plain function's (a network's inside, which the search
    cannot see): no C version (a network's own ``rollout=`` has one,
    tests/agents/test_network_rollouts.py)."""
    agent = SearchAgent(sims=4, rollout="guided-prior")
    best = agent.rollout_policy
    agent.rollout_policy = lambda game: best(game)
    return agent


@pytest.mark.parametrize(
    "factory",
    [lambda: SearchAgent(sims=4, value="value-net"), opaque_rollouts],
    ids=["value-net", "rollout-opaque"],
)
def test_the_python_path_plays_alike_on_compiled_games(factory, compiled_calls):
    steps = lockstep(factory, 2, evaluation_seed(2, 1))
    assert steps and not compiled_calls


# ------------------------------------------------ hostile arguments and long calls (issue 27)

#: A child's set-up for search_rollouts on a level-1 game's first decision (two candidates).
SEARCH_SETUP = """
import numpy as np
from friday_agents.players import _kernels
from friday_agents.players.search import compiled
from friday_env import Game
game = Game.new(1, 1, core="c")
actions = game.legal_actions()
layout, size = compiled.leaf_layout("basic")
def search(seeds, options=(1, 3, 400, 40, False), worlds=None):
    worlds = len(seeds) if worlds is None else worlds
    ends = np.zeros((worlds * len(actions), 5), dtype=np.int32)
    rows = np.zeros((worlds * len(actions), size))
    _kernels.search_rollouts(game, actions, seeds, options, layout, ends, rows)
    return ends.tolist(), rows.tolist()
"""


def test_seeds_longer_than_their_len_are_read_once_into_owned_memory():
    """A sequence whose iteration yields more seeds than its len() said: C sized its buffer by
    len() and then wrote every item past it (issue 27). Now the sequence is read once, and the
    seeds it yields are the worlds played."""
    out = run_with_memory_checks(
        SEARCH_SETUP
        + """
class Liar:
    def __len__(self):
        return 1
    def __getitem__(self, i):
        if i >= 300:
            raise IndexError(i)
        return i
print(search(Liar(), worlds=300) == search(list(range(300))))
"""
    )
    assert out.strip() == "True"


def test_an_item_that_empties_the_seed_list_cannot_make_c_read_freed_memory():
    """An item whose __index__ clears the list being read: C went on reading the freed
    items (issue 27). Now it reads a snapshot taken before any item's code runs."""
    out = run_with_memory_checks(
        SEARCH_SETUP
        + """
class Clearing:
    def __index__(self):
        seeds.clear()
        return 7
seeds = [5, Clearing(), *range(100, 140)]
print(search(seeds, worlds=42) == search([5, 7, *range(100, 140)]))
"""
    )
    assert out.strip() == "True"


def test_a_horizon_that_overflows_int_plays_to_the_end_or_is_refused():
    """horizon + MAX_FIGHTS_LEFT overflowed C's int: the rollout's action budget went
    negative, no rollout was played and nothing was raised (issue 27)."""
    game = Game.new(1, evaluation_seed(1, 0), core="c")
    actions = game.legal_actions()
    layout, size = compiled.leaf_layout("basic")

    def ends_for(horizon):
        ends = np.zeros((2 * len(actions), 5), dtype=np.int32)
        rows = np.zeros((2 * len(actions), size))
        options = (horizon, 0, 400, 40, False)
        compiled._kernels.search_rollouts(game, actions, [3, 4], options, layout, ends, rows)
        return ends

    to_the_end = ends_for(10**6)
    assert to_the_end[:, 0].all()  # every rollout played to the game's end
    assert (ends_for(2**31 - 1) == to_the_end).all()
    with pytest.raises(ValueError, match=r"horizon=2147483648 is out of range \(1 to"):
        ends_for(2**31)


def test_ctrl_c_stops_a_long_search_promptly():
    """100,000 worlds of whole-game rollouts (about 20 s): SIGINT must stop the call within
    seconds (the GIL is released between worlds and signals checked)."""
    assert_interrupted_promptly(
        SEARCH_SETUP + "search(list(range(100_000)), options=(10**6, 0, 400, 40, False))"
    )


# ------------------------------------------------------------- the learned leaf network


def test_the_leaf_network_in_c_equals_its_numpy_twin():
    """search_rollouts values every end with the network in C: the twin's probability of the
    same row to float rounding, and a finished game's result exactly."""
    network = random_leaf_network(3)
    layout, size = compiled.leaf_layout(leaf_net.FEATURE_SET)
    checked = {"done": 0, "valued": 0}
    for level in LEVELS:
        game = Game.new(level, training_seed(level, 7), core="c")
        while len(game.legal_actions()) < 2:
            game.apply(game.legal_actions()[0])
        actions, seeds = game.legal_actions()[:3], list(range(1, 9))
        n = len(actions) * len(seeds)
        ends, rows, values = np.empty((n, 5), np.int32), np.empty((n, size)), np.empty(n)
        options = (1, 3 if level < 4 else 0, 400, 40, False)
        compiled._kernels.search_rollouts(
            game, actions, seeds, options, layout, ends, rows, network.compiled(), values
        )
        done = ends[:, 0] == 1
        assert values[done].tolist() == ends[done, 4].astype(float).tolist()
        twin = network.win_probability(
            leaf_net.inputs_from_rows(rows[~done], ends[~done, 1], ends[~done, 2])
        )
        np.testing.assert_allclose(values[~done], twin, rtol=0, atol=1e-12)
        checked["done"] += int(done.sum())
        checked["valued"] += int((~done).sum())
    assert checked["done"] and checked["valued"], checked


def test_the_search_with_a_leaf_network_plays_alike_on_both_cores(tmp_path, compiled_calls):
    """guided with a leaf network: the same legal game on either core, its values the same to
    float rounding, and the same game again for the same seed."""
    path = random_leaf_network_file(tmp_path, 1)
    histories = []
    for _ in range(2):
        agents = {core: GuidedSearchAgent(sims=8, value=str(path)) for core in ("python", "c")}
        games = {core: Game.new(4, training_seed(4, 11), core=core) for core in agents}
        for agent in agents.values():
            agent.reset(5)
        while not games["c"].done:
            chosen = {core: agents[core].act(games[core]) for core in agents}
            assert chosen["c"] == chosen["python"]
            assert chosen["c"] in games["c"].legal_actions()
            values = {core: agents[core].last_values for core in agents}
            assert (values["c"] is None) == (values["python"] is None)
            if values["c"] is not None:
                np.testing.assert_allclose(values["c"], values["python"], rtol=0, atol=1e-12)
            for game in games.values():
                game.apply(chosen["c"])
        histories.append(games["c"].history)
    assert compiled_calls and histories[0] == histories[1]


def test_bad_leaf_network_arguments_are_clear_errors():
    game = Game.new(4, evaluation_seed(4, 0), core="c")
    layout, size = compiled.leaf_layout(leaf_net.FEATURE_SET)
    ends, rows, values = np.empty((2, 5), np.int32), np.empty((2, size)), np.empty(2)
    levels, steps, sizes, params = random_leaf_network(0).compiled()
    options = (1, 3, 400, 40, False)
    legal = game.legal_actions()[:1]
    bad = [
        ((levels, steps, sizes, params[:-1]), values, "net params"),
        ((levels, steps, (sizes[0] + 1, *sizes[1:]), params), values, "inputs"),
        ((levels, steps, (*sizes[:-1], 2), params), values, "ending in 1"),
        ((levels, steps, (sizes[0], 9999, 1), params), values, "out of range"),
        ((levels, steps, sizes, params.astype(np.float32)), values, "net params"),
        ((levels, steps, sizes, params), np.empty(0), "values"),
    ]
    for net, out, words in bad:
        with pytest.raises(ValueError, match=words):
            compiled._kernels.search_rollouts(
                game, legal, [1, 2], options, layout, ends, rows, net, out
            )
    assert game.history == []
