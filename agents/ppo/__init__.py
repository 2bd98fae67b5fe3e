"""MaskablePPO policies as Friday agents.

- ``agent`` — :class:`PPOAgent`, which plays a checkpoint with the policy's own action masking;
- ``checkpoint`` — loading, checking and saving checkpoints, each recording the observation
  encoder it was trained with;
- ``checkpoints/`` — the committed policy: ``ppo-all-levels.zip`` (imitation + DAgger, see
  ``experiments/imitation/``), or a level's own ``ppo-level<L>.zip`` if one is added.
"""

from friday_agents.ppo.agent import PPOAgent, PPOCheckpointError, default_checkpoint

__all__ = ["PPOAgent", "PPOCheckpointError", "default_checkpoint"]
