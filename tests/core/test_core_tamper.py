"""Tampered states: the compiled core accepts only states the rules can reach, and plays
every state it accepts exactly as the reference does.

The fuzzer (``friday_env.testing.tamper``) edits real states at random and checks both
halves: every refusal is a ``StateError`` naming a field, every accepted state plays to its
end identically on both cores. ``FRIDAY_TAMPER_STATES`` sets its budget (default 300, a few
seconds; the sanitized run, ``test_core_sanitize.py``, raises it). The other tests are the
states a review found accepted and then crashing or diverging, each now refused.
"""

from __future__ import annotations

import os
import pickle
import random
from collections.abc import Callable

import numpy as np
import pytest

from friday_env import Game, Phase, available_cores
from friday_env.cards import Ability
from friday_env.errors import EnvOptionError, StateError
from friday_env.testing import tamper

pytestmark = pytest.mark.skipif("c" not in available_cores(), reason="compiled core not built")

if "c" in available_cores():
    from friday_env.core import CompiledGame, _from_python


def test_tampered_states_are_refused_by_field_or_played_alike_on_both_cores() -> None:
    states = int(os.environ.get("FRIDAY_TAMPER_STATES", "300"))
    report = tamper.run(states, seed=int(os.environ.get("FRIDAY_TAMPER_SEED", "0")))
    print(report.summary())
    assert report.disagreements == []
    assert report.tried == states == report.accepted + report.refused
    assert report.accepted > states // 10 and report.actions_compared > report.accepted
    assert len(report.refused_by_field) >= 8  # refusals come from many checks, each named


def test_the_tamper_command_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert tamper.main(["--states", "20", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "states tried: 20" in out and "disagreements: 0" in out


# ---------------------------------------------------------------- states from the review


def _reference_at(phase: Phase, seed: int = 5, table: int = 0) -> Game:
    """A reference game reached by play, at ``phase`` with at least ``table`` table cards."""
    for attempt in range(200):
        game, rng = Game.new(2, seed + attempt, core="python"), random.Random(seed + attempt)
        while not game.done:
            if game.phase == phase and len(game.table) >= table:
                return game
            game.apply(rng.choice(game.legal_actions()))
    raise AssertionError(f"no game reached {phase!r}")


def _overfull_table(game: Game) -> None:
    """66 cards on the table (every card but the hazard fought and two pirates) after a lost
    fight, each affordable to destroy: destroy ids up to 205, past the 199 of the mask."""
    game.unseen, game.known_top = [], 0  # the stack's cards go to the table
    game.phase, game.budget = Phase.LOSS_DESTROY, 100
    for name in ("stack", "discard", "aging", "hazard_stack", "hazard_discard", "box", "destroyed"):
        while getattr(game, name):
            game.table.append(getattr(game, name).pop())
            game.flags.append(0)


def _empty_offer(game: Game) -> None:
    game.box += game.offer
    game.offer = []


def _nothing_to_draw_while_sorting(game: Game) -> None:
    game.phase, game.sort_taken = Phase.SORT_TAKE, [game.stack.pop()]
    game.known_top = 0
    for name in ("stack", "discard", "aging"):
        game.box += getattr(game, name)
        setattr(game, name, [])
    game.unseen = []


def _no_hazard_in_a_fight(game: Game) -> None:
    game.hazard_discard.append(game.hazard)
    game.hazard = -1


def _no_pirate_to_choose(game: Game) -> None:
    _empty_offer(game)
    game.step, game.phase = 3, Phase.CHOOSE_PIRATE
    game.box += game.pirates
    game.pirates = []


def _sort_with_nothing_taken(game: Game) -> None:
    game.phase = Phase.SORT_DISCARD


def _no_legal_action(game: Game) -> None:
    """Destroy, with its own card the only one on the table: nothing to target."""
    game.box += game.table[1:]
    del game.table[1:], game.flags[1:]
    game.phase, game.source, game.resolving = Phase.TARGET, 0, Ability.DESTROY


#: name: (the phase played to, the edit, the field the refusal names)
REFUSED: dict[str, tuple[Phase, int, Callable[[Game], None], str]] = {
    "66 cards on the table": (Phase.FIGHT, 0, _overfull_table, "table"),
    "an empty offer while choosing a hazard": (Phase.CHOOSE_HAZARD, 0, _empty_offer, "offer"),
    "nothing to draw while sorting": (Phase.FIGHT, 1, _nothing_to_draw_while_sorting, "stack"),
    "a fight with hazard -1": (Phase.FIGHT, 0, _no_hazard_in_a_fight, "hazard"),
    "choosing a pirate with no pirates": (Phase.CHOOSE_HAZARD, 0, _no_pirate_to_choose, "pirates"),
    "a sort with nothing taken": (Phase.FIGHT, 1, _sort_with_nothing_taken, "sort_taken"),
    "a live game with no legal action": (Phase.FIGHT, 1, _no_legal_action, "phase"),
}


def _tampered(name: str) -> Game:
    phase, table, edit, _ = REFUSED[name]
    game = _reference_at(phase, table=table)
    edit(game)
    return game


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_state_the_rules_cannot_reach_is_refused_naming_its_field(name: str) -> None:
    game = _tampered(name)
    with pytest.raises(StateError, match=rf"unsound game state: {REFUSED[name][3]}\b"):
        CompiledGame.from_python(game)


def test_the_live_game_without_legal_action_has_none_on_the_reference_too() -> None:
    game = _tampered("a live game with no legal action")
    assert not game.done and game.legal_actions() == []


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_tampered_pickle_is_refused(name: str) -> None:
    """A pickle of a compiled game is its reference copy: edited, it must not load."""

    class Tampered:
        def __reduce__(self):
            return (_from_python, (_tampered(name), CompiledGame))

    with pytest.raises(StateError, match=REFUSED[name][3]):
        pickle.loads(pickle.dumps(Tampered()))


@pytest.mark.parametrize("name", ["66 cards on the table", "a live game with no legal action"])
def test_the_vector_env_refuses_a_tampered_game_and_changes_nothing(name: str) -> None:
    from friday_env.vector import FridayVectorEnv

    env = FridayVectorEnv(2, level=2, core="c")
    try:
        env.reset(seed=1)
        obs, masks = env._out.obs.copy(), env._out.masks.copy()
        with pytest.raises(EnvOptionError, match=REFUSED[name][3]):
            env.set_game(0, _tampered(name))
        assert np.array_equal(env._out.obs, obs) and np.array_equal(env._out.masks, masks)
    finally:
        env.close()


def test_an_empty_compiled_game_cannot_be_made() -> None:
    with pytest.raises(StateError, match="new\\(level, seed\\)"):
        CompiledGame()


def test_start_turn_in_the_middle_of_a_fight_is_refused_and_changes_nothing() -> None:
    game = CompiledGame.from_python(_reference_at(Phase.FIGHT))
    before = game.to_python()
    with pytest.raises(StateError, match=r"start_turn.*hazard"):
        game.start_turn()
    after = game.to_python()
    assert all(getattr(after, name) == getattr(before, name) for name in tamper.STATE_FIELDS)
