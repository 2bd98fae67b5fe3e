"""Choose the ``net`` agent's network by the rule of ``PLAN.md`` and install it:
``python experiments/expert-iteration/select_net.py``.

The rule (``PLAN.md`` and its first amendment, written before any evaluation-deal game of a
new network): among the expert-iteration rounds and the RL fine-tuned networks
(``experiments/rl/*/`` runs started from a network, at the checkpoint where they stopped),
the one whose network alone has the highest mean validation win rate over the four levels
(500 deals per level; ties: the later candidate). It is copied to
``agents/friday_agents/models/net.npz`` and the choice written to ``results/selection.json``.
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


def fine_tuned_candidates(runs: Path) -> dict[str, tuple[float, Path]]:
    """RL runs started from a network: the mean validation win rate over the levels at
    their last held-out evaluation (the checkpoint their ``policy.npz`` holds)."""
    found = {}
    for curve in sorted(runs.glob("*/curve.jsonl")):
        config = json.loads((curve.parent / "config.json").read_text())
        rows = [json.loads(line) for line in curve.read_text().splitlines()]
        measured = [r for r in rows if len(r.get("heldout_by_level", {})) == 4]
        if not config.get("init") or not measured:
            continue
        last = measured[-1]
        rates = [v["heldout_win_rate"] for v in last["heldout_by_level"].values()]
        found[f"rl:{curve.parent.name}@{last['frames']}"] = (
            sum(rates) / len(rates),
            curve.parent / "policy.npz",
        )
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, default=HERE / "results")
    parser.add_argument(
        "--install", type=Path, default=REPO / "agents/friday_agents/models/net.npz"
    )
    parser.add_argument("--rl-runs", type=Path, default=REPO / "experiments/rl")
    args = parser.parse_args(argv)
    summaries = [
        json.loads(p.read_text()) for p in sorted(args.results.glob("round-*/summary.json"))
    ]
    if not summaries:
        parser.error(f"no round summaries in {args.results}")
    candidates = {
        f"round {s['round']}": (
            mean_net_win_rate(s),
            args.results / f"round-{s['round']:02d}" / "network.npz",
        )
        for s in summaries
    }
    candidates |= fine_tuned_candidates(args.rl_runs)
    names = list(candidates)
    chosen = max(names, key=lambda n: (candidates[n][0], names.index(n)))
    source = candidates[chosen][1]
    shutil.copyfile(source, args.install)
    record = {
        "rule": "highest mean validation win rate of the network alone over the four levels, "
        "among the rounds and the RL fine-tuned networks; ties: the later candidate",
        "mean_win_rate": {name: round(mean, 4) for name, (mean, _) in candidates.items()},
        "chosen": chosen,
        "network": source.resolve().relative_to(REPO).as_posix(),
        "installed_as": args.install.resolve().relative_to(REPO).as_posix(),
    }
    (args.results / "selection.json").write_text(json.dumps(record, indent=1) + "\n")
    print(json.dumps(record, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
