"""The distill fit's two paths on the pilot's decisions: the same losses and gradients, and the
CPU of one epoch of each (policy and value 256-256, batch 512, one torch thread).

Run from the repository root after the pilot round (its games in ``data/net-scale-pilot``)::

    nice -n 10 python experiments/net-scale/pilot/fit_paths.py \\
        --out experiments/net-scale/pilot/fit_paths.json
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from unittest import mock

import numpy as np
import torch

from friday_agents.learning.distill import fit
from friday_agents.learning.distill.dataset import read_decisions
from friday_agents.learning.networks import tanh_mlp
from friday_env.actions import NUM_ACTIONS
from friday_env.observation import FLAT_SIZE

GAMES = Path("data/net-scale-pilot/round-00")


def main() -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    torch.set_num_threads(1)
    data = read_decisions([GAMES / "teacher.jsonl", GAMES / "student.jsonl"])
    torch.manual_seed(0)
    policy = tanh_mlp((FLAT_SIZE, 256, 256, NUM_ACTIONS))
    value = tanh_mlp((FLAT_SIZE, 256, 256, 1))
    batch = np.random.default_rng(0).permutation(len(data))[:512]
    result: dict = {"decisions": len(data)}
    grads = []
    for name, losses in (("dense", fit._dense_losses), ("sparse", fit._sparse_losses)):
        policy.zero_grad()
        value.zero_grad()
        policy_loss, value_loss = losses(policy, value, data, batch, 2.0, "cpu")
        (policy_loss + value_loss).backward()
        grads.append([p.grad.clone() for p in (*policy.parameters(), *value.parameters())])
        result[f"{name}_losses"] = [float(policy_loss.detach()), float(value_loss.detach())]
    result["max_gradient_difference"] = max(
        float((a - b).abs().max()) for a, b in zip(*grads, strict=True)
    )
    for name, built in (("dense", False), ("sparse", True)):
        with mock.patch("friday_agents.learning.sparse.kernel_built", lambda b=built: b):
            started = time.process_time()
            _, info = fit.fit_network(data, (256, 256), 1, 2.0, 0)
            seconds = time.process_time() - started
        assert info["fit_first_layer"] == name
        result[f"{name}_cpu_seconds_per_million_per_epoch"] = round(seconds * 1e6 / len(data))
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
