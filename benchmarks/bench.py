r"""``friday bench``: how fast the engine and ``Friday-v0`` run on this machine, in one run.

Measured (every rate per second of this process's CPU time, except (h) and (l)):

(a) engine actions/s under random legal play, new games included; (b) ``Friday-v0`` steps/s
with the flat encoder and the mask, random legal actions; (c) gymnasium's ``Blackjack-v1``
with the same loop in the same rounds, and the ratio (b)/(c) per round; (d) complete random
games/s per level; (e) ``Game.clone()`` in µs; (f) MaskablePPO training frames/s on
``Friday-v0`` and on a trivial env with the same spaces, and their ratio (with Friday-v0
without observation encoding beside them: the most an encoder speed-up gives); (g) memory per
env; (h) steps/s (wall-clock) through ``gymnasium.make_vec(..., vectorization_mode="async")``
and stable-baselines3's ``SubprocVecEnv`` with 1 and 2 workers.

The compiled core beside the Python engine (groups core, vector, cleanrl, search; skipped
where the compiled core is not built): (i) actions/s through the ``Game`` API
(``legal_actions()`` + ``apply()``) on each core, and their ratio; (j) random legal play
inside the compiled core, many games in one C call, against the Python engine of (i); (k)
steps/s of Friday-v0's native vector env (``vectorization_mode="vector_entry_point"``, flat
observations and masks, random legal actions from rankings drawn before the clock starts)
on each core, against Blackjack-v1 through gymnasium's ``SyncVectorEnv`` with as many envs;
(l) the CleanRL-style recipe's training frames/s (wall-clock) on the native vector env
(compiled core) and on a ``SyncVectorEnv`` of Python-core envs; (m) ``guided``'s CPU seconds
per game on each core (group search), the same evaluation deals of levels 1 and 4 in every
round, and how many games differ (none may); (n) ``friday rl``'s training frames/s against
SB3's MaskablePPO with the same PPO (separate 64-64 tanh actor and critic, 64 envs x 128
steps, 4 epochs of 4 minibatches, level 1, one torch thread), their ratio, and where a
``friday rl`` frame's CPU time goes (env, acting, learning, bookkeeping): read from the
committed side-by-side run ``benchmarks/rl_vs_sb3.json`` (``python benchmarks/rl_vs_sb3.py``),
the one measurement of that ratio, not measured again here; and 2 processes' wall frames/s
over one's (torchrun) with the machine's bound on it (two independent one-process runs at
once), read from the committed ``benchmarks/rl_throughput_cpu.json``
(``python benchmarks/rl_throughput.py``) alike.

Each group runs in rounds, one per repeat, its members taking turns in a rotating order
(A, B, A, B...); every ratio is taken within its round, and the results keep every round,
the median and the range.

Without ``--out`` a run goes to a new folder under results/bench/: no run writes over the
committed results unless it names them. The project's committed run is

    friday bench --repeats 9 \
        --note "2-core machine; the study's background runs paused during the bench" \
        --out benchmarks/results.json

and a second run of every group the README shows, to check that a rerun's medians fall
within the first run's range (docs/performance.md states the rule), is

    friday bench --repeats 9 --only env,ppo,core,vector,search,rl \
        --note "2-core machine; the study's background runs paused during the bench" \
        --out benchmarks/results-check.json

A run measures in a child process with one BLAS/OpenMP thread (OPENBLAS_NUM_THREADS,
OMP_NUM_THREADS, MKL_NUM_THREADS = 1): idle BLAS worker threads spin and their CPU time
would count in the process's CPU time.

``--from-json FILE`` prints a saved run's table and measures nothing. The docs' performance
sections are rendered from benchmarks/results.json by tools/sections/bench.py.

This script is the source checkout's (benchmarks/ is not installed): ``friday bench`` and
``python benchmarks/bench.py`` run it.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from bench_report import (
    RL_PROCESSES_TARGET,
    RL_RATIO_TARGET,
    RL_THROUGHPUT,
    RL_VS_SB3,
    format_spread,
    processes_results,
    side_by_side_results,
    text_table,
)

from friday_agents.cli.arguments import add_progress, plain
from friday_agents.harness.errors import MissingExtraError, require
from friday_agents.harness.files import check_out_path, new_run_folder
from friday_agents.harness.paths import portable_path

#: The committed run, written only when ``--out`` names it.
COMMITTED = "benchmarks/results.json"
#: What the committed runs say of the machine they ran on (their --note).
COMMITTED_NOTE = "2-core machine; the study's background runs paused during the bench"
#: The command that measures the committed run.
COMMITTED_COMMAND = (
    f"friday bench --repeats 9 --note {json.dumps(COMMITTED_NOTE)} --out benchmarks/results.json"
)
#: A second run, after the committed one, of every group whose rows the README shows: each
#: of its medians must fall within the committed run's range (docs/performance.md).
COMMITTED_CHECK = "benchmarks/results-check.json"
COMMITTED_CHECK_COMMAND = (
    "friday bench --repeats 9 --only env,ppo,core,vector,search,rl "
    f"--note {json.dumps(COMMITTED_NOTE)} --out benchmarks/results-check.json"
)
#: Without ``--out``, each run writes a new folder here.
DEFAULT_PARENT = Path("results/bench")
#: Optional libraries each group needs (the rl extra).
GROUP_LIBRARIES = {
    "ppo": ("torch", "stable_baselines3", "sb3_contrib"),
    "vec": ("stable_baselines3",),
    "cleanrl": ("torch",),
    "rl": ("torch", "stable_baselines3", "sb3_contrib"),
}
GROUPS = (
    "engine", "env", "games", "clone", "ppo", "memory", "vec", "core", "vector", "cleanrl",
    "search", "rl",
)  # fmt: skip
#: Groups that compare the cores: measured only where the compiled core is built.
CORE_GROUPS = ("core", "vector", "cleanrl", "search")
WORKERS = (1, 2)
#: BLAS/OpenMP thread counts of the measuring process. CPU time (``time.process_time``)
#: counts every thread of the process, and numpy's OpenBLAS keeps worker threads that spin
#: for a while after any BLAS call: their CPU time would land in whatever is timed next
#: (random_play after one matrix product: 1.01-1.03 CPU s for 0.95-0.98 wall s with them,
#: 0.95 for 0.95 without). They must be set before numpy loads, so a run measures in a
#: child process that starts with them.
SINGLE_THREADED = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


@dataclass(frozen=True)
class Budget:
    """How much work each measurement does per repeat."""

    repeats: int
    engine_actions: int
    env_steps: int
    games_per_level: int
    clone_states: int
    clone_rounds: int
    memory_envs: int
    memory_steps: int
    vec_iterations: int
    ppo_rollouts: int
    ppo_pairs: int
    ppo: dict[str, Any] = field(default_factory=dict)
    core_actions: int = 0  # (i) Game API actions per core per repeat
    core_random_play_actions: int = 0  # (j) actions in one C call
    vector_envs: int = 0  # (k) envs in each vector env
    vector_iterations: int = 0  # (k) vector steps per repeat
    cleanrl_envs: int = 0  # (l) the recipe's --num-envs
    cleanrl_timesteps: int = 0  # (l) the recipe's --total-timesteps per repeat
    search_games: int = 0  # (m) guided's evaluation deals per level and core
    rl_updates: int = 0  # (n) rollouts + updates of each trainer per round
    rl: dict[str, Any] = field(default_factory=dict)  # (n) the setting both trainers share


def _train_defaults() -> dict[str, Any]:
    """The PPO settings ``friday train`` uses by default (what training here looks like),
    in SB3's own names (the bench calls SB3's ``MaskablePPO`` with them)."""
    from friday_agents.learning.sb3.config import TrainConfig

    config = TrainConfig()
    return {
        "n_envs": config.num_envs,
        "n_steps": config.num_steps,
        "batch_size": config.minibatch_size(),
        "n_epochs": config.epochs,
        "net_arch": config.hidden_layers(),
        "torch_threads": config.torch_threads,
    }


def _rl_setting() -> dict[str, Any]:
    from bench_measure import RL_SETTING

    return dict(RL_SETTING)


def full_budget(repeats: int) -> Budget:
    """About 4 minutes in all with 9 repeats on a quiet 2-core machine."""
    return Budget(
        repeats=repeats,
        engine_actions=200_000,
        env_steps=30_000,
        games_per_level=400,
        clone_states=500,
        clone_rounds=40,
        memory_envs=200,
        memory_steps=50,
        vec_iterations=3_000,
        ppo_rollouts=1,
        ppo_pairs=repeats,  # as many rounds as every other row: one stated sample size
        ppo=_train_defaults(),
        core_actions=100_000,
        core_random_play_actions=2_000_000,
        vector_envs=64,
        vector_iterations=300,
        cleanrl_envs=8,
        cleanrl_timesteps=8 * 128 * 4,
        search_games=4,  # 8 guided games per core and round, ~5 CPU s on the Python core
        rl_updates=2,  # 16,384 frames of each trainer per round
        rl=_rl_setting(),
    )


def quick_budget(repeats: int) -> Budget:
    """A few seconds of work per measurement: checks the command, not the speed."""
    return Budget(
        repeats=repeats,
        engine_actions=2_000,
        env_steps=300,
        games_per_level=3,
        clone_states=50,
        clone_rounds=2,
        memory_envs=3,
        memory_steps=5,
        vec_iterations=30,
        ppo_rollouts=1,
        ppo_pairs=repeats,
        ppo={**_train_defaults(), "n_envs": 2, "n_steps": 16, "batch_size": 16, "n_epochs": 1},
        core_actions=1_000,
        core_random_play_actions=20_000,
        vector_envs=8,
        vector_iterations=20,
        cleanrl_envs=2,
        cleanrl_timesteps=256,
        search_games=1,
        rl_updates=1,
        rl={**_rl_setting(), "n_envs": 4, "n_steps": 16, "n_epochs": 1},
    )


#: Targets of the project (issue 6): measurement key -> (at least?, bound).
TARGETS = {
    "engine_actions_per_s": (True, 150_000.0),
    "friday_over_blackjack": (True, 1.5),
    "clone_us": (False, 10.0),
    # issue 6 asked 0.9 of the Python engine; issue 19 asks 0.95 of the compiled core
    "ppo_fps_ratio": (True, 0.95),
    "memory_per_env_mb": (False, 1.0),
    # issue 19: the compiled core
    "core_api_ratio": (True, 5.0),
    "core_random_play_ratio": (True, 20.0),
    "vector_env_c_over_blackjack": (True, 8.0),
    "search_guided_ratio": (True, 5.0),
    # issues 32 and 43: our trainer against the library a user would pick, same PPO
    "rl_fps_ratio": (True, RL_RATIO_TARGET),
    # issue 43: friday rl's data-parallel runs, 2 processes against 1 on the 2-core machine
    "rl_processes_ratio": (True, RL_PROCESSES_TARGET),
}


class Results:
    """Measurements collected so far: key -> label, unit, runs, median, min, max."""

    def __init__(self) -> None:
        self.items: dict[str, dict[str, Any]] = {}

    def add(self, key: str, label: str, unit: str, runs: list[float], **extra: Any) -> None:
        self.items[key] = {
            "label": label,
            "unit": unit,
            "median": statistics.median(runs),
            "min": min(runs),
            "max": max(runs),
            "runs": runs,
            **extra,
        }
        print(f"  {label}: {format_spread(self.items[key])}", flush=True)

    def targets(self) -> dict[str, dict[str, Any]]:
        out = {}
        for key, (at_least, bound) in TARGETS.items():
            if key in self.items:
                median = self.items[key]["median"]
                met = median >= bound if at_least else median <= bound
                out[key] = {"at_least": at_least, "bound": bound, "met": met}
        return out


# ------------------------------------------------------------------ the measurements


def _repeat(budget: Budget, measure: Callable[[int], float]) -> list[float]:
    """``measure(seed)`` once per repeat, with seeds 0, 1, ..."""
    return [measure(seed) for seed in range(budget.repeats)]


def rounds(repeats: int, members: dict[str, Callable[[int], Any]]) -> dict[str, list[Any]]:
    """Each member's ``measure(seed)`` once per round (seed = the round), the members taking
    turns in an order that rotates from round to round (A B C, B C A, C A B...): what
    slows one round down slows all its members, and the ratios within a round cancel it."""
    names = list(members)
    runs: dict[str, list[Any]] = {name: [] for name in names}
    for seed in range(repeats):
        first = seed % len(names)
        for name in names[first:] + names[:first]:
            runs[name].append(members[name](seed))
    return runs


def ratios(top: list[float], bottom: list[float]) -> list[float]:
    """``top / bottom`` round by round."""
    return [t / b for t, b in zip(top, bottom, strict=True)]


def bench_engine(budget: Budget, results: Results) -> None:
    from bench_measure import engine_actions_per_s

    engine_actions_per_s(budget.engine_actions // 10, seed=99)  # warm-up
    runs = _repeat(budget, lambda seed: engine_actions_per_s(budget.engine_actions, seed))
    results.add("engine_actions_per_s", "(a) engine, random legal play", "actions/s", runs)


def bench_env(budget: Budget, results: Results) -> None:
    """(b) and (c) in rounds, and their ratio within each round."""
    from bench_measure import env_steps_per_s

    steps = budget.env_steps
    for env_id in ("Friday-v0", "Blackjack-v1"):
        env_steps_per_s(env_id, steps // 10, seed=99)  # warm-up
    runs = rounds(
        budget.repeats,
        {
            env_id: lambda seed, env_id=env_id: env_steps_per_s(env_id, steps, seed)
            for env_id in ("Friday-v0", "Blackjack-v1")
        },
    )
    friday, blackjack = runs["Friday-v0"], runs["Blackjack-v1"]
    results.add("friday_steps_per_s", "(b) Friday-v0, flat + mask, random legal", "steps/s", friday)
    results.add("blackjack_steps_per_s", "(c) Blackjack-v1, same loop", "steps/s", blackjack)
    results.add("friday_over_blackjack", "(b) / (c), per round", "×", ratios(friday, blackjack))


def bench_games(budget: Budget, results: Results) -> None:
    from bench_measure import LEVELS, games_per_s

    for level in LEVELS:
        games = budget.games_per_level
        measured = [games_per_s(level, games, seed=r * games) for r in range(budget.repeats)]
        decisions = statistics.mean(mean for _, mean in measured)
        results.add(
            f"games_per_s_level_{level}",
            f"(d) random games, level {level}",
            "games/s",
            [rate for rate, _ in measured],
            decisions_per_game=decisions,
        )


def bench_clone(budget: Budget, results: Results) -> None:
    from bench_measure import clone_us, random_states

    states = random_states(budget.clone_states, seed=0)
    runs = _repeat(budget, lambda _: clone_us(states, budget.clone_rounds))
    results.add("clone_us", "(e) Game.clone(), random states", "µs", runs)


def bench_memory(budget: Budget, results: Results) -> None:
    from bench_measure import memory_per_env_bytes

    runs = _repeat(
        budget,
        lambda seed: memory_per_env_bytes(budget.memory_envs, budget.memory_steps, seed) / 1e6,
    )
    results.add("memory_per_env_mb", "(g) memory per Friday-v0 env", "MB", runs)


def bench_vec(budget: Budget, results: Results) -> None:
    from bench_measure import gymnasium_async_steps_per_s, sb3_subproc_steps_per_s

    kinds = (
        ("async", "gymnasium make_vec async", gymnasium_async_steps_per_s),
        ("subproc", "SB3 SubprocVecEnv", sb3_subproc_steps_per_s),
    )
    for key, name, measure in kinds:
        for workers in WORKERS:
            runs = measure(workers, budget.vec_iterations, budget.repeats, seed=0)
            label = f"(h) {name}, {workers} worker{'s' if workers > 1 else ''}, wall-clock"
            results.add(f"vec_{key}_{workers}", label, "steps/s", runs)


def bench_ppo(budget: Budget, results: Results) -> None:
    """(f): ``ppo_pairs`` rounds of Friday-v0, the trivial env and Friday-v0 without
    observation encoding; ratios to the trivial env are taken within each round."""
    import torch
    from bench_measure import TRIVIAL_ENV_ID, UNENCODED_ENV_ID, PPOTimer

    settings = budget.ppo
    torch.set_num_threads(settings["torch_threads"])
    env_ids = ["Friday-v0", TRIVIAL_ENV_ID, UNENCODED_ENV_ID]
    timers = {env_id: PPOTimer(env_id, settings, seed=0) for env_id in env_ids}
    runs = rounds(
        budget.ppo_pairs,
        {env_id: lambda _, t=timers[env_id]: t.fps(budget.ppo_rollouts) for env_id in env_ids},
    )
    for timer in timers.values():
        timer.close()
    for key, label, env_id in (
        ("ppo_fps_friday", "(f) MaskablePPO on Friday-v0", "Friday-v0"),
        ("ppo_fps_trivial", "(f) MaskablePPO on a trivial env, same spaces", TRIVIAL_ENV_ID),
        (
            "ppo_fps_unencoded",
            "(f) MaskablePPO on Friday-v0 without observation encoding",
            UNENCODED_ENV_ID,
        ),
    ):
        env_us = statistics.median(us for _, us in runs[env_id])
        fps = [fps for fps, _ in runs[env_id]]
        results.add(key, label, "frames/s", fps, env_us_per_frame=env_us)
    trivial = [fps for fps, _ in runs[TRIVIAL_ENV_ID]]
    for key, label, env_id in (
        ("ppo_fps_ratio", "(f) Friday-v0 / trivial env, per round", "Friday-v0"),
        (
            "ppo_fps_unencoded_ratio",
            "(f) Friday-v0 without encoding / trivial env: the most an encoder speed-up gives",
            UNENCODED_ENV_ID,
        ),
    ):
        results.add(key, label, "%", ratios([fps for fps, _ in runs[env_id]], trivial))


def bench_core(budget: Budget, results: Results) -> None:
    """(i) the Game API on each core and (j) random play inside the compiled core, in
    rounds; each ratio is taken within its round."""
    from bench_measure import core_random_play_per_s, engine_actions_per_s

    actions, in_core = budget.core_actions, budget.core_random_play_actions
    for core in ("python", "c"):
        engine_actions_per_s(max(1, actions // 10), seed=99, core=core)  # warm-up
    core_random_play_per_s(max(1, in_core // 10), seed=99)
    runs = rounds(
        budget.repeats,
        {
            "python": lambda seed: engine_actions_per_s(actions, seed, core="python"),
            "c": lambda seed: engine_actions_per_s(actions, seed, core="c"),
            "in_core": lambda seed: core_random_play_per_s(in_core, seed),
        },
    )
    python = runs["python"]
    results.add("core_api_python", "(i) Game API, Python engine", "actions/s", python)
    results.add("core_api_c", "(i) Game API, compiled core", "actions/s", runs["c"])
    results.add(
        "core_api_ratio", "(i) compiled / Python, per round", "×", ratios(runs["c"], python)
    )
    results.add(
        "core_random_play", "(j) random play inside the compiled core", "actions/s", runs["in_core"]
    )
    results.add(
        "core_random_play_ratio",
        "(j) / (i) Python engine, per round",
        "×",
        ratios(runs["in_core"], python),
    )


def bench_vector(budget: Budget, results: Results) -> None:
    """(k) the native vector env on each core and Blackjack-v1's SyncVectorEnv, as many envs,
    in rounds; ratios within each round."""
    from bench_measure import (
        blackjack_sync_vector_env,
        friday_vector_env,
        vector_env_steps_per_s,
    )

    n, iterations = budget.vector_envs, budget.vector_iterations
    makers = {
        "c": lambda: friday_vector_env(n, "c"),
        "python": lambda: friday_vector_env(n, "python"),
        "blackjack": lambda: blackjack_sync_vector_env(n),
    }
    runs = rounds(
        budget.repeats,
        {
            name: lambda seed, make=make: vector_env_steps_per_s(make, iterations, seed)
            for name, make in makers.items()
        },
    )
    for core, label in (("c", "compiled core"), ("python", "Python core")):
        results.add(
            f"vector_env_{core}",
            f"(k) Friday-v0 vector env, {label}, {n} envs",
            "steps/s",
            runs[core],
        )
    results.add(
        "blackjack_sync", f"(k) Blackjack-v1 SyncVectorEnv, {n} envs", "steps/s", runs["blackjack"]
    )
    for core, label in (("c", "compiled"), ("python", "Python")):
        results.add(
            f"vector_env_{core}_over_blackjack",
            f"(k) vector env ({label}) / Blackjack-v1, per round",
            "×",
            ratios(runs[core], runs["blackjack"]),
        )


def bench_cleanrl(budget: Budget, results: Results) -> None:
    """(l) the CleanRL-style recipe on the native vector env (compiled core) and on a
    SyncVectorEnv of Python-core envs, in rounds; the ratio within each round."""
    from bench_measure import cleanrl_frames_per_s, cleanrl_recipe_path

    if cleanrl_recipe_path() is None:
        print("  skipped: examples/cleanrl_masked_ppo.py is not here (a source checkout has it)")
        return
    setups = {"vector": ("vector_entry_point", "c"), "python": ("sync", "python")}
    runs = rounds(
        budget.repeats,
        {
            name: lambda seed, setup=setup: cleanrl_frames_per_s(
                *setup, budget.cleanrl_timesteps, budget.cleanrl_envs, seed
            )
            for name, setup in setups.items()
        },
    )
    results.add(
        "cleanrl_fps_vector",
        "(l) CleanRL-style recipe, native vector env, compiled core, wall-clock",
        "frames/s",
        runs["vector"],
    )
    results.add(
        "cleanrl_fps_python",
        "(l) CleanRL-style recipe, SyncVectorEnv of Python-core envs, wall-clock",
        "frames/s",
        runs["python"],
    )
    results.add(
        "cleanrl_fps_ratio",
        "(l) vector env / Python env, per round",
        "×",
        ratios(runs["vector"], runs["python"]),
    )


#: The levels of (m): the easiest and the hardest.
SEARCH_LEVELS = (1, 4)


def bench_search(budget: Budget, results: Results) -> None:
    """(m) ``guided``'s CPU seconds per game on each core, in rounds: every round plays the
    same evaluation deals of levels 1 and 4 on both cores (the cores taking turns deal by
    deal), and its ratio is the Python core's CPU over the compiled core's for the round's
    games of both levels. How many games differ between the cores (none may) is summed over
    the rounds."""
    from core_timing import compare_cores

    games = budget.search_games
    per_round = games * len(SEARCH_LEVELS)
    python, compiled, differing = [], [], 0
    for _ in range(budget.repeats):
        compared = [compare_cores("guided", level, games) for level in SEARCH_LEVELS]
        python.append(sum(r["cpu_seconds_per_game"]["python"] for r in compared) * games)
        compiled.append(sum(r["cpu_seconds_per_game"]["c"] for r in compared) * games)
        differing += sum(len(r["differing_deals"]) for r in compared)
    for core, label, spent in (
        ("python", "Python engine", python),
        ("c", "compiled core", compiled),
    ):
        per_game = [seconds / per_round for seconds in spent]
        results.add(
            f"search_guided_{core}",
            f"(m) guided, {label}",
            "s/game",
            per_game,
            deals_per_round=per_round,
        )
    results.add(
        "search_guided_ratio",
        "(m) guided, Python / compiled CPU per game, per round",
        "×",
        ratios(python, compiled),
        deals_per_round=per_round,
    )
    results.add(
        "search_guided_differing",
        "(m) guided games that differ between the cores, all rounds",
        "games",
        [float(differing)],
    )


def bench_rl(budget: Budget, results: Results) -> None:
    """(n) ``friday rl`` and SB3's MaskablePPO training with the same PPO (`RL_SETTING`), as
    the committed side-by-side run measured them (``python benchmarks/rl_vs_sb3.py`` writes
    ``benchmarks/rl_vs_sb3.json``): its rounds, the ratio within each, and where a ``friday
    rl`` frame's CPU time goes; and the data-parallel ratio as ``python
    benchmarks/rl_throughput.py`` measured it (``benchmarks/rl_throughput_cpu.json``). Read,
    not measured again: one measurement of each ratio, the one the README states (a quick
    run's tiny setting gave another number)."""
    repo = Path(__file__).resolve().parents[1]
    doc = json.loads((repo / RL_VS_SB3).read_text(encoding="utf-8"))
    processes = json.loads((repo / RL_THROUGHPUT).read_text(encoding="utf-8"))
    for key, item in {**side_by_side_results(doc), **processes_results(processes)}.items():
        runs, label, unit = item["runs"], item["label"], item["unit"]
        extra = {k: v for k, v in item.items() if k not in ("median", "min", "max", "runs")}
        del extra["label"], extra["unit"]
        results.add(key, label, unit, runs, **extra)


BENCHES: dict[str, Callable[[Budget, Results], None]] = {
    "engine": bench_engine,
    "env": bench_env,
    "games": bench_games,
    "clone": bench_clone,
    "ppo": bench_ppo,
    "memory": bench_memory,
    "vec": bench_vec,
    "core": bench_core,
    "vector": bench_vector,
    "cleanrl": bench_cleanrl,
    "search": bench_search,
    "rl": bench_rl,
}


# ------------------------------------------------------------------------ the run


def _cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _git_commit() -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).parent,
        )
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return out.stdout.strip()


def _versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    names = ("numpy", "gymnasium", "torch", "stable-baselines3", "sb3-contrib", "friday-env")
    found = {}
    for name in names:
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            found[name] = "not installed"
    return found


def _options(args: argparse.Namespace) -> list[tuple[str, str | None]]:
    """The options that reproduce this run, as (flag, value or None) (``--out`` only when
    it was given)."""
    given: list[tuple[str, str | None]] = [("--quick", None)] if args.quick else []
    if args.repeats is not None:
        given.append(("--repeats", str(args.repeats)))
    for flag, value in (("--only", args.only), ("--note", args.note), ("--out", args.out)):
        if value:
            given.append((flag, value))
    return given


def command_line(args: argparse.Namespace) -> str:
    """The command that reproduces this run, the note quoted."""
    parts = ["friday bench"]
    for flag, value in _options(args):
        shown = json.dumps(value) if flag == "--note" else value
        if flag == "--out":  # recorded relative: never an absolute path of this machine
            shown = portable_path(value)
        parts.append(flag if value is None else f"{flag} {shown}")
    return " ".join(parts)


def script_arguments(args: argparse.Namespace) -> list[str]:
    """The options of ``args`` as a command line of this script (for the measuring child)."""
    argv = [part for flag, value in _options(args) for part in (flag, value) if part is not None]
    return [*argv, "--progress" if args.progress else "--no-progress"]


def single_threaded() -> bool:
    """Whether this process started with one BLAS/OpenMP thread (`SINGLE_THREADED`)."""
    return all(os.environ.get(name) == value for name, value in SINGLE_THREADED.items())


def measure_in_child(args: argparse.Namespace) -> int:
    """Run this script again with ``args`` in a child process started with
    `SINGLE_THREADED`; its output is passed on line by line. The child's exit status."""
    env = {**os.environ, **SINGLE_THREADED}
    command = [sys.executable, str(Path(__file__).resolve()), *script_arguments(args)]
    with subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True) as child:
        assert child.stdout is not None
        for line in child.stdout:
            print(line, end="", flush=True)
    return child.returncode


def _repeats(args: argparse.Namespace) -> int:
    return args.repeats or (2 if args.quick else 5)


def measure(args: argparse.Namespace, groups: list[str], out: Path) -> dict[str, Any]:
    """Run the chosen measurement groups; the JSON document of the results."""
    repeats = _repeats(args)
    budget = quick_budget(repeats) if args.quick else full_budget(repeats)
    load_start = os.getloadavg()[0]
    started = time.perf_counter()
    results = Results()
    skipped = _without_compiled_core(groups)
    groups = [g for g in groups if g not in skipped]
    for group in _progress(groups, args.progress):
        print(f"{group}:", flush=True)
        BENCHES[group](budget, results)
    meta = {
        "command": command_line(args),
        "json": portable_path(out),
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "git_commit": _git_commit(),
        "quick": args.quick,
        "repeats": repeats,
        "groups": groups,
        "skipped": skipped,
        "budget": asdict(budget),
        "timing": "CPU time of this process (time.process_time), except (h) and (l): wall-clock",
        "threads": {name: os.environ.get(name, "unset") for name in SINGLE_THREADED},
        "note": args.note,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpu": _cpu_name(),
        "cpu_count": os.cpu_count(),
        "load_average": {"start": load_start, "end": os.getloadavg()[0]},
        "versions": _versions(),
        "seconds": time.perf_counter() - started,
    }
    if "search" in groups:  # what (m) played: guided's every option, each model by its hash
        from friday_agents.players.resolved import resolve_spec

        meta["resolved"] = {"guided": resolve_spec("guided")}
    return {"meta": meta, "results": results.items, "targets": results.targets()}


def _without_compiled_core(groups: list[str]) -> list[str]:
    """The chosen groups that compare the cores, when the compiled core is not built here
    (they are skipped, and the JSON says so)."""
    from friday_env.core import available_cores

    if "c" in available_cores():
        return []
    skipped = [g for g in groups if g in CORE_GROUPS]
    if skipped:
        print(f"skipped (the compiled core is not built here): {', '.join(skipped)}")
    return skipped


# ------------------------------------------------------------------- where it goes


def new_run_file(
    args: argparse.Namespace, groups: list[str], parent: Path = DEFAULT_PARENT
) -> Path:
    """``results.json`` in a new folder for a run without ``--out``:
    ``parent/<quick|full>__<groups>__<YYYYmmdd-HHMMSS>`` (``-2``, ``-3``... if taken)."""
    chosen = "all" if groups == list(GROUPS) else "+".join(groups)
    return new_run_folder(parent, f"{'quick' if args.quick else 'full'}__{chosen}") / "results.json"


#: What a saved run holds (``--from-json`` checks it before printing anything).
RUN_KEYS = ("meta", "results", "targets")
RESULT_KEYS = ("label", "unit", "median", "runs")


def load_run(path: Path) -> dict[str, Any]:
    """The saved run in ``path``; a ``ValueError`` naming what is wrong with it."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise ValueError(f"--from-json {path}: cannot read it ({err.strerror})") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ValueError(f"--from-json {path}: not JSON ({err})") from None
    if not isinstance(doc, dict) or any(key not in doc for key in RUN_KEYS):
        raise ValueError(
            f"--from-json {path}: not a friday bench run (needs {', '.join(RUN_KEYS)})"
        )
    for key, result in doc["results"].items():
        missing = [k for k in RESULT_KEYS if not isinstance(result, dict) or k not in result]
        if missing:
            raise ValueError(f"--from-json {path}: result {key!r} lacks {', '.join(missing)}")
    return doc


# ------------------------------------------------------------------------- the CLI


def _progress(groups: list[str], shown: bool) -> Any:
    """The groups, under a progress bar when ``shown``."""
    if not shown:
        return groups
    from tqdm import tqdm

    return tqdm(groups, desc="friday bench", unit="group")


def _groups(text: str | None) -> list[str]:
    if not text:
        return list(GROUPS)
    chosen = [part.strip() for part in text.split(",") if part.strip()]
    unknown = [g for g in chosen if g not in GROUPS]
    if unknown or not chosen:
        raise ValueError(f"--only: unknown groups {unknown}; choose from {', '.join(GROUPS)}")
    return [g for g in GROUPS if g in chosen]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.description = plain(__doc__)
    parser.add_argument(
        "--quick",
        action="store_true",
        help="tiny budgets (seconds): checks that every measurement runs, not the speed",
    )
    parser.add_argument(
        "--repeats",
        type=int,
        default=None,
        metavar="N",
        help="rounds of each measurement; the median and the range are reported "
        "(default 5, quick 2)",
    )
    parser.add_argument(
        "--only",
        default=None,
        metavar="GROUPS",
        help=f"comma-separated subset of the groups {', '.join(GROUPS)} (default: all)",
    )
    parser.add_argument(
        "--out",
        default=None,
        metavar="FILE",
        help=f"where the JSON results go (default: a new folder under {DEFAULT_PARENT}/; "
        f"the committed run is written only when named: --out {COMMITTED})",
    )
    parser.add_argument(
        "--from-json",
        default=None,
        metavar="FILE",
        help="measure nothing, write nothing: print the table of the run saved in FILE",
    )
    parser.add_argument(
        "--note",
        default="",
        metavar="TEXT",
        help='a remark on the conditions, kept in the JSON and the docs ("shared machine")',
    )
    add_progress(parser)


def _validate(args: argparse.Namespace) -> list[str]:
    """The groups to measure; a ``ValueError`` for any bad input, before anything runs."""
    if args.repeats is not None and args.repeats < 1:
        raise ValueError(f"--repeats must be at least 1, got {args.repeats}")
    groups = _groups(args.only)
    if args.from_json:
        if args.out:
            raise ValueError("--from-json measures and writes nothing: drop --out")
        return groups
    if args.out:
        check_out_path(args.out, folder=False)  # refused before anything is measured
    for group in groups:
        require(f"friday bench ({group})", *GROUP_LIBRARIES.get(group, ()))
    if args.progress:
        require("friday bench's progress bar", "tqdm")
    return groups


def run(args: argparse.Namespace) -> int:
    try:
        groups = _validate(args)
        doc = load_run(Path(args.from_json)) if args.from_json else None
    except ValueError as err:
        print(f"friday bench: {err}", file=sys.stderr)
        return 2
    if doc is None and not single_threaded():
        return measure_in_child(args)
    if doc is None:
        out = Path(args.out) if args.out else new_run_file(args, groups)
        budget = "quick" if args.quick else "full"
        print(
            f"friday bench: measuring {', '.join(groups)} ({budget} budget, "
            f"{_repeats(args)} rounds each); results go to {out}",
            flush=True,
        )
        doc = measure(args, groups, out)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"results written to {out}")
    print(text_table(doc))
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python benchmarks/bench.py ...``: the same as ``friday bench ...``."""
    parser = argparse.ArgumentParser(allow_abbrev=False, prog="friday bench")
    add_arguments(parser)
    try:
        return run(parser.parse_args(argv))
    except MissingExtraError as err:  # ``friday`` says the same for its subcommands
        print(f"friday bench: error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
