"""Agents that play Friday, and the ``friday`` command-line tools that run them.

Installed as ``friday_agents`` (the folder is ``agents/friday_agents/``). Only this package
imports torch, and only where a network is trained or a MaskablePPO policy is loaded.
Arranged by role; each part imports only those listed before it (checked by
``tests/docs/test_imports.py``):

- the floor — ``harness/``: ``deals`` (evaluation, validation and training deals),
  ``games_file`` (the one reader of games files), ``parallel`` (the parallel game runner),
  ``stats`` (confidence intervals), ``progress`` (the bar format, durations), ``files``
  (output paths, run folders, model files, atomic writes), ``interrupts`` (Ctrl-C),
  ``errors`` (bad input, missing extras), ``run_lock`` (one command at a time in an output
  folder) and ``parent_watch`` (worker processes that end with their parent);
- ``models/`` — every model file an agent loads, named by role (``guided-prior``, ``net``,
  ...), with ``manifest.json``;
- ``players/`` — ``base`` (the ``Agent`` protocol, ``play_game``), ``registry`` (agents by
  name and ``name:key=value`` specs), ``random_agent``, ``human`` (``friday play``),
  ``heuristic/``, ``search/`` (``search``, ``guided``, ``oracle``), ``ppo/`` (MaskablePPO
  policies), ``net/`` (a policy network alone) and ``networks/`` (the linear value, value and
  policy networks the players evaluate in numpy);
- ``evaluation/`` — ``friday eval`` (``evaluate``, ``runner``, ``progress``, ``report``,
  ``plots``) and ``strategy/`` (the strategy analysis of a games file);
- ``learning/`` — one stack per job: ``sb3/`` (``friday train``, MaskablePPO),
  ``imitation/`` (``friday imitate``, into the same SB3 policy), ``distill/`` (``friday
  distill``, expert iteration), ``rl/`` (``friday rl``, our own masked PPO), ``fitting/``
  (the search's models), and ``networks`` (the torch networks our own fits share);
- ``cli/`` — the ``friday`` entry point (``friday_agents.cli:main``), ``arguments`` (the
  flags and help text every subcommand shares), ``replay``, ``view`` and ``bench`` (which
  runs the source checkout's ``benchmarks/bench.py``);
- ``thirteen/`` — the second game, *Friday the 13th*: its agents, evaluation and self-play
  training (``friday thirteen``), apart from the solo game's.

The studies that reproduce this project's own results (tuning the heuristic, the search's
ingredients, expert iteration, RL, the imitation study) are scripts under
``experiments/<study>/``, not part of the package.
"""
