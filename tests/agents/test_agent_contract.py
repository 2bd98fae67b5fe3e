"""Every agent of the registry keeps the agents' contract (`agent_test`): its registry name,
legal whole games on levels 1 and 4 on each core, same seed same game, a pickled copy that
plays on the same, and for the fair agents the R26 twins. Each check is shown to fail on an
agent planted with its fault."""

from __future__ import annotations

import random

import pytest
from optional import require_modules

from friday_agents.players import contract
from friday_agents.players.contract import agent_test, public_twins
from friday_agents.players.registry import AGENTS, CHEATING_AGENTS, agent_class, spec_options
from friday_agents.players.search.oracle import OracleSearchAgent
from friday_env import Game, available_cores, public_view
from friday_env.core import core_of

#: The agents that need the ``rl`` extra to play.
NEEDS_RL = frozenset({"ppo"})


def small(name: str) -> str:
    """The registry name with a small search budget where the agent takes one."""
    return f"{name}:sims=4" if "sims" in spec_options(agent_class(name)) else name


@pytest.mark.parametrize("name", list(AGENTS))
def test_every_registry_agent_keeps_the_contract(name):
    if name in NEEDS_RL:
        require_modules("torch", "sb3_contrib", install='pip install -e ".[rl]"')
    report = agent_test(small(name))
    assert report.games == 2 * len(available_cores())
    assert report.decisions > report.games * 20
    assert report.twins == (0 if name in CHEATING_AGENTS else 8 * len(available_cores()))


@pytest.mark.slow
@pytest.mark.parametrize("name", list(AGENTS))
def test_every_registry_agent_keeps_the_contract_at_its_default_budget(name):
    if name in NEEDS_RL:
        require_modules("torch", "sb3_contrib", install='pip install -e ".[rl]"')
    report = agent_test(name, levels=(1, 2, 3, 4), twins=16)
    assert report.games == 4 * len(available_cores())


@pytest.mark.parametrize("core", available_cores())
def test_twins_are_equal_in_public_view_and_differ_in_hidden_order(core):
    pairs = public_twins(10, seed=3, core=core)
    assert len(pairs) == 10
    assert {game.level for pair in pairs for game in pair} == {1, 2, 3, 4}
    for first, second in pairs:
        assert core_of(first) == core_of(second) == core
        assert public_view(first) == public_view(second)
        assert first.stack != second.stack
        assert len(first.legal_actions()) >= 2


# ------------------------------------------------------------- planted faults


class Planted:
    """A fair random player; each subclass below breaks one clause of the contract."""

    name = "planted"

    def __init__(self) -> None:
        self.rng = random.Random(0)

    def reset(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, game: Game) -> int:
        return self.rng.choice(list(game.legal_actions()))


class Illegal(Planted):
    def act(self, game: Game) -> int:
        return max(game.legal_actions()) + 1


class Meddling(Planted):
    def act(self, game: Game) -> int:
        action = super().act(game)
        game.apply(action)
        return action


class GlobalRandom(Planted):
    def act(self, game: Game) -> int:
        return random.choice(list(game.legal_actions()))


class Peeking(Planted):
    """Chooses by the hidden order of the Robinson stack (R26 forbids it)."""

    def act(self, game: Game) -> int:
        legal = list(game.legal_actions())
        return legal[hash(tuple(game.stack)) % len(legal)]


class Unpicklable(Planted):
    def reset(self, seed: int) -> None:
        super().reset(seed)
        self.choose = lambda legal: self.rng.choice(legal)


class ForgetsOnPickle(Planted):
    def __getstate__(self) -> dict:
        return {"rng": "left behind"}

    def __setstate__(self, state: dict) -> None:
        self.rng = random.Random(0)


class CoreMinded(Planted):
    def act(self, game: Game) -> int:
        legal = list(game.legal_actions())
        return legal[-1] if core_of(game) == "c" else legal[0]


class Misnamed(Planted):
    name = "another"


class SaysItCheats(Planted):
    cheats = True


@pytest.mark.parametrize(
    ("planted", "message"),
    [
        (Illegal, "not among the legal"),
        (Meddling, "act changed the game"),
        (GlobalRandom, "played another game"),
        (Peeking, "R26: the hidden order changed its choice"),
        (Unpicklable, "it does not pickle"),
        (ForgetsOnPickle, "restored, it played the rest differently"),
        (Misnamed, "name is 'another', its registry name 'planted'"),
        (SaysItCheats, "CHEATING_AGENTS does not list it"),
    ],
)
def test_the_contract_names_each_planted_fault(monkeypatch, planted, message):
    monkeypatch.setitem(AGENTS, "planted", f"{__name__}:{planted.__name__}")
    with pytest.raises(AssertionError, match=message) as failure:
        agent_test("planted", cores=("python",))
    assert str(failure.value).startswith("agent_test('planted'): ")


@pytest.mark.skipif("c" not in available_cores(), reason="the compiled core is not built")
def test_the_contract_finds_an_agent_the_core_changes(monkeypatch):
    monkeypatch.setitem(AGENTS, "planted", f"{__name__}:CoreMinded")
    with pytest.raises(AssertionError, match=r"the cores .* gave different games"):
        agent_test("planted")


def test_the_contract_refuses_to_check_on_no_core():
    with pytest.raises(ValueError, match="at least one core"):
        agent_test("random", cores=())


def test_the_planted_player_itself_keeps_the_contract(monkeypatch):
    monkeypatch.setitem(AGENTS, "planted", f"{__name__}:Planted")
    assert agent_test("planted").twins > 0


def test_the_oracle_would_fail_the_twins_if_it_claimed_to_be_fair(monkeypatch):
    """The twin check catches a real agent that reads the hidden order."""
    monkeypatch.setattr(contract, "CHEATING_AGENTS", frozenset())
    monkeypatch.setattr(OracleSearchAgent, "cheats", False)
    with pytest.raises(AssertionError, match="R26"):
        agent_test("oracle:sims=8", levels=(), twins=16)
