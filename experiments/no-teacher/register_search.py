"""Register stage 6's choice (PLAN.md, amendments 3-4): copy into the models folder the last
round's network (``scratch-distilled``), the chosen search's network (``scratch-search-net``,
unless it is START's, ``scratch`` itself, or the last round's), its leaf value
(``scratch-search-value``, naming the four per-level leaf networks ``scratch-leaf-level1`` to
``4``), and record what was copied, from where, with SHA-256, in
``results/registered-search.json``:

    python experiments/no-teacher/register_search.py

Reads the choice ``results/stage6-select-decision.json`` (validation deals only).
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
MODELS = REPO / "agents" / "friday_agents" / "models"
CHOICE = HERE / "results" / "stage6-select-decision.json"
CONFIG = HERE / "s6m-distill.json"
RECORD = HERE / "results" / "registered-search.json"
PRIOR = re.compile(r":prior=([^:,]+):")
LEVELS = (1, 2, 3, 4)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def relative(path: Path) -> str:
    return path.resolve().relative_to(REPO).as_posix()


def copy(source: Path, name: str, copied: dict[str, dict]) -> None:
    """``source`` to the models folder as ``name``, recorded under its role."""
    target = MODELS / name
    shutil.copyfile(source, target)
    role = Path(name).stem.replace("_", "-")
    copied[role] = {"model": relative(target), "source": relative(source), "sha256": sha256(target)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], allow_abbrev=False)
    parser.parse_args()
    choice = json.loads(CHOICE.read_text())
    config = json.loads(CONFIG.read_text())
    copied: dict[str, dict] = {}
    last = HERE / "runs" / "s6m-distill" / f"round-{config['rounds'] - 1:02d}" / "network.npz"
    copy(last, "scratch_distilled.npz", copied)
    prior = PRIOR.search(choice["chosen"]).group(1)
    if prior == "scratch":  # START: scratch's own file, already registered
        prior_role = "scratch"
    elif (REPO / prior).resolve() == last.resolve():
        prior_role = "scratch-distilled"
    else:
        copy(REPO / prior, "scratch_search_net.npz", copied)
        prior_role = "scratch-search-net"
    value_file = REPO / config["value"]
    levels = json.loads(value_file.read_text())["levels"]
    for level in LEVELS:
        copy(value_file.parent / levels[str(level)], f"scratch_leaf_level{level}.npz", copied)
    note = (
        "scratch-search's leaf value: one network per level of the probability of winning, "
        "fitted on scratch's own games (experiments/no-teacher/PLAN.md, amendment 3)"
    )
    per_level = {str(level): f"scratch_leaf_level{level}.npz" for level in LEVELS}
    text = {"format": "friday-env/value-per-level", "levels": per_level, "note": note}
    (MODELS / "scratch_search_value.json").write_text(json.dumps(text, indent=1) + "\n")
    record = {
        "choice": relative(CHOICE),
        "chosen": choice["chosen"],
        "prior": prior,
        "prior_role": prior_role,
        "margin": config["margin"],
        "copied": copied,
        "value": {"model": relative(MODELS / "scratch_search_value.json"), "levels": per_level},
    }
    RECORD.write_text(json.dumps(record, indent=1) + "\n")
    print(f"scratch-search <- {choice['chosen']} (its network: the role {prior_role})")


if __name__ == "__main__":
    main()
