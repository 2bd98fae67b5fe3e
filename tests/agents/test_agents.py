"""Agents: legal actions only, determinism, open information only (R26), the registry."""

from __future__ import annotations

import random

import numpy as np
import pytest

from friday_agents.harness.deals import (
    TRAINING_SEED_LIMIT,
    evaluation_seed,
    evaluation_seeds,
    is_evaluation_seed,
    training_seed,
)
from friday_agents.learning.fitting.value_fit import ridge_fit
from friday_agents.players.base import Agent, outcome_of, play_game
from friday_agents.players.heuristic.agent import HeuristicAgent, heuristic_action
from friday_agents.players.networks.linear_value import (
    card_features,
    features,
    load_value_model,
    state_value,
)
from friday_agents.players.random_agent import RandomAgent
from friday_agents.players.registry import (
    AGENTS,
    AgentSpecError,
    agent_class,
    make_agent,
    parse_spec,
)
from friday_agents.players.search import agent as agent_module
from friday_agents.players.search.agent import ROLLOUT_STOPS, SearchAgent, rollout, rollout_policy
from friday_env import Game, determinized
from friday_env.record import state_digest
from friday_env.testing.games import random_deal

LEVELS = (1, 2, 3, 4)


class LegalityChecker:
    """Wraps an agent: checks every action is legal and the agent leaves the game as it
    found it (agents plan on clones)."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.name = agent.name
        self.decisions = 0

    def reset(self, seed: int) -> None:
        self.agent.reset(seed)

    def act(self, game: Game) -> int:
        legal = list(game.legal_actions())
        before = state_digest(game)
        action = self.agent.act(game)
        assert state_digest(game) == before, f"{self.name} modified the game"
        assert action in legal, f"{self.name} chose {action}, legal {legal}"
        self.decisions += 1
        return action


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("agent_cls", [RandomAgent, HeuristicAgent])
def test_r26_agents_choose_only_legal_actions_in_whole_games(agent_cls, level):
    checker = LegalityChecker(agent_cls())
    for index in range(40):
        game = play_game(checker, level, training_seed(level, index))
        assert game.done
    assert checker.decisions > 40 * 20


@pytest.mark.parametrize("level", (1, 4))
def test_r26_search_chooses_only_legal_actions(level):
    checker = LegalityChecker(SearchAgent(sims=4))
    game = play_game(checker, level, training_seed(level, 0))
    assert game.done and checker.decisions > 20


def test_heuristic_legal_from_random_situations_including_pirates():
    """Random deals anywhere in the game (pirates, thin decks, little life) reach every
    decision: the heuristic must answer each with a legal action until the game ends."""
    rng = random.Random(2024)
    checker = LegalityChecker(HeuristicAgent())
    pirates_played = 0
    for _ in range(300):
        game = random_deal(rng.choice(LEVELS), rng)
        while not game.done:
            pirates_played += game.in_pirate_fight
            game.apply(checker.act(game))
    assert pirates_played > 100


def test_search_legal_from_random_situations():
    rng = random.Random(7)
    checker = LegalityChecker(SearchAgent(sims=3))
    checker.reset(0)
    for _ in range(12):
        game = random_deal(rng.choice(LEVELS), rng)
        for _ in range(15):
            if game.done:
                break
            game.apply(checker.act(game))


@pytest.mark.parametrize("spec", ["random", "heuristic", "search:sims=4"])
def test_same_seed_same_game(spec):
    first = play_game(make_agent(spec), 1, training_seed(1, 3))
    second = play_game(make_agent(spec), 1, training_seed(1, 3))
    assert first.history == second.history
    assert outcome_of(first) == outcome_of(second)


def test_random_agent_seed_changes_its_choices():
    games = [play_game(RandomAgent(), 1, training_seed(1, 0), agent_seed=s) for s in range(5)]
    assert len({tuple(g.history) for g in games}) > 1


def _midgame_states(count: int) -> list[Game]:
    """Situations from heuristic games with more than one legal action."""
    states = []
    for index in range(count):
        game = Game.new(1 + index % 4, training_seed(1 + index % 4, 100 + index))
        steps = random.Random(index).randint(5, 120)
        for _ in range(steps):
            if game.done:
                break
            game.apply(heuristic_action(game))
        if not game.done and len(game.legal_actions()) > 1:
            states.append(game)
    return states


def test_r26_heuristic_sees_only_public_information():
    """A determinized copy has the same public information and different hidden order:
    the heuristic must choose the same action in both."""
    for game in _midgame_states(60):
        action = heuristic_action(game)
        for seed in range(3):
            assert heuristic_action(determinized(game, seed)) == action


def test_r26_search_sees_only_public_information():
    for game in _midgame_states(8):
        choices = set()
        for copy in (game, determinized(game, 11), determinized(game, 12)):
            agent = SearchAgent(sims=6)
            agent.reset(5)
            choices.add(agent.act(copy))
        assert len(choices) == 1


@pytest.mark.parametrize("read", [features, card_features], ids=["basic", "cards"])
def test_r26_value_features_are_public(read):
    for game in _midgame_states(30):
        for seed in range(2):
            assert (read(determinized(game, seed)) == read(game)).all()


def test_search_forced_move_costs_no_simulation(monkeypatch):
    game = Game.new(1, training_seed(1, 5))
    while len(game.legal_actions()) != 1:
        game.apply(heuristic_action(game))

    def refuse(*_args):
        raise AssertionError("a forced move must not be simulated")

    monkeypatch.setattr("friday_agents.players.search.agent.determinized", refuse)
    assert SearchAgent(sims=50).act(game) == game.legal_actions()[0]


def test_search_rejects_bad_budget():
    with pytest.raises(ValueError, match="sims"):
        SearchAgent(sims=0)


def test_rollout_options_change_where_and_how_rollouts_play(monkeypatch):
    """``finish`` sets the step from which a rollout plays to the game's end, ``rollout`` who
    plays it; by default the heuristic plays to the end of the fight."""
    model = load_value_model()
    fight = Game.new(1, training_seed(1, 9))
    fight.apply(heuristic_action(fight))  # a hazard chosen: the green step's first fight
    by_hand = fight.clone()
    while by_hand.phase not in ROLLOUT_STOPS:
        by_hand.apply(heuristic_action(by_hand))
    assert rollout(fight.clone(), model) == model.value(by_hand)
    ended = fight.clone()
    rollout(ended, model, finish_step=0)
    assert ended.done
    played = []
    network = rollout_policy("guided-prior")

    def counted(game: Game) -> int:
        played.append(game)
        return network(game)

    def no_heuristic(*_args):
        raise AssertionError("the heuristic played")

    monkeypatch.setattr(agent_module, "heuristic_action", no_heuristic)
    with pytest.raises(AssertionError, match="the heuristic played"):
        rollout(fight.clone(), model)
    rollout(fight.clone(), model, policy=counted)
    assert played


def test_state_value_of_a_finished_game_is_its_score_and_result():
    model = load_value_model()
    for index in range(30):
        game = play_game(HeuristicAgent(), 1, training_seed(1, index))
        assert state_value(game) == game.score() + model.win_bonus * game.won


# -------------------------------------------------------------- registry


def test_registry_agents_follow_the_protocol():
    for name in AGENTS:
        agent = make_agent(name)
        assert isinstance(agent, Agent)
        assert agent.name == name
        assert agent_class(name) is type(agent)


def test_spec_options_become_numbers():
    assert parse_spec("search:sims=12") == ("search", {"sims": 12})
    assert make_agent("search:sims=12").sims == 12
    assert make_agent("search", sims=9).sims == 9  # a default the spec did not set
    assert make_agent("search:sims=3", sims=9).sims == 3  # the spec wins
    assert make_agent("random", sims=9).name == "random"  # defaults it does not take: ignored


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("alphazero", "unknown agent 'alphazero'"),
        ("search:depth=3", "takes no option 'depth'"),
        ("search:sims", "key=value"),
        ("search:sims=-1", "sims must be a positive integer"),
        ("search:finish=4", "finish must be a step from 0 to 3"),
        ("search:rollout=policy.txt", "must be an .npz policy network"),
    ],
)
def test_bad_agent_specs_are_named(spec, message):
    with pytest.raises(AgentSpecError, match=message):
        make_agent(spec)


# ----------------------------------------------------------------- seeds


def test_evaluation_seeds_are_fixed_and_never_training_seeds():
    assert evaluation_seed(1, 0) == 11_000_000
    assert evaluation_seed(4, 999_999) == 14_999_999
    assert evaluation_seeds(2, 3) == [12_000_000, 12_000_001, 12_000_002]
    all_eval = {evaluation_seed(level, i) for level in LEVELS for i in range(0, 10**6, 997)}
    assert min(all_eval) >= TRAINING_SEED_LIMIT and all(map(is_evaluation_seed, all_eval))
    assert training_seed(4, 999_999) < TRAINING_SEED_LIMIT
    assert not is_evaluation_seed(training_seed(3, 5))
    with pytest.raises(ValueError):
        evaluation_seed(1, 10**6)
    with pytest.raises(ValueError):
        evaluation_seed(5, 0)


# ------------------------------------------------------------ value fit


def test_ridge_fit_recovers_weights_and_tames_collinear_counts():
    rng = np.random.default_rng(0)
    x = np.column_stack([np.ones(500), rng.normal(5, 2, 500), rng.normal(-3, 10, 500)])
    assert ridge_fit(x, x @ np.array([1.5, 2.0, -0.5]), 0.0) == pytest.approx([1.5, 2.0, -0.5])
    # two counts that always add up to 30 (like hazards left and discarded): the penalty on
    # standardized features splits the effect between them instead of trading huge weights
    count = rng.integers(0, 10, 500).astype(float)
    x = np.column_stack([np.ones(500), count, 30 - count, rng.normal(0, 1, 500)])
    w = ridge_fit(x, 2 * count + rng.normal(0, 1, 500), 1e-3)
    assert w[1] == pytest.approx(1.0, abs=0.05) and w[2] == pytest.approx(-1.0, abs=0.05)
    assert abs(w[3]) < 0.1


def test_spec_options_are_read_by_their_annotated_types():
    """Each option's text is read as the constructor's real type (typing.get_type_hints), not
    guessed from the annotation's text: a float option takes "2" as 2.0, a text option keeps
    "123" as text, and an int option refuses "2.5" naming the option."""
    from friday_agents.players.registry import spec_options
    from friday_agents.players.search.agent import SearchAgent

    options = spec_options(SearchAgent)
    assert options["sims"] == (int,)
    assert make_agent("search:sims=12").sims == 12
    with pytest.raises(AgentSpecError, match=r"option 'sims' is int, not '2\.5'"):
        make_agent("search:sims=2.5")


def test_scratch_plays_its_committed_network_and_takes_no_options():
    """``scratch`` is ``net`` playing the model ``scratch`` (the from-nothing choice)."""
    from friday_agents.models import SCRATCH
    from friday_agents.players.networks.policy_net import load_policy_network
    from friday_agents.players.registry import AgentSpecError, make_agent
    from friday_env import Game

    agent = make_agent("scratch")
    assert agent.policy.network is load_policy_network(SCRATCH)
    assert make_agent("net:model=scratch").policy.network is agent.policy.network
    game = Game.new(1, 5)
    while not game.done:
        action = agent.act(game)
        assert action in game.legal_actions()
        game.apply(action)
    with pytest.raises(AgentSpecError, match="takes no option 'model'"):
        make_agent("scratch:model=net")
