"""The earlier from-nothing study's choice of ``scratch``: its best level-1 validation win rate.

Retired: since the no-teacher study registered its policy as ``scratch``
(``experiments/no-teacher/register.py``, ``results/registered.json``), this rule no longer
chooses the model, and it never writes ``agents/friday_agents/models/scratch.npz`` (a rerun
would have replaced the registered policy with a policy that won no evaluation game). It stays
as the record of that study's rule and rewrites only that record.

The rule (experiments/from-nothing/PLAN.md, "Selection" and amendment 3): among the committed
copies of the from-nothing runs' ``policy.npz`` (every commit of the branch that holds one,
and the working tree) whose curve ends on an evaluation of the 500 level-1 validation deals,
the highest validation win rate; ties to the copy committed later (the working tree last),
then to more frames. Never reads an evaluation deal. Writes every candidate, the choice (with
its policy's SHA-256) and the evaluated checkpoints that were never committed to
``experiments/tracks/eval/scratch_selection.json``:

    python experiments/tracks/select_scratch.py
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import subprocess
from pathlib import Path

from friday_agents.harness.paths import plain_or_compressed, read_maybe_compressed

REPO = Path(__file__).resolve().parents[2]
#: The from-nothing runs with a level-1 validation curve (globs, relative to the repository).
RUNS = (
    "experiments/from-nothing/results/a2-l1",
    "experiments/from-nothing/results/a3-l1",
    "experiments/rl/scratch*-l1",
    "experiments/tracks/runs/ppo-*",
)
DEALS = 500
OUT = REPO / "experiments/tracks/eval/scratch_selection.json"


def git(*args: str) -> bytes:
    return subprocess.run(["git", "-C", str(REPO), *args], check=True, capture_output=True).stdout


def run_folders() -> list[str]:
    found = []
    for pattern in RUNS:
        for folder in sorted(REPO.glob(pattern)):
            found.append(folder.relative_to(REPO).as_posix())
        if "*" not in pattern and pattern not in found:
            found.append(pattern)  # a run gone from the tree may still be in the history
    return found


def last_evaluation(curve_text: str) -> dict | None:
    """The curve's last row if it is a 500-deal level-1 evaluation, else None."""
    rows = [json.loads(line) for line in curve_text.splitlines() if line.strip()]
    if not rows:
        return None
    last = rows[-1]
    if last.get("heldout_deals") != DEALS or last.get("level") != 1:
        return None
    return last if "heldout_win_rate" in last else None


def committed_copies(folder: str) -> list[dict]:
    """Every committed copy of ``folder``'s policy, with its validation win rate."""
    log = git("log", "--format=%H %ct", "--", f"{folder}/policy.npz").decode().split("\n")
    copies = []
    for line in filter(None, log):
        commit, time = line.split()
        try:
            curve = _curve_at(commit, folder)
            git("cat-file", "-e", f"{commit}:{folder}/policy.npz")
        except subprocess.CalledProcessError:
            continue  # the commit removed the policy or has no curve
        copies.append(_copy(folder, commit, float(time), curve))
    status = git("status", "--porcelain", "--", folder).decode()
    if status.strip() and (REPO / folder / "policy.npz").is_file():
        curve = read_maybe_compressed(REPO / folder / "curve.jsonl")
        copies.append(_copy(folder, "working tree", None, curve))
    return [copy for copy in copies if copy["validation_win_rate"] is not None]


def _curve_at(commit: str, folder: str) -> str:
    """The run's curve as ``commit`` holds it: ``curve.jsonl``, or its compressed copy (a
    finished run's curve over 1 MB is committed as ``curve.jsonl.gz``)."""
    try:
        return git("show", f"{commit}:{folder}/curve.jsonl").decode()
    except subprocess.CalledProcessError:
        return gzip.decompress(git("show", f"{commit}:{folder}/curve.jsonl.gz")).decode()


def _copy(folder: str, commit: str, time: float | None, curve: str) -> dict:
    """A candidate; ``time`` None for the working tree (later than any commit)."""
    row = last_evaluation(curve)
    return {
        "run": folder,
        "commit": commit,
        "commit_time": time,
        "frames": row["frames"] if row else None,
        "validation_win_rate": row["heldout_win_rate"] if row else None,
    }


def evaluated_checkpoints(folder: str) -> list[dict]:
    """Every 500-deal evaluation of the run's current curve (kept or not)."""
    path = plain_or_compressed(REPO / folder / "curve.jsonl")
    if not path.is_file():
        return []
    text = read_maybe_compressed(path)
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    return [
        {"run": folder, "frames": r["frames"], "validation_win_rate": r["heldout_win_rate"]}
        for r in rows
        if r.get("heldout_deals") == DEALS and "heldout_win_rate" in r
    ]


def policy_bytes(copy: dict) -> bytes:
    path = f"{copy['run']}/policy.npz"
    if copy["commit"] == "working tree":
        return (REPO / path).read_bytes()
    return git("show", f"{copy['commit']}:{path}")


def later(copy: dict) -> tuple[float, int]:
    """The order of ties: commit time (the working tree last), then frames."""
    time = copy["commit_time"]
    return (float("inf") if time is None else time, copy["frames"])


def select() -> dict:
    copies = [copy for folder in run_folders() for copy in committed_copies(folder)]
    if not copies:
        raise SystemExit("select_scratch: no committed policy with a 500-deal validation curve")
    chosen = max(copies, key=lambda c: (c["validation_win_rate"], *later(c)))
    evaluated = [row for folder in run_folders() for row in evaluated_checkpoints(folder)]
    best = max(row["validation_win_rate"] for row in evaluated)
    at_best = [row for row in evaluated if row["validation_win_rate"] == best]
    kept = {(c["run"], c["frames"]) for c in copies}
    return {
        "rule": "experiments/from-nothing/PLAN.md, Selection and amendment 3",
        "validation_deals": DEALS,
        "chosen": {**chosen, "sha256": hashlib.sha256(policy_bytes(chosen)).hexdigest()},
        "candidates": sorted(copies, key=lambda c: (c["run"], c["frames"])),
        "best_evaluated": {
            "validation_win_rate": best,
            "checkpoints": len(at_best),
            "kept": sum((row["run"], row["frames"]) in kept for row in at_best),
        },
        "evaluated_checkpoints": len(evaluated),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--dry-run", action="store_true", help="print the choice, write nothing")
    args = parser.parse_args(argv)
    selection = select()
    chosen = selection["chosen"]
    print(
        f"the earlier study's choice: {chosen['run']} at {chosen['frames']:,} frames (commit "
        f"{chosen['commit']}), validation {100 * chosen['validation_win_rate']:.1f} % of "
        f"{DEALS} level-1 deals; {len(selection['candidates'])} candidates (the models folder "
        "is left alone: scratch is the no-teacher study's policy)"
    )
    if not args.dry_run:
        OUT.parent.mkdir(parents=True, exist_ok=True)
        OUT.write_text(json.dumps(selection, indent=1) + "\n")
        print(f"wrote {OUT.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
