"""One door, one rule book: ``friday_env.Game`` is the type of a game of either core; the illegal
action message comes from one public function on both cores; both envs check their options
and play their episodes with the functions of ``friday_env.episode``."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import CORE_PARAMS
from gymnasium.utils import seeding

import friday_env
from friday_env import FridayEnv, Game, IllegalActionError, determinized, episode, replay, scenario
from friday_env import core as cores
from friday_env.actions import names
from friday_env.core import CoreError
from friday_env.engine import Game as ReferenceGame
from friday_env.errors import FridayError
from friday_env.record import GameRecord
from friday_env.vector import FridayVectorEnv

# ------------------------------------------------------------------ the door


@pytest.mark.parametrize("core", CORE_PARAMS)
def test_every_game_of_either_core_is_a_friday_env_game(core):
    game = Game.new(1, 7, core=core)
    made = {
        "new": game,
        "clone": game.clone(),
        "scenario": scenario(core=core),
        "replay": replay(GameRecord.of(game), core=core),
        "determinized": determinized(game, 3),
    }
    for how, other in made.items():
        assert isinstance(other, Game) and isinstance(other, friday_env.Game), how
        assert cores.core_of(other) == core and cores.is_game(other), how
    assert Game is friday_env.core.Game


def test_the_reference_engine_plays_alone_and_its_games_are_friday_env_games():
    game = ReferenceGame.new(1, 7)
    assert type(game) is ReferenceGame and isinstance(game, Game)
    assert cores.core_of(game) == "python"


# ------------------------------------------------------------------ illegal-action text


def _situations(core: str) -> list[Game]:
    """A hazard choice, a fight and a finished game on ``core``."""
    fight = Game.new(2, 17, core=core)
    fight.apply(fight.legal_actions()[0])
    over = Game.new(1, 3, core=core)
    while not over.done:
        over.apply(over.legal_actions()[-1])
    return [Game.new(1, 8, core=core), fight, over]


#: Illegal of every kind: ids outside the layout, a bool, a float, a string, ids not legal now.
_ILLEGAL = (-1, 199, True, 2.0, "end", np.int64(198), 198, 3)


@pytest.mark.parametrize("core", CORE_PARAMS)
def test_the_illegal_action_message_is_the_public_functions(core):
    for game in _situations(core):
        for action in _ILLEGAL:
            if action in game.legal_actions():
                continue
            with pytest.raises(IllegalActionError) as err:
                game.apply(action)
            assert str(err.value) == names.illegal_action_message(game, action)


@pytest.mark.parametrize("core", CORE_PARAMS)
def test_both_cores_take_the_message_from_that_function(core, monkeypatch):
    """The compiled binding calls the public function on its error path (no copy of it)."""
    monkeypatch.setattr(names, "illegal_action_message", lambda game, action: f"no {action}")
    with pytest.raises(IllegalActionError, match=r"^no 199$"):
        Game.new(1, 8, core=core).apply(199)


@pytest.mark.skipif("c" not in friday_env.available_cores(), reason="compiled core not built")
def test_the_illegal_action_message_is_the_same_on_both_cores():
    pairs = zip(_situations("python"), _situations("c"), strict=True)
    for reference, compiled in pairs:
        for action in _ILLEGAL:
            assert names.illegal_action_message(compiled, action) == (
                names.illegal_action_message(reference, action)
            )


# ------------------------------------------------------------------ one validator


def _errors(make, **options) -> tuple[type, str]:
    with pytest.raises(FridayError) as err:
        make(**options)
    return type(err.value), str(err.value)


@pytest.mark.parametrize(
    "options",
    [
        {"core": "fast"},
        {"core": 3},
        {"reward": "points"},
        {"reward": "progress", "progress_coef": -0.1},
        {"reward": "win_loss", "progress_coef": 0.1},
        {"illegal_action": "ignore"},
        {"level": 5},
    ],
)
def test_both_envs_refuse_a_bad_option_with_the_same_error(options):
    single, vector = _errors(FridayEnv, **options), _errors(FridayVectorEnv, **options)
    assert single == vector


def test_a_core_not_built_is_refused_alike_by_both_envs(monkeypatch):
    monkeypatch.setattr(cores, "_compiled", None)
    single, vector = _errors(FridayEnv, core="c"), _errors(FridayVectorEnv, core="c")
    assert single == vector == (CoreError, single[1])
    assert "the compiled core is not built in this installation" in single[1]


# ------------------------------------------------------------------ the rules


def test_the_seed_rule_is_one_draw_from_the_envs_generator():
    expected = [episode.draw_game_seed(seeding.np_random(40 + i)[0]) for i in range(2)]
    env = FridayEnv()
    env.reset(seed=40)
    assert env.game is not None and env.game.seed == expected[0]
    vector = FridayVectorEnv(num_envs=2, core="python")
    vector.reset(seed=40)
    assert [g.seed for g in vector._batch.games] == expected  # env i is seeded 40 + i


def test_rewards_and_statistics_of_an_ended_game():
    won = scenario(level=1, seed=0, core="python")
    won.won = True
    lost = scenario(level=1, seed=0, core="python")
    score = won.score() / episode.SCORE_SCALE
    assert episode.final_reward(won, "win_loss") == 1.0
    assert episode.final_reward(won, "win_loss", illegal=True) == -1.0
    assert episode.final_reward(lost, "win_loss") == -1.0
    assert episode.final_reward(won, "score", illegal=True) == score
    assert episode.final_stats(won, 12) == {
        "final_score": won.score(),
        "won": True,
        "level": 1,
        "fights": 0,
        "steps": 12,
        "hazards_beaten": 0,
        "pirates_beaten": 0,
        "end_step": episode.END_STEPS.index("pirates"),  # scenario()'s default step
    }
    ended = episode.final_stats(won, 12, illegal=True)
    assert ended["won"] is False and ended["illegal_action"] is True
    assert tuple(ended) == episode.STATS


def test_only_an_action_id_in_loss_mode_ends_a_game():
    assert episode.illegal_action_ends_game(198, "loss")
    assert episode.illegal_action_ends_game(np.int8(3), "loss")
    assert not episode.illegal_action_ends_game(198, "raise")
    for not_an_id in (199, -1, True, 2.0, "3"):
        assert not episode.illegal_action_ends_game(not_an_id, "loss")
