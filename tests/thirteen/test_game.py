"""Game13 beyond the rule sentences: invariants over random play, refusals that leave the game
untouched, scenarios, clones and determinized worlds."""

from __future__ import annotations

import numpy as np
import pytest
from helpers13 import card, play_randomly, snapshot

from friday_env.thirteen import Game13, IllegalMoveError, SetupError, round_points
from friday_env.thirteen.cards import LIMIT, VALUE_OF


def check_invariants(game: Game13) -> None:
    """Every card in exactly one place; piles at most 13; scores as the taken stacks say."""
    if game.done:
        return
    places = [*game.hands, *game.piles, *game.taken, game.unused]
    cards = sorted(c for place in places for c in place)
    assert cards == list(range(50)), "a card is lost or doubled"
    assert all(hand == sorted(hand) for hand in game.hands)
    for pile, cards_on in enumerate(game.piles):
        assert game.pile_totals[pile] == sum(VALUE_OF[c] for c in cards_on) <= LIMIT
    on_table = sorted(c for place in [*game.piles, *game.taken] for c in place)
    assert sorted(game.played) == on_table
    assert len(game.played) + sum(game.hand_sizes) == 50 - len(game.unused)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_invariants_hold_over_random_play(players):
    for seed in range(15):
        rng = np.random.default_rng(seed)
        game = Game13.new(players, seed)
        rounds: list[list[int]] = []

        def check(game: Game13, rounds=rounds) -> None:
            check_invariants(game)
            if len(game.round_scores) > len(rounds):
                rounds.append(game.round_scores[-1])

        taken_before: list[list[int]] = []
        while not game.done:
            taken_before = [t.copy() for t in game.taken]
            legal = game.legal_actions()
            mover = game.current_player
            before = len(game.round_scores)
            took = game.apply(legal[int(rng.integers(len(legal)))])
            if len(game.round_scores) > before:  # the last move of a round: score as taken
                taken_before[mover] += took
                assert game.round_scores[-1] == round_points(taken_before)
            check(game)
        scores = game.scores
        assert all(row_point >= 0 for row in game.round_scores for row_point in row)
        assert sum(game.win_shares()) == pytest.approx(1.0)
        assert game.win_shares()[int(np.argmin(scores))] > 0


def test_round_points_never_exceed_the_cards_taken():
    rng = np.random.default_rng(4)
    for seed in range(20):
        game = Game13.new(4, seed)
        while not game.done:
            stacks = [t.copy() for t in game.taken]
            points = round_points(stacks)
            for stack, point in zip(stacks, points, strict=True):
                assert point <= sum(2 if c >= 42 else 1 for c in stack)
            legal = game.legal_actions()
            game.apply(legal[int(rng.integers(len(legal)))])


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (-1, "not an id"),
        (150, "not an id"),
        ("3", "integer"),
        (None, "integer"),
        (True, "integer"),
        (2.0, "integer"),
    ],
)
def test_a_bad_action_is_refused_in_one_line_and_changes_nothing(action, message):
    game = Game13.new(4, 0)
    before = snapshot(game)
    with pytest.raises(IllegalMoveError, match=message) as err:
        game.apply(action)
    assert "\n" not in str(err.value)
    assert snapshot(game) == before


def test_a_card_not_held_is_refused_naming_the_player_and_card():
    game = Game13.new(4, 0)
    absent = next(c for c in range(42) if c not in game.hands[0])
    before = snapshot(game)
    with pytest.raises(IllegalMoveError, match=f"player 0 does not hold card {absent}"):
        game.apply(3 * absent + absent // 14)
    assert snapshot(game) == before


def test_after_the_game_every_action_is_refused():
    game = play_randomly(Game13.new(3, 1), np.random.default_rng(0))
    before = snapshot(game)
    with pytest.raises(IllegalMoveError, match="game is over"):
        game.apply(0)
    assert snapshot(game) == before


def test_win_shares_before_the_end_is_refused():
    with pytest.raises(IllegalMoveError, match="not over"):
        Game13.new(4, 0).win_shares()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"hands": [[0], [0], [1]]}, "two places"),
        ({"hands": [[0], [1], [50]]}, "not a card id"),
        ({"hands": [[0], [1], [2]], "piles": [[14], [], []]}, "cannot lie on pile 0"),
        ({"hands": [[0], [1], [2]], "piles": [[11, 12, 13], [], []]}, "more than 13"),
        ({"hands": [[0], [1], [2]], "current_player": 3}, "current_player"),
        ({"hands": [[], [1], [2]]}, "holds no card"),
        ({"hands": [[0], [1], [2]], "round": 1}, "earlier rows"),
        ({"hands": [[0], [1], [2], [3]], "unused": [4]}, "3-player"),
        ({"hands": [[0], [1]]}, "3 to 6 players"),
    ],
)
def test_an_impossible_scenario_is_refused_in_one_line(kwargs, message):
    with pytest.raises(SetupError, match=message) as err:
        Game13.scenario(**kwargs)
    assert "\n" not in str(err.value)


def test_a_scenario_continues_into_dealt_rounds():
    game = Game13.scenario(
        [[card("cat", 1)], [card("cat", 2)], [card("cat", 4)], [card("cat", 5)]],
        round=2,
        round_scores=[[1, 2, 3, 4], [0, 0, 0, 1]],
        seed=3,
    )
    for _ in range(4):
        game.apply(game.legal_actions()[0])
    assert game.round == 3 and game.hand_sizes == [13, 12, 12, 13]  # round 4: player 3 starts
    assert game.scores == [1, 2, 3, 5]


def test_clone_is_independent():
    game = Game13.new(5, 8)
    copy = game.clone()
    before = snapshot(game)
    play_randomly(copy, np.random.default_rng(0))
    assert snapshot(game) == before
    again = game.clone()
    rng1, rng2 = np.random.default_rng(1), np.random.default_rng(1)
    assert snapshot(play_randomly(again, rng1)) == snapshot(play_randomly(game.clone(), rng2))


def test_determinized_keeps_what_the_player_knows_and_redeals_the_rest():
    game = Game13.new(3, 4)
    rng = np.random.default_rng(0)
    for _ in range(7):
        game.apply(game.legal_actions()[0])
    player = game.current_player
    world = game.determinized(player, np.random.default_rng(5))
    assert world.hands[player] == game.hands[player]
    assert world.piles == game.piles and world.taken == game.taken and world.played == game.played
    assert world.hand_sizes == game.hand_sizes and len(world.unused) == len(game.unused)
    hidden = sorted([c for p in range(3) if p != player for c in game.hands[p]] + game.unused)
    guessed = [c for p in range(3) if p != player for c in world.hands[p]] + world.unused
    assert sorted(guessed) == hidden
    others = [p for p in range(3) if p != player]
    assert [world.hands[p] for p in others] != [game.hands[p] for p in others]
    assert world.seed != game.seed  # later rounds are not the real ones
    play_randomly(world, rng)
