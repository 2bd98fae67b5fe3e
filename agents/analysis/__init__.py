"""Analyses of how agents play: :mod:`~friday_agents.analysis.trace` replays a game into
its events, :mod:`~friday_agents.analysis.strategy` compares two players on the same deals
(``python -m friday_agents.analysis.strategy``)."""
