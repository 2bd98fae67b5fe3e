"""The full results table (``docs/results.md``), from the committed ``friday eval`` run."""

from __future__ import annotations

from pathlib import Path

from friday_agents.evaluation.report import HEADERS, agent_description, interval, row_cells
from sections import COMMAND, compact_table, read_json
from sections.headline import HEADLINE_RESULTS

#: The committed run behind the table (also the README's headline).
RESULTS = HEADLINE_RESULTS


def results_section(results: dict) -> str:
    """An evaluation's ``results.json`` as a Markdown section."""
    lines = [
        "## Results",
        "",
        f"Reproduce with `{results['command']}` "
        f"({results['games_played']} games; {results['seeds']}). Win rates with 95% Wilson "
        "intervals, scores with 95% bootstrap intervals; games/s on one core. Rendered from the "
        "run's `results.json` "
        f"(`{COMMAND}`, from `{RESULTS.as_posix()}`).",
        "",
        *_agent_lines(results),
        "",
        *compact_table(HEADERS, [row_cells(s) for s in results["summary"]]),
    ]
    if results["comparisons"]:
        lines += [
            "",
            "Each agent against the one before it, on the deals both played (paired "
            "differences, 95% bootstrap intervals); *beats by* names the measure whose 95% "
            "intervals do not overlap.",
            "",
            "| agent | baseline | level | common deals | win rate difference | "
            "score difference | beats by |",
            "|---|---|---|---|---|---|---|",
        ]
        for c in results["comparisons"]:
            win, score = c["win_rate_difference"], c["score_difference"]
            lines.append(
                f"| {c['agent']} | {c['baseline']} | {c['level']} | {c['common_games']} | "
                f"{100 * win[0]:+.1f} pts {interval(*win[1:], percent=True)} | "
                f"{score[0]:+.1f} {interval(*score[1:])} | {c['beats_by'] or 'no'} |"
            )
    lines += [
        "",
        "Plots: `winrate.png` (win rate by level, 95% intervals) and `scores.png` (score "
        "distributions) in the output directory. Play a deal yourself with "
        "`friday play --level 1 --seed 7 --save game.json` and watch any saved game with "
        "`friday replay game.json` (or `friday replay DIR/games.jsonl --game K` after "
        "`friday eval --save-games`).",
    ]
    return "\n".join(lines) + "\n"


def _agent_lines(results: dict) -> list[str]:
    sims = results["config"]["search_sims"]
    lines = []
    for spec in results["config"]["agents"]:
        note = agent_description(spec, sims)
        lines.append(f"- **{spec}**: {note}" if note else f"- **{spec}**")
    return lines


def published_results(repo: Path) -> str:
    """The committed run's section; a run on the validation deals (for choosing between
    variants) is never published, nor a partial one."""
    results = read_json(repo, RESULTS)
    if results["config"].get("deals", "evaluation") != "evaluation" or not results["complete"]:
        raise ValueError(f"{RESULTS} is not a complete run on the evaluation deals")
    return results_section(results)


SECTIONS = {"results": ("docs/results.md", published_results)}
