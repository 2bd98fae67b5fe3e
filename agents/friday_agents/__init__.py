"""Agents that play Friday, and the ``friday`` command-line tools that run them.

Installed as ``friday_agents`` (the folder is ``agents/``). Only this package imports torch,
and only where a learned policy needs it.

- ``base`` — the [`Agent`][friday_agents.players.base.Agent] protocol and
  [`play_game`][friday_agents.players.base.play_game]; ``registry`` — agents by name and
  ``name:key=value`` specs; ``seeds`` — evaluation deals vs training deals (level lists are parsed
  by [`friday_env.levels`][friday_env.levels]); ``games_file`` — the one reader of games files (JSON
  lines); ``conventions`` — what every ``friday`` subcommand shares (flags, help text, missing
  extras).
- ``random_agent`` — the uniform baseline; ``human`` — ``friday play`` in the terminal.
- ``heuristic/`` — the hand-written agent: ``agent``, ``rules``, ``fight``, ``card_worth``.
- ``search/`` — determinized Monte-Carlo search, the players only: ``agent``, ``guided``,
  ``oracle``, ``value`` (the value model), ``value_levels`` (a value model per level),
  ``value_net``, ``policy_net`` (the prior), ``mlp``.
- ``fitting/`` — fitting the search's models on games files: ``value_fit``, ``value_net_fit``,
  ``policy_net_fit``, ``game_data`` (numpy only; ``training/`` is PPO's, with torch).
- ``models/`` — every model file an agent loads, named by role, with ``manifest.json``.
- ``ppo/`` — MaskablePPO policies: ``agent``, ``checkpoint`` (loading, export, the recorded
  encoder).
- ``evaluation/`` — ``friday eval``: ``evaluate``, ``runner``, ``stats``, ``report``, ``plots``.
- ``training/`` — ``friday train``: ``train``, ``config``, ``envs`` (deals and rewards).
- ``imitation/`` — ``friday imitate``; ``analysis/`` — the strategy analysis of a games file.
- ``bench/`` — ``friday bench``: ``suite``, ``measure``, ``envs``, ``report``.
- ``cli/`` — the ``friday`` entry point (``friday_agents.cli:main``), ``replay``
  (``friday replay``) and ``view`` (``friday view``).

The studies that reproduce this project's own results (tuning the heuristic, the search's
ingredients, the imitation study) are scripts under ``experiments/<study>/``, not part of the
package.
"""
