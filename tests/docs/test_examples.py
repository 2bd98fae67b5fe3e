"""The library recipes in examples/ run on a tiny budget: whole games with legal actions only
(every recipe makes Friday-v0 with ``illegal_action="raise"``, so a finished run proves the
masking works).

Each test skips, naming what to install, when its library is missing (under ``CI=true`` it
fails instead: CI installs them all)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest
from optional import require_modules

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _run(script: str, *args: str, timeout: int = 600) -> dict:
    """Run an example; its last line ``summary: {...}`` parsed."""
    assert 'illegal_action="raise"' in (EXAMPLES / script).read_text()  # see the docstring
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
    last = [line for line in done.stdout.splitlines() if line.startswith("summary: ")][-1]
    return ast.literal_eval(last.removeprefix("summary: "))


def test_cleanrl_style_masked_ppo():
    require_modules("torch", install="pip install torch==2.13.0")
    summary = _run(
        "cleanrl_masked_ppo.py",
        *("--total-timesteps", "512", "--num-envs", "2", "--num-steps", "128"),
    )
    assert summary["steps"] == 512 and summary["games"] >= 1


def test_cleanrl_style_recipe_trains_alike_on_the_vector_env_and_on_single_envs():
    """The native vector env returns what a SyncVectorEnv of single envs returns, so the
    same seed gives the same games and the same learning whichever steps them."""
    require_modules("torch", install="pip install torch==2.13.0")
    budget = ("--total-timesteps", "256", "--num-envs", "2", "--num-steps", "64")
    native = _run("cleanrl_masked_ppo.py", *budget)
    single = _run("cleanrl_masked_ppo.py", *budget, "--vectorization", "sync", "--core", "python")
    for summary in (native, single):
        del summary["frames_per_s"]
    assert native == single


def test_torchrl_masked_ppo():
    require_modules("torchrl", "tensordict", install="pip install -e '.[examples]'")
    summary = _run(
        "torchrl_masked_ppo.py",
        *("--total-frames", "512", "--frames-per-batch", "256", "--minibatch", "64"),
        *("--epochs", "1"),
    )
    assert summary["frames"] == 512 and summary["games"] >= 1


def test_tianshou_masked_dqn():
    require_modules("tianshou", install="pip install -e '.[examples]'")
    summary = _run(
        "tianshou_masked_dqn.py",
        *("--epochs", "1", "--steps-per-epoch", "256", "--test-games", "2"),
        *("--buffer-size", "2000"),
    )
    assert summary["env_steps"] >= 256 and summary["test_games"] == 2


@pytest.mark.filterwarnings("ignore")
def test_rllib_masked_ppo():
    require_modules("ray", "ray.rllib", install="pip install -e '.[ray]'")
    summary = _run(
        "rllib_masked_ppo.py",
        *("--iterations", "1", "--batch", "256", "--minibatch", "64", "--epochs", "1"),
        *("--num-cpus", "2"),
    )
    assert summary["env_steps"] >= 256 and summary["episodes"] >= 1
