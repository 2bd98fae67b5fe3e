"""Rulings R09-R19: the abilities of starting, knowledge and aging cards.

Every test is a scripted scenario asserting targets offered, where each card ends up, life,
reserve and the fight's total/value. Knowledge cards used here (value, ability): raft/* are
0-valued; exploring/repeat (1, double), further/repeat (2, double), further/strategy (2, 1x
exchange), raft/strategy (0, 2x exchange), further/vision (2, sort 3), raft/mimicry and
exploring/mimicry (copy), raft/books (step -1), raft/deception (below the pile).
"""

from __future__ import annotations

import pytest
from conftest import (
    bag,
    can_use,
    fight,
    keys,
    play,
    sort_index,
    table,
    target,
    top_first,
    use,
)

from friday_env import Phase, public_view, scenario
from friday_env import actions as act
from friday_env.engine import DOUBLED, DOWN, LEFT, USED
from friday_env.information import known_top_cards


def targets(game) -> list[str]:
    """Keys of the table cards the pending ability may target."""
    legal = game.legal_actions()
    return [keys([c])[0] for s, c in enumerate(game.table) if act.TARGET_0 + s in legal]


# ------------------------------------------------------------------ R09 use


def test_r09_each_ability_once_per_fight():
    game = fight("further/food", robinson_stack=["raft/food", "weak", "weak"], life=18)
    play(game, act.DRAW_FREE)
    use(game, "raft/food")
    assert (game.life, game.reserve) == (19, 3)
    assert game.flags[0] & USED
    assert not can_use(game, "raft/food")


@pytest.mark.parametrize(
    ("card", "stack", "life"),
    [
        ("raft/food", ["raft/food", "weak"], 22),  # +1 life: the reserve is empty
        ("further/experience", ["further/experience"], 20),  # +1 card: nothing to draw
        ("raft/equipment", ["raft/equipment"], 20),  # +2 cards: nothing to draw
        ("further/vision", ["further/vision"], 20),  # sort 3: nothing to take
        ("raft/realization", ["raft/realization", "weak"], 20),  # destroy: no other card
        ("raft/mimicry", ["raft/mimicry", "weak"], 20),  # copy: no other card
        ("raft/books", ["raft/books", "weak"], 20),  # step -1 in green: no effect
    ],
)
def test_r09_ability_is_offered_only_when_it_has_an_effect(card, stack, life):
    game = fight("further/food", robinson_stack=stack, life=life)
    play(game, act.DRAW_FREE)
    assert table(game) == [card]
    assert not can_use(game, card)


def test_r09_abilities_of_face_down_cards_are_gone():
    game = fight("further/food", robinson_stack=["raft/realization", "eating", "weak"], life=18)
    play(game, act.DRAW_FREE, act.DRAW_FREE)
    assert can_use(game, "eating")
    use(game, "raft/realization")
    target(game, "eating")
    assert game.flags[1] & DOWN
    assert not can_use(game, "eating")


def test_r09_using_an_ability_never_undoes_an_earlier_one():
    stack = ["raft/books", "raft/food", "further/realization", "weak"]
    game = fight("exploring/weapon", step="yellow", robinson_stack=stack, life=19)
    play(game, act.DRAW_FREE, act.DRAW_FREE)
    use(game, "raft/books")  # yellow 3 -> green 1
    use(game, "raft/food")  # life 20
    play(game, act.DRAW_PAID)  # further/realization on the right: life 19
    use(game, "further/realization")
    target(game, "raft/books")  # books face down: "step -1" stays done
    assert game.fight_value() == 1
    play(game, act.END_FIGHT)  # 2 against 1: won
    assert (game.life, game.reserve) == (19, 3)
    assert keys(game.destroyed) == ["raft/books"]


def test_r09_right_side_cards_have_abilities_too_and_one_resolves_at_a_time():
    stack = ["weak", "weak", "further/strategy", "genius"]
    game = fight("exploring/weapon", robinson_stack=stack)
    play(game, act.DRAW_FREE, act.DRAW_FREE, act.DRAW_PAID)
    use(game, "further/strategy")  # a right-side card's ability
    assert game.phase == Phase.TARGET
    assert all(a >= act.TARGET_0 for a in game.legal_actions())  # no draw, no other use
    target(game, "weak", 1)
    assert table(game) == ["weak", "genius", "further/strategy"]


# --------------------------------------------------------------- R10 targets


def test_r10_targets_are_other_face_up_cards():
    stack = ["raft/realization", "weak", "exploring/realization", "focused"]
    game = fight("animals/vision", robinson_stack=stack)
    play(game, *[act.DRAW_FREE] * 4)
    use(game, "raft/realization")
    assert targets(game) == ["weak", "exploring/realization", "focused"]  # not itself
    target(game, "weak")
    use(game, "exploring/realization")
    assert targets(game) == ["raft/realization", "focused"]  # not the face-down weak


def test_r10_a_used_card_is_a_valid_target():
    stack = ["raft/food", "further/strategy", "genius"]
    game = fight("further/food", robinson_stack=stack, life=19)
    play(game, act.DRAW_FREE, act.DRAW_FREE)
    use(game, "raft/food")
    use(game, "further/strategy")
    assert targets(game) == ["raft/food"]
    target(game, "raft/food")
    assert table(game) == ["genius", "further/strategy"]
    assert keys(game.discard) == ["raft/food"]
    assert game.life == 20  # the used ability stays done (R09)


# ---------------------------------------------------------- R11 +1/+2 cards


def test_r11_plus_one_card_draws_to_the_right_without_using_free_draws():
    game = fight("exploring/weapon", robinson_stack=["further/experience", "weak", "genius"])
    play(game, act.DRAW_FREE)
    use(game, "further/experience")
    assert table(game) == ["further/experience", "weak"]
    assert game.flags[1] & LEFT == 0
    assert (game.free_used, game.life) == (1, 20)
    play(game, act.DRAW_FREE)  # the second free card is still there
    assert table(game) == ["further/experience", "weak", "genius"]


def test_r11_plus_two_cards_draws_up_to_two():
    stack = ["raft/equipment", "focused", "genius", "weak"]
    game = fight("exploring/weapon", robinson_stack=stack)
    play(game, act.DRAW_FREE)
    use(game, "raft/equipment")  # the first card at once (D05)
    assert table(game) == ["raft/equipment", "focused"]
    assert game.phase == Phase.DRAW_MORE
    assert game.legal_actions() == [act.DRAW_ANOTHER, act.STOP_DRAWING]
    play(game, act.DRAW_ANOTHER)
    assert table(game) == ["raft/equipment", "focused", "genius"]
    assert [f & LEFT for f in game.flags] == [LEFT, 0, 0]
    assert game.phase == Phase.FIGHT and game.free_used == 1


def test_r11_plus_two_cards_may_stop_after_one():
    stack = ["raft/equipment", "focused", "genius", "weak"]
    game = fight("exploring/weapon", robinson_stack=stack)
    play(game, act.DRAW_FREE)
    use(game, "raft/equipment")
    play(game, act.STOP_DRAWING)
    assert table(game) == ["raft/equipment", "focused"]
    assert top_first(game) == ["genius", "weak"]
    assert game.phase == Phase.FIGHT


def test_r11_plus_two_cards_with_one_card_left_draws_it_without_asking():
    game = fight("exploring/weapon", robinson_stack=["raft/equipment", "focused"])
    play(game, act.DRAW_FREE)
    use(game, "raft/equipment")
    assert table(game) == ["raft/equipment", "focused"]
    assert game.phase == Phase.FIGHT


# ---------------------------------------------------------------- R12 destroy


def test_r12_destroyed_card_counts_zero_and_leaves_the_game_after_a_win():
    stack = ["exploring/realization", "distracted", "focused"]
    game = fight("exploring/weapon", robinson_stack=stack)
    play(game, act.DRAW_FREE, act.DRAW_FREE)
    assert game.fight_total() == 0
    use(game, "exploring/realization")
    target(game, "distracted")
    assert game.fight_total() == 1
    play(game, act.END_FIGHT)
    assert keys(game.destroyed) == ["distracted"]
    assert bag(game.discard) == ["exploring/realization", "exploring/weapon"]


def test_r12_destroyed_card_leaves_after_a_lost_fight_and_is_not_paid_for_again():
    game = fight("further/food", robinson_stack=["raft/realization", "weak", "genius"])
    play(game, act.DRAW_FREE, act.DRAW_FREE)
    use(game, "raft/realization")
    target(game, "weak")
    play(game, act.END_FIGHT)  # 0 against 2: 2 points to destroy with
    assert game.phase == Phase.LOSS_DESTROY and game.budget == 2
    assert game.legal_actions() == [act.FINISH_DESTROYING, act.DESTROY_0 + 0]
    play(game, act.DESTROY_0 + 0)
    assert bag(game.destroyed) == ["raft/realization", "weak"]
    assert game.discard == [] and (game.life, game.reserve) == (18, 4)


def test_r12_destroying_an_aging_card_cancels_its_ability():
    stack = ["raft/realization", "hungry", "genius"]
    game = fight("further/food", robinson_stack=stack)
    play(game, act.DRAW_FREE, act.DRAW_FREE, act.DRAW_FREE)
    use(game, "raft/realization")
    target(game, "hungry")
    play(game, act.END_FIGHT)  # won, and no "-1 life"
    assert (game.life, game.reserve) == (20, 2)
    assert keys(game.destroyed) == ["hungry"]


# ----------------------------------------------------------------- R13 double


def test_r13_double_a_positive_value():
    game = fight("further/food", robinson_stack=["exploring/repeat", "genius"])
    play(game, act.DRAW_FREE, act.DRAW_FREE)
    use(game, "exploring/repeat")
    target(game, "genius")
    assert game.flags[1] & DOUBLED
    assert game.card_values() == [1, 4] and game.fight_total() == 5


def test_r13_double_a_negative_value():
    game = fight("further/food", robinson_stack=["further/repeat", "distracted"])
    play(game, act.DRAW_FREE, act.DRAW_FREE)
    use(game, "further/repeat")
    target(game, "distracted")
    assert game.fight_total() == 2 - 2


def test_r13_a_card_is_doubled_once_only():
    stack = ["exploring/repeat", "further/repeat", "genius"]
    game = fight("further/food", robinson_stack=stack)
    play(game, act.DRAW_FREE, act.DRAW_FREE, act.DRAW_FREE)
    use(game, "further/repeat")
    target(game, "genius")
    use(game, "exploring/repeat")
    assert targets(game) == ["further/repeat"]  # genius is already doubled
    target(game, "further/repeat")
    assert game.card_values() == [1, 4, 4] and game.fight_total() == 9


# ------------------------------------------------------------------ R14 copy


def test_r14_copy_a_used_ability():
    game = fight("further/food", robinson_stack=["raft/food", "raft/mimicry", "weak"], life=18)
    play(game, act.DRAW_FREE, act.DRAW_FREE)
    use(game, "raft/food")
    use(game, "raft/mimicry")
    assert targets(game) == ["raft/food"]
    target(game, "raft/food")  # +1 life again
    assert (game.life, game.reserve) == (20, 2)
    assert game.flags == [LEFT | USED, LEFT | USED]


def test_r14_copy_an_unused_ability_which_stays_usable():
    stack = ["raft/mimicry", "raft/realization", "distracted", "stupid"]
    game = fight("animals/vision", robinson_stack=stack)
    play(game, *[act.DRAW_FREE] * 4)
    use(game, "raft/mimicry")
    target(game, "raft/realization")  # copy "destroy": a destroy target next
    assert game.phase == Phase.TARGET
    assert targets(game) == ["raft/realization", "distracted", "stupid"]  # not the copy itself
    target(game, "stupid")
    use(game, "raft/realization")  # its own ability is still there
    target(game, "distracted")
    assert game.fight_total() == 0
    play(game, act.END_FIGHT, act.FINISH_DESTROYING)
    assert bag(game.destroyed) == ["distracted", "stupid"]


def test_r14_several_copies_may_copy_the_same_ability():
    stack = ["raft/food", "raft/mimicry", "exploring/mimicry"]
    game = fight("further/food", robinson_stack=stack, life=17)
    play(game, *[act.DRAW_FREE] * 3)
    use(game, "raft/food")
    use(game, "raft/mimicry")
    target(game, "raft/food")
    use(game, "exploring/mimicry")
    assert targets(game) == ["raft/food"]  # not the other copy (D03)
    target(game, "raft/food")
    assert (game.life, game.reserve) == (20, 2)


def test_r14_a_copied_double_needs_a_card_not_yet_doubled():
    stack = ["exploring/repeat", "genius", "raft/mimicry"]
    game = fight("further/food", robinson_stack=stack)
    play(game, *[act.DRAW_FREE] * 3)
    use(game, "exploring/repeat")
    target(game, "genius")
    use(game, "raft/mimicry")
    target(game, "exploring/repeat")  # copy "double"
    assert targets(game) == ["exploring/repeat"]  # genius is doubled, the copy is the source
    target(game, "exploring/repeat")
    assert game.card_values() == [2, 4, 0]


def test_r14_copy_only_starting_and_knowledge_abilities_with_an_effect():
    stack = ["raft/mimicry", "hungry", "scared", "raft/food", "very tired"]
    game = fight("animals/vision", robinson_stack=stack, life=22)
    play(game, *[act.DRAW_FREE] * 4)
    assert not can_use(game, "raft/mimicry")  # aging abilities can't be copied; food: no token
    game = fight("animals/vision", robinson_stack=stack, life=21)
    play(game, *[act.DRAW_FREE] * 4)
    use(game, "raft/mimicry")
    assert targets(game) == ["raft/food"]


# ------------------------------------------------------------ R15 step -1


def test_r15_step_down_in_yellow_checks_the_green_value():
    game = fight("further/food", step="yellow", robinson_stack=["raft/books", "genius"])
    assert game.fight_value() == 5
    play(game, act.DRAW_FREE, act.DRAW_FREE)
    use(game, "raft/books")
    assert game.fight_value() == 2
    play(game, act.END_FIGHT)
    assert "further/food" in keys(game.discard)  # won


def test_r15_two_uses_lower_red_to_green():
    stack = ["raft/books", "raft/mimicry", "weak"]
    game = fight("exploring/weapon", step="red", robinson_stack=stack)
    play(game, act.DRAW_FREE, act.DRAW_FREE)
    use(game, "raft/books")
    assert game.fight_value() == 3  # yellow
    use(game, "raft/mimicry")
    target(game, "raft/books")
    assert game.fight_value() == 1  # green


def test_r15_never_below_green():
    stack = ["raft/books", "raft/mimicry", "weak"]
    game = fight("exploring/weapon", step="yellow", robinson_stack=stack)
    play(game, act.DRAW_FREE, act.DRAW_FREE)
    use(game, "raft/books")
    assert not can_use(game, "raft/mimicry")  # copying "step -1" would do nothing now


def test_r15_no_step_down_in_green_or_against_pirates():
    game = fight("exploring/weapon", robinson_stack=["raft/books", "weak"])
    play(game, act.DRAW_FREE)
    assert not can_use(game, "raft/books")
    game = scenario(
        step="pirates", robinson_stack=["raft/books", "weak"], pirates=["pirate/20", "pirate/25"]
    )
    play(game, act.CHOOSE_PIRATE_0, act.DRAW_FREE)
    assert not can_use(game, "raft/books")


# ------------------------------------------------------------- R16 sort 3


def _vision_fight(stack_after: list[str], **kwargs):
    game = fight("further/food", robinson_stack=["further/vision", *stack_after], **kwargs)
    play(game, act.DRAW_FREE)
    use(game, "further/vision")
    return game


def test_r16_take_three_discard_one_and_choose_the_order():
    game = _vision_fight(["weak", "distracted", "genius", "focused"])
    assert game.phase == Phase.SORT_TAKE and keys(game.sort_taken) == ["weak"]
    play(game, act.SORT_TAKE, act.SORT_TAKE)
    assert keys(game.sort_taken) == ["weak", "distracted", "genius"]
    assert game.phase == Phase.SORT_DISCARD  # three taken: no more
    assert game.legal_actions() == [act.SORT_KEEP_ALL] + [act.SORT_DISCARD_0 + k for k in range(3)]
    play(game, act.SORT_DISCARD_0 + sort_index(game, "distracted"))
    assert game.phase == Phase.SORT_ORDER  # at most one discarded: only the order is left
    assert game.legal_actions() == [act.SORT_PLACE_0, act.SORT_PLACE_0 + 1]
    play(game, act.SORT_PLACE_0 + sort_index(game, "genius"))  # genius on top
    assert game.phase == Phase.FIGHT  # the last card goes back by itself (D04)
    assert top_first(game) == ["genius", "weak", "focused"]
    assert keys(game.discard) == ["distracted"]
    assert keys(known_top_cards(game)) == ["genius", "weak"]
    assert public_view(game)["robinson_stack_known_top"] == ["genius", "weak"]
    play(game, act.DRAW_FREE)  # the known top card comes next
    assert table(game)[-1] == "genius" and keys(known_top_cards(game)) == ["weak"]


def test_r16_take_one_and_keep_it():
    game = _vision_fight(["weak", "distracted", "genius"])
    play(game, act.SORT_STOP_TAKING)
    assert game.legal_actions() == [act.SORT_KEEP_ALL, act.SORT_DISCARD_0]
    play(game, act.SORT_KEEP_ALL)
    assert game.phase == Phase.FIGHT
    assert top_first(game) == ["weak", "distracted", "genius"]
    assert keys(known_top_cards(game)) == ["weak"] and game.discard == []


def test_r16_take_two_keep_both_in_reverse_order():
    game = _vision_fight(["weak", "genius", "distracted"])
    play(game, act.SORT_TAKE, act.SORT_STOP_TAKING, act.SORT_KEEP_ALL)
    assert game.legal_actions() == [act.SORT_PLACE_0, act.SORT_PLACE_0 + 1]
    play(game, act.SORT_PLACE_0 + sort_index(game, "genius"))
    assert top_first(game) == ["genius", "weak", "distracted"]
    assert game.known_top == 2


def test_r16_taking_from_an_empty_stack_reshuffles():
    game = _vision_fight(["weak"], robinson_discard=["genius"], aging_stack=["stupid"])
    assert game.phase == Phase.SORT_TAKE  # the discard pile and aging stack can still give
    play(game, act.SORT_TAKE, act.SORT_TAKE)
    assert bag(game.sort_taken) == ["genius", "stupid", "weak"]
    assert game.aging == [] and game.stack == []
    play(game, act.SORT_DISCARD_0 + sort_index(game, "stupid"))
    play(game, act.SORT_PLACE_0 + sort_index(game, "genius"))
    assert top_first(game) == ["genius", "weak"] and keys(game.discard) == ["stupid"]
    assert game.unseen == []  # the aging card was seen when taken


# ------------------------------------------------------------- R17 exchange


def test_r17_exchange_a_right_side_card_draws_onto_the_right():
    stack = ["further/strategy", "weak", "distracted", "genius"]
    game = fight("exploring/weapon", robinson_stack=stack)
    play(game, act.DRAW_FREE, act.DRAW_FREE, act.DRAW_PAID)
    use(game, "further/strategy")
    target(game, "distracted")
    assert table(game) == ["further/strategy", "weak", "genius"]
    assert [f & LEFT for f in game.flags] == [LEFT, LEFT, 0]
    assert keys(game.discard) == ["distracted"]
    assert game.fight_total() == 4


def test_r17_second_exchange_may_take_the_card_just_drawn():
    stack = ["raft/strategy", "distracted", "weak", "genius", "focused"]
    game = fight("exploring/weapon", robinson_stack=stack)
    play(game, act.DRAW_FREE, act.DRAW_FREE)
    use(game, "raft/strategy")
    assert act.STOP_EXCHANGING not in game.legal_actions()  # the first one is chosen
    target(game, "distracted")
    assert table(game) == ["raft/strategy", "weak"] and game.phase == Phase.TARGET
    assert targets(game) == ["weak"]
    assert act.STOP_EXCHANGING in game.legal_actions()
    target(game, "weak")  # the card just drawn
    assert table(game) == ["raft/strategy", "genius"]
    assert keys(game.discard) == ["distracted", "weak"]
    assert game.phase == Phase.FIGHT and top_first(game) == ["focused"]


def test_r17_two_exchange_may_stop_after_one():
    stack = ["raft/strategy", "distracted", "weak", "genius"]
    game = fight("exploring/weapon", robinson_stack=stack)
    play(game, act.DRAW_FREE, act.DRAW_FREE)
    use(game, "raft/strategy")
    target(game, "distracted")
    play(game, act.STOP_EXCHANGING)
    assert game.phase == Phase.FIGHT
    assert table(game) == ["raft/strategy", "weak"] and top_first(game) == ["genius"]
    assert not can_use(game, "raft/strategy")


def test_r17_exchanged_replacement_has_an_ability_to_use_now_or_later():
    stack = ["further/strategy", "distracted", "raft/food"]
    game = fight("exploring/weapon", robinson_stack=stack, life=19)
    play(game, act.DRAW_FREE, act.DRAW_FREE)
    use(game, "further/strategy")
    target(game, "distracted")
    assert can_use(game, "raft/food")
    use(game, "raft/food")
    assert game.life == 20


# ---------------------------------------------------------- R18 below the pile


def test_r18_below_a_free_card_gives_its_free_draw_back():
    stack = ["raft/deception", "distracted", "genius", "weak"]
    game = fight("exploring/weapon", robinson_stack=stack)
    play(game, act.DRAW_FREE, act.DRAW_FREE)
    assert act.DRAW_FREE not in game.legal_actions()
    use(game, "raft/deception")
    target(game, "distracted")
    assert top_first(game) == ["genius", "weak", "distracted"]
    assert game.free_used == 1
    play(game, act.DRAW_FREE)
    assert table(game) == ["raft/deception", "genius"]
    assert game.flags[1] & LEFT


def test_r18_below_a_paid_card_gives_no_free_draw():
    stack = ["raft/deception", "weak", "distracted", "genius"]
    game = fight("exploring/weapon", robinson_stack=stack)
    play(game, act.DRAW_FREE, act.DRAW_FREE, act.DRAW_PAID)
    use(game, "raft/deception")
    target(game, "distracted")
    assert table(game) == ["raft/deception", "weak"]
    assert top_first(game) == ["genius", "distracted"]
    assert game.free_used == 2 and act.DRAW_FREE not in game.legal_actions()
    assert (game.life, game.reserve) == (19, 3)  # the paid life is not given back


def test_r18_below_with_an_empty_stack_reshuffles_first():
    game = fight(
        "exploring/weapon",
        robinson_stack=["raft/deception", "distracted"],
        robinson_discard=["genius", "weak"],
        aging_stack=["stupid", "hungry"],
    )
    play(game, act.DRAW_FREE, act.DRAW_FREE)
    use(game, "raft/deception")
    target(game, "distracted")
    assert keys(game.aging) == ["hungry"]  # R08: stupid joined the new stack
    assert keys(game.stack[:1]) == ["distracted"]  # at the bottom
    assert bag(game.stack) == ["distracted", "genius", "stupid", "weak"]
    assert game.discard == [] and game.free_used == 1


# -------------------------------------------------------- R19 aging abilities


def test_r19_minus_two_life_is_paid_even_in_a_won_fight():
    game = fight("exploring/weapon", robinson_stack=["very hungry", "genius"])
    play(game, act.DRAW_FREE, act.DRAW_FREE, act.END_FIGHT)
    assert (game.life, game.reserve) == (18, 4)
    assert bag(game.discard) == ["exploring/weapon", "genius", "very hungry"]


def test_r19_aging_penalties_cannot_buy_destroys():
    game = fight("further/food", robinson_stack=["hungry", "weak", "focused"])
    play(game, act.DRAW_FREE, act.DRAW_FREE, act.DRAW_FREE, act.END_FIGHT)  # lost by 1, -1 life
    assert (game.life, game.budget) == (18, 1)
    assert game.legal_actions() == [act.FINISH_DESTROYING, act.DESTROY_0 + 1, act.DESTROY_0 + 2]


def test_r19_highest_card_counts_zero():
    game = fight("animals/vision", robinson_stack=["scared", "genius", "focused", "focused"])
    play(game, *[act.DRAW_FREE] * 4)
    assert game.card_values() == [0, 0, 1, 1]  # genius is the highest
    assert game.fight_total() == 2


def test_r19_highest_card_zero_takes_one_of_equal_cards():
    game = fight("further/food", robinson_stack=["focused", "scared", "focused"])
    play(game, *[act.DRAW_FREE] * 3)
    assert sorted(game.card_values()) == [0, 0, 1]


def test_r19_two_scared_cards_zero_two_cards():
    stack = ["scared", "genius", "scared", "focused", "further/food"]
    game = fight("cannibals/weapon", robinson_stack=stack)
    play(game, *[act.DRAW_FREE] * 5)
    assert game.card_values() == [0, 0, 0, 1, 0]  # genius and further/food (2 each)


def test_r19_a_doubled_card_is_not_zeroed():
    game = fight("further/food", robinson_stack=["scared", "exploring/repeat", "genius"])
    play(game, *[act.DRAW_FREE] * 3)
    use(game, "exploring/repeat")
    target(game, "genius")
    assert game.card_values() == [0, 0, 4]  # the repeat (1) counts 0 instead


def test_r19_aging_ability_is_cancelled_when_the_card_leaves():
    stack = ["further/strategy", "hungry", "scared", "genius", "weak"]
    game = fight("animals/vision", robinson_stack=stack)
    play(game, *[act.DRAW_FREE] * 3)
    assert game.end_of_fight_penalty() == 1
    use(game, "further/strategy")
    target(game, "hungry")  # exchanged for genius: "-1 life" left with it
    assert game.end_of_fight_penalty() == 0
    assert table(game) == ["further/strategy", "genius", "scared"]
    assert sorted(game.card_values()) == [0, 0, 2]  # one of the two 2s counts 0
    play(game, act.END_FIGHT)  # 2 against 4: lost by 2, no penalty
    assert (game.life, game.budget, game.phase) == (18, 2, Phase.LOSS_DESTROY)


def test_r19_destroying_a_scared_card_cancels_highest_card_zero():
    stack = ["raft/realization", "scared", "genius"]
    game = fight("further/food", robinson_stack=stack)
    play(game, *[act.DRAW_FREE] * 3)
    assert game.fight_total() == 0
    use(game, "raft/realization")
    target(game, "scared")
    assert game.fight_total() == 2
    play(game, act.END_FIGHT)  # won
    assert keys(game.destroyed) == ["scared"]
    assert bag(game.discard) == ["further/food", "genius", "raft/realization"]
