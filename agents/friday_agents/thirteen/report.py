"""The evaluation's table: one row per table size (``friday thirteen eval``)."""

from __future__ import annotations


def _interval(values: list) -> str:
    return f"[{values[0]}, {values[1]}]"


def format_table(reports: list[dict]) -> str:
    """Markdown: candidate and baseline win rate and bad luck, the paired difference, and the
    candidate's win rate by seat."""
    first = reports[0]
    lines = [
        f"{first['candidate']} against {first['opponents']}, {first['deals']} deals from seed "
        f"{first['first_deal']} (baseline: {first['opponents']} in the candidate's seat)",
        "",
        "| players | win rate % | bad luck | baseline win % | baseline bad luck "
        "| paired win points | paired bad luck | win % by seat |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for report in reports:
        result, base, pair = report["result"], report["baseline"], report["paired"]
        seats = " / ".join(str(seat["win_rate"]) for seat in result["by_seat"].values())
        lines.append(
            f"| {report['players']} "
            f"| {result['win_rate']} {_interval(result['win_rate_interval'])} "
            f"| {result['bad_luck']} {_interval(result['bad_luck_interval'])} "
            f"| {base['win_rate']} | {base['bad_luck']} "
            f"| {pair['win_rate_points']:+} {_interval(pair['win_rate_points_interval'])} "
            f"| {pair['bad_luck']:+} {_interval(pair['bad_luck_interval'])} | {seats} |"
        )
    return "\n".join(lines)
