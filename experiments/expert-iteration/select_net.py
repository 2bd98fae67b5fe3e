"""Choose the ``net`` agent's network by the rule of ``PLAN.md`` and install it:
``python experiments/expert-iteration/select_net.py``.

The rule, fixed before the runs: the round whose network alone has the highest mean
validation win rate over the four levels (ties: the later round). The chosen network is
copied to ``agents/models/net.npz`` and the choice written to ``results/selection.json``.
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent


def mean_net_win_rate(summary: dict) -> float:
    levels = summary["net"]["levels"]
    return sum(r["win_rate"] for r in levels.values()) / len(levels)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, default=HERE / "results")
    parser.add_argument("--install", type=Path, default=REPO / "agents/models/net.npz")
    args = parser.parse_args(argv)
    summaries = [
        json.loads(p.read_text()) for p in sorted(args.results.glob("round-*/summary.json"))
    ]
    if not summaries:
        parser.error(f"no round summaries in {args.results}")
    means = {s["round"]: mean_net_win_rate(s) for s in summaries}
    chosen = max(means, key=lambda r: (means[r], r))
    source = args.results / f"round-{chosen:02d}" / "network.npz"
    shutil.copyfile(source, args.install)
    record = {
        "rule": "highest mean validation win rate of the network alone over the levels; "
        "ties: the later round",
        "mean_win_rate_by_round": {str(r): round(m, 4) for r, m in means.items()},
        "chosen_round": chosen,
        "network": source.relative_to(REPO).as_posix(),
        "installed_as": args.install.relative_to(REPO).as_posix(),
    }
    (args.results / "selection.json").write_text(json.dumps(record, indent=1) + "\n")
    print(json.dumps(record, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
