"""Does ``guided`` play the same games on the compiled core as it did on the Python engine?

Compares the compiled-core run of ``guided`` on the 1,000 evaluation deals per level
(``experiments/compiled-core/guided-c-1000``, made with the compiled core as default:
``friday eval --agents guided --levels 1-4 --games 1000 --out
experiments/compiled-core/guided-c-1000``) with what was committed before the compiled core
existed, all played on the Python engine:

- game by game, with the 200 deals per level of ``experiments/search-strength/results/eval/
  guided-cards-200`` (the same agent spec): won, score, life, actions, fights;
- level by level, with the README's headline run (``experiments/results/readme_results.json``:
  1,000 deals per level): wins and mean score.

All of them played guided's defaults before the level-4 leaf study, which the files name
``guided`` (today ``guided:prior=guided-prior:value=guided-value-per-level:top=1``; to play the run
again, name that spec in ``--agents``).

Writes ``experiments/compiled-core/guided_same_games.json``; exit status 1 if anything differs.
Run: ``python experiments/compiled-core/compare.py``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
COMPILED = HERE / "guided-c-1000" / "games.jsonl"
PYTHON_GAMES = REPO / "experiments/search-strength/results/eval/guided-cards-200/games.jsonl"
HEADLINE = REPO / "experiments/results/readme_results.json"
FIELDS = ("won", "score", "life", "actions", "fights")


def read_games(path: Path) -> dict[tuple[int, int], dict]:
    rows = (json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line)
    return {(row["level"], row["seed"]): row for row in rows if row["agent"] == "guided"}


def game_by_game(compiled: dict, python: dict) -> dict:
    differing = [
        {"level": level, "seed": seed}
        for (level, seed), row in python.items()
        if tuple(compiled[level, seed][f] for f in FIELDS) != tuple(row[f] for f in FIELDS)
    ]
    return {"games_compared": len(python), "differing": differing}


def level_by_level(compiled: dict) -> list[dict]:
    headline = json.loads(HEADLINE.read_text(encoding="utf-8"))
    out = []
    for summary in headline["summary"]:
        if summary["agent"] != "guided":
            continue
        level = summary["level"]
        games = [row for (lv, _), row in compiled.items() if lv == level]
        wins = sum(row["won"] for row in games)
        out.append(
            {
                "level": level,
                "games": len(games),
                "wins_compiled": wins,
                "wins_python": round(summary["win_rate"] * summary["games"]),
                "mean_score_compiled": sum(row["score"] for row in games) / len(games),
                "mean_score_python": summary["mean_score"],
            }
        )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.parse_args(argv)  # no options: --help says what the script compares
    compiled = read_games(COMPILED)
    result = {
        "game_by_game": game_by_game(compiled, read_games(PYTHON_GAMES)),
        "level_by_level": level_by_level(compiled),
    }
    (HERE / "guided_same_games.json").write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    same_levels = all(
        row["wins_compiled"] == row["wins_python"]
        and abs(row["mean_score_compiled"] - row["mean_score_python"]) < 1e-9
        for row in result["level_by_level"]
    )
    return 0 if same_levels and not result["game_by_game"]["differing"] else 1


if __name__ == "__main__":
    sys.exit(main())
