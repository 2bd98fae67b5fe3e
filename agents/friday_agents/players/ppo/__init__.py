"""MaskablePPO policies as Friday agents.

- ``agent`` — [`PPOAgent`][friday_agents.players.ppo.agent.PPOAgent], which plays a checkpoint with
  the policy's own action masking;
- ``checkpoint`` — loading, checking and saving checkpoints, each recording the observation
  encoder it was trained with;
The committed policy is ``agents/friday_agents/models/ppo_all_levels.zip`` (imitation +
DAgger, see ``experiments/imitation/``), or a level's own
``agents/friday_agents/models/ppo_level<L>.zip`` if one is added.
"""

from friday_agents.players.ppo.agent import PPOAgent, PPOCheckpointError, default_checkpoint

__all__ = ["PPOAgent", "PPOCheckpointError", "default_checkpoint"]
