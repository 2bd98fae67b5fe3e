"""The search's ``anchor`` option: the action that is always a candidate and wins ties, the
heuristic's choice (default) or the prior's best (``anchor=prior``). With ``anchor=prior`` and
network rollouts, no decision of the search reads the heuristic: the first step of a search
that learns with no teacher (issue 42's stage 6)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import friday_agents.players.search.agent as search_agent
from friday_agents.harness.deals import training_seed
from friday_agents.players.networks.policy_net import PolicyNetwork, save_policy_network
from friday_agents.players.registry import AgentSpecError, make_agent
from friday_env import NUM_ACTIONS, Game
from friday_env.observation import make_encoder


def ranking_network(path: Path) -> Path:
    """A network that ignores its input and rates actions by id, lowest first."""
    size = make_encoder("flat").space.shape[0]
    weights = np.zeros((size, NUM_ACTIONS), np.float32)
    bias = -np.arange(NUM_ACTIONS, dtype=np.float32)
    save_policy_network(PolicyNetwork("flat", ((weights, bias),)), path)
    return path


@pytest.fixture
def no_heuristic(monkeypatch):
    """The search's heuristic, made to fail if anything calls it."""

    def refuse(*args, **kwargs):
        raise AssertionError("the heuristic was called")

    monkeypatch.setattr(search_agent, "heuristic_action", refuse)


def choice_states(count: int) -> list[Game]:
    """Level-1 states with at least three legal actions, reached by the lowest action ids."""
    states = []
    for index in range(200):
        game = Game.new(1, training_seed(1, 500 + index))
        while not game.done and len(game.legal_actions()) < 3:
            game.apply(game.legal_actions()[0])
        if not game.done:
            states.append(game)
        if len(states) == count:
            return states
    raise AssertionError("too few states with a choice")


def test_anchor_prior_searches_the_priors_best_actions_and_never_the_heuristic(
    tmp_path, no_heuristic
):
    path = ranking_network(tmp_path / "rank.npz")
    agent = make_agent(f"search:sims=4:prior={path}:top=2:anchor=prior:rollout={path}")
    for game in choice_states(3):
        legal = list(game.legal_actions())
        agent.reset(1)
        action = agent.act(game)
        assert [a for a, _ in agent.last_values] == legal[:2]
        assert action in legal[:2]


def test_anchor_prior_plays_a_whole_game_with_no_heuristic(tmp_path, no_heuristic):
    path = ranking_network(tmp_path / "rank.npz")
    agent = make_agent(f"search:sims=2:prior={path}:top=2:anchor=prior:rollout={path}")
    game = Game.new(1, training_seed(1, 77))
    agent.reset(77)
    while not game.done:
        game.apply(agent.act(game))
    assert game.done


def test_ties_go_to_the_priors_best_action(tmp_path, monkeypatch, no_heuristic):
    path = ranking_network(tmp_path / "rank.npz")
    agent = make_agent(f"search:sims=4:prior={path}:top=3:anchor=prior:rollout={path}")
    monkeypatch.setattr(
        agent, "rollout_totals", lambda game, actions, seeds: np.zeros(len(actions))
    )
    for game in choice_states(3):
        assert agent.act(game) == game.legal_actions()[0]


def test_the_default_anchor_is_the_heuristics_choice(tmp_path):
    path = ranking_network(tmp_path / "rank.npz")
    assert make_agent(f"search:prior={path}").anchor == "heuristic"
    assert make_agent("search").anchor == "heuristic"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (":anchor=nope", "anchor must be one of heuristic, prior, got 'nope'"),
        (":anchor=prior", "anchor=prior needs top of at least 2"),
        (":anchor=prior:top=1", "anchor=prior needs top of at least 2"),
    ],
)
def test_bad_anchors_are_refused_in_one_line(tmp_path, options, message):
    path = ranking_network(tmp_path / "rank.npz")
    with pytest.raises(AgentSpecError, match=message):
        make_agent(f"search:prior={path}{options}")


def test_anchor_prior_without_a_prior_is_refused():
    with pytest.raises(AgentSpecError, match=r"anchor=prior needs a prior"):
        make_agent("search:anchor=prior")


def test_the_default_anchor_calls_the_heuristic_so_the_check_above_can_fail(tmp_path, no_heuristic):
    path = ranking_network(tmp_path / "rank.npz")
    agent = make_agent(f"search:sims=4:prior={path}:top=2:rollout={path}")
    with pytest.raises(AssertionError, match="the heuristic was called"):
        agent.act(choice_states(1)[0])


#: Plays one level-1 game with the search ``argv[1]`` names, in a fresh interpreter, and prints
#: the modules loaded.
PLAY = """
import json, sys
from friday_agents.players.registry import make_agent
from friday_agents.players.base import play_game
play_game(make_agent(sys.argv[1]), 1, seed=1)
print(json.dumps(sorted(sys.modules)))
"""


def heuristic_modules(spec: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", PLAY, spec], capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr
    modules = json.loads(done.stdout.splitlines()[-1])
    return [m for m in modules if m.startswith("friday_agents.players.heuristic")]


def test_a_search_with_no_heuristic_in_its_choices_does_not_import_it(tmp_path):
    """The heuristic's module is imported on first use only: a search anchored on its prior
    with network rollouts plays a game without it (what a no-teacher search registered in
    the registry needs), the default search imports it (the check can fail)."""
    path = ranking_network(tmp_path / "rank.npz")
    spec = f"search:sims=2:prior={path}:rollout={path}"
    assert heuristic_modules(f"{spec}:top=2:anchor=prior") == []
    assert heuristic_modules(f"{spec}:top=2") != []


def fixed_means(agent, means: list[float]):
    """``agent``'s rollouts replaced by ones whose mean values per candidate are ``means``."""
    worlds = max(1, agent.sims // len(means))
    return lambda game, actions, seeds: np.array(means[: len(actions)]) * worlds


@pytest.mark.parametrize(
    ("margin", "lead", "departs"),
    [(0.0, 0.01, True), (0.05, 0.04, False), (0.05, 0.06, True), (0.2, 0.15, False)],
)
def test_the_search_departs_from_its_anchor_only_past_the_margin(
    tmp_path, monkeypatch, no_heuristic, margin, lead, departs
):
    """Issue 42's stage 6 (PLAN amendment 4): another candidate must beat the prior's best
    action's mean leaf value by more than ``margin``."""
    path = ranking_network(tmp_path / "rank.npz")
    spec = f"search:sims=4:prior={path}:top=2:anchor=prior:rollout={path}:margin={margin}"
    agent = make_agent(spec)
    monkeypatch.setattr(agent, "rollout_totals", fixed_means(agent, [0.5, 0.5 + lead]))
    for game in choice_states(2):
        legal = list(game.legal_actions())
        assert agent.act(game) == (legal[1] if departs else legal[0])
        assert agent.last_values == [(legal[0], 0.5 + margin), (legal[1], 0.5 + lead)]


@pytest.mark.parametrize("margin", ["-0.1", "nope", "nan"])
def test_bad_margins_are_refused_in_one_line(tmp_path, margin):
    path = ranking_network(tmp_path / "rank.npz")
    with pytest.raises(AgentSpecError, match="margin"):
        make_agent(f"search:prior={path}:top=2:anchor=prior:margin={margin}")
