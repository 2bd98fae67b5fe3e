"""Friday the 13th's rules, one test per sentence of the rulebook (quoted in each docstring),
and the rulings T1-T6 where it is silent (docs/thirteen.md)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from helpers13 import card, play_randomly, snapshot

from friday_env.thirteen import (
    CARD_POINTS,
    CARD_TYPE,
    CARD_VALUE,
    Game13,
    IllegalMoveError,
    SetupError,
    action_id,
    action_name,
    deal,
    round_points,
    split_action,
    starter,
    win_shares,
)

F13 = card("friday13", 4)


def test_fifty_cards_three_omen_types_and_eight_friday_the_13th():
    """'50 numbered cards (3 x 1, 3 x 2, 2 x 4, 3 x 5 and 3 x 7 in 3 types + 8 x 4 Friday the
    13th)'."""
    assert len(CARD_TYPE) == 50
    for kind in range(3):
        values = Counter(CARD_VALUE[np.equal(CARD_TYPE, kind)].tolist())
        assert values == {1: 3, 2: 3, 4: 2, 5: 3, 7: 3}
    assert CARD_VALUE[CARD_TYPE == 3].tolist() == [4] * 8


def test_card_order_is_type_major_and_actions_are_three_card_plus_pile():
    order = [1, 1, 1, 2, 2, 2, 4, 4, 5, 5, 5, 7, 7, 7]
    assert CARD_VALUE[:42].tolist() == order * 3
    assert CARD_TYPE[:42].tolist() == [0] * 14 + [1] * 14 + [2] * 14
    assert list(range(42, 50)) == [c for c in range(50) if CARD_TYPE[c] == 3]
    assert action_id(card("mirror", 5), 1) == 3 * 22 + 1
    assert split_action(3 * 22 + 1) == (22, 1)
    assert action_name(action_id(F13, 2)) == "friday13 4 -> ladder"


@pytest.mark.parametrize("players", [2, 7, 0, True, "4", 4.0])
def test_three_to_six_players_anything_else_refused_in_one_line(players):
    """'for 3 to 6 players'."""
    with pytest.raises(SetupError) as err:
        Game13.new(players, 0)
    assert "\n" not in str(err.value) and "players" in str(err.value)


@pytest.mark.parametrize("seed", [-1, 1.5, None, "0"])
def test_a_bad_seed_is_refused_in_one_line(seed):
    with pytest.raises(SetupError, match="seed"):
        Game13.new(4, seed)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_game_lasts_four_rounds(players):
    """'The game lasts 4 rounds.' / 'The game ends after the fourth round.'"""
    game = play_randomly(Game13.new(players, 3), np.random.default_rng(0))
    assert game.done and game.round == 3 and len(game.round_scores) == 4
    assert game.legal_actions() == [] and game.current_player == -1
    assert game.scores == [sum(row[p] for row in game.round_scores) for p in range(players)]


@pytest.mark.parametrize(
    ("players", "sizes"),
    [(4, [13, 13, 12, 12]), (5, [10] * 5), (6, [9, 9, 8, 8, 8, 8]), (3, [13, 13, 12])],
)
def test_deal_as_evenly_as_possible_first_players_one_more(players, sizes):
    """'deal them out as evenly as possible to all of the players. The first players of the
    round may have one more card than the last players' (T2: first from the starter)."""
    for round_index in range(4):
        hands, _ = deal(11, round_index, players)
        first = starter(round_index, players)
        from_starter = [len(hands[(first + k) % players]) for k in range(players)]
        assert from_starter == sizes


def test_three_players_a_fourth_hand_is_dealt_and_never_used():
    """'With three players, deal a fourth hand, which remains face-down, and is not used
    during the round.' (T3: dealt last, 12 cards)."""
    game = Game13.new(3, 5)
    unused = game.unused.copy()
    assert len(unused) == 12
    rng = np.random.default_rng(1)
    while game.round == 0:
        legal = game.legal_actions()
        assert not {split_action(a)[0] for a in legal} & set(unused)
        game.apply(legal[int(rng.integers(len(legal)))])
    assert len(game.round_scores) == 1 and len(game.unused) == 12


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_one_player_starts_then_clockwise_start_passes_each_round(players):
    """'One player starts the round, then play progresses clockwise.' (T1: player 0 starts
    round 1, the next player the next round.)"""
    game = Game13.new(players, 9)
    rng = np.random.default_rng(2)
    for round_index in range(4):
        assert game.round == round_index and game.current_player == round_index % players
        mover = game.current_player
        game.apply(game.legal_actions()[0])
        assert game.current_player == (mover + 1) % players
        while game.round == round_index and not game.done:
            legal = game.legal_actions()
            game.apply(legal[int(rng.integers(len(legal)))])


def test_each_round_begins_with_no_card_on_the_table():
    """'Each round begins with no card on the table.'"""
    game = Game13.new(4, 2)
    rng = np.random.default_rng(3)
    while not game.done:
        if not game.played:
            assert game.piles == [[], [], []] and game.pile_totals == [0, 0, 0]
            assert game.taken == [[], [], [], []]
        legal = game.legal_actions()
        game.apply(legal[int(rng.integers(len(legal)))])


def test_friday_the_13th_goes_on_any_pile_and_there_is_no_fourth_pile():
    """'Friday the 13th cards may be played in any pile. There is no Friday the 13th pile'."""
    game = Game13.scenario([[F13], [card("cat", 1)], [card("cat", 2)]])
    assert game.legal_actions() == [3 * F13, 3 * F13 + 1, 3 * F13 + 2]
    game.apply(3 * F13 + 1)
    assert game.piles[1] == [F13] and len(game.piles) == 3


def test_an_omen_card_goes_only_on_its_own_pile():
    """'using different piles for the three main types of bad luck'."""
    ladder = card("ladder", 7)
    game = Game13.scenario([[ladder], [card("cat", 1)], [card("cat", 2)]])
    assert game.legal_actions() == [3 * ladder + 2]
    before = snapshot(game)
    with pytest.raises(IllegalMoveError, match="only on its own pile"):
        game.apply(3 * ladder)
    assert snapshot(game) == before


def test_a_total_of_thirteen_does_not_take_the_pile():
    """'If the total does NOT exceed 13, it is then the next player's turn.'"""
    cats = [card("cat", 7), card("cat", 5)]
    game = Game13.scenario(
        [[card("cat", 1)], [card("mirror", 1)], [card("ladder", 1)]], [cats, [], []]
    )
    took = game.apply(3 * card("cat", 1))
    assert took == [] and game.pile_totals[0] == 13 and game.piles[0] == [*cats, card("cat", 1)]
    assert game.taken == [[], [], []] and game.current_player == 1


def test_exceeding_thirteen_takes_the_cards_before_and_the_card_restarts_the_pile():
    """'If the total EXCEEDS 13, you must pick up all the cards previously played in that pile
    ... The card you just played remains in the middle of the table to restart the pile. It is
    then the next player's turn.'"""
    pile = [card("mirror", 5), F13, card("mirror", 2)]  # 11
    played = card("mirror", 4)
    game = Game13.scenario(
        [[card("cat", 1)], [played, card("cat", 2)], [card("ladder", 1)]],
        [[], pile, []],
        current_player=1,
    )
    took = game.apply(3 * played + 1)
    assert took == pile and game.taken[1] == pile
    assert game.piles[1] == [played] and game.pile_totals[1] == 4
    assert game.current_player == 2


def test_the_rulebook_example_thirteen_then_a_four_that_exceeds():
    """Jules plays Friday the 13th on the black cat pile: '13'; Marielle plays the broken
    mirror 4, exceeding 13, picks up the mirror cards and her 4 restarts that pile. (The
    example names two piles; here the cat pile reaches 13 and the mirror pile, at 10, is the
    one that goes past.)"""
    cats = [card("cat", 7), card("cat", 2)]  # 9
    mirrors = [card("mirror", 5), card("mirror", 5, 1)]  # 10
    jules, marielle = [F13, card("ladder", 1)], [card("mirror", 4), card("ladder", 2)]
    game = Game13.scenario([jules, marielle, [card("ladder", 4)]], [cats, mirrors, []])
    game.apply(3 * F13 + 0)
    assert game.pile_totals[0] == 13 and game.taken[0] == []
    game.apply(3 * card("mirror", 4) + 1)
    assert game.taken[1] == mirrors and game.piles[1] == [card("mirror", 4)]


def test_the_round_ends_when_every_hand_is_played_piles_are_not_scored():
    """'The round ends when all of the cards in the players' hands have been played. Some
    cards will be left on the table in the piles. Then the round is scored.'"""
    game = Game13.scenario(
        [[card("cat", 7)], [card("mirror", 1)], [card("ladder", 1)]],
        [[card("cat", 5), card("cat", 4)], [], []],
        taken=[[], [card("ladder", 7)], []],
    )
    game.apply(3 * card("cat", 7))  # 16: player 0 takes cat 5 and cat 4
    game.apply(3 * card("mirror", 1) + 1)
    assert len(game.round_scores) == 0
    game.apply(3 * card("ladder", 1) + 2)
    # player 0 holds the only cats, player 1 the only ladder: both discard; piles unscored
    assert game.round_scores == [[0, 0, 0]] and game.round == 1


def test_strictly_most_cards_of_a_type_discards_them_all():
    """'If a player has more cards of a type than any other player, he discards all of the
    cards of that type.'"""
    cats = [card("cat", v) for v in (1, 2, 7)]
    taken = [cats, [card("cat", 5), card("cat", 4)], []]
    assert round_points(taken) == [0, 2, 0]


def test_a_tie_for_most_discards_nothing():
    """'If there is a tie, none of the players discard that type of card.'"""
    taken = [[card("mirror", 1), card("mirror", 7)], [card("mirror", 2), card("mirror", 5)], []]
    assert round_points(taken) == [2, 2, 0]
    taken[2] = [card("mirror", 4)]
    assert round_points(taken) == [2, 2, 1]


def test_omen_cards_score_one_friday_the_13th_two_and_is_never_discarded():
    """'Each remaining omen card is worth one bad luck point; each Friday the 13th card is
    worth two. It is NOT possible to discard Friday the 13th cards. The value of a card
    doesn't affect the bad luck points it score.'"""
    f13s = [card("friday13", 4, k) for k in range(3)]
    assert round_points([f13s, [], []]) == [6, 0, 0]
    low, high = [card("ladder", 1)], [card("ladder", 7)]
    ties = [[*low, card("cat", 1)], [*high, card("cat", 2)], []]
    assert round_points(ties) == [2, 2, 0]
    assert set(CARD_POINTS[CARD_TYPE < 3].tolist()) == {1}
    assert set(CARD_POINTS[CARD_TYPE == 3].tolist()) == {2}


def test_fewest_bad_luck_points_wins_and_a_tie_shares_the_win():
    """'The player with the fewest bad luck points wins.' (T5: tied players share it.)"""
    assert win_shares([10, 4, 9]) == [0.0, 1.0, 0.0]
    assert win_shares([4, 4, 9, 4]) == [1 / 3, 1 / 3, 0.0, 1 / 3]


def test_an_empty_hand_is_passed_over():
    """T4: the players with one card more play the round's last turns alone."""
    game = Game13.scenario(
        [[card("cat", 1), card("cat", 2)], [card("mirror", 1)], [card("ladder", 1)]]
    )
    for expected in (0, 1, 2, 0):
        assert game.current_player == expected
        game.apply(game.legal_actions()[0])
    assert game.round == 1


def test_the_deals_depend_on_the_seed_alone():
    """T6: two games of one seed get the same four deals whatever is played."""
    first, second = Game13.new(4, 21), Game13.new(4, 21)
    hands_first, hands_second = [], []
    for game, rng, hands in ((first, 1, hands_first), (second, 2, hands_second)):
        generator = np.random.default_rng(rng)
        while not game.done:
            if not game.played:
                hands.append([h.copy() for h in game.hands])
            legal = game.legal_actions()
            game.apply(legal[int(generator.integers(len(legal)))])
    assert hands_first == hands_second and len(hands_first) == 4
    assert Game13.new(4, 22).hands != Game13.new(4, 21).hands
