"""The hand-written heuristic agent and its parts.

- ``agent`` — [`HeuristicAgent`][friday_agents.players.heuristic.agent.HeuristicAgent] and
  [`heuristic_action`][friday_agents.players.heuristic.agent.heuristic_action], the decision per
  phase;
- ``rules`` — hazard choice, pay-or-lose lookahead, losses on purpose,
  [`HeuristicParams`][friday_agents.players.heuristic.agent.HeuristicParams];
- ``fight`` — the in-fight decisions (free draws, abilities, when to stop drawing);
- ``card_worth`` — what a card is worth to Robinson's deck, and what the draw pile holds.

The settings were measured on training deals by ``python experiments/heuristic-tuning/tune.py``
(a study script, not part of the package).
"""

from friday_agents.players.heuristic.agent import HeuristicAgent, heuristic_action

__all__ = ["HeuristicAgent", "heuristic_action"]
