"""The README's lines on the compiled core's speed, from the committed ``friday bench`` run."""

from __future__ import annotations

from pathlib import Path

from sections import read_json, table

#: The committed ``friday bench`` run (``docs/performance.md`` is its full rendering).
BENCH_RESULTS = Path("benchmarks/results.json")

#: The rows of the committed bench run that compare the cores, as the README names them.
CORE_SPEED_ROWS = (
    ("core_api_ratio", "`legal_actions()` + `apply()` through the `Game` API"),
    ("core_random_play_ratio", "random legal play inside the core, many games in one C call"),
    ("vector_env_c_over_blackjack", "native vector env vs Blackjack-v1 in a `SyncVectorEnv`"),
    ("search_guided_ratio", "`guided`: CPU seconds per game, Python core / compiled core"),
)


def core_speeds_section(repo: Path) -> str:
    """The README's few lines on the compiled core's speed, from the committed bench run."""
    doc = read_json(repo, BENCH_RESULTS)
    results, targets = doc["results"], doc.get("targets", {})
    rows = []
    for key, label in CORE_SPEED_ROWS:
        if key not in results:
            continue
        bound = targets.get(key, {}).get("bound")
        target = f"≥ {bound:g}×" if bound is not None else ""
        rows.append([label, f"{results[key]['median']:.1f}×", target])
    differing = results.get("search_guided_differing", {}).get("median")
    lines = [
        *table(["compiled core over", "speed-up", "target"], rows, "lrr"),
        "",
        f"Medians of `{doc['meta']['command']}` on this project's 2-core machine "
        f"(`{BENCH_RESULTS.as_posix()}`; every row in [`docs/performance.md`]"
        "(docs/performance.md)).",
    ]
    if differing is not None:
        lines[-1] += f" Games of `guided` that differ between the cores: {differing:.0f}."
    ppo = results.get("ppo_fps_ratio")
    if ppo is not None:
        bound = targets.get("ppo_fps_ratio", {}).get("bound")
        wanted = f" (target ≥ {100 * bound:g} %)" if bound is not None else ""
        lines[-1] += (
            f" MaskablePPO trains on `Friday-v0` at {100 * ppo['median']:.1f} % of its speed on "
            f"a trivial env with the same spaces{wanted}: the game costs training little."
        )
    return "\n".join(lines)


SECTIONS = {"core-speeds": ("README.md", core_speeds_section)}
