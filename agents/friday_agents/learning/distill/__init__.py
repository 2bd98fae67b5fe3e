"""Expert iteration: the search teaches a network, the network guides the search, round after
round (``friday distill``). See
[`friday_agents.learning.distill.rounds`][friday_agents.learning.distill.rounds]."""
