"""``friday rl``'s reference runs: tiny fixed-seed runs whose curves and final weights were
recorded from the trainer before it was split into modules (issue 45), so that a change of the
trainer's code that should leave its learning alone can show that it did.

``tests/agents/test_rl_reference.py`` runs each case of `CASES` and compares its curve (times
left out) and its weights with ``tests/data/rl_reference/reference.json``; it also resumes the
run folder ``tests/data/rl_reference/pre_split/`` (config.json, checkpoint.pt, curve.jsonl of
case ``pre_split`` cut at `PRE_SPLIT_CUT` frames, written by that same trainer) to the case's
end. Regenerate both (only when a change of the learning is meant) with::

    python tests/rl_reference.py --write
"""

from __future__ import annotations

import argparse
import itertools
import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
REFERENCE = HERE / "data" / "rl_reference"
REFERENCE_FILE = REFERENCE / "reference.json"
PRE_SPLIT = REFERENCE / "pre_split"
#: Where the committed run folder was cut (2 of the case's 4 updates).
PRE_SPLIT_CUT = 256

#: The tiny budget of every case: 4 updates of 4 envs x 32 steps. The tests' ``TINY_RL`` as it
#: was when the references were recorded, copied so that they stay what was recorded.
TINY = {
    "num_envs": 4,
    "num_steps": 32,
    "hidden": "8,8",
    "eval_deals": 3,
    "eval_every": 2,
    "checkpoint_every": 2,
    "minibatches": 2,
    "epochs": 2,
    "frames": 512,
}
#: Each case's changes to `TINY` (``init`` names a random start network made by `init_file`).
CASES: dict[str, dict[str, Any]] = {
    "ppo": {},
    "reverse_counts_fights": {
        "method": "reverse",
        "reverse_window": 4,
        "reverse_start": 2,
        "bonus": "counts",
        "shaping": "fights",
        "eval_levels": "1,3",
    },
    "init_warmup_kl": {"init": "init.npz", "warmup_frames": 128},
    "pre_split": {
        "method": "reverse",
        "reverse_window": 4,
        "reverse_start": 2,
        "bonus": "counts",
        "hidden": "2",
        "seed": 7,
    },
}


def init_file(path: Path, seed: int = 0) -> Path:
    """A PolicyNetwork .npz with random weights (16 hidden units, a value head)."""
    from friday_agents.players.networks.policy_net import PolicyNetwork, save_policy_network
    from friday_env.observation import FLAT_SIZE

    rng = np.random.default_rng(seed)

    def layers(sizes: list[int]) -> tuple:
        return tuple(
            (rng.normal(0, 1 / np.sqrt(a), (a, b)).astype(np.float32), np.zeros(b, np.float32))
            for a, b in itertools.pairwise(sizes)
        )

    network = PolicyNetwork("flat", layers([FLAT_SIZE, 16, 199]), layers([FLAT_SIZE, 16, 1]))
    save_policy_network(network, path)
    return path


def config_of(case: str, folder: Path, **changes: Any) -> Any:
    """Case ``case``'s configuration writing to ``folder / "run"``."""
    from friday_agents.learning.rl.config import RLConfig

    settings = {**TINY, **CASES[case], **changes}
    if settings.get("init"):
        settings["init"] = str(init_file(folder / settings["init"]))
    return RLConfig(out=str(folder / "run"), **settings)


def without_times(rows: list[dict]) -> list[dict]:
    """Curve rows without what depends on the machine's speed (and ``cpu_processes``, how
    many processes ``cpu_seconds`` sums: bookkeeping added after the reference was recorded)."""
    timing = ("cpu_processes",)
    return [
        {k: v for k, v in row.items() if not k.endswith("seconds") and k not in timing}
        for row in rows
    ]


def curve_of(run: Path) -> list[dict]:
    return [json.loads(line) for line in (run / "curve.jsonl").read_text().splitlines()]


def weights_summary(policy: Path) -> dict[str, list[float]]:
    """Each array of a policy.npz as its sum and its norm (float64): what a tolerance can
    compare, where the bytes would differ between CPUs' float rounding."""
    with np.load(policy) as arrays:
        numbers = {name: arrays[name] for name in arrays.files if arrays[name].dtype.kind == "f"}
    return {
        name: [float(array.sum(dtype=np.float64)), float(np.linalg.norm(array.astype(np.float64)))]
        for name, array in sorted(numbers.items())
    }


#: Where the trainer chooses how a rollout's observations are kept (`dense_rows` replaces it).
ROWS_CHOICE = "friday_agents.learning.rl.trainer.observation_rows"


def dense_rows(capacity: int, width: int, device: Any) -> Any:
    """The GPU path's store of whole observations, on the CPU (in place of the sparse rows)."""
    from friday_agents.learning.sparse import DenseRows

    return DenseRows(capacity, width, device)


def run_case(case: str, folder: Path, dense: bool = False) -> dict[str, Any]:
    """Run case ``case`` in ``folder`` (``dense``: on the GPU path's dense rows): its curve
    without times and its weights' summary."""
    from unittest import mock

    from friday_agents.learning.rl.trainer import Trainer

    with mock.patch(ROWS_CHOICE, dense_rows) if dense else mock.patch.dict({}):
        Trainer(config_of(case, folder)).run()
    run = folder / "run"
    return {"curve": without_times(curve_of(run)), "weights": weights_summary(run / "policy.npz")}


def write() -> None:
    """Record every case and the pre-split run folder with the trainer as it is now."""
    reference = {}
    for case in CASES:
        with tempfile.TemporaryDirectory() as folder:
            reference[case] = run_case(case, Path(folder))
    with tempfile.TemporaryDirectory() as folder:
        reference["ppo_dense"] = run_case("ppo", Path(folder), dense=True)
    REFERENCE.mkdir(parents=True, exist_ok=True)
    REFERENCE_FILE.write_text(json.dumps(reference, indent=1) + "\n")
    from friday_agents.learning.rl.trainer import Trainer

    with tempfile.TemporaryDirectory() as folder:
        Trainer(config_of("pre_split", Path(folder), frames=PRE_SPLIT_CUT)).run()
        shutil.rmtree(PRE_SPLIT, ignore_errors=True)
        PRE_SPLIT.mkdir(parents=True)
        for name in ("config.json", "checkpoint.pt", "curve.jsonl"):
            shutil.copyfile(Path(folder) / "run" / name, PRE_SPLIT / name)
    # the run folder's configuration names the temporary folder: keep a relative name
    config = json.loads((PRE_SPLIT / "config.json").read_text())
    config["out"] = "run"
    (PRE_SPLIT / "config.json").write_text(json.dumps(config, indent=2) + "\n")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="record the reference files")
    if parser.parse_args().write:
        write()
