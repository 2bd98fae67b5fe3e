"""The pilot's measurements for the `net`-at-scale plan (``PLAN.md``): CPU per labelled decision
of ``friday distill``'s teacher and student games, the data set's memory per million labelled
decisions, and the fit's CPU per million decisions and epoch at 256-256.

Run from the repository root (a few CPU-minutes; training deals of the distill range only)::

    nice -n 10 python experiments/net-scale/pilot/measure.py \
        --out experiments/net-scale/pilot/measure.json
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from friday_agents.learning.distill.dataset import read_decisions
from friday_agents.learning.distill.fit import fit_network
from friday_agents.learning.distill.games import student_job, teacher_job

#: Training deals no study uses (below the validation deals at 900,000; the expert-iteration
#: study plays 100,000-219,999, the level-4 value data 300,000-699,999).
FIRST_INDEX = 890_000
TEACHERS = {
    "expert-iteration teacher (sims 32, top 3)": (
        "search:sims=32:value=guided-value-per-level:prior=net:top=3"
    ),
    "stronger teacher (sims 96, top 3)": (
        "search:sims=96:value=guided-value-per-level:prior=net:top=3"
    ),
}


def play(kind: str, spec: str, games_per_level: int, path: Path) -> dict:
    lines = []
    for level in (1, 2, 3, 4):
        for i in range(games_per_level):
            index = FIRST_INDEX + 1000 * level + i
            if kind == "teacher":
                lines.append(teacher_job((spec, level, index)))
            else:
                lines.append(student_job(("net:model=net", spec, level, index)))
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    labelled = sum(len(line["q"]) for line in lines)
    seconds = sum(line["seconds"] for line in lines)
    return {
        "spec": spec,
        "games": len(lines),
        "won": sum(line["won"] for line in lines),
        "labelled_decisions": labelled,
        "cpu_seconds": round(seconds, 2),
        "cpu_ms_per_labelled_decision": round(1000 * seconds / labelled, 3),
        "labelled_per_game": round(labelled / len(lines), 1),
    }


def memory(paths: list[Path]) -> dict:
    data = read_decisions(paths)
    rows = len(data)
    dense = sum(array.nbytes for array in vars(data).values()) / rows
    nonzeros = (data.obs != 0).sum(axis=1)
    legal = data.legal.sum(axis=1)
    return {
        "rows": rows,
        "dense_bytes_per_row": round(dense, 1),
        "dense_gb_per_million": round(dense * 1e6 / 1e9, 2),
        "obs_nonzeros_mean": round(float(nonzeros.mean()), 1),
        "obs_nonzeros_max": int(nonzeros.max()),
        "legal_actions_mean": round(float(legal.mean()), 2),
        "legal_actions_max": int(legal.max()),
    }, data


def fit_cost(data, epochs: int) -> dict:
    import torch

    torch.set_num_threads(1)
    started = time.process_time()
    fit_network(data, (256, 256), epochs, 2.0, 0)
    seconds = time.process_time() - started
    return {
        "rows": len(data),
        "epochs": epochs,
        "cpu_seconds": round(seconds, 1),
        "cpu_seconds_per_million_per_epoch": round(seconds * 1e6 / (len(data) * epochs), 0),
    }


def main() -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__)
    parser.add_argument("--games-per-level", type=int, default=3)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    result: dict = {"teacher": {}, "student": {}}
    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for name, spec in TEACHERS.items():
            for kind in ("teacher", "student"):
                path = Path(folder) / f"{kind}-{len(paths)}.jsonl"
                result[kind][name] = play(kind, spec, args.games_per_level, path)
                paths.append(path)
                print(kind, name, result[kind][name], flush=True)
        result["memory"], data = memory(paths)
        print(result["memory"], flush=True)
        result["fit_256_256"] = fit_cost(data, 1)
        print(result["fit_256_256"], flush=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
