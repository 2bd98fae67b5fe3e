"""Expert iteration: the search teaches a network, the network guides the search, round after
round (``friday distill``). See :mod:`friday_agents.learning.distill.rounds`."""
