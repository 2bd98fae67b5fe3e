"""MaskablePPO policies as Friday agents.

- ``agent`` — :class:`PPOAgent`, which plays a checkpoint with the policy's own action masking;
- ``checkpoint`` — loading, checking and saving checkpoints, each recording the observation
  encoder it was trained with;
- ``checkpoints/`` — the committed policies, one per level (``ppo-level<L>.zip``).
"""

from friday_agents.ppo.agent import PPOAgent, PPOCheckpointError, default_checkpoint

__all__ = ["PPOAgent", "PPOCheckpointError", "default_checkpoint"]
