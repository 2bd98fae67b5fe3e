"""Rulings R01-R08: tokens, death, the turn, drawing, ending a fight, stop, reshuffle.

Every test is a scripted scenario (``friday_env.scenario``) asserting where cards end up,
life, reserve and what the player may do next. Hazard values (green/yellow/red, free cards):
raft 0/1/3 (1), exploring 1/3/6 (2), further 2/5/8 (3), animals 4/7/11 (4), cannibals 5/9/14 (5).
"""

from __future__ import annotations

import pytest
from conftest import bag, can_use, destroy, fight, keys, play, table, top_first, use

from friday_env import Game, Phase, ScenarioError, public_view, scenario
from friday_env import actions as act
from friday_env.engine import LEFT

# ---------------------------------------------------------------- R01 tokens


def test_r01_paid_life_goes_to_the_reserve_and_comes_back():
    game = fight("exploring/weapon", robinson_stack=["weak", "weak", "raft/food", "genius"])
    play(game, act.DRAW_FREE, act.DRAW_FREE, act.DRAW_PAID)
    assert (game.life, game.reserve) == (19, 3)
    use(game, "raft/food")  # +1 life from the reserve
    assert (game.life, game.reserve) == (20, 2)
    play(game, act.END_FIGHT)  # 0 against 1: lost by 1
    assert (game.life, game.reserve) == (19, 3)


def test_r01_life_never_rises_above_22():
    game = fight("exploring/weapon", robinson_stack=["eating", "raft/food", "genius"], life=21)
    play(game, act.DRAW_FREE, act.DRAW_FREE)
    use(game, "eating")  # +2 life, but only 1 token is left in the reserve
    assert (game.life, game.reserve) == (22, 0)
    assert not can_use(game, "raft/food")  # nothing left in the reserve to take (R09)


def test_r01_level_4_has_20_tokens():
    game = Game.new(level=4, seed=3)
    assert (game.life, game.reserve) == (18, 2)
    assert (scenario(level=4, life=19).reserve) == 1
    with pytest.raises(ScenarioError, match="life must be an integer from 0 to 20"):
        scenario(level=4, life=21)


# ------------------------------------------------------------- R02 death


def test_r02_life_zero_is_fine():
    game = fight("further/food", robinson_stack=["weak", "weak", "weak", "genius"], life=2)
    play(game, act.DRAW_FREE, act.END_FIGHT)  # 0 against 2: lost by 2, all his life
    assert (game.life, game.reserve) == (0, 22)
    assert not game.done
    play(game, act.FINISH_DESTROYING)
    assert game.phase == Phase.CHOOSE_HAZARD


def test_r02_a_payment_larger_than_life_loses_at_once():
    game = fight("further/food", robinson_stack=["weak", "weak", "weak"], life=1)
    play(game, act.DRAW_FREE, act.END_FIGHT)  # lost by 2 with 1 life
    assert game.done and not game.won
    assert (game.life, game.reserve) == (1, 21)  # D07: tokens stay where they are
    assert table(game) == ["weak"]
    assert game.legal_actions() == []


# ------------------------------------------------- R03 end-of-fight payments


def test_r03_aging_penalty_is_paid_in_a_won_fight():
    game = fight("exploring/weapon", robinson_stack=["genius", "hungry"])
    play(game, act.DRAW_FREE, act.DRAW_FREE, act.END_FIGHT)  # 2 against 1: won
    assert (game.life, game.reserve) == (19, 3)
    assert bag(game.discard) == ["exploring/weapon", "genius", "hungry"]


def test_r03_aging_penalty_in_a_won_fight_can_kill():
    game = fight("exploring/weapon", robinson_stack=["genius", "hungry"], life=0)
    play(game, act.DRAW_FREE, act.DRAW_FREE, act.END_FIGHT)
    assert game.done and not game.won
    assert (game.life, game.reserve) == (0, 22)


def test_r03_difference_and_penalty_are_added_up():
    stack = ["very hungry", "weak", "weak"]
    game = fight("exploring/weapon", robinson_stack=stack, life=3)
    play(game, act.DRAW_FREE, act.DRAW_FREE, act.END_FIGHT)  # lost by 1, plus 2: 3 owed
    assert (game.life, game.reserve) == (0, 22)
    assert game.phase == Phase.LOSS_DESTROY and game.budget == 1  # the penalty buys nothing
    game = fight("exploring/weapon", robinson_stack=stack, life=2)
    play(game, act.DRAW_FREE, act.DRAW_FREE, act.END_FIGHT)  # 3 owed, 2 life
    assert game.done and not game.won


def _pirate_finale(life: int) -> Game:
    """Both pirates: "all remaining hazards" (raft/books left: value 3, 1 free) and "+2 per
    aging card" (one card, very hungry, gone from the aging stack: value 2, 5 free)."""
    aging = ["stupid", "stupid", "scared", "scared", "hungry", "very tired"]
    aging += ["aging/distracted", "moronic", "suicidal"]
    game = scenario(
        step="pirates",
        robinson_stack=["cannibals/weapon", "cannibals/weapon", "very hungry", "weak"],
        hazard_discard=["raft/books"],
        aging_stack=aging,
        pirates=["pirate/all-hazards", "pirate/aging"],
        life=life,
    )
    play(game, act.CHOOSE_PIRATE_0 + keys(game.pirates).index("pirate/all-hazards"))
    assert (game.fight_value(), game.free_total) == (3, 1)
    play(game, act.DRAW_FREE, act.END_FIGHT)  # 4 against 3: first pirate beaten
    assert keys(game.beaten) == ["pirate/all-hazards"]
    assert game.phase == Phase.FIGHT and keys([game.hazard]) == ["pirate/aging"]  # at once
    assert (game.fight_value(), game.free_total) == (2, 5)
    play(game, act.DRAW_FREE, act.DRAW_FREE)  # weapon and very hungry: 4 against 2
    return game


def test_r03_penalty_against_the_second_pirate_can_kill():
    game = _pirate_finale(life=1)
    play(game, act.END_FIGHT)  # won on points, but 2 life owed with 1
    assert game.done and not game.won
    assert keys(game.beaten) == ["pirate/all-hazards"]


def test_r03_penalty_against_the_second_pirate_paid_with_all_life():
    game = _pirate_finale(life=2)
    play(game, act.END_FIGHT)
    assert game.done and game.won
    assert (game.life, game.reserve) == (0, 22)
    assert bag(game.beaten) == ["pirate/aging", "pirate/all-hazards"]


# ------------------------------------------------------- R04 hazard choice


def test_r04_two_hazards_drawn_one_fought_other_discarded():
    hazards = ["raft/food", "animals/vision", "exploring/weapon", "further/food"]
    game = scenario(hazard_stack=hazards)
    assert game.phase == Phase.CHOOSE_HAZARD
    assert keys(game.offer) == ["raft/food", "animals/vision"]
    assert keys(game.hazard_stack) == ["further/food", "exploring/weapon"]
    play(game, act.CHOOSE_HAZARD_1)
    assert keys([game.hazard]) == ["animals/vision"]
    assert keys(game.hazard_discard) == ["raft/food"]
    assert (game.fight_value(), game.free_total) == (4, 4)


def test_r04_one_hazard_left_can_be_fought_in_this_step():
    game = scenario(
        hazard_stack=["exploring/weapon"],
        hazard_discard=["raft/food", "raft/books"],
        robinson_stack=["genius", "weak"],
    )
    assert game.phase == Phase.LAST_HAZARD
    assert game.legal_actions() == [act.FIGHT_LAST_HAZARD, act.SKIP_LAST_HAZARD]
    play(game, act.FIGHT_LAST_HAZARD)
    assert game.step == 0  # still green
    assert game.fight_value() == 1
    play(game, act.DRAW_FREE, act.END_FIGHT)  # won: the hazard joins Robinson's cards
    assert "exploring/weapon" in keys(game.discard)
    assert game.step == 1  # yellow: the two discarded hazards are the new pile
    assert bag(game.offer + game.hazard_stack) == ["raft/books", "raft/food"]
    assert game.hazard_discard == []


def test_r04_one_hazard_left_can_be_skipped():
    game = scenario(hazard_stack=["animals/vision"], hazard_discard=["raft/food", "raft/books"])
    play(game, act.SKIP_LAST_HAZARD)
    assert game.step == 1 and game.phase == Phase.CHOOSE_HAZARD
    assert bag(game.offer + game.hazard_stack) == ["animals/vision", "raft/books", "raft/food"]
    assert len(game.offer) == 2 and len(game.hazard_stack) == 1


def test_r04_empty_hazard_pile_moves_to_the_next_step():
    game = scenario(step="yellow", hazard_discard=["raft/food", "raft/books", "further/food"])
    assert game.step == 2  # red
    assert bag(game.offer + game.hazard_stack) == ["further/food", "raft/books", "raft/food"]
    assert game.hazard_discard == []


def test_r04_an_empty_new_pile_moves_on_again():
    game = scenario(step="green")  # no hazard anywhere: yellow and red are empty too
    assert game.step == 3 and game.phase == Phase.CHOOSE_PIRATE


def test_r04_after_red_come_the_pirates_and_the_discard_pile_stays():
    game = scenario(step="red", hazard_stack=["raft/food"], hazard_discard=["raft/books"])
    play(game, act.SKIP_LAST_HAZARD)
    assert game.step == 3 and game.phase == Phase.CHOOSE_PIRATE
    assert bag(game.hazard_discard) == ["raft/books", "raft/food"]
    assert game.hazard_stack == []


# ----------------------------------------------------------- R05 drawing


def test_r05_free_cards_left_then_paid_cards_right():
    game = fight("exploring/weapon", robinson_stack=["weak", "focused", "genius", "weak"])
    assert game.legal_actions() == [act.DRAW_FREE]  # no paid draw while a free one is left
    play(game, act.DRAW_FREE)
    assert act.DRAW_FREE in game.legal_actions() and act.DRAW_PAID not in game.legal_actions()
    play(game, act.DRAW_FREE)
    assert act.DRAW_FREE not in game.legal_actions() and act.DRAW_PAID in game.legal_actions()
    play(game, act.DRAW_PAID)
    assert table(game) == ["weak", "focused", "genius"]
    assert [f & LEFT for f in game.flags] == [LEFT, LEFT, 0]
    assert (game.life, game.reserve, game.free_used) == (19, 3, 2)
    assert top_first(game) == ["weak"]


def test_r05_paid_draw_is_offered_only_with_life_to_pay():
    game = fight("raft/food", robinson_stack=["weak", "genius"], life=0)
    play(game, act.DRAW_FREE)
    assert act.DRAW_PAID not in game.legal_actions()
    assert game.legal_actions() == [act.END_FIGHT]


# ------------------------------------------------------- R06 ending a fight


def test_r06_ending_needs_a_card_drawn():
    game = fight("animals/vision", robinson_stack=["weak", "weak"])
    assert act.END_FIGHT not in game.legal_actions()
    play(game, act.DRAW_FREE)
    assert act.END_FIGHT in game.legal_actions()  # even with 3 free cards left


def test_r06_equal_total_is_a_win_and_the_result_is_not_chosen():
    game = fight("exploring/weapon", robinson_stack=["focused", "weak"])
    play(game, act.DRAW_FREE)
    assert game.describe(act.END_FIGHT) == "end the fight: 1 against 1 (win)"
    play(game, act.END_FIGHT)
    assert bag(game.discard) == ["exploring/weapon", "focused"]
    assert game.hazard_discard and "exploring/weapon" not in keys(game.hazard_discard)
    assert (game.life, game.phase) == (20, Phase.CHOOSE_HAZARD)


def test_r06_a_pirate_fight_ends_only_as_a_win():
    game = scenario(
        step="pirates", robinson_stack=["genius"] + ["weak"] * 8, pirates=["pirate/20", "pirate/25"]
    )
    play(game, act.CHOOSE_PIRATE_0, act.DRAW_FREE)
    assert act.END_FIGHT not in game.legal_actions()


# ---------------------------------------------------------- R07 stop card


def test_r07_stop_card_on_left_ends_free_draws():
    game = fight("further/food", robinson_stack=["very tired", "genius", "focused"])
    play(game, act.DRAW_FREE)
    assert game.free_used == 1 and game.free_total == 3
    assert act.DRAW_FREE not in game.legal_actions()
    assert act.DRAW_PAID in game.legal_actions()  # only paid cards now


def test_r07_stop_card_on_right_is_just_a_zero():
    game = fight("further/food", robinson_stack=["further/experience", "very tired", "genius"])
    play(game, act.DRAW_FREE)
    use(game, "further/experience")  # +1 card: very tired lands on the right
    assert game.flags[1] & LEFT == 0
    assert act.DRAW_FREE in game.legal_actions()
    play(game, act.DRAW_FREE)
    assert table(game) == ["further/experience", "very tired", "genius"]
    assert game.fight_total() == 4


def test_r07_free_draws_come_back_when_stop_card_is_destroyed():
    stack = ["raft/realization", "very tired", "genius", "focused"]
    game = fight("further/food", robinson_stack=stack)
    play(game, act.DRAW_FREE, act.DRAW_FREE)
    assert act.DRAW_FREE not in game.legal_actions()
    use(game, "raft/realization")
    play(game, act.TARGET_0 + 1)  # destroy very tired
    assert act.DRAW_FREE in game.legal_actions()
    play(game, act.DRAW_FREE)  # genius, the third free card
    assert act.DRAW_FREE not in game.legal_actions()
    play(game, act.END_FIGHT)  # 2 against 2: won
    assert keys(game.destroyed) == ["very tired"]
    assert bag(game.discard) == ["further/food", "genius", "raft/realization"]


def test_r07_free_draws_come_back_when_stop_card_is_exchanged():
    stack = ["further/strategy", "very tired", "genius", "focused"]
    game = fight("animals/vision", robinson_stack=stack)
    play(game, act.DRAW_FREE, act.DRAW_FREE)
    assert act.DRAW_FREE not in game.legal_actions()
    use(game, "further/strategy")
    play(game, act.TARGET_0 + 1)  # very tired to the discard pile, genius in its place
    assert table(game) == ["further/strategy", "genius"]
    assert keys(game.discard) == ["very tired"]
    assert game.flags[1] & LEFT
    assert act.DRAW_FREE in game.legal_actions() and game.free_used == 2
    play(game, act.DRAW_FREE, act.DRAW_FREE)
    assert game.free_used == 4 and len(game.stack) == 0


def test_r07_free_draws_come_back_when_stop_card_goes_below():
    stack = ["raft/deception", "very tired", "genius", "focused"]
    game = fight("further/food", robinson_stack=stack)
    play(game, act.DRAW_FREE, act.DRAW_FREE)
    use(game, "raft/deception")
    play(game, act.TARGET_0 + 1)  # very tired under the stack, its free draw back (R18)
    assert top_first(game) == ["genius", "focused", "very tired"]
    assert game.free_used == 1
    play(game, act.DRAW_FREE, act.DRAW_FREE)
    assert table(game) == ["raft/deception", "genius", "focused"]
    assert act.DRAW_FREE not in game.legal_actions()  # 3 of 3 used


def test_r07_stop_card_exchanged_onto_the_left_stops_free_draws():
    stack = ["further/strategy", "distracted", "very tired", "genius"]
    game = fight("animals/vision", robinson_stack=stack)
    play(game, act.DRAW_FREE, act.DRAW_FREE)
    use(game, "further/strategy")
    play(game, act.TARGET_0 + 1)  # distracted out, very tired on its (left) spot
    assert table(game) == ["further/strategy", "very tired"] and game.flags[1] & LEFT
    assert game.free_used == 2 and act.DRAW_FREE not in game.legal_actions()


# ---------------------------------------------------------- R08 reshuffle


def test_r08_drawing_the_last_card_does_not_reshuffle():
    game = fight(
        "further/food",
        robinson_stack=["weak"],
        robinson_discard=["genius", "focused"],
        aging_stack=["hungry", "stupid"],
    )
    play(game, act.DRAW_FREE)
    assert game.stack == [] and bag(game.discard) == ["focused", "genius"]
    assert len(game.aging) == 2


def test_r08_reshuffle_adds_the_top_aging_card_unseen():
    stayed_unseen = 0
    for seed in range(8):
        game = fight(
            "further/food",
            robinson_stack=["weak"],
            robinson_discard=["genius", "focused", "weak"],
            aging_stack=["hungry", "stupid"],
            seed=seed,
        )
        play(game, act.DRAW_FREE, act.DRAW_FREE)  # the stack is empty: reshuffle first
        assert keys(game.aging) == ["stupid"]
        assert game.discard == []
        drawn = game.table[1]
        assert bag([*game.stack, drawn]) == ["focused", "genius", "hungry", "weak"]
        view = public_view(game)
        if keys([drawn]) == ["hungry"]:  # drawn, so seen
            assert game.unseen == [] and view["robinson_stack_unseen_aging"] == 0
            continue
        stayed_unseen += 1  # in the stack, known only as "an aging card"
        assert view["robinson_stack_unseen_aging"] == 1
        assert sorted(view["robinson_stack_known"]) == [k for k in bag(game.stack) if k != "hungry"]
        assert sorted(view["unknown_aging_pool"]) == ["hungry", "stupid"]
    assert stayed_unseen > 0


def test_r08_reshuffle_with_the_only_aging_card():
    game = fight("further/food", robinson_stack=["weak"], aging_stack=["stupid"])
    play(game, act.DRAW_FREE, act.DRAW_FREE)  # empty discard: the aging card is the stack
    assert table(game) == ["weak", "stupid"]
    assert game.aging == [] and game.stack == []


def test_r08_reshuffle_with_no_aging_card_left():
    game = fight(
        "further/food", robinson_stack=["weak"], robinson_discard=["genius", "focused", "weak"]
    )
    play(game, act.DRAW_FREE, act.DRAW_FREE)
    assert bag(game.stack + game.table) == ["focused", "genius", "weak", "weak"]
    assert game.discard == [] and game.unseen == []


def test_r08_no_card_anywhere_means_no_draw():
    game = fight("further/food", robinson_stack=["weak"])
    play(game, act.DRAW_FREE)
    assert act.DRAW_FREE not in game.legal_actions()
    assert act.DRAW_PAID not in game.legal_actions()
    play(game, act.END_FIGHT)  # 0 against 2: lost
    assert (game.life, game.budget, game.phase) == (18, 2, Phase.LOSS_DESTROY)
    destroy(game, "weak")
    assert keys(game.destroyed) == ["weak"]
    assert game.phase == Phase.CHOOSE_HAZARD
