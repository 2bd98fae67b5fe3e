"""Invariants after every action of thousands of seeded random games, and the checker itself.

The random-play tests are parametrized per level so pytest-xdist can spread them. The
checker tests corrupt a real state one way at a time and require the checker to name the
corruption: a checker that cannot fail would make the random-play tests worthless.
"""

from __future__ import annotations

import argparse
import json
import random

import pytest

from friday_env import Game, GameRecord, replay
from friday_env import actions as act
from friday_env.actions import Phase
from friday_env.cards import KEY, VERY_STUPID_ID
from friday_env.scenario import scenario
from friday_env.testing import soak
from friday_env.testing.games import game_seed, make_game, play_checked
from friday_env.testing.invariants import (
    InvariantViolation,
    Snapshot,
    check_state,
    check_transition,
    expected_score,
    violations,
)
from friday_env.testing.policies import random_policy

LEVELS = [1, 2, 3, 4]
RANDOM_GAMES_PER_LEVEL = 2000  # acceptance: at least 2,000 random legal games per level
SUITE_SEED = 20240611


def _play_many(start: str, policy: str, level: int, games: int, seed: int = SUITE_SEED):
    """Play ``games`` checked games; return (games played, actions, wins, pirates, phases)."""
    played = actions = wins = pirates = 0
    phases: set[Phase] = set()
    for index in range(games):
        game, chooser = make_game(start, policy, level, game_seed(seed, level, index))
        stats = play_checked(game, chooser)
        played += 1
        actions += stats.actions
        wins += stats.won
        pirates += stats.reached_pirates
        phases |= stats.phases
    return played, actions, wins, pirates, phases


# ---------------------------------------------------------------- random play


@pytest.mark.parametrize("level", LEVELS)
def test_invariants_hold_after_every_action_of_random_games(level):
    played, actions, _, _, phases = _play_many("new", "random", level, RANDOM_GAMES_PER_LEVEL)
    assert played == RANDOM_GAMES_PER_LEVEL
    assert actions > 30 * played  # whole games were played, not stubs
    assert {Phase.CHOOSE_HAZARD, Phase.FIGHT, Phase.LOSS_DESTROY, Phase.TARGET} <= phases


@pytest.mark.parametrize("level", LEVELS)
def test_invariants_hold_in_greedy_games(level):
    """A player that survives longer reaches later fights, sort 3 and +2 cards more often."""
    played, actions, _, _, phases = _play_many("new", "greedy", level, 300)
    assert played == 300 and actions > 60 * played
    assert {Phase.DRAW_MORE, Phase.TARGET, Phase.LOSS_DESTROY} <= phases


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_invariants_hold_from_random_deals_up_to_the_pirates(level, policy):
    """Random scenario deals reach every decision, the pirates and won games."""
    played, _, wins, pirates, phases = _play_many("deal", policy, level, 400)
    assert played == 400
    assert pirates > 50 and wins > 0
    assert phases == set(Phase) - {Phase.GAME_OVER}


@pytest.mark.parametrize("level", LEVELS)
def test_every_legal_action_applies_and_keeps_the_invariants(level):
    """Not only the actions a policy picks: every legal action of every visited state."""
    tried = 0
    for index in range(40):
        game, chooser = make_game("deal", "random", level, game_seed(SUITE_SEED, level, index))
        while not game.done:
            for action in game.legal_actions():
                if action not in FIXED_NAMES:  # named in context, never the fallback
                    assert game.describe(action) != act.action_name(action), action
                child = game.clone()
                before = Snapshot.of(child)
                child.apply(action)
                check_transition(before, child, action)
                check_state(child)
                tried += 1
            game.apply(chooser(game))
    assert tried > 1000


#: Actions whose name needs no context ("finish destroying"); every other legal action is
#: described with the cards it acts on.
FIXED_NAMES = {
    act.DRAW_ANOTHER, act.STOP_DRAWING, act.SORT_TAKE, act.SORT_STOP_TAKING,
    act.SORT_KEEP_ALL, act.STOP_EXCHANGING, act.FINISH_DESTROYING,
}  # fmt: skip


def test_action_cap_fails_a_game_that_does_not_end():
    with pytest.raises(InvariantViolation, match="did not end within 3 actions"):
        play_checked(Game.new(1, 0), random_policy(random.Random(0)), max_actions=3)


# ---------------------------------------------------------------- R25 by hand


def test_r25_score_of_a_new_game_is_the_starting_cards():
    # genius 2 + 3 focused 1 + 5 distracted -1 = 0; level 2 adds one aging card (-5).
    assert expected_score(Game.new(1, 5)) == Game.new(1, 5).score() == 0
    assert expected_score(Game.new(2, 5)) == Game.new(2, 5).score() == -5


def _won_against_both_pirates() -> Game:
    weapons = ["cannibals/weapon"] * 2
    animals = ["animals/realization", "animals/vision", "animals/experience", "animals/strategy"]
    game = scenario(  # the reference core: a test below edits its piles in place
        1,
        "pirates",
        robinson_stack=weapons + animals,
        pirates=["pirate/20", "pirate/all-hazards"],
        core="python",
    )
    game.apply(act.CHOOSE_PIRATE_0)  # pirate/20: 6 free cards, 4+4+3+3+3+3 = 20
    for _ in range(6):
        game.apply(act.DRAW_FREE)
    game.apply(act.END_FIGHT)
    # all-hazards with an empty hazard discard: value 0, no free card, one paid draw
    game.apply(act.DRAW_PAID)
    game.apply(act.END_FIGHT)
    return game


def test_r25_score_of_a_won_game_by_hand():
    game = _won_against_both_pirates()
    assert game.won and game.life == 19
    # cards 20 + 2 pirates 30 + 19 life x 5 = 145
    assert expected_score(game) == game.score() == 145
    assert violations(game) == []


# ---------------------------------------------------------------- the engine's legal order


def test_legal_actions_ascending_in_a_lost_fight():
    """``legal_actions()`` promises ascending ids; FINISH_DESTROYING (21) comes first."""
    game = scenario(
        1, robinson_stack=["weak", "weak"], hazard_stack=["exploring/food", "raft/food"]
    )
    game.apply(act.CHOOSE_HAZARD_0)
    game.apply(act.DRAW_FREE)
    game.apply(act.END_FIGHT)  # 0 against 1: lost by 1, one point to destroy
    assert game.phase == Phase.LOSS_DESTROY
    assert game.legal_actions() == [act.FINISH_DESTROYING, act.DESTROY_0]


def test_legal_actions_ascending_before_a_second_exchange():
    game = scenario(
        1,
        robinson_stack=["raft/strategy", "weak", "focused", "genius"],
        hazard_stack=["exploring/food", "raft/food"],
    )
    game.apply(act.CHOOSE_HAZARD_0)
    game.apply(act.DRAW_FREE)
    game.apply(act.DRAW_FREE)
    game.apply(act.USE_0)  # 2x exchange
    game.apply(act.TARGET_0 + 1)  # the weak card goes, the focused card comes
    assert game.phase == Phase.TARGET
    assert game.legal_actions() == [act.STOP_EXCHANGING, act.TARGET_0 + 1]


# ---------------------------------------------------------------- the checker catches


def _fight_with_two_cards() -> Game:
    # the reference core: the corruption tests below edit its lists and cached legal actions
    # in place (the compiled core's fields are read-only; test_core_engine corrupts those)
    game = scenario(
        1,
        robinson_stack=["genius", "focused", "weak", "very tired"],
        robinson_discard=["distracted"],
        hazard_stack=["exploring/food", "raft/food", "further/food", "animals/vision"],
        aging_stack=["hungry", "stupid"],
        core="python",
    )
    game.apply(act.CHOOSE_HAZARD_0)
    game.apply(act.DRAW_FREE)
    game.apply(act.DRAW_FREE)
    assert violations(game) == []
    return game


def _set_legal(legal):
    """An engine whose legal list is wrong: the instance's ``legal_actions`` gives ``legal``."""

    def corrupt(game):
        wrong = legal(game)
        game.legal_actions = lambda: wrong

    return corrupt


def _move_box_card_to_stack(card):
    def corrupt(game):
        game.box.remove(card)
        game.stack.append(card)

    return corrupt


CORRUPTIONS = {
    "duplicate card": (lambda g: g.discard.append(g.stack[0]), "is in ['stack', 'discard']"),
    "lost card": (lambda g: g.stack.pop(), "is in no place"),
    "token created": (lambda g: setattr(g, "life", g.life + 1), "(R01)"),
    "negative reserve": (
        lambda g: (setattr(g, "life", g.life + 3), setattr(g, "reserve", g.reserve - 3)),
        "reserve is negative",
    ),
    "negative budget": (lambda g: setattr(g, "budget", -1), "budget is negative"),
    "starting card among the hazards": (
        lambda g: g.hazard_stack.append(g.stack.pop()),
        "hazard_stack holds cards of the wrong kind",
    ),
    "very stupid at level 1": (_move_box_card_to_stack(VERY_STUPID_ID), "'very stupid'"),
    "won mid-game": (lambda g: setattr(g, "won", True), "won before the game is over"),
    "wrong score": (lambda g: setattr(g, "score", lambda: 999), "score() is 999"),
    "no legal action": (_set_legal(lambda g: []), "no legal action in FIGHT"),
    "unsorted legal": (_set_legal(lambda g: g.legal_actions()[::-1]), "not sorted"),
    "action of another phase": (
        _set_legal(lambda g: [act.CHOOSE_HAZARD_0, *g.legal_actions()]),
        "offered in FIGHT",
    ),
    "ending forbidden with cards drawn": (
        _set_legal(lambda g: [a for a in g.legal_actions() if a != act.END_FIGHT]),
        "END_FIGHT legal=False",
    ),
    "free and paid draw together": (
        _set_legal(lambda g: sorted({act.DRAW_FREE, act.DRAW_PAID, *g.legal_actions()})),
        "together (R05)",
    ),
    "use of an empty slot": (
        _set_legal(lambda g: [*g.legal_actions(), act.USE_0 + 9]),
        "use of empty slot 9",
    ),
    "free draws miscounted": (lambda g: setattr(g, "free_used", 1), "free draws used"),
    "known top beyond the stack": (lambda g: setattr(g, "known_top", 99), "known_top 99"),
    "unseen non-aging card": (lambda g: g.unseen.append(g.stack[-1]), "not an aging card"),
    "offer outside the hazard choice": (
        lambda g: g.offer.append(g.hazard_stack.pop()),
        "1 hazards offered in FIGHT",
    ),
    "card taken by sort outside sort": (
        lambda g: g.sort_taken.append(g.stack.pop()),
        "1 cards taken by sort 3 in FIGHT",
    ),
    "table flags out of step": (lambda g: g.flags.pop(), "table cards but"),
    "spent ability not turned": (lambda g: g.spent.append(g.table[0]), "spent=True (D11)"),
}


@pytest.mark.parametrize("name", sorted(CORRUPTIONS))
def test_checker_names_each_corruption(name):
    corrupt, expected = CORRUPTIONS[name]
    game = _fight_with_two_cards()
    corrupt(game)
    with pytest.raises(InvariantViolation) as caught:
        check_state(game)
    assert expected in str(caught.value)
    assert "reproduce: origin" in str(caught.value)


def test_checker_catches_a_wrong_pirate_value():
    game = scenario(  # the reference core: its pirate value is overwritten below
        1, "pirates", robinson_stack=["genius"], pirates=["pirate/20", "pirate/25"], core="python"
    )
    game.apply(act.CHOOSE_PIRATE_0)
    assert violations(game) == []
    game.pirate_value = 19
    assert "pirate/20 fought with value 19" in " ".join(violations(game))


def test_checker_catches_a_lost_pirate_among_the_beaten():
    game = _won_against_both_pirates()
    game.beaten.pop()
    found = " ".join(violations(game))
    assert "0 pirates + 1 beaten != 2" in found and "is in no place" in found


TRANSITIONS = {
    "step went back": (lambda g: setattr(g, "step", g.step - 1), "step went back"),
    "destroyed card back": (lambda g: g.destroyed.pop(), "a destroyed card came back"),
    "box changed": (lambda g: g.box.pop(), "out of the game changed"),
    "history wrong": (lambda g: g.history.append(0), "history does not end"),
    "fights went down": (lambda g: setattr(g, "fights", g.fights - 1), "fights or shuffles"),
}


@pytest.mark.parametrize("name", sorted(TRANSITIONS))
def test_transition_checker_names_each_corruption(name):
    corrupt, expected = TRANSITIONS[name]
    game = scenario(  # the reference core: its piles are edited in place
        1,
        "yellow",
        robinson_stack=["weak", "genius"],
        hazard_stack=["exploring/food", "raft/food", "further/food", "animals/vision"],
        core="python",
    )
    game.destroyed.append(game.box.pop())  # one card destroyed earlier
    game.fights = 1
    before = Snapshot.of(game)
    game.apply(act.CHOOSE_HAZARD_0)
    check_transition(before, game, act.CHOOSE_HAZARD_0)  # the real transition is fine
    corrupt(game)
    with pytest.raises(InvariantViolation, match=expected):
        check_transition(before, game, act.CHOOSE_HAZARD_0)


def test_card_keys_in_messages_are_real_keys():
    game = _fight_with_two_cards()
    card = game.stack.pop()
    assert f"({KEY[card]}) is in no place" in " ".join(violations(game))


# ---------------------------------------------------------------- the soak command


def test_soak_command_reports_speed_per_level(capsys):
    assert soak.main(["--games", "20", "--levels", "1,3", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "invariants checked after every action" in out
    rows = [line.split() for line in out.splitlines() if line.split()[:1] in (["1"], ["3"])]
    assert [row[0] for row in rows] == ["1", "3"]
    assert all(row[1] == "20" for row in rows)  # games per level


def test_soak_command_stops_at_a_failure_and_saves_a_replayable_report(tmp_path, capsys):
    code = soak.main(["--games", "5", "--levels", "2", "--max-actions", "3", "--quiet",
                      "--failures", str(tmp_path)])  # fmt: skip
    assert code == 1
    assert "did not end within 3 actions" in capsys.readouterr().err
    (saved,) = tmp_path.glob("failure-*.json")
    report = json.loads(saved.read_text())
    assert report["level"] == 2 and len(report["actions"]) == 3
    game = replay(GameRecord(report["origin"], report["actions"]))
    assert game.history == report["actions"]


@pytest.mark.parametrize(
    ("text", "levels"), [("1-4", [1, 2, 3, 4]), ("2", [2]), ("1,3", [1, 3]), ("2-3,1", [1, 2, 3])]
)
def test_soak_levels_argument(text, levels):
    assert soak.levels_argument(text) == levels


@pytest.mark.parametrize(
    ("text", "message"),
    [("0", "unknown level 0"), ("5", "unknown level 5"), ("x", "bad levels 'x'"),
     ("1-5", "unknown level 5"), ("", "bad levels ''"), ("3-2", "empty level range '3-2'")],
)  # fmt: skip
def test_soak_levels_argument_refuses_unknown_levels(text, message):
    with pytest.raises(argparse.ArgumentTypeError, match=f"--levels: {message}"):
        soak.levels_argument(text)


def test_soak_help_explains_the_options():
    text = soak.build_parser().format_help()
    for option in ("--games", "--levels", "--policy", "--start", "--no-checks", "--failures"):
        assert option in text


@pytest.mark.slow
@pytest.mark.parametrize("start", ["new", "deal"])
def test_soak_many_games_on_every_level(start, capsys):
    """The soak run at scale (20,000 games per level): `pytest -m slow`."""
    assert soak.main(["--games", "20000", "--levels", "1-4", "--start", start, "--quiet"]) == 0
    assert "games/s" in capsys.readouterr().out
