"""The fair agents read only public information (R26); the oracle reads the hidden state.

Twins are two games with the same public information and a different hidden order: built
with :func:`friday_env.scenario.scenario` from the same piles, the Robinson stack listed in
two orders (none of it known), or in mid-game as a game and a :func:`friday_env.determinized`
copy; :func:`friday_env.public_view` checks they are equal. Seeded
alike, a fair agent must choose the same action in both; the oracle, which plans on the true
order, must not (in some of them), or it would be no ceiling.
"""

from __future__ import annotations

import random

import pytest

from friday_agents.evaluation.report import build_results, compare, summarize, text_table
from friday_agents.evaluation.runner import EvalConfig
from friday_agents.harness.deals import training_seed
from friday_agents.players.heuristic.agent import HeuristicAgent, heuristic_action
from friday_agents.players.net.agent import NetAgent
from friday_agents.players.registry import AGENTS, CHEATING_AGENTS, is_cheating, make_agent
from friday_agents.players.search.agent import SearchAgent
from friday_agents.players.search.guided import GuidedSearchAgent
from friday_agents.players.search.oracle import OracleSearchAgent
from friday_env import Game, determinized, public_view
from friday_env.scenario import from_spec
from friday_env.testing.games import random_deal

LEVELS = (1, 2, 3, 4)


def twins(count: int, seed: int = 3) -> list[tuple[Game, Game]]:
    """``count`` pairs of scenario games at a decision with two or more legal actions, equal
    in public view, with the Robinson stack in two different hidden orders."""
    rng = random.Random(seed)
    found: list[tuple[Game, Game]] = []
    while len(found) < count:
        game = random_deal(rng.choice(LEVELS), rng, step=rng.choice(["green", "yellow", "red"]))
        spec = dict(game.origin["scenario"], known_top=0)
        order = list(spec["robinson_stack"])
        if len(game.legal_actions()) < 2 or len(set(order)) < 2:
            continue
        shuffled = order[:]
        while shuffled == order:
            rng.shuffle(shuffled)
        first = from_spec(dict(spec, robinson_stack=order))
        second = from_spec(dict(spec, robinson_stack=shuffled))
        assert public_view(first) == public_view(second)
        assert first.stack != second.stack
        found.append((first, second))
    return found


def midgame_twins(count: int, seed: int = 4) -> list[tuple[Game, Game]]:
    """Pairs from the middle of heuristic games (fights, abilities, destroying, the pirates):
    a game and a :func:`determinized` copy of it, equal in public view, the hidden order of
    the Robinson stack differing."""
    rng = random.Random(seed)
    found: list[tuple[Game, Game]] = []
    while len(found) < count:
        level = rng.choice(LEVELS)
        game = Game.new(level, training_seed(level, rng.randrange(10_000)))
        for _ in range(rng.randint(5, 150)):
            if game.done:
                break
            game.apply(heuristic_action(game))
        if game.done or len(game.legal_actions()) < 2:
            continue
        copy = determinized(game, rng.randrange(1000))
        if copy.stack != game.stack:
            assert public_view(copy) == public_view(game)
            found.append((game, copy))
    return found


def choices(agent_factory, pair: tuple[Game, Game], seed: int = 5) -> list[int]:
    picks = []
    for game in pair:
        agent = agent_factory()
        agent.reset(seed)
        picks.append(agent.act(game))
    return picks


@pytest.mark.parametrize(
    "factory",
    [
        HeuristicAgent,
        lambda: SearchAgent(sims=8),
        lambda: SearchAgent(sims=8, prior="guided-prior", top=1),
        lambda: GuidedSearchAgent(sims=8),
        NetAgent,
    ],
    ids=["heuristic", "search", "search-prior", "guided", "net"],
)
def test_r26_fair_agents_choose_alike_in_twins(factory):
    for pair in twins(12) + midgame_twins(12):
        first, second = choices(factory, pair)
        assert first == second, f"the hidden order changed the choice: {first} vs {second}"


def test_oracle_plans_on_the_true_hidden_state():
    game = twins(1)[0][0]
    oracle, fair = OracleSearchAgent(sims=4), SearchAgent(sims=4)
    for seed in range(3):
        world = oracle.world(game, seed)
        assert (world.stack, world.aging, world.hazard_stack) == (
            game.stack,
            game.aging,
            game.hazard_stack,
        )
        assert world.seed != game.seed or seed == game.seed  # only future shuffles are fresh
    assert any(fair.world(game, seed).stack != game.stack for seed in range(3))


def test_oracle_chooses_differently_in_some_twins():
    """The oracle's choice depends on the hidden order: in some twins it differs."""
    differing = sum(
        len(set(choices(lambda: OracleSearchAgent(sims=8), pair))) > 1 for pair in twins(12)
    )
    assert differing > 0


def test_oracle_is_marked_as_cheating():
    assert {"oracle"} == CHEATING_AGENTS
    assert is_cheating("oracle:sims=8") and make_agent("oracle").cheats
    fair = [name for name in AGENTS if name not in CHEATING_AGENTS]
    assert fair and not any(is_cheating(name) for name in fair)
    assert not any(getattr(make_agent(name), "cheats", False) for name in fair if name != "ppo")


def _rows(agent: str, wins: list[bool]) -> list[dict]:
    return [
        {
            "agent": agent,
            "level": 1,
            "index": i,
            "won": w,
            "score": 10 * w,
            "seconds": 1.0,
            "actions": 100,
            "fights": 20,
        }
        for i, w in enumerate(wins)
    ]


def test_oracle_is_left_out_of_the_rankings():
    """The paired comparisons chain the fair agents only, skipping the oracle between them."""
    agents = ("heuristic", "oracle", "search")
    config = EvalConfig(
        agents=agents,
        levels=(1,),
        games=dict.fromkeys(agents, 4),
        search_sims=8,
        save_games=False,
    )
    rows = (
        _rows("heuristic", [False] * 4)
        + _rows("oracle", [True] * 4)
        + _rows("search", [True, True, False, False])
    )
    summary = summarize(rows, config)
    comparisons = compare(rows, config, summary)
    assert [(c["baseline"], c["agent"]) for c in comparisons] == [("heuristic", "search")]
    table = text_table(build_results(rows, config, "friday eval ..."))
    assert "oracle (cheats)  1" in table and "\nsearch " in table


def test_determinized_twins_of_midgame_states_are_public_twins():
    """The fair search plans on :func:`determinized` copies: each is a public twin."""
    for first, _ in twins(4):
        for seed in range(3):
            assert public_view(determinized(first, seed)) == public_view(first)
