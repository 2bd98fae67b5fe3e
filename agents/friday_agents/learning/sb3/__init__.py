"""``friday train``: MaskablePPO on ``Friday-v0``.

- ``train`` — the command and the training loop (curve, checkpoints, resume);
- ``config`` — [`TrainConfig`][friday_agents.learning.sb3.config.TrainConfig], one typed field per
  flag;
- ``envs`` — training envs, deal streams and reward wrappers.
"""
