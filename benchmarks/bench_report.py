"""``friday bench`` results as text: the values, their spread and the table.

A run is a JSON document (``bench.py`` writes it): ``meta`` (machine, versions, the command),
``results`` (per measurement: label, unit, median, min, max, the rounds) and ``targets`` (per
target: the bound, whether the median met it). Everything here is a pure function of that
document; the docs' Markdown is rendered from the committed run by
``tools/sections/bench.py``, which takes its rows from here.
"""

from __future__ import annotations

from typing import Any


def format_value(value: float, unit: str) -> str:
    """A value as printed: thousands separators for rates, enough digits for small numbers."""
    if unit == "%":
        return f"{100 * value:.1f} %"
    if unit in ("×", "µs", "MB"):
        return f"{value:.2f} {unit}"
    if unit == "µs/frame":
        return f"{value:.1f} {unit}"
    if unit == "s/game":
        return f"{value:.3f} {unit}"
    return f"{value:,.0f} {unit}"


def _bare(value: float, unit: str) -> str:
    """``value`` as :func:`format_value` writes it, without the unit."""
    return format_value(value, unit).removesuffix(unit).rstrip()


def format_range(result: dict[str, Any]) -> str:
    """``min–max`` of a measurement's rounds ("" for a single one); runs saved before the
    range was recorded get it from their rounds."""
    runs = result["runs"]
    if len(runs) < 2:
        return ""
    unit = result["unit"]
    low, high = result.get("min", min(runs)), result.get("max", max(runs))
    return f"{_bare(low, unit)}–{_bare(high, unit)}"


def format_spread(result: dict[str, Any]) -> str:
    """The median, and the range of the rounds in brackets."""
    spread = format_range(result)
    median = format_value(result["median"], result["unit"])
    return f"{median} [{spread}]" if spread else median


def format_target(target: dict[str, Any], unit: str) -> str:
    sign = "≥" if target["at_least"] else "≤"
    return f"{sign} {format_value(target['bound'], unit)}"


def rows(doc: dict[str, Any]) -> list[tuple[str, str, str, str, str]]:
    """(label, median, range, target, met) per measurement, in the order measured, with a
    row for what a measurement recorded beside its rate."""
    found = []
    for key, result in doc["results"].items():
        target = doc["targets"].get(key)
        unit = result["unit"]
        found.append(
            (
                result["label"],
                format_value(result["median"], unit),
                format_range(result),
                format_target(target, unit) if target else "",
                ("yes" if target["met"] else "NO") if target else "",
            )
        )
        if "env_us_per_frame" in result:
            env_us = format_value(result["env_us_per_frame"], "µs/frame")
            found.append((f"{result['label']}: time in the envs", env_us, "", "", ""))
        for part, us in result.get("us_per_frame_split", {}).items():
            found.append((f"{result['label']}: {part}", format_value(us, "µs/frame"), "", "", ""))
    return found


def within_first_range(
    first: dict[str, Any], second: dict[str, Any] | None, key: str
) -> bool | None:
    """Whether the second run's median of measurement ``key`` lies within the range of the
    first run's rounds (bounds included): the reproduction rule of docs/performance.md.
    None where it cannot be judged: no second run, or a run without that measurement."""
    if second is None or key not in first["results"] or key not in second["results"]:
        return None
    rounds = first["results"][key]
    return rounds["min"] <= second["results"][key]["median"] <= rounds["max"]


HEADER = ("measurement", "median", "range", "target", "met")


def text_table(doc: dict[str, Any]) -> str:
    """The results as a plain-text table for the terminal."""
    table = [HEADER, *rows(doc)]
    widths = [max(len(row[i]) for row in table) for i in range(len(HEADER))]
    lines = []
    for row in table:
        cells = [row[0].ljust(widths[0]), row[1].rjust(widths[1]), row[2].rjust(widths[2])]
        cells += [row[3].ljust(widths[3]), row[4]]
        lines.append("  ".join(cells).rstrip())
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


# ------------------------------------------------ (n): the committed side-by-side run

#: Where ``python benchmarks/rl_vs_sb3.py`` keeps the one measurement of ``friday rl`` against
#: SB3's MaskablePPO (``friday bench``'s row (n) and the README read it).
RL_VS_SB3 = "benchmarks/rl_vs_sb3.json"
#: Issue 43: ``friday rl`` at least 5x SB3 MaskablePPO's frames per CPU-second on one core.
RL_RATIO_TARGET = 5.0


def _spread(runs: list[float], **extra: Any) -> dict[str, Any]:
    ordered = sorted(runs)
    middle = len(ordered) // 2
    median = ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2
    return {"median": median, "min": ordered[0], "max": ordered[-1], "runs": runs, **extra}


#: Where ``python benchmarks/rl_throughput.py`` keeps ``friday rl``'s data-parallel runs on
#: this project's 2-core machine (``friday bench``'s row (n) and the README read its ratio).
RL_THROUGHPUT = "benchmarks/rl_throughput_cpu.json"
#: Issue 43: 2 processes at least 1.8x one process's wall frames/s on the 2-core machine.
RL_PROCESSES_TARGET = 1.8


def processes_results(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Row (n)'s data-parallel results as the committed run ``doc`` (`RL_THROUGHPUT`'s
    contents) measured them, round by round: 2 processes' wall frames/s over one's
    (``rl_processes_ratio``) and, where the run measured it, the machine's bound on that
    ratio, two independent one-process runs at once (``rl_processes_ceiling``)."""
    source = {"source": RL_THROUGHPUT, "when": doc["when"], "command": doc["command"]}

    def rate(runs: list[dict[str, Any]], processes: int) -> float:
        return next(r["frames_per_s"] for r in runs if r.get("processes") == processes)

    one = [rate(runs, 1) for runs in doc["rounds"]]
    two = [rate(runs, 2) for runs in doc["rounds"]]
    found = {
        "rl_processes_ratio": _spread(
            [b / a for a, b in zip(one, two, strict=True)],
            label="(n) friday rl, 2 processes (torchrun) / 1, wall frames/s, per round",
            unit="×",
            **source,
        )
    }
    ceilings = [runs[-1].get("ceiling") for runs in doc["rounds"]]
    if all(ceilings):
        found["rl_processes_ceiling"] = _spread(
            [c["frames_per_s"] / a for a, c in zip(one, ceilings, strict=True)],
            label="(n) the machine's bound: 2 independent 1-process runs at once / 1, per round",
            unit="×",
            **source,
        )
    return found


def side_by_side_results(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Row (n)'s results (``rl_fps_friday``, ``rl_fps_sb3``, ``rl_fps_ratio``) as the
    side-by-side run ``doc`` (`RL_VS_SB3`'s contents) measured them, round by round."""
    setting = doc["setting"]
    label = f"{'x'.join(map(str, setting['net_arch']))} nets, {setting['n_envs']} envs"
    source = {"source": RL_VS_SB3, "when": doc["when"], "command": doc["command"]}
    friday = [r["friday_rl_fps"] for r in doc["rounds"]]
    sb3 = [r["sb3_fps"] for r in doc["rounds"]]
    return {
        "rl_fps_friday": _spread(
            friday,
            label=f"(n) friday rl, {label}",
            unit="frames/s",
            us_per_frame_split=doc["friday_rl_cpu_us_per_frame"],
            **source,
        ),
        "rl_fps_sb3": _spread(
            sb3, label=f"(n) SB3 MaskablePPO, {label}", unit="frames/s", **source
        ),
        "rl_fps_ratio": _spread(
            [a / b for a, b in zip(friday, sb3, strict=True)],
            label="(n) friday rl / SB3 MaskablePPO, per round",
            unit="×",
            **source,
        ),
    }
