"""``friday rl --levels``: one policy trained on several levels at once.

The envs are split equally among the levels in the order given (``--levels 1,2,3,4 --num-envs
64``: envs 0-15 play level 1, 16-31 level 2, ...), one native vector env per level behind
`MixedLevelEnvs`, which has the vector env's interface: what the trainer hands it (actions,
deals) is split by level, what comes back (observations, masks, rewards, ``terminated``,
``final_obs``, ``final_info``) is put back together in env order. A one-level run uses the
native vector env itself, so its games and draws are those of a run without ``--levels``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from friday_agents.harness.deals import draw_training_deals


def env_levels(levels: Sequence[int], num_envs: int) -> np.ndarray:
    """Each env's level: ``num_envs / len(levels)`` envs of each level, in the order given
    (the configuration has checked that they divide)."""
    return np.repeat(np.asarray(levels, np.int64), num_envs // len(levels))


def draw_deals(levels_of_envs: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A training deal for each env, of its level: one draw of all of them where every env
    plays one level (the draws of a run without ``--levels``), else one per level in order."""
    levels = list(dict.fromkeys(levels_of_envs.tolist()))
    parts = [
        draw_training_deals(level, int((levels_of_envs == level).sum()), rng) for level in levels
    ]
    return np.concatenate(parts)


class MixedLevelEnvs:
    """Native vector envs of several levels played as one vector env of ``sum(sizes)``
    envs: the envs of ``parts[k]`` are rows ``offsets[k]`` on (see the module docstring).
    ``make(level, count)`` makes one level's vector env."""

    def __init__(self, levels: Sequence[int], num_envs: int, make: Callable[[int, int], Any]):
        per_level = num_envs // len(levels)
        self.levels = list(levels)
        self.parts = [make(level, per_level) for level in self.levels]
        self.offsets = [k * per_level for k in range(len(self.parts) + 1)]
        self.num_envs = num_envs
        first = self.parts[0]
        self.core = first.core
        self.single_observation_space = first.single_observation_space
        self.single_action_space = first.single_action_space

    def _split(self, values: Any) -> list[Any]:
        return [values[a:b] for a, b in zip(self.offsets, self.offsets[1:], strict=False)]

    def _part_of(self, env: int) -> tuple[Any, int]:
        """The level's vector env that plays env ``env``, and its index there."""
        if isinstance(env, bool) or not isinstance(env, (int, np.integer)):
            raise ValueError(f"env must be an int, got {env!r}")
        if not 0 <= env < self.num_envs:
            raise ValueError(f"env {env} is not in 0..{self.num_envs - 1}")
        k = int(env) // self.offsets[1]
        return self.parts[k], int(env) - self.offsets[k]

    def reset(self, *, options: dict[str, Any]) -> tuple[np.ndarray, dict[str, Any]]:
        """Each env on its deal of ``options["deal"]`` (the trainer's only reset)."""
        deals = np.asarray(options["deal"], np.uint64)
        results = [
            part.reset(options={"deal": chunk})
            for part, chunk in zip(self.parts, self._split(deals), strict=True)
        ]
        obs = np.concatenate([r[0] for r in results])
        return obs, {"action_mask": np.concatenate([r[1]["action_mask"] for r in results])}

    def set_next_deals(self, deals: np.ndarray) -> None:
        for part, chunk in zip(self.parts, self._split(np.asarray(deals)), strict=True):
            part.set_next_deals(chunk)

    def set_game(self, env: int, game: Any) -> tuple[np.ndarray, np.ndarray]:
        part, index = self._part_of(env)
        return part.set_game(index, game)

    def set_progress_coef(self, progress_coef: float) -> None:
        for part in self.parts:
            part.set_progress_coef(progress_coef)

    def step(self, actions: np.ndarray) -> tuple[Any, ...]:
        results = [
            part.step(chunk) for part, chunk in zip(self.parts, self._split(actions), strict=True)
        ]
        obs, rewards, terminated, truncated = (
            np.concatenate([r[j] for r in results]) for j in range(4)
        )
        info: dict[str, Any] = {
            "action_mask": np.concatenate([r[4]["action_mask"] for r in results])
        }
        if terminated.any():
            info |= self._final_info([r[4] for r in results])
        return obs, rewards, terminated, truncated, info

    def _final_info(self, infos: list[dict[str, Any]]) -> dict[str, Any]:
        """The parts' ``final_obs`` and ``final_info`` in env order (zeros, None and False for
        the envs of a part where no game ended, as the vector env writes for its other envs)."""
        sizes = [b - a for a, b in zip(self.offsets, self.offsets[1:], strict=False)]
        ended = [info for info in infos if "final_info" in info]
        keys = list(dict.fromkeys(key for info in ended for key in info["final_info"]))
        final_info = {}
        for key in keys:
            like = next(info["final_info"][key] for info in ended if key in info["final_info"])
            final_info[key] = np.concatenate(
                [
                    info["final_info"][key]
                    if "final_info" in info and key in info["final_info"]
                    else np.zeros((size, *like.shape[1:]), like.dtype)
                    for info, size in zip(infos, sizes, strict=True)
                ]
            )
        final_obs = np.concatenate(
            [
                info["final_obs"] if "final_obs" in info else np.full(size, None, dtype=object)
                for info, size in zip(infos, sizes, strict=True)
            ]
        )
        was_ended = np.concatenate(
            [
                info["_final_info"] if "_final_info" in info else np.zeros(size, np.bool_)
                for info, size in zip(infos, sizes, strict=True)
            ]
        )
        return {
            "final_obs": final_obs,
            "_final_obs": was_ended,
            "final_info": final_info,
            "_final_info": was_ended.copy(),
        }

    def close(self) -> None:
        for part in self.parts:
            part.close()
