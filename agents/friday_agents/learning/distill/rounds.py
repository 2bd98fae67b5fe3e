"""Expert iteration, round after round (``friday distill``).

Round ``r`` starts from a network ``N`` (round 0 from the configuration's ``first_prior``,
later rounds from the previous round's network):

1. **the search plays** training deals with ``N`` as its prior (trying ``N``'s ``top`` best
   actions and the heuristic's choice), and every searched decision is labelled with its
   action values: the teacher games;
2. **the network plays** other training deals on its own, and the same search values every
   decision it faces (DAgger: labels on the states the network reaches itself);
3. **a new network is fitted** on the labelled decisions of every round so far (DAgger
   aggregates): policy to the search's soft choices, value to the games' outcomes
   (`friday_agents.learning.distill.fit`), from random weights or with ``warm_start`` from
   ``N``'s;
4. **it is measured** on validation deals, alone (``net:model=...``) and as the prior of
   ``guided`` (``guided:prior=...``), with the CPU seconds every step cost.

The new network is the next round's prior and student. The search's leaf value is the
configuration's ``value`` (guided's linear per-level models in the committed study; a
per-level file with a leaf network, `friday_agents.players.networks.leaf_net`, runs inside
the compiled rollouts too). The value head is kept as the critic that RL fine-tuning starts
from.

Everything resumes: games files are appended game by game and skipped when present, a
round whose ``summary.json`` exists is done, and the fit reads the games in a fixed order, so
a run stopped anywhere and continued fits the networks an uninterrupted one would. A run is
continued only with the settings it started with (`check_resume`; the budget ``rounds``
and the validation deals may change, and ``first_prior`` may name the same file by another
name: a run started with ``net`` before the net-scale study continues with ``net-v1``).
Everything read back is checked first (`check_run`,
[`run_files`][friday_agents.learning.distill.run_files]):
a file edited or damaged by someone else is refused in one line naming it. Games go to
``--data`` (large, reproducible by the command); networks and summaries go to ``--out``
(committed), each file replaced whole.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from friday_agents.harness.games_file import read_games_file
from friday_agents.harness.parallel import run_games
from friday_agents.harness.stats import wilson_interval
from friday_agents.learning.distill.config import ExitConfig
from friday_agents.learning.distill.dataset import read_decisions
from friday_agents.learning.distill.fit import (
    fit_network,
    held_out_report,
    split_by_deal,
    warm_start_network,
)
from friday_agents.learning.distill.games import student_job, teacher_job, validation_job
from friday_agents.learning.distill.run_files import (
    check_network,
    check_resume,
    checked_games,
    read_start,
    read_summary,
)
from friday_agents.learning.run_folder import RunFolderError, write_config, write_json
from friday_agents.players.networks.policy_net import PolicyNetwork, save_policy_network
from friday_agents.players.resolved import resolve_spec

Progress = Callable[[str, int], Any]  # (what, total) -> a context manager with update()


def round_dir(out: Path, number: int) -> Path:
    return out / f"round-{number:02d}"


def network_path(out: Path, config: ExitConfig, number: int) -> str:
    """The network round ``number`` starts from."""
    if number == 0:
        return config.first_prior
    return str(round_dir(out, number - 1) / "network.npz")


def run_rounds(
    config: ExitConfig,
    out: Path,
    data: Path,
    workers: int,
    progress: Progress,
    rounds: int,
    device: str = "cpu",
) -> list[dict[str, Any]]:
    """Play rounds 0..``rounds``-1 (those not done yet) and return every round's summary;
    the fits run on the torch ``device``. What a continued run reads back is checked first
    (`check_run`), before anything is written."""
    check_run(config, out, data, rounds)
    out.mkdir(parents=True, exist_ok=True)
    write_config(out, config.to_json())
    if not (out / "start.json").exists():
        write_json(out / "start.json", measure_start(config, workers, progress))
    summaries = []
    for number in range(rounds):
        summary_file = round_dir(out, number) / "summary.json"
        if not summary_file.exists():
            summary = play_round(config, out, data, number, workers, progress, device)
            write_json(summary_file, summary)
        summaries.append(read_summary(summary_file, number, config.levels))
    return summaries


def check_run(config: ExitConfig, out: Path, data: Path, rounds: int) -> None:
    """Everything of the run in ``out`` and ``data`` that rounds 0..``rounds``-1 read back:
    its settings (`check_resume`), the start's and finished rounds' measurements, the network
    a round to play starts from, every games file
    ([`run_files`][friday_agents.learning.distill.run_files]);
    a `RunFolderError` naming the first bad file."""
    check_resume(config, out)
    if (out / "start.json").exists():
        read_start(out, config.levels)
    for number in range(rounds):
        summary_file = round_dir(out, number) / "summary.json"
        if summary_file.exists():
            read_summary(summary_file, number, config.levels)
        elif number > 0 and (round_dir(out, number - 1) / "summary.json").exists():
            check_network(round_dir(out, number - 1) / "network.npz", number - 1)
        for kind, deals in round_deals(config, number).items():
            checked_games(data / f"round-{number:02d}" / f"{kind}.jsonl", deals)


def round_deals(config: ExitConfig, number: int) -> dict[str, set[tuple[int, int]]]:
    """``(level, deal index)`` of the teacher's and the student's games of round
    ``number``."""
    first = config.round_first_index(number)
    second = first + config.teacher_games
    indices = {
        "teacher": range(first, second),
        "student": range(second, second + config.student_games),
    }
    return {
        kind: {(level, i) for i in deals for level in config.levels}
        for kind, deals in indices.items()
    }


def guided_with(prior: str | Path) -> str:
    """``guided`` with ``prior`` as its policy prior, trying the prior's best action alone on
    every level (``top=1``): the search every committed round was measured with (guided's own
    default tries three on level 4 since the level-4 breadth study)."""
    return f"guided:prior={prior}:top=1"


def measured_search(config: ExitConfig, prior: str | Path) -> str:
    """The search a round's network is measured guiding: `guided_with` it, or in a study whose
    labelling search reads no heuristic (``anchor`` and ``rollout`` ``prior``) that search."""
    return guided_with(prior) if config.uses_heuristic else config.teacher_spec(str(prior))


def measure_start(config: ExitConfig, workers: int, progress: Progress) -> dict[str, Any]:
    """Where the rounds start: the first network alone and the search it guides."""
    prior = config.first_prior
    search = measured_search(config, prior)
    return {
        "network": prior,
        "net": validate(f"net:model={prior}", config, config.validation_net, workers, progress),
        "search": validate(search, config, config.validation_search, workers, progress),
    }


def play_round(
    config: ExitConfig,
    out: Path,
    data: Path,
    number: int,
    workers: int,
    progress: Progress,
    device: str = "cpu",
) -> dict[str, Any]:
    prior = network_path(out, config, number)
    # the fit reads every round's games: an earlier round's missing ones (a run continued
    # without its games folder) are played again first, deal for deal, never left out
    for earlier in range(number):
        play_games(config, out, data, earlier, workers, progress)
    played = play_games(config, out, data, number, workers, progress)
    network, fit_summary = fit_round(config, data, number, device, prior)
    path = round_dir(out, number) / "network.npz"
    path.parent.mkdir(parents=True, exist_ok=True)
    save_policy_network(network, path)
    return {
        "round": number,
        "prior": prior,
        "teacher": config.teacher_spec(prior),
        "games": played,
        **fit_summary,
        "net": validate(f"net:model={path}", config, config.validation_net, workers, progress),
        "search": validate(
            measured_search(config, path), config, config.validation_search, workers, progress
        ),
    }


def play_games(
    config: ExitConfig, out: Path, data: Path, number: int, workers: int, progress: Progress
) -> dict[str, dict]:
    """Round ``number``'s teacher and student games in ``data`` (those not there yet are
    played): what each games file holds."""
    prior = network_path(out, config, number)
    teacher = config.teacher_spec(prior)
    first = config.round_first_index(number)
    folder = data / f"round-{number:02d}"
    teacher_jobs = [
        (teacher, level, i)
        for i in range(first, first + config.teacher_games)
        for level in config.levels
    ]
    second = first + config.teacher_games
    student_jobs = [
        (f"net:model={prior}", teacher, level, i)
        for i in range(second, second + config.student_games)
        for level in config.levels
    ]
    return {
        "teacher": collect(teacher_job, teacher_jobs, folder / "teacher.jsonl", workers, progress),
        "student": collect(student_job, student_jobs, folder / "student.jsonl", workers, progress),
    }


def collect(play, jobs: list[tuple], path: Path, workers: int, progress: Progress) -> dict:
    """Append the games of ``jobs`` not yet in ``path``; the file's games, wins and CPU."""
    path.parent.mkdir(parents=True, exist_ok=True)
    deals = {(job[-2], job[-1]) for job in jobs}
    done = {(game["level"], game["index"]) for game in checked_games(path, deals)}
    todo = [job for job in jobs if (job[-2], job[-1]) not in done]
    with (
        path.open("a") as handle,
        progress(f"games {path.parent.name}/{path.stem}", len(todo)) as bar,
    ):
        for line in run_games(play, todo, workers=workers):
            handle.write(json.dumps(line) + "\n")
            handle.flush()
            bar.update()
    games = read_games_file(path).games
    return {
        "games": len(games),
        "won": sum(g["won"] for g in games),
        "won_by_level": {
            str(level): sum(g["won"] for g in games if g["level"] == level)
            for level in sorted({g["level"] for g in games})
        },
        "labelled_decisions": sum(len(g["q"]) for g in games),
        "cpu_seconds": round(sum(g["seconds"] for g in games), 1),
    }


def fit_round(
    config: ExitConfig, data: Path, number: int, device: str = "cpu", prior: str = ""
) -> tuple[PolicyNetwork, dict]:
    """The network fitted on every round's games up to ``number`` (with ``warm_start`` from
    the round's ``prior``), and what the fit saw."""
    files = [
        data / f"round-{r:02d}" / f"{kind}.jsonl"
        for r in range(number + 1)
        for kind in ("teacher", "student")
    ]
    started = time.process_time()
    try:
        decisions = read_decisions([f for f in files if f.exists()])
    except (ValueError, KeyError, TypeError, IndexError) as err:  # a game edited to nonsense
        raise RunFolderError(
            f"the games of rounds 0-{number} in {data} cannot be fitted: {err}"
        ) from None
    if config.value_scale:
        decisions = decisions.with_value_scale(config.value_scale)
    read_seconds = time.process_time() - started
    held = split_by_deal(decisions, config.held_out_share, config.seed)
    start = warm_start_network(prior, config.hidden) if config.warm_start else None
    network, fit_info = fit_network(
        decisions.subset(~held),
        config.hidden,
        config.epochs,
        config.tau,
        config.seed,
        device,
        start,
    )
    network = network.astype(np.float16)  # half the size on disk; played as float32
    return network, {
        "fit": {
            "decisions": int((~held).sum()),
            "held_out_decisions": int(held.sum()),
            "from_student_games": int(decisions.student.sum()),
            "data_bytes": decisions.nbytes,
            "read_cpu_seconds": round(read_seconds, 1),
            "warm_start": config.warm_start,  # from the prior's weights, or random ones
            **fit_info,
            "held_out": held_out_report(decisions.subset(held), network, config.tau),
        }
    }


def validate(spec: str, config: ExitConfig, deals: int, workers: int, progress: Progress) -> dict:
    """``spec`` on validation deals 0..``deals``-1 of each level: wins with their Wilson
    interval, mean score, CPU seconds per game and per decision."""
    jobs = [(spec, level, i) for i in range(deals) for level in config.levels]
    rows: list[dict] = []
    with progress(f"validate {spec.split(':')[0]}", len(jobs)) as bar:
        for row in run_games(validation_job, jobs, workers=workers):
            rows.append(row)
            bar.update()
    # what played: every option and each model file by role and SHA-256 (players.resolved)
    return {
        "spec": spec,
        "resolved": resolve_spec(spec),
        "deals": deals,
        "levels": _per_level(rows, config.levels),
    }


def _per_level(rows: list[dict], levels: tuple[int, ...]) -> dict[str, dict]:
    out = {}
    for level in levels:
        mine = [r for r in rows if r["level"] == level]
        wins = sum(r["won"] for r in mine)
        low, high = wilson_interval(wins, len(mine))
        seconds = sum(r["seconds"] for r in mine)
        out[str(level)] = {
            "games": len(mine),
            "wins": wins,
            "win_rate": round(wins / len(mine), 4),
            "wilson95": [round(low, 4), round(high, 4)],
            "mean_score": round(float(np.mean([r["score"] for r in mine])), 2),
            "cpu_seconds": round(seconds, 2),
            "cpu_ms_per_decision": round(
                1000 * seconds / max(1, sum(r["decisions"] for r in mine)), 3
            ),
        }
    return out


def rows_of(summaries: list[dict]) -> Iterator[dict]:
    """One row per round for the curve: its cumulative CPU seconds and its measurements
    (``net``, ``search``: each level's numbers)."""
    cpu = 0.0
    for summary in summaries:
        cpu += sum(part["cpu_seconds"] for part in summary["games"].values())
        cpu += summary["fit"]["fit_cpu_seconds"] + summary["fit"]["read_cpu_seconds"]
        yield {
            "round": summary["round"],
            "cpu_seconds": round(cpu, 1),
            "net": summary["net"],
            "search": summary["search"],
        }
