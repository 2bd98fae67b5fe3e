"""The generated sections built from the committed benchmark runs in ``benchmarks/``.

- ``performance`` (``docs/performance.md``): every measurement of ``benchmarks/results.json``
  (``friday bench``), with its median, range and target, and the ratios of a second run made
  after it (``benchmarks/results-check.json``) beside them;
- ``core-speeds`` (``README.md``): the rows that compare the cores, from the same runs, and
  per row whether the second run's median lies within the committed run's range;
- ``cluster`` (``experiments/performance/REPORT.md``): what a Ray cluster buys, from
  ``benchmarks/cluster.json`` (``python benchmarks/bench_cluster.py``);
- ``agent-speeds`` (``docs/agents.md``) and ``results-speeds`` (``docs/results.md``): games/s
  of each agent on the compiled core, from ``benchmarks/agent_speeds.json``
  (``python benchmarks/agent_speeds.py``).

Each ``render(repo)`` reads only committed files. The benchmark scripts are not installed:
the rows and formats they share with these pages come from ``benchmarks/bench_report.py``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

_BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
if str(_BENCHMARKS) not in sys.path:
    sys.path.insert(0, str(_BENCHMARKS))

from bench_cluster import COMMAND as CLUSTER_COMMAND  # noqa: E402
from bench_cluster import NODE_SIZES  # noqa: E402
from bench_report import (  # noqa: E402
    RL_PROCESSES_TARGET,
    RL_RATIO_TARGET,
    RL_THROUGHPUT,
    RL_VS_SB3,
    format_range,
    format_target,
    format_value,
    processes_results,
    rows,
    side_by_side_results,
    within_first_range,
)

from friday_agents.players.resolved import played_spec  # noqa: E402

BENCH_RESULTS = "benchmarks/results.json"
#: A second run of the ratio groups, made after the committed one (``bench.COMMITTED_CHECK``).
CHECK_RESULTS = "benchmarks/results-check.json"
CLUSTER_RESULTS = "benchmarks/cluster.json"
AGENT_SPEEDS = "benchmarks/agent_speeds.json"
#: The command that measures ``benchmarks/agent_speeds.json``.
AGENT_SPEEDS_COMMAND = "python benchmarks/agent_speeds.py --out benchmarks/agent_speeds.json"


def _load(repo: Path, name: str) -> dict[str, Any]:
    return json.loads((repo / name).read_text(encoding="utf-8"))


def _table(
    header: list[str], body: list[list[str]] | list[tuple[str, ...]], align: str
) -> list[str]:
    """A Markdown table; ``align`` holds ``l`` or ``r`` per column."""
    rule = ["---:" if a == "r" else "---" for a in align]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(rule) + " |"]
    return lines + ["| " + " | ".join(str(cell) for cell in row) + " |" for row in body]


# ------------------------------------------------------------------ performance


def what_is_timed(budget: dict[str, Any], search_in_rounds: bool = True) -> list[str]:
    """What each row times, with the run's budget (details in ``benchmarks/bench_measure.py``);
    ``search_in_rounds``: whether (m) was measured in rounds (runs before that took one
    ratio per level)."""
    ppo = budget["ppo"]
    threads = ppo["torch_threads"]
    return [
        "- (a) `legal_actions()` + `apply()` of a uniformly random legal action (from uniforms "
        f"drawn before the clock starts), {budget['engine_actions']:,} per round, new games "
        "of levels 1-4 set up inside the timed loop; (d) the same as "
        f"{budget['games_per_level']:,} whole games per level.",
        "- (b), (c) one loop for both envs, made by `gymnasium.make` with default wrappers: read "
        'the legal actions off `info["action_mask"]` (Blackjack-v1, which has none, gets a '
        "constant all-legal mask), step a random one, reset when an episode ends; "
        f"{budget['env_steps']:,} steps per round.",
        f"- (e) `Game.clone()` of {budget['clone_states']:,} states met in random games of "
        "every level.",
        f"- (f) MaskablePPO `learn()` with `friday train`'s default settings ({ppo['n_envs']} "
        f"envs in a `DummyVecEnv` from `make_vec_env`, {ppo['n_steps']} steps per env per "
        f"rollout, batch {ppo['batch_size']}, {ppo['n_epochs']} epochs, "
        f"{'x'.join(map(str, ppo['net_arch']))} nets, {threads} torch "
        f"thread{'s' if threads > 1 else ''}), against the same on an env with Friday-v0's "
        "spaces and a mask but no game, and on Friday-v0 with a constant observation in "
        "place of the encoder (both in `benchmarks/bench_stand_ins.py`): "
        f"{budget['ppo_pairs']} rounds of {budget['ppo_rollouts']} rollout"
        f"{'s' if budget['ppo_rollouts'] > 1 else ''} on each env. "
        '"Time in the envs" adds up stepping, resets and mask fetches.',
        f"- (g) tracemalloc over {budget['memory_envs']:,} envs made, reset and played "
        f"{budget['memory_steps']} random decisions each, kept alive together.",
        f"- (h) random legal play through 1 and 2 worker processes, {budget['vec_iterations']:,} "
        "vector steps per round (start-up not timed; wall-clock, the work being in the "
        'workers); SB3\'s masks come from `env_method("action_masks")`, as MaskablePPO '
        "fetches them.",
        *_core_lines(budget, search_in_rounds),
    ]


def _core_lines(budget: dict[str, Any], search_in_rounds: bool) -> list[str]:
    """What rows (i)-(m) time (a run made before they existed has no budget for them)."""
    if not budget.get("vector_envs"):
        return []
    return [
        f"- (i) the loop of (a), {budget['core_actions']:,} actions per round on each core "
        "(`Game.new(..., core=...)`); (j) one C call (`random_play`) playing "
        f"{budget['core_random_play_actions']:,} random legal actions over consecutive deals "
        "of levels 1-4 (new games set up inside, choices drawn in C), against (i)'s Python "
        "engine in the same round.",
        f"- (k) {budget['vector_envs']} envs in each vector env, {budget['vector_iterations']:,} "
        "vector steps per round: Friday-v0's native vector env (flat observations and masks, "
        "same-step autoreset) on each core, and Blackjack-v1 through `SyncVectorEnv`. Each env "
        "takes its highest-ranked legal action under a random ranking of the action ids drawn "
        "before the clock starts (uniform among the legal ones; two numpy calls per vector "
        "step, about a tenth of a compiled env step); Blackjack-v1 gets constant all-legal "
        "masks.",
        f"- (l) `examples/cleanrl_masked_ppo.py` training for {budget['cleanrl_timesteps']:,} "
        f"frames with {budget['cleanrl_envs']} envs (rollouts and PPO updates, 1 torch "
        "thread; the recipe's own wall-clock frames/s): on the native vector env with the "
        "compiled core, and on a `SyncVectorEnv` of Python-core envs.",
        _search_line(budget.get("search_games", 0), search_in_rounds),
        *_rl_lines(budget),
    ]


def _rl_lines(budget: dict[str, Any]) -> list[str]:
    """What row (n) times (a run made before it existed has no budget for it)."""
    rl = budget.get("rl")
    if not rl:
        return []
    nets = "-".join(map(str, rl["net_arch"]))
    return [
        f"- (n) `friday rl` and SB3's MaskablePPO training with the same PPO on Friday-v0 level "
        f"1: separate {nets} tanh actor and critic over the flat observation, {rl['n_envs']} "
        f"envs x {rl['n_steps']} steps per rollout, {rl['n_epochs']} epochs of "
        f"{rl['minibatches']} minibatches, one torch thread, each built and warmed up by one "
        "update before the clock starts, taking turns within each round (A B, then B A); "
        f"measured by `python benchmarks/rl_vs_sb3.py` into `{RL_VS_SB3}`, the one "
        "measurement of this ratio, which `friday bench` reads. MaskablePPO steps a "
        "`DummyVecEnv` of `Friday-v0` envs from `make_vec_env` "
        "(what a user of the library builds), `friday rl` its native vector env. The parts of "
        "a `friday rl` frame are the medians over the rounds of its trainer's own CPU "
        "accounts: env (the vector env's steps), acting (the networks' forward on the "
        "observations' non-zeros and the action draws), learning (advantages and the PPO "
        "updates), bookkeeping (the rest: buffers, game ends, the next deals). Its rows of 2 "
        "processes and of the machine's bound are `friday rl`'s wall frames/s end to end at "
        "the same setting per process, measured by `python benchmarks/rl_throughput.py` into "
        f"`{RL_THROUGHPUT}` (1 process, 2 under torchrun, and 2 independent one-process runs "
        "at once, nothing shared, taking turns within each round), which `friday bench` "
        "reads too."
    ]


def _search_line(games: int, in_rounds: bool) -> str:
    """What row (m) times."""
    alone = "(`python benchmarks/core_timing.py guided` does the same alone)"
    if not in_rounds:
        return (
            f"- (m) `guided` on {games} evaluation deals of levels 1 and 4, each deal played "
            "on both cores (taking turns), CPU seconds per game; the range is over the two "
            f"levels; the games must be the same on both cores {alone}."
        )
    return (
        f"- (m) `guided` on the first {games} evaluation deals of levels 1 and 4 in every "
        "round, each deal played on both cores (taking turns), CPU seconds per game; a "
        "round's ratio is the Python core's CPU over the compiled core's for its games of "
        "both levels; the games must be the same on both cores, in every round (the count "
        f"is summed over the rounds) {alone}."
    )


def search_in_rounds(doc: dict[str, Any]) -> bool:
    """Whether the run measured (m) in rounds (it records the deals of a round); runs made
    before took one ratio per level."""
    return "deals_per_round" in doc["results"].get("search_guided_ratio", {})


def _machine(meta: dict[str, Any]) -> str:
    load = meta["load_average"]
    text = (
        f"{meta['cpu']}, {meta['cpu_count']} logical cores, Python {meta['python']}, "
        f"load average {load['start']:.2f} at the start and {load['end']:.2f} at the end"
    )
    if meta.get("note"):
        text += f" ({meta['note']})"
    return text


def missed_targets(doc: dict[str, Any]) -> list[str]:
    """One line per target the run's median missed, with the measured figure."""
    lines = []
    for key, target in doc["targets"].items():
        if target["met"]:
            continue
        result = doc["results"][key]
        unit = result["unit"]
        share = result["median"] / target["bound"]
        line = (
            f"- {result['label']}: {format_value(result['median'], unit)} "
            f"[{format_range(result)}] against {format_target(target, unit)} "
            f"({100 * share:.0f} % of the bound)."
        )
        if key == "ppo_fps_ratio":
            line += " " + ppo_budget(doc["results"], target["bound"])
        lines.append(line)
    return lines


def ppo_budget(results: dict[str, Any], bound: float) -> str:
    """What the PPO ratio bound leaves Friday-v0 per training frame, against what it takes,
    and how much of that the observation encoder is."""
    friday, trivial = results["ppo_fps_friday"], results["ppo_fps_trivial"]
    frame_us = {key: 1e6 / r["median"] for key, r in (("f", friday), ("t", trivial))}
    allowed = frame_us["t"] * (1 / bound - 1)
    env_extra = friday["env_us_per_frame"] - trivial["env_us_per_frame"]
    text = (
        f"A trivial-env frame took {frame_us['t']:.0f} µs, so the bound allows Friday-v0 "
        f"{allowed:.0f} µs more per frame; it took {frame_us['f'] - frame_us['t']:.0f} µs more, "
        f"{env_extra:.0f} µs of them inside the envs (stepping, resets, masks)."
    )
    unencoded = results.get("ppo_fps_unencoded")
    if unencoded is None:
        return text
    encoder_us = friday["env_us_per_frame"] - unencoded["env_us_per_frame"]
    best = results["ppo_fps_unencoded_ratio"]["median"]
    text += (
        f" The observation encoder took {encoder_us:.0f} µs of them; without it Friday-v0 "
        f"reached {100 * best:.1f} % of the trivial env"
    )
    if best < bound:
        return text + (
            ", so even an encoder costing nothing would miss the bound: the game itself "
            "(rules, mask, env bookkeeping) takes more than the bound allows."
        )
    left = allowed - (1e6 / unencoded["median"] - frame_us["t"])
    return text + (
        f", so the bound leaves the encoder {left:.1f} µs per frame, against the "
        f"{encoder_us:.0f} µs it takes."
    )


def performance_section(doc: dict[str, Any], check: dict[str, Any] | None = None) -> str:
    """``docs/performance.md``'s section: the whole run, and the ``check`` run's ratios
    beside it."""
    meta = doc["meta"]
    missed = missed_targets(doc)
    lines = [
        "## Performance",
        "",
        "Measured with",
        "",
        "```bash",
        meta["command"],
        "```",
        "",
        f"on {meta['date']}: {_machine(meta)}. Rates per second of the process's CPU time "
        "(except (h) and (l), wall-clock); medians of "
        f"{meta['repeats']} rounds and, under range, the slowest and the fastest round. The "
        "members of a group take turns within each round (A, B, A, B...), in an order that "
        f"rotates, and every ratio is taken within its round. `{meta['json']}` holds every "
        "round.",
        "",
        *what_is_timed(meta["budget"], search_in_rounds(doc)),
        "",
        *_table(["measurement", "median", "range", "target", "met"], rows(doc), "lrrll"),
        "",
        "Targets missed in this run (the median):"
        if missed
        else "Every target was met in this run.",
    ]
    if missed:
        lines += ["", *missed]
    if check is not None:
        lines += ["", *reproduction(doc, check)]
    sources = f"`{BENCH_RESULTS}`" + (f" and `{CHECK_RESULTS}`" if check is not None else "")
    lines += ["", f"Rendered from {sources} by `tools/sections/bench.py`."]
    return _guided_as_measured("\n".join(lines), meta)


#: The units of the measurements that are ratios taken within a round.
RATIO_UNITS = ("×", "%")


def _shared_ratios(doc: dict[str, Any], check: dict[str, Any]) -> list[str]:
    """The ratio measurements both runs hold, in the order measured."""
    return [
        key
        for key, result in doc["results"].items()
        if result["unit"] in RATIO_UNITS and key in check["results"] and len(result["runs"]) > 1
    ]


def _in_range_cell(within: bool | None) -> str:
    """The verdict of `within_first_range` as a table cell (a miss stands out)."""
    if within is None:
        return "not in the second run"
    return "yes" if within else "**no**"


def reproduction(doc: dict[str, Any], check: dict[str, Any]) -> list[str]:
    """The second run's ratios beside the committed run's, and whether each second median
    lies within the committed run's range (the rule stated above the section)."""
    keys = _shared_ratios(doc, check)
    body, moves, inside = [], [], 0
    for key in keys:
        first, second = doc["results"][key], check["results"][key]
        within = within_first_range(doc, check, key)
        inside += bool(within)
        moves.append(abs(second["median"] / first["median"] - 1))
        body.append(
            [
                first["label"],
                format_value(first["median"], first["unit"]),
                format_range(first),
                format_value(second["median"], second["unit"]),
                format_range(second),
                _in_range_cell(within),
            ]
        )
    header = ["ratio", "this run", "range", "second run", "range", "second run in range"]
    meta = check["meta"]
    verdict = (
        f"{inside} of {len(keys)} second medians lie within this run's range; the medians "
        f"moved by at most {100 * max(moves):.1f} % between the runs"
    )
    if inside < len(keys):
        verdict += ": the rows marked **no** miss the rule and stand as measured"
    return [
        f"A second run, `{meta['command']}`, on {meta['date']} (load average "
        f"{meta['load_average']['start']:.2f} at the start and {meta['load_average']['end']:.2f} "
        "at the end):",
        "",
        *_table(header, body, "lrrrrl"),
        "",
        verdict + ".",
    ]


def _check_of(repo: Path, doc: dict[str, Any]) -> dict[str, Any] | None:
    """The second run, when there is one made after the committed run (else it checks an
    older run and is left out)."""
    path = repo / CHECK_RESULTS
    if not path.is_file():
        return None
    check = _load(repo, CHECK_RESULTS)
    return check if check["meta"]["date"] >= doc["meta"]["date"] else None


def render_performance(repo: Path) -> str:
    doc = _load(repo, BENCH_RESULTS)
    check = _check_of(repo, doc)
    return performance_section(*with_side_by_side(doc, check, *_trainer_runs(repo)))


def _trainer_runs(repo: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """The committed runs row (n) reads: against SB3, and over processes."""
    return _load(repo, RL_VS_SB3), _load(repo, RL_THROUGHPUT)


def with_side_by_side(
    doc: dict[str, Any],
    check: dict[str, Any] | None,
    side_by_side: dict[str, Any],
    processes: dict[str, Any] | None = None,
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """``friday bench``'s run and its second run with row (n) as the committed side-by-side
    run measured it (`RL_VS_SB3`, the one measurement of that ratio; a bench run reads it
    too) and, given ``processes`` (`RL_THROUGHPUT`'s contents), the data-parallel ratio and
    its bound as that run measured them, with their targets; the second run has no row (n)
    of its own."""
    rl = side_by_side_results(side_by_side)
    if processes is not None:
        rl |= processes_results(processes)
    targets = {"rl_fps_ratio": RL_RATIO_TARGET, "rl_processes_ratio": RL_PROCESSES_TARGET}
    doc = {
        **doc,
        "results": {**doc["results"], **rl},
        "targets": {
            **doc["targets"],
            **{
                key: {"at_least": True, "bound": bound, "met": rl[key]["median"] >= bound}
                for key, bound in targets.items()
                if key in rl
            },
        },
    }
    if check is not None:
        kept = {k: v for k, v in check["results"].items() if k not in rl}
        check = {**check, "results": kept}
    return doc, check


def _guided_as_measured(text: str, resolved_in: dict[str, Any]) -> str:
    """``text`` of a run whose ``resolved`` names what ``guided`` played: where that is not
    today's ``guided``, its row (m) names guided by the spec that plays as it did."""
    if "resolved" not in resolved_in and "(m) guided" not in text:
        return text  # a run that did not measure guided (bench --only ...)
    spec = played_spec(resolved_in["resolved"]["guided"])
    if spec == "guided":
        return text
    for word in ("`guided`", "(m) guided,", "core_timing.py guided`"):
        text = text.replace(word, word.replace("guided", spec))
    return text


# ------------------------------------------------------------------ core speeds

#: The rows of the committed bench run that compare the cores, as the README names them.
CORE_SPEED_ROWS = (
    ("core_api_ratio", "`legal_actions()` + `apply()` through the `Game` API"),
    ("core_random_play_ratio", "random legal play inside the core, many games in one C call"),
    ("vector_env_c_over_blackjack", "native vector env vs Blackjack-v1 in a `SyncVectorEnv`"),
    ("search_guided_ratio", "`guided`: CPU seconds per game, Python core / compiled core"),
)


def core_speeds_section(doc: dict[str, Any], check: dict[str, Any] | None = None) -> str:
    """The README's few lines on the compiled core's speed; with a ``check`` run, its
    medians beside them and, per row, whether each lies within the committed run's range."""
    results, targets = doc["results"], doc["targets"]
    body, verdicts = [], []
    for key, label in CORE_SPEED_ROWS:
        if key not in results:
            continue
        result, target = results[key], targets.get(key)
        met = ("yes" if target["met"] else "**no**") if target else ""
        bound = f"≥ {target['bound']:g}×" if target else ""
        spread = format_range(result).replace(" ", "")
        row = [label, f"{result['median']:.2f}×", f"{spread}×" if spread else ""]
        if check is not None:
            second = check["results"].get(key)
            verdicts.append(within_first_range(doc, check, key))
            row += [f"{second['median']:.2f}×" if second else "", _in_range_cell(verdicts[-1])]
        body.append([*row, bound, met])
    header = ["compiled core over", "speed-up", "range", "target", "met"]
    if check is not None:
        header[3:3] = ["second run", "second run in range"]
    lines = [
        *_table(header, body, "lrr" + ("rl" if check is not None else "") + "rl"),
        "",
        _core_speeds_method(doc),
    ]
    if check is not None:
        verdicts.append(within_first_range(doc, check, "ppo_fps_ratio"))
        lines[-1] += " " + _rerun_rule(doc, check, verdicts)
    missed = [
        f"{label.split(':')[0]} {results[key]['median']:.2f}× against ≥ {targets[key]['bound']:g}×"
        for key, label in CORE_SPEED_ROWS
        if key in targets and not targets[key]["met"]
    ]
    if missed:
        lines[-1] += " Missed in this run: " + "; ".join(missed) + "."
    differing = results.get("search_guided_differing")
    if differing is not None:
        lines[-1] += f" Games of `guided` that differ between the cores: {differing['median']:.0f}."
    for key in RATIO_SENTENCES:
        if key in results:
            lines[-1] += " " + _ratio_sentence(doc, check, key)
    return _guided_as_measured("\n".join(lines), doc["meta"])


def _core_speeds_method(doc: dict[str, Any]) -> str:
    """How the core-speeds rows were measured, and where every row is."""
    meta = doc["meta"]
    levels = "" if search_in_rounds(doc) else "; for `guided`, over levels 1 and 4"
    return (
        f"Medians and ranges over the {meta['repeats']} rounds of `{meta['command']}` (CPU "
        f"time, the cores taking turns within each round{levels}) on this project's shared "
        f"2-core machine (`{BENCH_RESULTS}`; every row in "
        "[`docs/performance.md`](docs/performance.md))."
    )


def _rerun_rule(doc: dict[str, Any], check: dict[str, Any], verdicts: list[bool | None]) -> str:
    """The spread, the rule a second run is held to, and how many shown rows kept it."""
    judged = [v for v in verdicts if v is not None]
    text = (
        "The spread of a row is its range: the slowest to the fastest of the committed run's "
        f"rounds. The second run, `{check['meta']['command']}`, made after it on the same "
        "machine, reproduces a row when its median lies within that range (the rule of "
        "[`docs/performance.md`](docs/performance.md), fixed before the runs; a miss is shown "
        f"as measured): it reproduces {sum(judged)} of the {len(judged)} rows judged here"
    )
    unjudged = len(verdicts) - len(judged)
    if unjudged:
        text += f"; {unjudged} {'is' if unjudged == 1 else 'are'} not in the second run"
    return text + "."


#: The README's sentences on the training-speed ratios: key -> how a median and a bound are
#: written, and the claim (its ``{median}``, ``{range}`` and ``{wanted}`` filled in).
RATIO_SENTENCES: dict[str, tuple[Callable[[float], str], Callable[[float], str], str]] = {
    # MaskablePPO's speed on Friday-v0 against a trivial env
    "ppo_fps_ratio": (
        lambda v: f"{100 * v:.1f} %",
        lambda v: f"{100 * v:g} %",
        "MaskablePPO trains on `Friday-v0` at {median} [{range}] of its speed on a trivial env "
        "with the same spaces{wanted}",
    ),
    # friday rl's training speed against SB3's MaskablePPO, same PPO (row (n))
    "rl_fps_ratio": (
        lambda v: f"{v:.2f}×",
        lambda v: f"{v:g}×",
        "`friday rl` trains at {median} [{range}] the frames per CPU-second of SB3's "
        "MaskablePPO with the same PPO and networks{wanted}",
    ),
    # friday rl on 2 processes (torchrun) against 1, on the 2-core machine (row (n))
    "rl_processes_ratio": (
        lambda v: f"{v:.2f}×",
        lambda v: f"{v:g}×",
        "On 2 processes (torchrun) it trains at {median} [{range}] one process's wall "
        "frames/s{wanted}",
    ),
}
#: A ratio's bound on this machine, stated beside it: two independent one-process runs at
#: once, nothing shared, give what the cores can.
RATIO_BOUNDS = {"rl_processes_ratio": "rl_processes_ceiling"}


def _ratio_sentence(doc: dict[str, Any], check: dict[str, Any] | None, key: str) -> str:
    """The claim about the ratio ``key`` (``RATIO_SENTENCES``) with its target, and the
    second run's median beside it."""
    show, show_bound, claim = RATIO_SENTENCES[key]
    result, target = doc["results"][key], doc["targets"].get(key)
    wanted = ""
    if target is not None:
        missed_here = "" if target["met"] else ", missed in this run"
        wanted = f" (target ≥ {show_bound(target['bound'])}{missed_here})"
    text = claim.format(median=show(result["median"]), range=format_range(result), wanted=wanted)
    bound = doc["results"].get(RATIO_BOUNDS.get(key, ""))
    if bound is not None:
        text += (
            f"; two independent one-process runs at once, the machine's bound, "
            f"{show(bound['median'])} [{format_range(bound)}]"
        )
    source = result.get("source")
    if source is not None:  # row (n): its own run, `python benchmarks/rl_vs_sb3.py`
        return (
            text + f", over the {len(result['runs'])} rounds of `{result['command']}` ({source})."
        )
    if check is None:
        return text + "."
    second = check["results"].get(key)
    if second is None:
        return text + "; this ratio is not in the second run."
    within = within_first_range(doc, check, key)
    return text + (
        f"; in the second run {show(second['median'])}, "
        f"{'within' if within else '**outside**'} that range."
    )


def render_core_speeds(repo: Path) -> str:
    doc = _load(repo, BENCH_RESULTS)
    check = _check_of(repo, doc)
    return core_speeds_section(*with_side_by_side(doc, check, *_trainer_runs(repo)))


# ---------------------------------------------------------------------- cluster


def ray_costs(rows_: list[dict[str, Any]]) -> dict[str, str]:
    """Per agent: the time a game takes on a 1-CPU Ray minus in this process, in ms and as a
    share of the game (negative: within the noise of the run)."""
    costs = {}
    for agent in dict.fromkeys(r["agent"] for r in rows_):
        here, ray = (
            next(r for r in rows_ if r["agent"] == agent and (r["backend"], r["cpus"]) == key)
            for key in (("this process", 1), ("Ray, local", 1))
        )
        per_game_here = here["seconds"] / here["games"]
        extra = ray["seconds"] / ray["games"] - per_game_here
        costs[agent] = (
            f"{extra * 1000:+.1f} ms per game, {extra / per_game_here:+.0%} of a game's "
            f"{per_game_here * 1000:.1f} ms"
        )
    return costs


def cluster_section(doc: dict[str, Any]) -> str:
    """The performance report's section on a Ray cluster."""
    lines = [
        f"Measured with `{CLUSTER_COMMAND}` on {doc['when']}: {doc['machine']}, Python "
        f"{doc['python']}, Ray {doc['ray']}; load average {doc['load_before']:.2f} at the start "
        f"and {doc['load_after']:.2f} at the end ({doc['note']}). `{CLUSTER_RESULTS}` holds the "
        "run.",
        "",
        "| agent | played | CPUs | games | seconds | games/s |",
        "| --- | --- | ---: | ---: | ---: | ---: |",
    ]
    for r in doc["rows"]:
        lines.append(
            f"| {r['agent']} | {r['backend']} | {r['cpus']} | {r['games']} | "
            f"{r['seconds']:.2f} | {r['games_per_s']:.1f} |"
        )
    sizes = " | ".join(f"node of {c} cores" for c in NODE_SIZES)
    lines += [
        "",
        "Projection per node: the 1-CPU Ray rate × cores × the efficiency measured from 1 to 2 "
        "CPUs, at most 100 % (an extrapolation from two points on one machine, not a cluster "
        "measurement):",
        "",
        f"| agent | games/s per CPU | efficiency 1 → 2 CPUs | {sizes} |",
        "| --- | ---: | ---: | " + " | ".join("---:" for _ in NODE_SIZES) + " |",
    ]
    for p in doc["projections"]:
        nodes = " | ".join(f"{p['nodes'][str(c)]:.1f} games/s" for c in NODE_SIZES)
        lines.append(f"| {p['agent']} | {p['per_cpu']:.1f} | {p['efficiency']:.0%} | {nodes} |")
    lines += ["", "What Ray adds to each game (1-CPU Ray against this process, per game):", ""]
    lines += [f"- {agent}: {cost}" for agent, cost in ray_costs(doc["rows"]).items()]
    return "\n".join(lines)


def render_cluster(repo: Path) -> str:
    return cluster_section(_load(repo, CLUSTER_RESULTS))


# ----------------------------------------------------------------- agent speeds


def agent_speeds_table(doc: dict[str, Any]) -> str:
    """Games per CPU second of each agent per level, and how they were measured."""
    levels = sorted({r["level"] for r in doc["rows"]})
    cells = {(r["agent"], r["level"]): r for r in doc["rows"]}
    agents = list(dict.fromkeys(r["agent"] for r in doc["rows"]))
    played = {agent: played_spec(entry) for agent, entry in doc["resolved"].items()}
    named = played.__getitem__  # each agent as it played (its resolved spec)
    body = [
        [f"`{named(agent)}`", *(_games_per_s(cells[agent, lv]["games_per_s"]) for lv in levels)]
        for agent in agents
    ]
    deals = ", ".join(f"{named(agent)} {cells[agent, levels[0]]['games']}" for agent in agents)
    lines = [
        *_table(["agent", *(f"level {level}" for level in levels)], body, "l" + "r" * len(levels)),
        "",
        f"Games per second of one core's CPU time on the {CORE_NAMES[doc['core']]} core "
        "(search agents at "
        f"{doc['search_sims']} simulations, as in the results table), over the first "
        f"evaluation deals of each level ({deals} per level), measured with "
        f"`{doc['command']}` on {doc['date']}: {doc['machine']}, Python {doc['python']}"
        + (f" ({doc['note']})" if doc.get("note") else "")
        + f". Rendered from `{AGENT_SPEEDS}` by `tools/sections/bench.py`.",
    ]
    return "\n".join(lines)


CORE_NAMES = {"c": "compiled", "python": "Python"}


def _games_per_s(rate: float) -> str:
    """A games/s figure: whole numbers from 100 up, one decimal below."""
    return f"{rate:,.0f}" if rate >= 100 else f"{rate:.1f}"


def render_agent_speeds(repo: Path) -> str:
    return agent_speeds_table(_load(repo, AGENT_SPEEDS))


def render_results_speeds(repo: Path) -> str:
    """``docs/results.md``'s note under the results table: its games/s are the evaluation
    run's own (wall-clock, when it was played); the compiled core's, measured apart."""
    return (
        "The games/s column above is the evaluation run's own (wall-clock seconds per game "
        "when it was played, on the Python core). On the compiled core, the default now, the "
        "agents play:\n\n" + render_agent_speeds(repo)
    )


SECTIONS = {
    "agent-speeds": ("docs/agents.md", render_agent_speeds),
    "results-speeds": ("docs/results.md", render_results_speeds),
    "performance": ("docs/performance.md", render_performance),
    "core-speeds": ("README.md", render_core_speeds),
    "cluster": ("experiments/performance/REPORT.md", render_cluster),
}
