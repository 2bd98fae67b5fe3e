"""Decisions D01-D10 of ``docs/rulings.md``: the cases the rulings leave open."""

from __future__ import annotations

from conftest import bag, can_use, fight, keys, play, sort_index, table, target, top_first, use

from friday_env import Phase, public_view, scenario
from friday_env import actions as act
from friday_env.information import known_top_cards


def choose_pirate(game, key: str) -> None:
    game.apply(act.CHOOSE_PIRATE_0 + keys(game.pirates).index(key))


# --------------------------------------------------------- D01 nothing to draw


def test_d01_with_nothing_to_draw_a_hazard_fight_ends_with_no_card_as_a_loss():
    game = fight("further/food")  # no Robinson card anywhere
    assert game.legal_actions() == [act.END_FIGHT]
    play(game, act.END_FIGHT)  # 0 against 2
    assert (game.life, game.reserve) == (18, 4)
    assert "further/food" in keys(game.hazard_discard)
    assert game.phase == Phase.CHOOSE_HAZARD  # nothing to destroy (D06)


def test_d01_with_nothing_to_draw_a_pirate_fight_is_lost():
    game = scenario(step="pirates", pirates=["pirate/20", "pirate/25"])
    play(game, act.CHOOSE_PIRATE_0)
    assert game.done and not game.won


def test_d01_with_nothing_to_draw_a_pirate_of_value_0_is_beaten():
    game = scenario(step="pirates", pirates=["pirate/all-hazards", "pirate/20"], life=0)
    choose_pirate(game, "pirate/all-hazards")  # no hazard left: value 0
    assert game.legal_actions() == [act.END_FIGHT]
    play(game, act.END_FIGHT)
    assert keys(game.beaten) == ["pirate/all-hazards"]
    assert game.done and not game.won  # pirate/20 at once, with nothing to draw


# -------------------------------------------------------------- D02 +2 life


def test_d02_plus_two_life_takes_both_tokens_without_asking():
    game = fight("further/food", robinson_stack=["eating", "weak"], life=18)
    play(game, act.DRAW_FREE)
    use(game, "eating")
    assert game.phase == Phase.FIGHT and (game.life, game.reserve) == (20, 2)


def test_d02_plus_two_life_takes_the_one_token_left():
    game = fight("further/food", robinson_stack=["eating", "weak"], life=21)
    play(game, act.DRAW_FREE)
    use(game, "eating")
    assert (game.life, game.reserve) == (22, 0)


# --------------------------------------------------------------- D03 copy


def test_d03_copy_cannot_copy_a_copy():
    game = fight("further/food", robinson_stack=["raft/mimicry", "exploring/mimicry", "weak"])
    play(game, *[act.DRAW_FREE] * 3)
    assert not can_use(game, "raft/mimicry") and not can_use(game, "exploring/mimicry")


def test_d03_copy_targets_only_abilities_with_an_effect_now():
    stack = ["raft/mimicry", "exploring/mimicry", "raft/books", "further/realization"]
    game = fight("animals/vision", step="yellow", robinson_stack=stack)
    play(game, *[act.DRAW_FREE] * 4)
    use(game, "raft/mimicry")
    assert [game.describe(a) for a in game.legal_actions()] == [
        "copy the ability of raft/books (slot 2)",
        "copy the ability of further/realization (slot 3)",
    ]


# ---------------------------------------------------------- D04 sort order


def test_d04_sorted_cards_go_back_from_the_top_down():
    game = fight("further/food", robinson_stack=["further/vision", "weak", "genius", "focused"])
    play(game, act.DRAW_FREE)
    use(game, "further/vision")
    play(game, act.SORT_TAKE, act.SORT_TAKE, act.SORT_KEEP_ALL)
    assert game.phase == Phase.SORT_ORDER
    play(game, act.SORT_PLACE_0 + sort_index(game, "focused"))  # first named: the top
    assert game.phase == Phase.SORT_ORDER
    play(game, act.SORT_PLACE_0 + sort_index(game, "weak"))  # genius follows by itself
    assert top_first(game) == ["focused", "weak", "genius"]
    assert keys(known_top_cards(game)) == ["focused", "weak", "genius"]


# -------------------------------------------- D05 first card of sort 3 / +2 cards


def test_d05_sort_3_takes_its_first_card_at_once():
    game = fight("further/food", robinson_stack=["further/vision", "weak", "genius"])
    play(game, act.DRAW_FREE)
    use(game, "further/vision")
    assert keys(game.sort_taken) == ["weak"] and top_first(game) == ["genius"]
    assert game.legal_actions() == [act.SORT_TAKE, act.SORT_STOP_TAKING]


def test_d05_plus_2_cards_draws_its_first_card_at_once():
    game = fight("further/food", robinson_stack=["raft/equipment", "weak", "genius"])
    play(game, act.DRAW_FREE)
    use(game, "raft/equipment")
    assert table(game) == ["raft/equipment", "weak"]
    assert game.legal_actions() == [act.DRAW_ANOTHER, act.STOP_DRAWING]


# ------------------------------------------------- D06 nothing left to destroy


def test_d06_a_lost_fight_with_nothing_affordable_moves_on():
    game = fight("exploring/weapon", robinson_stack=["scared", "genius"])
    play(game, act.DRAW_FREE, act.END_FIGHT)  # 0 against 1: 1 point, scared costs 2
    assert game.phase == Phase.CHOOSE_HAZARD
    assert (game.life, game.reserve) == (19, 3)
    assert keys(game.discard) == ["scared"] and game.destroyed == []


def test_d06_a_spent_budget_ends_the_destroy_selection():
    game = fight("further/food", robinson_stack=["weak", "distracted", "focused"])
    play(game, act.DRAW_FREE, act.DRAW_FREE, act.END_FIGHT)  # -1 against 2: 3 points
    play(game, act.DESTROY_0 + 0)
    assert game.phase == Phase.LOSS_DESTROY and game.budget == 2
    play(game, act.DESTROY_0 + 1)
    assert game.phase == Phase.CHOOSE_HAZARD  # no card left on the table to destroy
    assert bag(game.destroyed) == ["distracted", "weak"]


# ----------------------------------------------------------------- D07 death


def test_d07_death_by_an_aging_penalty_leaves_the_tokens_in_place():
    game = fight("exploring/weapon", robinson_stack=["very hungry", "genius"], life=1)
    play(game, act.DRAW_FREE, act.DRAW_FREE, act.END_FIGHT)  # won, but 2 life owed
    assert game.done and not game.won
    assert (game.life, game.reserve) == (1, 21)


# ------------------------------------------------- D08 below an empty stack


def test_d08_below_with_nothing_anywhere_makes_the_card_the_whole_known_stack():
    game = fight("exploring/weapon", robinson_stack=["raft/deception", "weak"])
    play(game, act.DRAW_FREE, act.DRAW_FREE)
    use(game, "raft/deception")
    target(game, "weak")
    assert top_first(game) == ["weak"] and game.known_top == 1
    assert public_view(game)["robinson_stack_known_top"] == ["weak"]
    assert game.free_used == 1
    play(game, act.DRAW_FREE)
    assert table(game) == ["raft/deception", "weak"]


# ------------------------------------------------ D09 known cards of the stack


def test_d09_a_card_put_below_a_fully_known_stack_is_known_too():
    stack = ["further/vision", "raft/deception", "weak", "genius"]
    game = fight("further/food", robinson_stack=stack)
    play(game, act.DRAW_FREE, act.DRAW_FREE)
    use(game, "further/vision")
    play(game, act.SORT_TAKE)  # the stack is empty and nothing can refill it: stop there
    assert game.phase == Phase.SORT_DISCARD
    play(game, act.SORT_KEEP_ALL, act.SORT_PLACE_0 + sort_index(game, "genius"))
    assert keys(known_top_cards(game)) == ["genius", "weak"]
    use(game, "raft/deception")
    target(game, "further/vision")
    assert keys(known_top_cards(game)) == ["genius", "weak", "further/vision"]


def test_d09_a_card_put_below_an_unknown_stack_is_not_placed():
    stack = ["raft/deception", "distracted", "weak", "genius"]
    game = fight("exploring/weapon", robinson_stack=stack)
    play(game, act.DRAW_FREE, act.DRAW_FREE)
    use(game, "raft/deception")
    target(game, "distracted")
    assert game.known_top == 0
    view = public_view(game)
    assert view["robinson_stack_known_top"] == []
    assert sorted(view["robinson_stack_known"]) == ["distracted", "genius", "weak"]


# ------------------------------------------- D10 a fight with no free card


def test_d10_a_pirate_with_no_free_card_and_value_0_is_beaten_without_a_card():
    game = scenario(
        step="pirates",
        robinson_stack=["genius", "weak"],
        pirates=["pirate/all-hazards", "pirate/20"],
        life=0,
    )
    choose_pirate(game, "pirate/all-hazards")  # no hazard left: 0 free cards, value 0
    assert (game.free_total, game.fight_value()) == (0, 0)
    assert not game.done
    assert game.legal_actions() == [act.END_FIGHT]  # 0 life: no paid card either
    play(game, act.END_FIGHT)
    assert keys(game.beaten) == ["pirate/all-hazards"]
    assert keys([game.hazard]) == ["pirate/20"] and top_first(game) == ["genius", "weak"]


# ------------------------------------ D11 a card back on the table in the same fight


def test_d11_a_card_put_below_and_drawn_again_keeps_its_ability_used():
    game = fight("exploring/weapon", robinson_stack=["raft/deception", "raft/food"], life=18)
    play(game, act.DRAW_FREE, act.DRAW_FREE)
    use(game, "raft/food")  # 19
    use(game, "raft/deception")
    target(game, "raft/food")  # the whole stack now, and its free draw comes back
    play(game, act.DRAW_FREE)
    assert table(game) == ["raft/deception", "raft/food"]
    assert not can_use(game, "raft/food")  # used once in this fight already
    assert (game.life, game.reserve) == (19, 3)


def test_d11_an_exchanged_card_drawn_back_keeps_its_ability_used():
    game = fight("exploring/weapon", robinson_stack=["further/strategy", "raft/food"], life=18)
    play(game, act.DRAW_FREE, act.DRAW_FREE)
    use(game, "raft/food")
    use(game, "further/strategy")
    target(game, "raft/food")  # discarded first, then the reshuffle brings it back (R08)
    assert table(game) == ["further/strategy", "raft/food"]
    assert not can_use(game, "raft/food")


def test_d11_the_next_fight_starts_with_every_ability_fresh():
    game = fight("exploring/weapon", robinson_stack=["raft/food", "genius"], life=18)
    play(game, act.DRAW_FREE)
    use(game, "raft/food")
    play(game, act.DRAW_FREE, act.END_FIGHT, act.CHOOSE_HAZARD_0)  # won; the next fight
    play(game, act.DRAW_FREE)  # a reshuffle: the discard pile holds food, genius, the hazard
    while "raft/food" not in table(game):
        play(game, act.DRAW_FREE)
    assert can_use(game, "raft/food")
