"""Rulings R24-R26: the four levels' setup (``Game.new``), the score, open information."""

from __future__ import annotations

import json

import pytest
from conftest import bag, destroy, fight, keys, play, top_first, use

from friday_env import Game, determinized, public_view, scenario
from friday_env import actions as act
from friday_env.cards import AGING_IDS, DIFFICULT, HAZARD_IDS, KEY, STARTING_IDS
from friday_env.core import python_copy
from friday_env.information import known_top_cards

STARTING = sorted(KEY[c] for c in STARTING_IDS)

# ------------------------------------------------------------------ R24 levels


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_r24_level_1_setup(seed):
    game = Game.new(level=1, seed=seed)
    assert bag(game.stack) == STARTING and len(game.stack) == 18
    assert game.unseen == [] and game.discard == []
    assert len(game.aging) == 10 and "very stupid" not in keys(game.aging)
    assert keys(game.box).count("very stupid") == 1
    assert [DIFFICULT[c] for c in game.aging] == [True] * 3 + [False] * 7  # normal on top
    assert (game.life, game.reserve, game.step, game.aging_total) == (20, 2, 0, 10)
    assert len(game.pirates) == 2 and len(game.box) == 1 + 8
    assert sorted(game.offer + game.hazard_stack) == sorted(HAZARD_IDS)
    assert len(game.offer) == 2 and game.phase == act.Phase.CHOOSE_HAZARD


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_r24_level_2_shuffles_one_unseen_aging_card_into_the_starting_cards(seed):
    game = Game.new(level=2, seed=seed)
    assert len(game.stack) == 19 and len(game.aging) == 9
    (aging_card,) = [c for c in game.stack if c in AGING_IDS]
    assert game.unseen == [aging_card] and not DIFFICULT[aging_card]  # the top one
    assert bag(c for c in game.stack if c != aging_card) == STARTING
    assert [DIFFICULT[c] for c in game.aging] == [True] * 3 + [False] * 6
    assert "very stupid" in keys(game.box)
    assert (game.life, game.reserve, game.aging_total) == (20, 2, 10)
    assert "stupid" not in public_view(game)["robinson_stack_known"]  # nor any aging card
    assert public_view(game)["robinson_stack_unseen_aging"] == 1


@pytest.mark.parametrize("level", [3, 4])
def test_r24_levels_3_and_4_add_very_stupid_and_level_4_has_18_life(level):
    game = Game.new(level=level, seed=5)
    in_game = game.aging + game.unseen
    assert len(in_game) == 11 and game.aging_total == 11
    assert sum(not DIFFICULT[c] for c in in_game) == 8
    assert "very stupid" in keys(in_game) and "very stupid" not in keys(game.box)
    assert len(game.stack) == 19 and len(game.unseen) == 1
    assert (game.life, game.reserve) == ((18, 2) if level == 4 else (20, 2))


# ------------------------------------------------------------------- R25 score


def test_r25_score_counts_all_robinson_cards_aging_as_minus_5_and_hazards_left():
    game = scenario(
        robinson_stack=["genius", "stupid"],
        robinson_discard=["cannibals/weapon", "distracted", "scared"],
        hazard_stack=["raft/food", "raft/books", "further/food", "exploring/weapon"],
    )
    assert game.score() == 2 - 5 + 4 - 1 - 5
    play(game, act.CHOOSE_HAZARD_0)  # raft/books to the hazard discard pile: -3
    assert game.score() == -5 - 3
    play(game, act.DRAW_FREE)  # genius on the table still counts
    assert game.score() == -8


def test_r25_destroyed_cards_no_longer_count():
    game = fight("further/food", robinson_stack=["stupid", "weak", "genius"])
    before = game.score()
    play(game, act.DRAW_FREE, act.END_FIGHT)  # -2 against 2: lost by 4
    destroy(game, "stupid")
    assert keys(game.destroyed) == ["stupid"]
    assert game.score() == before + 5 - 3  # stupid gone, further/food in the hazard discard


def test_r25_score_of_a_won_game_adds_pirates_and_life():
    twenty = ["cannibals/weapon", "cannibals/weapon", "animals/realization", "animals/vision"]
    twenty += ["animals/experience", "animals/strategy"]
    aging = ["aging/distracted", "stupid", "stupid", "scared", "scared", "hungry", "very tired"]
    game = scenario(
        step="pirates",
        robinson_stack=["genius", *twenty],
        robinson_discard=["moronic"],
        hazard_discard=["raft/food"],
        aging_stack=[*aging, "suicidal", "very hungry"],  # moronic is gone: pirate/aging 2
        pirates=["pirate/20", "pirate/aging"],
        life=17,
    )
    play(game, act.CHOOSE_PIRATE_0 + keys(game.pirates).index("pirate/aging"))
    play(game, act.DRAW_FREE, act.END_FIGHT, *[act.DRAW_FREE] * 6, act.END_FIGHT)
    assert game.done and game.won
    cards = 2 + 20 - 5
    assert game.score() == cards + 2 * 15 + 5 * 17 - 3


def test_r25_score_of_a_lost_game_has_no_life_points():
    game = scenario(
        step="pirates",
        robinson_stack=["cannibals/weapon", "weak"],
        hazard_discard=["raft/food"],
        pirates=["pirate/all-hazards", "pirate/20"],
        life=5,
    )
    play(game, act.CHOOSE_PIRATE_0 + keys(game.pirates).index("pirate/all-hazards"))
    play(game, act.DRAW_FREE, act.END_FIGHT)  # 4 against 3, then pirate/20 at once
    play(game, act.DRAW_FREE, act.DRAW_FREE)  # weak, the weapon again: no card left
    assert game.done and not game.won and game.life == 5
    assert game.score() == 4 + 0 + 15 - 3  # no 5 points per life


# ------------------------------------------------------- R26 open information


def _mid_game() -> Game:
    """A level-2 fight with an unseen aging card in the stack and hidden orders everywhere."""
    game = fight(
        "further/food",
        level=2,
        robinson_stack=["weak", "genius", "stupid", "focused", "distracted", "eating", "weak"],
        robinson_discard=["distracted"],
        aging_stack=["hungry", "scared", "very tired", "moronic", "suicidal", "very hungry"],
    )
    play(game, act.DRAW_FREE)
    assert keys(game.unseen) == ["stupid"]
    return game


def _with_hidden_order_changed(game: Game) -> Game:
    """The same public situation with the hidden orders reversed."""
    other = python_copy(game)  # edits lists in place: a reference-engine copy
    hidden = len(other.stack) - other.known_top
    other.stack[:hidden] = other.stack[:hidden][::-1]
    other.hazard_stack.reverse()
    other.aging[3:] = other.aging[3:][::-1]  # the normal part (difficult ones below)
    return other


def test_r26_public_view_never_contains_the_hidden_order():
    game = _mid_game()
    other = _with_hidden_order_changed(game)
    assert other.stack != game.stack and other.hazard_stack != game.hazard_stack
    assert public_view(other) == public_view(game)
    view = public_view(game)
    assert sorted(view["robinson_stack_known"]) == bag(
        c for c in game.stack if c not in game.unseen
    )
    assert view["robinson_stack_unseen_aging"] == 1
    aging_keys = {KEY[c] for c in AGING_IDS}
    assert not aging_keys & set(view["robinson_stack_known"])
    json.dumps(view)  # plain data


def test_r26_a_sorted_order_is_public_and_the_rest_is_not():
    stack = ["further/vision", "weak", "genius", "distracted", "focused", "eating"]
    game = fight("further/food", robinson_stack=stack)
    play(game, act.DRAW_FREE)
    use(game, "further/vision")
    play(game, act.SORT_TAKE, act.SORT_STOP_TAKING, act.SORT_KEEP_ALL, act.SORT_PLACE_0 + 1)
    assert top_first(game)[:2] == ["genius", "weak"]
    assert public_view(game)["robinson_stack_known_top"] == ["genius", "weak"]
    other = _with_hidden_order_changed(game)
    assert top_first(other) == ["genius", "weak", "eating", "focused", "distracted"]
    assert public_view(other) == public_view(game)


def test_r26_determinized_keeps_the_public_information():
    game = _mid_game()
    play(game, act.DRAW_FREE)
    for seed in range(5):
        sample = determinized(game, seed)
        assert public_view(sample) == public_view(game)
        assert bag(sample.stack + sample.aging) == bag(game.stack + game.aging)
        assert keys(known_top_cards(sample)) == keys(known_top_cards(game))
    orders = {tuple(determinized(game, seed).stack) for seed in range(5)}
    assert len(orders) > 1  # the hidden order really is resampled


def test_r26_determinized_keeps_a_known_top():
    stack = ["further/vision", "weak", "genius", "distracted", "focused", "eating", "stupid"]
    game = fight("further/food", robinson_stack=stack)
    play(game, act.DRAW_FREE)
    use(game, "further/vision")
    play(game, act.SORT_TAKE, act.SORT_TAKE, act.SORT_DISCARD_0 + 2, act.SORT_PLACE_0 + 1)
    for seed in range(5):
        sample = determinized(game, seed)
        assert top_first(sample)[:2] == ["genius", "weak"]
        assert public_view(sample) == public_view(game)


def test_r26_determinized_does_not_depend_on_the_hidden_order():
    game = _mid_game()
    other = _with_hidden_order_changed(game)
    for seed in range(3):
        a, b = determinized(game, seed), determinized(other, seed)
        assert keys(a.stack) == keys(b.stack)
        assert keys(a.hazard_stack) == keys(b.hazard_stack)
        assert keys(a.aging) == keys(b.aging)
