"""Observation wrappers that put the action mask where other RL libraries look for it.

``Friday-v0`` gives the mask as ``info["action_mask"]`` and ``env.action_masks()`` (the
sb3-contrib contract). Libraries that read the mask from the observation want it under their
own key names: RLlib's action-masking RLModule reads ``{"observations", "action_mask"}``,
Tianshou's masked policies ``{"obs", "mask"}``, TorchRL's ``ActionMask`` transform and
PettingZoo ``{"observation", "action_mask"}`` (the env's own ``observation="flat_mask"``).

```python
import gymnasium as gym
from friday_env.wrappers import for_rllib, for_tianshou

env = for_rllib(gym.make("Friday-v0", level=1))     # obs = {"observations", "action_mask"}
env = for_tianshou(gym.make("Friday-v0", level=1))  # obs = {"obs", "mask"}
```
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from friday_env.errors import EnvOptionError
from friday_env.observation.flat_mask import mask_space

#: Key names (observation, mask) each library reads.
RLLIB_KEYS = ("observations", "action_mask")
TIANSHOU_KEYS = ("obs", "mask")
PETTINGZOO_KEYS = ("observation", "action_mask")


class MaskInObservation(gym.ObservationWrapper):
    """The env's observation and its action mask together in one ``Dict`` observation.

    ## Arguments

    - ``env``: a ``Friday-v0`` env (possibly wrapped), whose ``unwrapped.action_masks()``
      gives the mask.
    - ``observation_key``, ``mask_key``: the two keys (e.g. `RLLIB_KEYS`).
    - ``mask_dtype``: the mask's numpy dtype: ``np.int8`` (Gymnasium's mask type, default),
      ``np.float32`` or ``np.bool_``.

    ## Observation Space

    ``Dict({observation_key: env.observation_space, mask_key: Box(0, 1, (199,),
    mask_dtype)})``. After the last step of an episode the mask is all zeros: no action is
    legal in a finished game.
    """

    def __init__(
        self,
        env: gym.Env,
        observation_key: str = PETTINGZOO_KEYS[0],
        mask_key: str = PETTINGZOO_KEYS[1],
        mask_dtype: Any = np.int8,
    ) -> None:
        super().__init__(env)
        if not callable(getattr(env.unwrapped, "action_masks", None)):
            raise EnvOptionError("MaskInObservation needs an env with action_masks() (Friday-v0)")
        if observation_key == mask_key:
            raise EnvOptionError(
                f"the observation and mask keys must differ, both are {mask_key!r}"
            )
        self.observation_key, self.mask_key = observation_key, mask_key
        self.mask_dtype = np.dtype(mask_dtype)
        if self.mask_dtype not in (np.dtype(np.int8), np.dtype(np.float32), np.dtype(np.bool_)):
            raise EnvOptionError(f"mask_dtype must be int8, float32 or bool, not {self.mask_dtype}")
        size = int(env.action_space.n)  # type: ignore[attr-defined]
        self.observation_space = spaces.Dict(
            {observation_key: env.observation_space, mask_key: mask_space(size, self.mask_dtype)}
        )

    def observation(self, observation: Any) -> dict[str, Any]:
        mask = self.env.unwrapped.action_masks()  # type: ignore[attr-defined]
        return {self.observation_key: observation, self.mask_key: mask.astype(self.mask_dtype)}


def for_rllib(env: gym.Env) -> MaskInObservation:
    """``{"observations": obs, "action_mask": float32 mask}``: what RLlib's
    ``ActionMaskingTorchRLModule`` reads."""
    return MaskInObservation(env, *RLLIB_KEYS, mask_dtype=np.float32)


def for_tianshou(env: gym.Env) -> MaskInObservation:
    """``{"obs": obs, "mask": bool mask}``: what Tianshou's masked policies read."""
    return MaskInObservation(env, *TIANSHOU_KEYS, mask_dtype=np.bool_)
