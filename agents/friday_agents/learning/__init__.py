"""The learning pipelines: each writes model files the players load.

``sb3/`` (``friday train``: MaskablePPO through Stable-Baselines3), ``imitation/``
(``friday imitate``), ``distill/`` (rounds of search-guided play and network fitting),
``rl/`` (``friday rl``: our own PPO), ``fitting/`` (the search's models from games files) and
``leaf_value/`` (``friday value``: the search's learned leaf value, positions and fit).
"""
