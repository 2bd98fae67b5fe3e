"""``api_test(env)``: check that an env (``Friday-v0`` or your wrapper of it) keeps the
contract agents rely on, in the spirit of pgx's ``api_test``.

It plays a few seeded episodes with random legal actions and checks, at every step: the
observation lies in ``observation_space``; ``info["action_mask"]`` and ``action_masks()``
agree, have ``action_space.n`` entries and are never all False before the episode ends;
a masked action is accepted; the same seed replays the same episode; and (optionally) that
an action outside the mask is refused without changing the game. Raises ``AssertionError``
naming what broke.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def _mask(env: Any, info: dict[str, Any]) -> np.ndarray:
    mask = np.asarray(info["action_mask"], dtype=bool)
    n = env.action_space.n
    assert mask.shape == (n,), f"info['action_mask'] has shape {mask.shape}, not ({n},)"
    masks = getattr(env.unwrapped, "action_masks", None)
    if masks is not None:
        assert np.array_equal(np.asarray(masks(), dtype=bool), mask), (
            "action_masks() differs from info['action_mask']"
        )
    return mask


def _check_observation(env: Any, obs: Any) -> None:
    assert env.observation_space.contains(obs), (
        f"the observation is outside observation_space {env.observation_space}"
    )


def _episode(env: Any, seed: int, max_steps: int) -> list[tuple[int, float]]:
    """Play one seeded episode with random legal actions; return its (action, reward)s."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    _check_observation(env, obs)
    trace: list[tuple[int, float]] = []
    for _ in range(max_steps):
        legal = np.flatnonzero(_mask(env, info))
        assert legal.size, "all actions masked before the episode ended"
        action = int(legal[rng.integers(legal.size)])
        obs, reward, terminated, truncated, info = env.step(action)
        _check_observation(env, obs)
        trace.append((action, float(reward)))
        if terminated or truncated:
            return trace
    raise AssertionError(f"the episode did not end within {max_steps} steps")


def _check_refusal(env: Any, seed: int) -> None:
    """An action outside the mask raises and leaves the next legal step possible."""
    _, info = env.reset(seed=seed)
    mask = _mask(env, info)
    illegal = np.flatnonzero(~mask)
    if not illegal.size:
        return
    try:
        _, _, terminated, _, info = env.step(int(illegal[0]))
    except Exception:  # the env refused it: the game must still accept a legal action
        env.step(int(np.flatnonzero(mask)[0]))
        return
    if terminated and info.get("illegal_action"):
        return  # Friday-v0's default: an illegal action ends the episode as a loss
    raise AssertionError(f"the masked-out action {int(illegal[0])} was accepted")


def api_test(env: Any, episodes: int = 3, max_steps: int = 5000, illegal: bool = True) -> None:
    """Check ``env`` against the Friday-v0 contract (see the module docstring). ``illegal``:
    also check that an action outside the mask is refused, or ends the episode as a loss
    with ``info["illegal_action"]`` set (Friday-v0's default)."""
    for seed in range(episodes):
        first = _episode(env, seed, max_steps)
        assert _episode(env, seed, max_steps) == first, f"seed {seed} did not replay the same"
    if illegal:
        _check_refusal(env, episodes)
