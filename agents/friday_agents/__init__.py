"""Agents that play Friday, and the ``friday`` command-line tools that run them.

Installed as ``friday_agents`` (the folder is ``agents/friday_agents/``). Only this package
imports torch, and only where a learned policy needs it. By role (``docs/architecture.md``
describes every folder):

- ``players/`` — the players: the [`Agent`][friday_agents.players.base.Agent] protocol and
  [`play_game`][friday_agents.players.base.play_game] (``base``), agents by name and
  ``name:key=value`` specs (``registry``), ``random_agent``, ``human`` (``friday play``), and
  ``heuristic/``, ``search/`` (with ``guided`` and ``oracle``), ``ppo/``, ``net/``.
- ``learning/`` — what fits a player: ``sb3/`` (``friday train``), ``imitation/``
  (``friday imitate``), ``distill/`` (expert iteration), ``rl/`` (``friday rl``), ``fitting/``
  (the search's models).
- ``evaluation/`` — ``friday eval``: ``evaluate``, ``runner``, ``backends``, ``stats``,
  ``report``, ``plots``; ``strategy/``, the strategy analysis of a games file.
- ``bench/`` — ``friday bench``; ``models/`` — every model file an agent loads, with
  ``manifest.json``; ``cli/`` — the ``friday`` entry point, ``friday replay``, ``friday view``.
- The floor every role may import: ``seeds`` (evaluation, training and validation deals),
  ``games_file`` (the one reader of games files), ``conventions`` (what every subcommand
  shares), ``sections`` (generated Markdown sections).

The studies that reproduce this project's own results are scripts under
``experiments/<study>/``, not part of the package.
"""
