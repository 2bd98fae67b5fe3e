"""Fitting the search's models on games files (numpy only).

- ``value_fit`` — the linear leaf value, on heuristic games or recorded games
  (``python -m friday_agents.learning.fitting.value_fit``);
- ``value_net_fit`` — the value network
  (``python -m friday_agents.learning.fitting.value_net_fit``);
- ``policy_net_fit`` — the policy prior, on the search's recorded games
  (``python -m friday_agents.learning.fitting.policy_net_fit``);
- ``game_data`` — recorded games as fitting data: training deals only, replayed to their
  turn-start states.

The fits sit apart from ``training/`` (``friday train``: MaskablePPO, torch) because they need
numpy alone, and apart from ``search/`` because an agent never fits anything while it plays.
What each committed model was fitted from, and by which command, is in
``agents/friday_agents/models/manifest.json``.
"""
