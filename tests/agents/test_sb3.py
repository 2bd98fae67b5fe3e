"""sb3-contrib smoke tests: MaskablePPO trains on Friday-v0 with DummyVecEnv and
SubprocVecEnv, masks travel through ``env_method("action_masks")``, and the maskable
evaluation helpers run.

These check the plumbing, not learning: a few thousand steps cannot teach Friday (random
play loses every game), so no return threshold is asserted, only that training runs, the
policy's masked actions are legal and evaluation returns episode results.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.callbacks import MaskableEvalCallback
from sb3_contrib.common.maskable.evaluation import evaluate_policy
from sb3_contrib.common.maskable.utils import get_action_masks
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

import friday_env  # registers Friday-v0

SMALL = {"n_steps": 256, "batch_size": 128, "n_epochs": 2, "device": "cpu", "seed": 0}


@pytest.fixture(autouse=True)
def one_torch_thread():
    """Tiny networks train fastest on one thread; on 2 shared cores, more threads made these
    tests 8x slower (3 s against 24 s for 2,048 steps)."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def assert_masked_predictions_are_legal(model, env, steps: int = 50) -> None:
    obs = env.reset()
    for _ in range(steps):
        masks = get_action_masks(env)
        actions, _ = model.predict(obs, action_masks=masks, deterministic=False)
        for mask, action in zip(masks, actions, strict=True):
            assert mask[action], (np.flatnonzero(mask), action)
        obs, _, _, _ = env.step(actions)


def test_maskable_ppo_trains_with_dummy_vec_env_and_evaluates(tmp_path):
    env = make_vec_env("Friday-v0", n_envs=2, seed=0, vec_env_cls=DummyVecEnv)
    eval_env = make_vec_env("Friday-v0", n_envs=1, seed=100, vec_env_cls=DummyVecEnv)
    callback = MaskableEvalCallback(
        eval_env, eval_freq=512, n_eval_episodes=3, log_path=str(tmp_path), verbose=0
    )
    model = MaskablePPO("MlpPolicy", env, **SMALL)
    model.learn(total_timesteps=2048, callback=callback)
    assert model.num_timesteps >= 2048
    assert len(callback.evaluations_results) >= 1
    assert all(r in (-1.0, 1.0) for r in callback.evaluations_results[-1])
    assert_masked_predictions_are_legal(model, env)
    rewards, lengths = evaluate_policy(
        model, eval_env, n_eval_episodes=5, return_episode_rewards=True, use_masking=True
    )
    assert len(rewards) == 5 and all(r in (-1.0, 1.0) for r in rewards)
    assert all(length > 1 for length in lengths)


@pytest.mark.parametrize("observation", ["dict", "flat_mask"])
def test_maskable_ppo_trains_on_the_dict_encoders(observation):
    env = make_vec_env(
        "Friday-v0", n_envs=2, seed=0, env_kwargs={"observation": observation, "level": 3}
    )
    model = MaskablePPO("MultiInputPolicy", env, **SMALL)
    model.learn(total_timesteps=512)
    assert model.num_timesteps >= 512
    assert_masked_predictions_are_legal(model, env, steps=20)


def test_subproc_vec_env_masks_and_maskable_ppo_training():
    # Worker processes start fresh (forkserver): "module:id" makes each import friday_env,
    # which registers Friday-v0 there.
    env = make_vec_env(
        "friday_env:Friday-v0",
        n_envs=2,
        seed=0,
        vec_env_cls=SubprocVecEnv,
        env_kwargs={"level": 2},
    )
    try:
        env.reset()
        masks = env.env_method("action_masks")
        games = env.get_attr("game")
        assert len(masks) == 2
        for mask, game in zip(masks, games, strict=True):
            assert mask.dtype == np.int8 and mask.shape == (friday_env.NUM_ACTIONS,)
            assert np.flatnonzero(mask).tolist() == game.legal_actions()
        model = MaskablePPO("MlpPolicy", env, **SMALL)
        model.learn(total_timesteps=2048)
        assert model.num_timesteps >= 2048
        assert_masked_predictions_are_legal(model, env)
    finally:
        env.close()
