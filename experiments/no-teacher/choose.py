"""Stage 1's selection (PLAN.md): the seed whose final policy wins the most of the first 500
level-1 validation deals; ties to the lower seed. Reads the committed ``friday eval`` run of
``run.sh select1`` and writes its choice beside it:

    python experiments/no-teacher/choose.py
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
SELECTION = HERE / "results" / "stage1-selection"
DEALS = 500
SEED = re.compile(r"runs/s(\d+)-")


def candidates(results: dict) -> list[dict]:
    """Each policy's seed, wins and win rate on the level-1 validation deals."""
    if results["config"].get("deals") not in (None, "validation"):
        raise SystemExit("the selection reads validation deals only")
    rows = []
    for row in results["summary"]:
        if row["level"] != 1 or row["games"] != DEALS:
            raise SystemExit(
                f"{row['agent']}: {row['games']} level-{row['level']} games, not {DEALS}"
            )
        seed = int(SEED.search(row["agent"]).group(1))
        rows.append(
            {"agent": row["agent"], "seed": seed, "wins": row["wins"], "win_rate": row["win_rate"]}
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], allow_abbrev=False)
    parser.add_argument("--selection", type=Path, default=SELECTION, help="the friday eval run")
    args = parser.parse_args()
    rows = candidates(json.loads((args.selection / "results.json").read_text()))
    chosen = max(rows, key=lambda row: (row["wins"], -row["seed"]))
    choice = {
        "rule": "most level-1 validation wins of 500, ties to the lower seed",
        "candidates": rows,
        "chosen": chosen,
    }
    (args.selection / "choice.json").write_text(json.dumps(choice, indent=1) + "\n")
    print(
        f"stage 1 chooses seed {chosen['seed']}: {chosen['wins']}/{DEALS} "
        f"({100 * chosen['win_rate']:.1f} %) of the level-1 validation deals"
    )


if __name__ == "__main__":
    main()
