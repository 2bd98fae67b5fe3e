"""Analyses of how agents play: `trace` replays a game into
its events, `strategy` compares two players on the same deals
(``python -m friday_agents.evaluation.strategy.strategy``)."""
