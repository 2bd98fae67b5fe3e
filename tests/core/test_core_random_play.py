"""random_play, the bench's random legal play in C (agents/friday_agents/players/random_play.c):
the Python engine plays the same games, bad arguments are refused, and Ctrl-C stops a long
run promptly."""

from __future__ import annotations

import pytest
from c_calls import assert_interrupted_promptly

from friday_agents.learning.explore.archive import splitmix64
from friday_env import Game

kernels = pytest.importorskip("friday_agents.players._kernels", reason="the kernels are not built")


def python_random_play(actions: int, seed: int) -> int:
    """random_play's games on the Python engine, the same choices: the games begun."""
    state, deal, games = seed, seed, 1
    game = Game.new(deal % 4 + 1, deal, core="python")
    for _ in range(actions):
        if game.done:
            deal, games = deal + 1, games + 1
            game = Game.new(deal % 4 + 1, deal, core="python")
        legal = game.legal_actions()
        state, out = splitmix64(state)
        game.apply(legal[(out >> 33) % len(legal)])
    return games


@pytest.mark.parametrize("seed", [0, 7, 2**64 - 100])
def test_random_play_in_core_plays_the_python_engines_games(seed):
    played, games = kernels.random_play(3000, seed)
    assert played == 3000
    assert games == python_random_play(3000, seed) > 10


def test_random_play_arguments():
    assert kernels.random_play(0, 5) == (0, 1)
    with pytest.raises(ValueError, match="actions must be >= 0"):
        kernels.random_play(-1, 0)
    with pytest.raises(OverflowError):
        kernels.random_play(10, -1)


def test_ctrl_c_stops_a_long_random_play_promptly():
    """A run of 10**12 actions (hours) must stop within a second of SIGINT."""
    assert_interrupted_promptly(
        "from friday_agents.players._kernels import random_play\nrandom_play(10**12, 1)"
    )
