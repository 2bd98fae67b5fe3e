"""Analyses of how agents play: :mod:`~friday_agents.evaluation.strategy.trace` replays a game into
its events, :mod:`~friday_agents.evaluation.strategy.strategy` compares two players on the same deals
(``python -m friday_agents.evaluation.strategy.strategy``)."""
