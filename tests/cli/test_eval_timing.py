"""``friday eval``'s games/s measures play: a game's ``seconds`` start after the agent has
loaded what the level needs (``Agent.prepare``), so the first game of a level does not carry
the model's loading."""

from __future__ import annotations

import time

import pytest

from friday_agents.evaluation import runner


class _SlowToLoad:
    """Plays at random; its level's "model" takes 0.5 s to load, on first use."""

    name = "slow-to-load"

    def __init__(self) -> None:
        from friday_agents.players.random_agent import RandomAgent

        self.player, self.loaded = RandomAgent(), set()

    def prepare(self, level: int) -> None:
        if level not in self.loaded:
            time.sleep(0.5)
            self.loaded.add(level)

    def reset(self, seed: int) -> None:
        self.player.reset(seed)

    def act(self, game) -> int:
        self.prepare(game.level)
        return self.player.act(game)


def test_a_games_seconds_leave_out_loading(monkeypatch):
    monkeypatch.setitem(runner._WORKER_AGENTS, "slow", _SlowToLoad())
    monkeypatch.setattr(runner, "_WORKER_DEALS", "evaluation")
    monkeypatch.setattr(runner, "_WORKER_SAVE", False)
    first = runner.play_task(runner.Task(agent="slow", level=1, index=0))
    assert first["seconds"] < 0.25, first["seconds"]


def test_ppo_loads_a_levels_default_model_in_prepare():
    pytest.importorskip("sb3_contrib")
    from friday_agents.players.ppo.agent import PPOAgent

    agent = PPOAgent()
    agent.prepare(2)
    assert len(agent._models) == 1
