"""Stage 0's rule (PLAN.md, "The method"): the labelling search for expert iteration.

    python experiments/net-scale/choose_teacher.py

Reads ``results/teacher-choice/games.jsonl`` (validation deals 0-299 of levels 1-4), and among
the candidates (the ``search:`` specs) whose CPU per game, the mean over the levels of
``friday eval``'s seconds per game, is at most 0.6 s, picks the highest mean win rate over the
four levels (ties within 1 point: the cheaper). Writes ``results/teacher-choice/choice.json``.

A game's seconds are wall time. One game spanned a stop of the run's process (it was
suspended with SIGSTOP for about 27 minutes to give the level-4 study's evaluation the core),
so a game longer than ``STOPPED`` seconds is left out of its candidate's time and said so; the
win rates use every game.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from friday_agents.harness.paths import read_maybe_compressed

HERE = Path(__file__).resolve().parent
FOLDER = HERE / "results" / "teacher-choice"
CPU_LIMIT = 0.6
TIE_POINTS = 1.0
#: No game of these agents takes a minute (the slowest otherwise: 1.8 s).
STOPPED = 60.0


def main(argv: list[str] | None = None) -> None:
    argparse.ArgumentParser(allow_abbrev=False, description=__doc__.split("\n\n")[0]).parse_args(
        argv
    )
    text = read_maybe_compressed(FOLDER / "games.jsonl")  # or its committed .gz
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    agents = sorted({r["agent"] for r in rows})
    report: dict = {"candidates": {}, "left_out_of_time": []}
    for agent in agents:
        mine = [r for r in rows if r["agent"] == agent]
        win = {
            lv: float(np.mean([r["won"] for r in mine if r["level"] == lv])) for lv in (1, 2, 3, 4)
        }
        seconds = {}
        for lv in (1, 2, 3, 4):
            timed = [r["seconds"] for r in mine if r["level"] == lv and r["seconds"] <= STOPPED]
            seconds[lv] = float(np.mean(timed))
        report["left_out_of_time"] += [
            {"agent": agent, "level": r["level"], "index": r["index"], "seconds": r["seconds"]}
            for r in mine
            if r["seconds"] > STOPPED
        ]
        report["candidates"][agent] = {
            "games": len(mine),
            "win_rate": {lv: round(100 * w, 1) for lv, w in win.items()},
            "mean_win_rate": round(100 * float(np.mean(list(win.values()))), 2),
            "seconds_per_game": round(float(np.mean(list(seconds.values()))), 3),
            "candidate": agent.startswith("search:"),
        }
    eligible = {
        a: c
        for a, c in report["candidates"].items()
        if c["candidate"] and c["seconds_per_game"] <= CPU_LIMIT
    }
    best = max(c["mean_win_rate"] for c in eligible.values())
    near = [a for a, c in eligible.items() if c["mean_win_rate"] >= best - TIE_POINTS]
    chosen = min(near, key=lambda a: eligible[a]["seconds_per_game"])
    report["rule"] = (
        "highest mean win rate over levels 1-4 among the search candidates at <= 0.6 s per game; "
        "ties within 1 point: the cheaper"
    )
    report["chosen"] = chosen
    (FOLDER / "choice.json").write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
