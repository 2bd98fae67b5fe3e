"""Fitting the search's models on games files (numpy only).

- ``value_fit`` — the linear leaf value, on heuristic games or recorded games
  (``friday fit linear-value``);
- ``value_net_fit`` — the value network
  (``friday fit value-net``);
- ``policy_net_fit`` — the policy prior, on the search's recorded games
  (``friday fit policy-net``);
- ``game_data`` — recorded games as fitting data: training deals only, replayed to their
  turn-start states.

Each fit is a settings dataclass and a function that runs it, callable from Python
(``fit_linear_value(LinearValueFit(out=Path("v.json")))``); ``friday fit`` only parses flags
into those settings.

The fits sit apart from ``training/`` (``friday train``: MaskablePPO, torch) because they need
numpy alone, and apart from ``search/`` because an agent never fits anything while it plays.
What each committed model was fitted from, and by which command, is in
``agents/friday_agents/models/manifest.json``.
"""
