"""``friday bench`` results as a printed table and as the performance section of the docs.

The results are a JSON document (see `friday_agents.bench.suite`): ``meta`` (machine,
versions, the command), ``results`` (per measurement: label, unit, median, the runs) and ``targets``
(per target: the measurement, the bound, whether the median met it). Everything here is a
pure function of that document, so the performance section of ``docs/performance.md`` can be
regenerated from a saved run (``friday bench --from-json FILE --readme docs/performance.md``) and
checked for staleness by a test.
"""

from __future__ import annotations

from typing import Any

from friday_agents.sections import replace_section

SECTION = "performance"


def what_is_timed(budget: dict[str, Any]) -> list[str]:
    """What each row times, with the run's budget (details in
    `friday_agents.bench.measure`)."""
    ppo = budget["ppo"]
    threads = ppo["torch_threads"]
    return [
        "- (a) `legal_actions()` + `apply()` of a uniformly random legal action, "
        f"{budget['engine_actions']:,} per repeat, new games of levels 1-4 set up inside the "
        f"timed loop; (d) the same as {budget['games_per_level']:,} whole games per level.",
        "- (b), (c) one loop for both envs, made by `gymnasium.make` with default wrappers: read "
        'the legal actions off `info["action_mask"]` (Blackjack-v1, which has none, gets a '
        "constant all-legal mask), step a random one, reset when an episode ends; "
        f"{budget['env_steps']:,} steps per repeat. The ratio is taken within each repeat, "
        "the two envs alternating which runs first.",
        f"- (e) `Game.clone()` of {budget['clone_states']:,} states met in random games of "
        "every level.",
        f"- (f) MaskablePPO `learn()` with `friday train`'s default settings ({ppo['n_envs']} "
        f"envs in a `DummyVecEnv` from `make_vec_env`, {ppo['n_steps']} steps per env per "
        f"rollout, batch {ppo['batch_size']}, {ppo['n_epochs']} epochs, "
        f"{'x'.join(map(str, ppo['net_arch']))} nets, {threads} torch "
        f"thread{'s' if threads > 1 else ''}), against the same on an env with Friday-v0's "
        "spaces and a mask but no game, and on Friday-v0 with a constant observation in "
        "place of the encoder (both in `agents/friday_agents/bench/envs.py`): "
        f"{budget['ppo_pairs']} rounds of {budget['ppo_rollouts']} rollout"
        f"{'s' if budget['ppo_rollouts'] > 1 else ''} on each env, which env goes first "
        "rotating; ratios are taken within each round and the medians are over the rounds. "
        '"Time in the envs" adds up stepping, resets and mask fetches.',
        f"- (g) tracemalloc over {budget['memory_envs']:,} envs made, reset and played "
        f"{budget['memory_steps']} random decisions each, kept alive together.",
        f"- (h) random legal play through 1 and 2 worker processes, {budget['vec_iterations']:,} "
        "vector steps per repeat (start-up not timed); SB3's masks come from "
        '`env_method("action_masks")`, as MaskablePPO fetches them.',
        *_core_lines(budget),
    ]


def _core_lines(budget: dict[str, Any]) -> list[str]:
    """What rows (i)-(l) time (a run made before they existed has no budget for them)."""
    if not budget.get("vector_envs"):
        return []
    return [
        f"- (i) the loop of (a), {budget['core_actions']:,} actions per repeat on each core "
        "(`Game.new(..., core=...)`), which core goes first alternating; (j) one C call "
        f"(`_compiled.random_play`) playing {budget['core_random_play_actions']:,} random "
        "legal actions over consecutive deals of levels 1-4 (new games set up inside, choices "
        "drawn in C), against (i)'s Python engine in the same repeat.",
        f"- (k) {budget['vector_envs']} envs in each vector env, {budget['vector_iterations']:,} "
        "vector steps per repeat: Friday-v0's native vector env (flat observations and masks, "
        "same-step autoreset) on each core, and Blackjack-v1 through `SyncVectorEnv`; each "
        'vector step draws one random legal action per env from `info["action_mask"]` in '
        "numpy (Blackjack-v1 gets constant all-legal masks), the order of the three rotating.",
        f"- (l) `examples/cleanrl_masked_ppo.py` training for {budget['cleanrl_timesteps']:,} "
        f"frames with {budget['cleanrl_envs']} envs (rollouts and PPO updates, 1 torch "
        "thread): on the native vector env with the compiled core, and on a `SyncVectorEnv` "
        "of Python-core envs.",
        f"- (m) `guided` on {budget.get('search_games', 0)} evaluation deals of levels 1 and 4, "
        "each deal played on both cores (taking turns), CPU seconds per game "
        "(`time.process_time`); one run per level; the games must be the same on both cores "
        "(`python -m friday_agents.players.search.core_timing guided` does the same alone).",
    ]


def format_value(value: float, unit: str) -> str:
    """A median as printed: thousands separators for rates, enough digits for small numbers."""
    if unit == "%":
        return f"{100 * value:.1f} %"
    if unit in ("×", "µs", "MB"):
        return f"{value:.2f} {unit}"
    if unit == "µs/frame":
        return f"{value:.1f} {unit}"
    if unit == "s/game":
        return f"{value:.3f} {unit}"
    return f"{value:,.0f} {unit}"


def format_target(target: dict[str, Any], unit: str) -> str:
    sign = "≥" if target["at_least"] else "≤"
    return f"{sign} {format_value(target['bound'], unit)}"


def _rows(doc: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    """(label, median, target, met) per measurement, in the order measured."""
    rows = []
    for key, result in doc["results"].items():
        target = doc["targets"].get(key)
        unit = result["unit"]
        rows.append(
            (
                result["label"],
                format_value(result["median"], unit),
                format_target(target, unit) if target else "",
                ("yes" if target["met"] else "NO") if target else "",
            )
        )
        rows += _detail_rows(result)
    return rows


def _detail_rows(result: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    """Rows for what a measurement recorded beside its rate."""
    rows = []
    if "per_cpu_second" in result:
        per_cpu = format_value(result["per_cpu_second"], result["unit"])
        rows.append(("(a) same, per second of the process's CPU time", per_cpu, "", ""))
    if "env_us_per_frame" in result:
        env_us = format_value(result["env_us_per_frame"], "µs/frame")
        rows.append((f"{result['label']}: time in the envs", env_us, "", ""))
    return rows


def text_table(doc: dict[str, Any]) -> str:
    """The results as a plain-text table for the terminal."""
    header = ("measurement", "median", "target", "met")
    rows = [header, *_rows(doc)]
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    lines = []
    for row in rows:
        cells = [row[0].ljust(widths[0]), row[1].rjust(widths[1])]
        cells += [row[2].ljust(widths[2]), row[3]]
        lines.append("  ".join(cells).rstrip())
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _machine(meta: dict[str, Any]) -> str:
    load = meta["load_average"]
    text = (
        f"{meta['cpu']}, {meta['cpu_count']} logical cores, Python {meta['python']}, "
        f"load average {load['start']:.2f} at the start and {load['end']:.2f} at the end"
    )
    if meta.get("note"):
        text += f" ({meta['note']})"
    return text


def _missed(doc: dict[str, Any]) -> list[str]:
    lines = []
    for key, target in doc["targets"].items():
        if target["met"]:
            continue
        result = doc["results"][key]
        unit = result["unit"]
        share = result["median"] / target["bound"]
        line = (
            f"- {result['label']}: {format_value(result['median'], unit)} against "
            f"{format_target(target, unit)} ({100 * share:.0f} % of the bound)."
        )
        if key == "ppo_fps_ratio":
            line += " " + _ppo_budget(doc["results"], target["bound"])
        lines.append(line)
    return lines


def _ppo_budget(results: dict[str, Any], bound: float) -> str:
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


def markdown_section(doc: dict[str, Any]) -> str:
    """The README's performance section (between its markers, markers excluded)."""
    meta = doc["meta"]
    lines = [
        "## Performance",
        "",
        "Measured with",
        "",
        "```bash",
        meta["command"],
        "```",
        "",
        f"on {meta['date']}: {_machine(meta)}. Wall-clock medians of {meta['repeats']} "
        f"repeats; `{meta['json']}` holds every run.",
        "",
        *what_is_timed(meta["budget"]),
        "",
        "| measurement | median | target | met |",
        "| --- | ---: | --- | --- |",
    ]
    lines += [f"| {' | '.join(row)} |" for row in _rows(doc)]
    missed = _missed(doc)
    lines += ["", "Targets missed in this run:" if missed else "Every target was met in this run."]
    if missed:
        lines += ["", *missed]
    lines += [
        "",
        "This section is generated from the JSON: `friday bench --readme docs/performance.md` "
        "measures and rewrites it, `friday bench --from-json FILE --readme docs/performance.md` "
        "renders a saved run.",
    ]
    return "\n".join(lines) + "\n"


def rewrite_readme(text: str, doc: dict[str, Any]) -> str:
    """``text`` (a README) with the performance section replaced by `markdown_section`."""
    return replace_section(text, SECTION, markdown_section(doc))
