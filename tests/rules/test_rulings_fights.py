"""Rulings R20-R23: losing and winning a fight, the pirates and the five special pirates.

Pirates (free cards, value): pirate/20 (6, 20), pirate/25 (7, 25), pirate/two-life (7, 16),
pirate/half (9, 22), pirate/plus-one (10, 52), pirate/aging (5, 2 per aging card gone),
pirate/all-hazards (sums over the hazard discard pile).
"""

from __future__ import annotations

from conftest import bag, destroy, fight, keys, play, target, top_first, use

from friday_env import Phase, scenario
from friday_env import actions as act

#: Level 1's ten aging cards: an aging stack with all of them means none has been added.
ALL_AGING = [
    "aging/distracted", "stupid", "stupid", "scared", "scared", "hungry", "very tired",
    "moronic", "suicidal", "very hungry",
]  # fmt: skip
#: Six cards worth 20, the best of the game: enough for pirate/20 with its 6 free cards.
TWENTY = [
    "cannibals/weapon", "cannibals/weapon", "animals/realization", "animals/vision",
    "animals/experience", "animals/strategy",
]  # fmt: skip


def choose_pirate(game, key: str) -> None:
    game.apply(act.CHOOSE_PIRATE_0 + keys(game.pirates).index(key))


# ------------------------------------------------------------- R20 losing


def test_r20_lost_fight_pays_the_difference_and_destroys_a_chosen_subset():
    stack = ["weak", "distracted", "stupid", "focused", "genius"]
    game = fight("animals/vision", robinson_stack=stack)
    play(game, *[act.DRAW_FREE] * 4)
    assert game.fight_total() == -2
    play(game, act.END_FIGHT)  # 4 - (-2) = 6 points missing
    assert (game.life, game.reserve, game.budget) == (14, 8, 6)
    destroy(game, "stupid")  # 2 points
    destroy(game, "distracted")  # 1 point
    assert game.budget == 3 and game.phase == Phase.LOSS_DESTROY
    play(game, act.FINISH_DESTROYING)  # the 3 points left are lost
    assert bag(game.destroyed) == ["distracted", "stupid"]
    assert bag(game.discard) == ["focused", "weak"]
    assert "animals/vision" in keys(game.hazard_discard)
    assert top_first(game) == ["genius"]  # the stack is safe
    assert (game.life, game.reserve, game.budget) == (14, 8, 0)
    assert game.phase == Phase.CHOOSE_HAZARD


def test_r20_an_aging_card_costs_two_points():
    game = fight("further/food", robinson_stack=["stupid", "focused", "weak"])
    play(game, act.DRAW_FREE, act.DRAW_FREE)  # -2 + 1: lost by 3
    assert game.budget == 0 and game.phase == Phase.FIGHT
    play(game, act.END_FIGHT)
    assert game.budget == 3
    destroy(game, "focused")
    assert game.legal_actions() == [act.FINISH_DESTROYING, act.DESTROY_0 + 0]  # 2 left: stupid
    destroy(game, "stupid")  # budget spent: the fight is over (D06)
    assert bag(game.destroyed) == ["focused", "stupid"]
    assert game.phase == Phase.CHOOSE_HAZARD and game.discard == []


def test_r20_one_point_cannot_destroy_an_aging_card():
    game = fight("exploring/weapon", robinson_stack=["stupid", "genius", "weak"])
    play(game, act.DRAW_FREE, act.DRAW_FREE, act.END_FIGHT)  # 0 against 1: 1 point
    assert game.legal_actions() == [act.FINISH_DESTROYING, act.DESTROY_0 + 1]  # genius only


# ------------------------------------------------------------- R21 winning


def test_r21_won_hazard_joins_robinson_as_a_knowledge_card():
    game = fight("exploring/weapon", robinson_stack=["genius"])
    play(game, act.DRAW_FREE, act.END_FIGHT)
    assert bag(game.discard) == ["exploring/weapon", "genius"]
    assert keys(game.offer) == ["cannibals/weapon", "animals/strategy"]
    play(game, act.CHOOSE_HAZARD_1)  # wild animals: 4 against 4 free cards
    play(game, act.DRAW_FREE, act.DRAW_FREE)  # reshuffle (no aging card): both come back
    assert bag(game.table) == ["exploring/weapon", "genius"]
    assert game.fight_total() == 4  # the weapon fights with its knowledge value, 2
    play(game, act.END_FIGHT)
    assert bag(game.discard) == ["animals/strategy", "exploring/weapon", "genius"]


def test_r21_destroyed_cards_leave_a_won_fight_others_join_the_discard_pile():
    stack = ["raft/realization", "distracted", "genius", "weak"]
    game = fight("further/food", robinson_stack=stack)
    play(game, *[act.DRAW_FREE] * 3)
    use(game, "raft/realization")
    target(game, "distracted")
    play(game, act.END_FIGHT)
    assert keys(game.destroyed) == ["distracted"]
    assert bag(game.discard) == ["further/food", "genius", "raft/realization"]
    assert (game.life, game.table, game.hazard) == (20, [], -1)


# --------------------------------------------------------------- R22 pirates


def test_r22_choose_the_first_pirate_then_fight_the_other_at_once():
    game = scenario(
        step="pirates",
        robinson_stack=["genius", *TWENTY],
        aging_stack=ALL_AGING,
        pirates=["pirate/20", "pirate/aging"],
    )
    assert game.phase == Phase.CHOOSE_PIRATE
    assert game.legal_actions() == [act.CHOOSE_PIRATE_0, act.CHOOSE_PIRATE_1]
    choose_pirate(game, "pirate/aging")
    assert (game.fight_value(), game.free_total) == (0, 5)  # no aging card added
    play(game, act.DRAW_FREE, act.END_FIGHT)
    assert keys(game.beaten) == ["pirate/aging"] and keys(game.discard) == ["genius"]
    assert game.phase == Phase.FIGHT and keys([game.hazard]) == ["pirate/20"]
    assert (game.fight_value(), game.free_total, game.free_used) == (20, 6, 0)
    play(game, *[act.DRAW_FREE] * 6)
    assert game.fight_total() == 20
    play(game, act.END_FIGHT)
    assert game.done and game.won
    assert bag(game.beaten) == ["pirate/20", "pirate/aging"] and game.pirates == []


def test_r22_a_pirate_fight_is_lost_when_nothing_can_still_win():
    game = scenario(
        step="pirates", robinson_stack=["weak"] * 7, pirates=["pirate/20", "pirate/25"], life=0
    )
    choose_pirate(game, "pirate/20")
    play(game, *[act.DRAW_FREE] * 5)
    assert not game.done
    play(game, act.DRAW_FREE)  # 6 free cards used, 0 life: no paid draw, 0 against 20
    assert game.done and not game.won
    assert game.beaten == [] and len(game.table) == 6


def test_r22_an_ability_that_can_still_help_keeps_the_pirate_fight_going():
    game = scenario(
        step="pirates",
        robinson_stack=["weak"] * 5 + ["eating", "cannibals/weapon", "weak"],
        pirates=["pirate/20", "pirate/25"],
        life=0,
    )
    choose_pirate(game, "pirate/20")
    play(game, *[act.DRAW_FREE] * 6)
    assert not game.done and game.legal_actions() == [act.USE_0 + 5]  # eating: +2 life
    use(game, "eating")
    assert game.legal_actions() == [act.DRAW_PAID]
    play(game, act.DRAW_PAID)  # the weapon, still 4 against 20, 1 life left
    assert (game.life, game.fight_total()) == (1, 4)
    assert not game.done and game.legal_actions() == [act.DRAW_PAID]


def test_r22_the_hazard_discard_pile_is_no_longer_used():
    game = scenario(
        step="red",
        hazard_stack=["raft/food"],
        hazard_discard=["raft/books", "animals/vision"],
        pirates=["pirate/20", "pirate/25"],
    )
    play(game, act.SKIP_LAST_HAZARD)
    assert game.phase == Phase.CHOOSE_PIRATE and game.hazard_stack == []
    assert bag(game.hazard_discard) == ["animals/vision", "raft/books", "raft/food"]
    assert game.score() == -9  # they still count -3 each (R25)


# ------------------------------------------------------- R23 special pirates


def test_r23_two_life_pirate_each_paid_card_costs_two():
    stack = ["weak"] * 8 + ["genius"]
    game = scenario(step="pirates", robinson_stack=stack, pirates=["pirate/two-life", "pirate/20"])
    choose_pirate(game, "pirate/two-life")
    play(game, *[act.DRAW_FREE] * 7)
    assert game.describe(act.DRAW_PAID) == "draw a card for 2 life"
    play(game, act.DRAW_PAID)
    assert (game.life, game.reserve) == (18, 4)


def test_r23_two_life_pirate_with_one_life_left_is_lost():
    stack = ["weak"] * 8
    game = scenario(
        step="pirates", robinson_stack=stack, pirates=["pirate/two-life", "pirate/20"], life=1
    )
    choose_pirate(game, "pirate/two-life")
    play(game, *[act.DRAW_FREE] * 7)  # 0 against 16, a paid card would cost 2
    assert game.done and not game.won
    assert (game.life, game.reserve) == (1, 21)  # D07


def test_r23_plus_one_pirate_counts_every_card_face_down_too():
    stack = ["raft/realization", "distracted", "stupid", "weak", "genius"]
    game = scenario(step="pirates", robinson_stack=stack, pirates=["pirate/plus-one", "pirate/20"])
    choose_pirate(game, "pirate/plus-one")
    play(game, *[act.DRAW_FREE] * 5)
    assert game.fight_total() == (0 - 1 - 2 + 0 + 2) + 5
    use(game, "raft/realization")
    target(game, "stupid")
    assert game.fight_total() == (0 - 1 + 0 + 0 + 2) + 5
    assert game.fight_value() == 52 and game.free_total == 10


def test_r23_half_pirate_counts_aging_cards_first_then_the_best():
    stack = ["cannibals/weapon", "stupid", "genius", "focused", "hungry", "moronic", "weak"]
    game = scenario(step="pirates", robinson_stack=stack, pirates=["pirate/half", "pirate/20"])
    choose_pirate(game, "pirate/half")
    assert (game.fight_value(), game.free_total) == (22, 9)
    play(game, act.DRAW_FREE)
    assert game.fight_total() == 4  # 1 card: it counts
    play(game, act.DRAW_FREE)
    assert game.fight_total() == -2  # 2 cards, 1 counts: the aging card must
    play(game, act.DRAW_FREE)
    assert game.fight_total() == 2  # 3 cards, 2 count: stupid and the weapon
    play(game, act.DRAW_FREE)
    assert game.fight_total() == 2  # 4 cards, 2 count: stupid and the weapon
    play(game, act.DRAW_FREE, act.DRAW_FREE)
    assert game.fight_total() == 0 - 2 - 4  # 6 cards, 3 count: the three aging cards
    play(game, act.DRAW_FREE)  # 7 cards, 4 count: all three aging cards and the weapon
    assert game.fight_total() == 0 - 2 - 4 + 4


def test_r23_half_pirate_face_down_aging_cards_no_longer_have_to_count():
    stack = ["raft/realization", "stupid", "cannibals/weapon", "genius"]
    game = scenario(step="pirates", robinson_stack=stack, pirates=["pirate/half", "pirate/20"])
    choose_pirate(game, "pirate/half")
    play(game, *[act.DRAW_FREE] * 4)
    assert game.fight_total() == -2 + 4
    use(game, "raft/realization")
    target(game, "stupid")
    assert game.fight_total() == 4 + 2


def test_r23_aging_pirate_value_is_fixed_when_its_fight_starts():
    aging = ["stupid", "stupid", "scared", "scared", "hungry", "very tired"]  # 4 of 10 gone
    game = scenario(
        step="pirates",
        robinson_stack=["weak"],
        aging_stack=aging,
        pirates=["pirate/aging", "pirate/20"],
    )
    choose_pirate(game, "pirate/aging")
    assert (game.fight_value(), game.free_total) == (8, 5)
    play(game, act.DRAW_FREE, act.DRAW_FREE)  # a reshuffle adds a fifth aging card
    assert len(game.aging) == 5
    assert game.fight_value() == 8


def test_r23_all_hazards_pirate_sums_the_hazard_discard_pile():
    game = scenario(
        step="pirates",
        robinson_stack=["weak"],
        hazard_discard=["raft/food", "animals/vision", "cannibals/weapon"],
        pirates=["pirate/all-hazards", "pirate/20"],
    )
    choose_pirate(game, "pirate/all-hazards")
    assert game.fight_value() == 3 + 11 + 14  # red values
    assert game.free_total == 1 + 4 + 5
    assert len(game.hazard_discard) == 3  # they stay, and count -3 each at the end
