"""Register a selection's chosen policy as ``scratch`` (PLAN.md, "Interim registration"): copy
its ``policy.npz`` to the models folder (role ``scratch``) and record what was copied, from
which run and selection, with both files' SHA-256, in ``results/registered.json``:

    python experiments/no-teacher/register.py \
        --choice experiments/no-teacher/results/stage1-selection/choice.json

Never reads an evaluation deal: the choice it copies was made on validation deals.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
MODEL = REPO / "agents" / "friday_agents" / "models" / "scratch.npz"
RECORD = HERE / "results" / "registered.json"
POLICY = re.compile(r"^net:model=(experiments/no-teacher/runs/[^,:]+/policy\.npz)$")


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def chosen_agent(choice: dict) -> str:
    """The chosen agent's spec: stage 1's choice holds it under ``agent``, the later stages'
    decisions (``decide.py``) as the choice itself."""
    chosen = choice["chosen"]
    return chosen["agent"] if isinstance(chosen, dict) else chosen


def chosen_policy(choice: dict) -> Path:
    """The repository-relative policy file the choice names."""
    agent = chosen_agent(choice)
    match = POLICY.match(agent)
    if match is None:
        raise SystemExit(f"the chosen agent {agent!r} is not a study run's policy")
    return Path(match.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], allow_abbrev=False)
    parser.add_argument("--choice", type=Path, required=True, help="a selection's choice.json")
    args = parser.parse_args()
    choice = json.loads(args.choice.read_text())
    source = chosen_policy(choice)
    shutil.copyfile(REPO / source, MODEL)
    record = {
        "role": "scratch",
        "model": MODEL.relative_to(REPO).as_posix(),
        "source": source.as_posix(),
        "sha256": sha256(MODEL),
        "choice": args.choice.resolve().relative_to(REPO).as_posix(),
        "chosen": choice["chosen"],
    }
    RECORD.write_text(json.dumps(record, indent=1) + "\n")
    print(f"scratch <- {source} (sha256 {record['sha256'][:12]})")


if __name__ == "__main__":
    main()
