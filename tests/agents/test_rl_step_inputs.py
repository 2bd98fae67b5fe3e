"""The large-batch mode's GPU path, run on the CPU: where observations are kept whole
(`DenseRows`, the path ``--device cuda`` takes), each step's observations and masks pass
through buffers made once for the run (pinned host memory only where CUDA is), and every
env acts in one call of the networks per step."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from friday_agents.learning import sparse  # noqa: E402
from friday_agents.learning.rl import rollout, trainer  # noqa: E402
from friday_agents.learning.rl.rollout import StepInputs  # noqa: E402


def test_step_inputs_on_the_cpu_copy_into_the_same_plain_buffers():
    inputs = StepInputs(3, 5, 4, torch.device("cpu"))
    assert not inputs.pinned and not inputs.host_obs.is_pinned()
    first_obs, first_mask = inputs.put(np.ones((3, 5), np.float32), np.eye(3, 4, dtype=bool))
    seen = first_obs.data_ptr(), first_mask.data_ptr()
    obs, mask = inputs.put(np.full((3, 5), 2.0, np.float32), np.ones((3, 4), bool))
    assert (obs.data_ptr(), mask.data_ptr()) == seen  # nothing allocated per step
    assert bool((obs == 2.0).all()) and bool(mask.all())


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_step_inputs_on_a_gpu_are_pinned_on_the_host():
    inputs = StepInputs(3, 5, 4, torch.device("cuda"))
    assert inputs.pinned and inputs.host_obs.is_pinned() and inputs.obs.is_cuda
    obs, _ = inputs.put(np.ones((3, 5), np.float32), np.ones((3, 4), bool))
    assert float(obs.sum()) == 15.0


def test_each_step_acts_in_one_call_through_the_reused_buffers(tmp_path, monkeypatch, tiny_rl):
    monkeypatch.setattr(
        trainer, "observation_rows", lambda n, width, device: sparse.DenseRows(n, width, device)
    )
    calls, staged = [], []
    forward = rollout.actor_critic

    def counted(*args, **kwargs):
        calls.append(len(args[2]))  # the rows acted on: every env's
        return forward(*args, **kwargs)

    put = StepInputs.put

    def recorded(self, obs, mask):
        out = put(self, obs, mask)
        staged.append((obs.copy(), out[0].data_ptr(), out[1].data_ptr()))
        return out

    monkeypatch.setattr(rollout, "actor_critic", counted)
    monkeypatch.setattr(StepInputs, "put", recorded)
    run = trainer.Trainer(tiny_rl(tmp_path / "run"))
    steps, envs = run.config.num_steps, run.config.num_envs
    first = run.collect_rollout()
    first_obs = first["obs"].clone()
    run.collect_rollout()
    assert calls == [envs] * (2 * steps)  # one forward per step, of every env at once
    assert len(staged) == 2 * (steps + 1)  # each step's inputs, and those after the last
    assert len({(obs_at, mask_at) for _, obs_at, mask_at in staged}) == 1
    # the rollout kept each step's own observations, not the buffer's last contents
    for t in range(steps):
        assert torch.equal(first_obs[t], torch.from_numpy(staged[t][0]))
    assert not torch.equal(first_obs[0], first_obs[-1])
