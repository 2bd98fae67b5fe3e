"""Agents that play Friday, and the ``friday`` command-line tools that run them.

Installed as ``friday_agents`` (the folder is ``agents/``). Only this package imports torch,
and only where a learned policy needs it.

- ``base`` — the :class:`~friday_agents.base.Agent` protocol and
  :func:`~friday_agents.base.play_game`; ``registry`` — agents by name and ``name:key=value``
  specs; ``seeds`` — evaluation deals vs training deals (level lists are parsed by
  :mod:`friday_env.levels`).
- ``random_agent`` — the uniform baseline; ``human`` — ``friday play`` in the terminal.
- ``heuristic/`` — the hand-written agent: ``agent``, ``rules``, ``fight``, ``card_worth``,
  ``tune`` (settings measured on training deals).
- ``search/`` — determinized Monte-Carlo search: ``agent``, ``value`` (the value model),
  ``value_fit`` (fits it), ``value_levels`` (a value model per level, the default
  ``value_per_level.json``), ``value_check``.
- ``ppo/`` — MaskablePPO policies: ``agent``, ``checkpoint`` (loading, export, the recorded
  encoder), ``checkpoints/`` (the committed policy of each level).
- ``evaluation/`` — ``friday eval``: ``evaluate``, ``runner``, ``stats``, ``report``, ``plots``.
- ``training/`` — ``friday train``: ``train``, ``config``, ``envs`` (deals and rewards).
- ``bench/`` — ``friday bench``: ``suite``, ``measure``, ``envs``, ``report``.
- ``cli/`` — the ``friday`` entry point (``friday_agents.cli:main``) and ``replay``
  (``friday replay``, the record viewer).
"""
