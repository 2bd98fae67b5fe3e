"""The rulebook's worked example ("A detailed example of a fight") and its five ideas.

Robinson fights Wild Animals in the green step (value 4, 4 free cards). The hazard is the
one whose knowledge side is "3 fighting points and 1x destroy": ``animals/realization``.
After two free cards he has 3 points; the third is an aging card that brings the total to 1.
The text's sum "0 + 3 - 2" and its use of "the vision" and "the strategy" with "2x exchange"
fix the three cards: ``raft/strategy`` (0, 2x exchange), ``animals/vision`` (3, sort 3
cards) and ``stupid`` (-2). Below them in Robinson's stack we choose (the text leaves it
open): ``focused`` (1), a destroy card ``exploring/realization`` (1), ``weak`` (0, the
"worst card" the text hopes has 0 points), then ``genius`` and ``distracted``.
"""

from __future__ import annotations

from conftest import bag, can_use, destroy, fight, keys, play, sort_index, target, top_first, use

from friday_env import Phase
from friday_env import actions as act
from friday_env.information import known_top_cards

HAZARD = "animals/realization"
BELOW = ["focused", "exploring/realization", "weak", "genius", "distracted"]


def the_situation(below: list[str] = BELOW):
    """The table as the rulebook shows it: strategy, vision, then the aging card."""
    game = fight(HAZARD, robinson_stack=["raft/strategy", "animals/vision", "stupid", *below])
    assert (game.fight_value(), game.free_total) == (4, 4)
    play(game, act.DRAW_FREE, act.DRAW_FREE)
    assert game.fight_total() == 3  # "after drawing the second free card ... 3 fighting points"
    play(game, act.DRAW_FREE)
    assert game.fight_total() == 1  # "... the aging card ... reduces the total to 1"
    return game


def test_worked_example_the_situation():
    game = the_situation()
    assert keys(game.table) == ["raft/strategy", "animals/vision", "stupid"]
    assert game.free_used == 3 and act.DRAW_FREE in game.legal_actions()  # one free card left
    assert can_use(game, "raft/strategy") and can_use(game, "animals/vision")
    assert game.describe(act.END_FIGHT) == "end the fight: 1 against 4 (lose by 3)"


def test_worked_example_1_the_simple_idea():
    """Draw the last of the 4 free cards (here: focused), then end the fight."""
    game = the_situation()
    play(game, act.DRAW_FREE)
    assert game.fight_total() == 2
    assert act.DRAW_FREE not in game.legal_actions()  # the free cards are used up
    play(game, act.END_FIGHT)  # lost by 2: the 2 points destroy the aging card
    assert (game.life, game.budget) == (18, 2)
    assert game.legal_actions() == [act.FINISH_DESTROYING] + [act.DESTROY_0 + s for s in range(4)]
    destroy(game, "stupid")
    assert keys(game.destroyed) == ["stupid"]
    assert bag(game.discard) == ["animals/vision", "focused", "raft/strategy"]
    assert HAZARD in keys(game.hazard_discard)
    assert top_first(game) == BELOW[1:]
    assert (game.life, game.reserve, game.phase) == (18, 4, Phase.CHOOSE_HAZARD)


def test_worked_example_2_the_interesting_idea():
    """Vision: look at the next 3, discard the least helpful, the most helpful on top; draw
    it for free. The most helpful is the destroy card: it removes the aging card, 4 against 4."""
    game = the_situation()
    use(game, "animals/vision")
    play(game, act.SORT_TAKE, act.SORT_TAKE)
    assert keys(game.sort_taken) == ["focused", "exploring/realization", "weak"]
    play(game, act.SORT_DISCARD_0 + sort_index(game, "weak"))  # the least helpful
    play(game, act.SORT_PLACE_0 + sort_index(game, "exploring/realization"))
    assert keys(known_top_cards(game)) == ["exploring/realization", "focused"]
    play(game, act.DRAW_FREE)  # the 4th free card
    use(game, "exploring/realization")
    target(game, "stupid")
    assert game.fight_total() == 4
    play(game, act.END_FIGHT)  # won: Wild Animals joins Robinson's cards
    assert keys(game.destroyed) == ["stupid"]
    assert bag(game.discard) == [
        "animals/realization",
        "animals/vision",
        "exploring/realization",
        "raft/strategy",
        "weak",
    ]
    assert top_first(game) == ["focused", "genius", "distracted"]
    assert (game.life, game.reserve) == (20, 2)


def test_worked_example_3_the_tricky_idea():
    """Vision with the worst card on top; draw it for free; the strategy exchanges the aging
    card and the worst card for the top 2 cards of the stack (known from the vision)."""
    game = the_situation()
    use(game, "animals/vision")
    play(game, act.SORT_TAKE, act.SORT_TAKE, act.SORT_KEEP_ALL)
    for card in ("weak", "exploring/realization"):  # focused goes third by itself
        play(game, act.SORT_PLACE_0 + sort_index(game, card))
    assert top_first(game)[:3] == ["weak", "exploring/realization", "focused"]
    play(game, act.DRAW_FREE)  # the worst card, for free
    assert game.fight_total() == 1
    use(game, "raft/strategy")  # 2x exchange
    target(game, "stupid")  # -> exploring/realization, on the aging card's spot
    target(game, "weak")  # -> focused
    table = ["raft/strategy", "animals/vision", "exploring/realization", "focused"]
    assert keys(game.table) == table
    assert game.fight_total() == 0 + 3 + 1 + 1
    play(game, act.END_FIGHT)  # won
    assert game.destroyed == []
    assert bag(game.discard) == [
        "animals/realization",
        "animals/vision",
        "exploring/realization",
        "focused",
        "raft/strategy",
        "stupid",  # exchanged, not destroyed: still Robinson's
        "weak",
    ]
    assert top_first(game) == ["genius", "distracted"]
    assert (game.life, game.reserve) == (20, 2)


def test_worked_example_4_a_different_idea():
    """Vision with the worst card (0 points) on top, draw it for free, then lose on purpose:
    4 - (0 + 3 - 2 + 0) = 3 life, which destroy the aging card (2) and the worst card (1).
    Wild Animals is not won."""
    game = the_situation()
    use(game, "animals/vision")
    play(game, act.SORT_TAKE, act.SORT_TAKE, act.SORT_KEEP_ALL)
    for card in ("weak", "exploring/realization"):
        play(game, act.SORT_PLACE_0 + sort_index(game, card))
    play(game, act.DRAW_FREE)
    assert keys(game.table)[-1] == "weak" and game.fight_total() == 1
    play(game, act.END_FIGHT)
    assert (game.life, game.reserve, game.budget) == (17, 5, 3)
    destroy(game, "stupid")
    destroy(game, "weak")  # the budget is spent: the fight is over
    assert bag(game.destroyed) == ["stupid", "weak"]
    assert bag(game.discard) == ["animals/vision", "raft/strategy"]
    assert HAZARD in keys(game.hazard_discard) and HAZARD not in keys(game.discard)
    assert top_first(game) == ["exploring/realization", "focused", "genius", "distracted"]
    assert game.phase == Phase.CHOOSE_HAZARD


def test_worked_example_5_the_risky_idea():
    """Draw the 4th free card, look at the next 3 with the vision, and if a destroy card is
    there, pay 1 life to draw it (right side) and destroy the aging card: win and be rid of it."""
    game = the_situation()
    play(game, act.DRAW_FREE)  # focused: 2 against 4
    use(game, "animals/vision")
    play(game, act.SORT_TAKE, act.SORT_TAKE, act.SORT_KEEP_ALL)
    assert keys(game.sort_taken) == ["exploring/realization", "weak", "genius"]  # found it
    for card in ("exploring/realization", "genius"):
        play(game, act.SORT_PLACE_0 + sort_index(game, card))
    play(game, act.DRAW_PAID)  # 1 life
    assert keys(game.table)[-1] == "exploring/realization" and game.flags[-1] == 0
    use(game, "exploring/realization")
    target(game, "stupid")
    assert game.fight_total() == 0 + 3 + 0 + 1 + 1
    assert can_use(game, "raft/strategy")  # plan B, not needed
    play(game, act.END_FIGHT)
    assert keys(game.destroyed) == ["stupid"]
    assert bag(game.discard) == [
        "animals/realization",
        "animals/vision",
        "exploring/realization",
        "focused",
        "raft/strategy",
    ]
    assert top_first(game) == ["genius", "weak", "distracted"]
    assert (game.life, game.reserve) == (19, 3)


def test_worked_example_5_the_risky_idea_plan_b():
    """The same plan when the vision finds no destroy card: the strategy's 2x exchange
    replaces the aging card with the best card the vision put on top."""
    game = the_situation(below=["focused", "weak", "distracted", "genius", "exploring/realization"])
    play(game, act.DRAW_FREE)
    use(game, "animals/vision")
    play(game, act.SORT_TAKE, act.SORT_TAKE)
    assert keys(game.sort_taken) == ["weak", "distracted", "genius"]  # no destroy card
    play(game, act.SORT_DISCARD_0 + sort_index(game, "distracted"))
    play(game, act.SORT_PLACE_0 + sort_index(game, "genius"))
    use(game, "raft/strategy")
    target(game, "stupid")  # -> genius
    play(game, act.STOP_EXCHANGING)  # 0 + 3 + 2 + 1 = 6: enough
    assert game.fight_total() == 6
    play(game, act.END_FIGHT)
    assert game.destroyed == []
    assert bag(game.discard) == [
        "animals/realization",
        "animals/vision",
        "distracted",
        "focused",
        "genius",
        "raft/strategy",
        "stupid",
    ]
    assert top_first(game) == ["weak", "exploring/realization"]
    assert (game.life, game.reserve) == (20, 2)
