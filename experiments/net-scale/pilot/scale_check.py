"""A million decisions through the fit: the pilot round's decisions repeated to about a million
rows (their content does not matter here, only their count and shape), the process's peak
memory after reading them and after one epoch of the fit (policy and value 256-256, sparse
path, one torch thread), and the epoch's CPU.

Run from the repository root after the pilot round (its games in ``data/net-scale-pilot``)::

    nice -n 10 python experiments/net-scale/pilot/scale_check.py \\
        --out experiments/net-scale/pilot/scale_check.json
"""

from __future__ import annotations

import argparse
import json
import resource
import time
from pathlib import Path

import numpy as np
import torch

from friday_agents.learning.distill.dataset import Decisions, read_decisions
from friday_agents.learning.distill.fit import fit_network, held_out_report

GAMES = Path("data/net-scale-pilot/round-00")
ROWS = 1_000_000


def peak_gb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6, 2)  # KB on Linux


def main() -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    torch.set_num_threads(1)
    result: dict = {"peak_gb_at_start": peak_gb()}
    pilot = read_decisions([GAMES / "teacher.jsonl", GAMES / "student.jsonl"])
    data = Decisions.concatenate([pilot] * -(-ROWS // len(pilot)))
    del pilot
    result.update(rows=len(data), data_gb=round(data.nbytes / 1e9, 3), peak_gb_read=peak_gb())
    started = time.process_time()
    network, info = fit_network(data, (256, 256), 1, 2.0, 0)
    result.update(
        fit_epoch_cpu_seconds=round(time.process_time() - started, 1),
        fit_first_layer=info["fit_first_layer"],
        peak_gb_fit=peak_gb(),
    )
    started = time.process_time()
    held_out_report(data.subset(np.arange(50_000)), network, 2.0)
    result.update(
        report_cpu_seconds_per_50k=round(time.process_time() - started, 1), peak_gb_end=peak_gb()
    )
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
