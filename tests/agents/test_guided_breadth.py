"""``guided``'s ``top`` per level, adopted by the level-4 breadth study
(``experiments/level4-breadth/PLAN.md`` rules 1-2, ``results/decision.json``): left out, the
prior's best action on levels 1-3 and its best three on level 4; given, the same on every
level."""

from __future__ import annotations

import pytest

from friday_agents.harness.deals import validation_seed
from friday_agents.players.base import play_game
from friday_agents.players.registry import make_agent
from friday_agents.players.search.guided import BEFORE_LEAF_STUDY, GUIDED_TOPS


def _history(spec: str, level: int) -> list[int]:
    """The actions of ``spec`` on validation deal 0 of ``level``."""
    return list(play_game(make_agent(spec), level, validation_seed(level, 0)).history)


def test_guided_plays_top_3_on_level_4_as_the_breadth_study_measured_it():
    """Amendment 1: the evaluation runs named ``guided:top=3``; the default plays them."""
    default = _history("guided", 4)
    assert default == _history("guided:top=3", 4)
    assert default != _history("guided:top=1", 4)  # the deal tells the two apart


def test_guided_plays_top_1_on_level_1_as_before_the_study():
    default = _history("guided", 1)
    assert default == _history("guided:top=1", 1)
    assert default != _history("guided:top=3", 1)


def _tops_asked(spec: str, level: int) -> set[int]:
    """The ``top`` the agent hands its prior at each searched decision of a game."""
    agent = make_agent(spec)
    asked, candidates = set(), agent.prior.candidates

    def spy(game, legal, top, default):
        asked.add(top)
        return candidates(game, legal, top, default)

    agent.prior.candidates = spy
    play_game(agent, level, validation_seed(level, 0))
    return asked


@pytest.mark.parametrize("level", [1, 4])
def test_a_top_given_is_used_on_every_level(level):
    assert _tops_asked("guided:top=2", level) == {2}
    assert make_agent("guided:top=2").tops == dict.fromkeys((1, 2, 3, 4), 2)


def test_left_out_top_is_per_level_for_guided_only():
    assert GUIDED_TOPS == {1: 1, 2: 1, 3: 1, 4: 3}
    assert make_agent("guided").tops == GUIDED_TOPS
    assert make_agent("search:prior=net").tops == dict.fromkeys((1, 2, 3, 4), 1)
    assert _tops_asked("guided", 4) == {3}


def test_the_specs_of_before_play_top_1_everywhere():
    for spec in (BEFORE_LEAF_STUDY, "guided:top=1"):
        assert make_agent(spec).tops == dict.fromkeys((1, 2, 3, 4), 1)
