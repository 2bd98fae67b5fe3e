"""``friday rl``: masked PPO in torch on Friday-v0's native vector env.

A CleanRL-style trainer (one rollout of every env, generalized advantage estimation, clipped
policy updates over minibatches) whose policy and value networks are separate tanh MLPs
over the flat observation, in the format of
`PolicyNetwork`, so that ``net:model=FILE.npz``
plays what it trains. Two uses (``docs/rl.md``):

- fine-tuning a network (``--init FILE.npz``): a critic warm-up with the policy frozen,
  then PPO with a KL penalty towards the starting policy whose weight halves each time the
  held-out win rate holds at the start's;
- learning from scratch: plain PPO, or PPO with a reverse curriculum from the agent's own
  games (``--method reverse``,
  [`friday_agents.learning.rl.curriculum`][friday_agents.learning.rl.curriculum]).

Every game is a training deal ([`friday_agents.harness.deals`][friday_agents.harness.deals]);
runs are resumable and deterministic for a seed
([`friday_agents.learning.rl.trainer`][friday_agents.learning.rl.trainer]).
Torch is imported by the modules that need it, never by this package's ``__init__``.
"""

from friday_agents.learning.rl.config import RLConfig, RLConfigError

__all__ = ["RLConfig", "RLConfigError"]
