"""``friday eval``: benchmark agents on the evaluation deals of every level.

Every agent plays the same deals ([`friday_agents.harness.deals`][friday_agents.harness.deals]: deal
``i`` of level ``L`` has seed ``10_000_000 + L * 1_000_000 + i``; training never uses seeds that
high). Results per
agent and level — win rate with a 95% Wilson interval, mean and median score with 95% bootstrap
intervals, game length, games/s (games per second of play, summed over the games: building
the agents and loading their models come before the clock starts) — are printed as a table
and written to ``--out``:
``results.json`` (``"complete": false`` while games are missing), ``results.csv``,
``winrate.png``, ``scores.png``, and ``games.jsonl`` with one line per game (with its
replayable record under ``--save-games``). The documentation's tables are rendered from a
committed ``results.json`` by ``python tools/docs_sections.py``, not by this command.

``--deals validation`` plays the validation deals instead (training deals 900000 on, which no
fit reads:
[`friday_agents.harness.deals.validation_seed`][friday_agents.harness.deals.validation_seed]), for
choosing between variants without looking at the evaluation deals; such results never go into the
README.

Without ``--out`` each run gets a new folder under ``results/eval``, named by its agents,
levels and start time (printed when the run starts), so runs never clash; an explicit
``--out`` that already holds an evaluation is refused unless ``--resume`` continues it.

Each game's result is saved as soon as it finishes: after Ctrl-C or a killed worker,
``friday eval --out DIR --resume`` plays only the missing games. ``--backend ray`` plays
them as Ray tasks, on a local Ray or on the cluster at ``--address`` (``ray start --head``
on one node, ``ray start --address HEAD_IP:6379`` on the others); the results are the same.
A session holds its ``--out`` with an exclusive lock until it ends: a second ``friday eval`` on the
same folder is refused (exit 2) instead of playing the same games twice
(``friday_agents.harness.run_lock``; not on Windows, which has no ``fcntl``).

Exit status: 0 done, 2 bad arguments (unknown agent, level or option), 130 interrupted by
Ctrl-C, 1 a worker died (resume to continue).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path

from friday_agents.cli.arguments import add_progress, add_removed, plain
from friday_agents.evaluation.runner import (
    EvalConfig,
    EvaluationError,
    EvaluationInterrupted,
    build_agent,
    forget_agents,
    load_rows,
    run_tasks,
    start_run,
)
from friday_agents.harness.deals import DEAL_SETS
from friday_agents.harness.errors import README_GONE, BadInputError, require
from friday_agents.harness.files import new_run_folder, path_safe
from friday_agents.harness.interrupts import stop_at_a_boundary
from friday_agents.harness.parallel import BACKENDS, RAY_INSTALL, BackendError
from friday_agents.harness.run_lock import RunFolderBusy, RunFolderLock
from friday_agents.players.registry import parse_spec
from friday_agents.players.search import DEFAULT_SIMS
from friday_env.errors import InvalidLevelError
from friday_env.levels import parse_levels as levels_in

DEFAULT_AGENTS = "random,heuristic,search,guided"
DEFAULT_LEVELS = "1-4"
DEFAULT_GAMES = "100,search=25,guided=25"
#: Without --out, each run writes a new folder here
#: ([`new_run_dir`][friday_agents.cli.eval.new_run_dir]).
DEFAULT_OUT = Path("results/eval")
#: The run behind the full results table (docs/results.md, its headline in the README); a
#: test checks it is the command stored in that run's committed results.json, with guided
#: spelled out as it played then (before the level-4 leaf and breadth studies changed its
#: defaults: `friday_agents.players.search.guided.BEFORE_LEAF_STUDY`).
FULL_TABLE_COMMAND = (
    "friday eval --agents random,heuristic,ppo,search,"
    "guided:prior=guided-prior:value=guided-value-per-level:top=1,oracle,"
    "oracle:prior=guided-prior:value=guided-value-per-level"
    " --levels 1-4 --games 1000,search=200,oracle=200 --search-sims 32 --out results/readme"
)
FULL_TABLE_PAGE = "docs/results.md"
#: Optional libraries an agent needs beyond friday eval's own (tqdm, matplotlib).
AGENT_LIBRARIES = {"ppo": ("torch", "stable_baselines3", "sb3_contrib")}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = plain(__doc__.split("\n\n", 1)[1])
    parser.set_defaults(out_is_folder=True)
    parser.add_argument(
        "--agents",
        help="comma-separated agent specs, e.g. heuristic,search:sims=64 "
        f"(default {DEFAULT_AGENTS})",
    )
    parser.add_argument(
        "--levels", help=f"levels as ranges and lists, e.g. 1-4 or 1,3 (default {DEFAULT_LEVELS})"
    )
    parser.add_argument(
        "--games",
        help="games per level: N, optionally with per-agent counts, e.g. 1000,search=200 "
        f"(default {DEFAULT_GAMES})",
    )
    parser.add_argument(
        "--search-sims",
        type=int,
        help=f"simulations per decision for agents that search (default {DEFAULT_SIMS})",
    )
    parser.add_argument(
        "--save-games", action="store_true", default=None, help="store every game's record"
    )
    parser.add_argument(
        "--deals",
        choices=DEAL_SETS,
        help="which deals: the evaluation deals (default) or the validation deals, training "
        "deals 900000 on that no fitting reads, for choosing a variant without looking at "
        "the evaluation deals (friday_agents.harness.deals.validation_seed)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        help="processes, or the CPUs of a local Ray (default: all cores); with --address, "
        "the most games played at once (default: every CPU of the cluster)",
    )
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        default="process",
        help="where games are played: a local process pool (default) or Ray tasks "
        f"(needs {RAY_INSTALL})",
    )
    parser.add_argument(
        "--address",
        help="with --backend ray: a running Ray cluster (auto, or HEAD_IP:6379); "
        "default: a local Ray started for the run",
    )
    parser.add_argument(
        "--out",
        type=Path,
        help=f"output directory (default: a new folder under {DEFAULT_OUT} named by the agents, "
        "levels and start time)",
    )
    parser.add_argument(
        "--resume", action="store_true", help="continue the interrupted evaluation in --out"
    )
    add_removed(parser, "--readme", "--update-readme", instead=README_GONE)
    parser.add_argument("--bootstrap-seed", type=int, default=0, help="seed of the bootstrap")
    add_progress(parser)


# -------------------------------------------------------------- parsing


def parse_levels(text: str) -> tuple[int, ...]:
    """``"1-4"``, ``"1,3"``, ``"2-3,1"`` -> sorted distinct levels; each must be 1..4."""
    try:
        return levels_in(text)
    except InvalidLevelError as err:
        raise BadInputError(str(err)) from None


def parse_games(text: str, agents: tuple[str, ...], strict: bool = True) -> dict[str, int]:
    """``"N"`` or ``"N,name=M,..."`` -> games per level for each agent spec. ``strict``:
    a count for an agent not being evaluated is an error (the default counts are not)."""
    default: int | None = None
    per_name: dict[str, int] = {}
    for part in text.split(","):
        name, sep, count = part.strip().rpartition("=")
        try:
            number = int(count)
        except ValueError:
            raise BadInputError(f"bad game count {part!r}: use N or name=N") from None
        if number < 1:
            raise BadInputError(f"game counts must be positive, got {part!r}")
        if sep:
            per_name[name] = number
        else:
            default = number
    names = {parse_spec(a)[0] for a in agents}
    unknown = sorted(set(per_name) - names)
    if unknown and strict:
        raise BadInputError(f"--games names agents not being evaluated: {', '.join(unknown)}")
    games = {}
    for spec in agents:
        name = parse_spec(spec)[0]
        if name not in per_name and default is None:
            raise BadInputError(f"--games gives no count for agent {name!r}: add a plain N")
        games[spec] = per_name.get(name, default)  # type: ignore[assignment]
    return games


def parse_agents(text: str, sims: int) -> tuple[str, ...]:
    """Agent specs, each checked by building it (`build_agent`: the games played in
    this process, or in workers forked from it, reuse that agent instead of building it
    again)."""
    specs = tuple(s.strip() for s in text.split(",") if s.strip())
    if not specs:
        raise BadInputError("--agents is empty")
    if len(set(specs)) != len(specs):
        raise BadInputError(f"--agents lists an agent twice: {text}")
    for spec in specs:
        build_agent(spec, sims)
    return specs


def config_from_args(args: argparse.Namespace) -> EvalConfig:
    sims = DEFAULT_SIMS if args.search_sims is None else args.search_sims
    if sims < 1:
        raise BadInputError(f"--search-sims must be positive, got {sims}")
    # an empty --agents is an error, not the default agents
    agents = parse_agents(DEFAULT_AGENTS if args.agents is None else args.agents, sims)
    return EvalConfig(
        agents=agents,
        levels=parse_levels(args.levels or DEFAULT_LEVELS),
        games=parse_games(args.games or DEFAULT_GAMES, agents, strict=args.games is not None),
        search_sims=sims,
        save_games=bool(args.save_games),
        deals=args.deals or "evaluation",
    )


def check_resume_matches(args: argparse.Namespace, stored: EvalConfig) -> None:
    """Options given with --resume must agree with the stored run."""
    given = config_from_args(args)
    explicit = {
        "agents": args.agents is not None,
        "levels": args.levels is not None,
        "games": args.games is not None,
        "search_sims": args.search_sims is not None,
        "save_games": args.save_games is not None,
        "deals": args.deals is not None,
    }
    for name, was_given in explicit.items():
        if was_given and getattr(given, name) != getattr(stored, name):
            raise BadInputError(
                f"--resume continues the stored run, whose {name} is {getattr(stored, name)!r}; "
                f"got {getattr(given, name)!r}"
            )


def check_libraries(config: EvalConfig) -> None:
    """Raise ``MissingExtraError`` (naming the extra to install) before any game starts if
    a library the report or an agent needs is missing."""
    require("friday eval", "tqdm", "matplotlib")
    for spec in config.agents:
        name = parse_spec(spec)[0]
        require(f"the {name} agent", *AGENT_LIBRARIES.get(name, ()))


def command_line(config: EvalConfig, out: Path) -> str:
    """The ``friday eval`` command that plays this configuration."""
    counts = list(config.games.values())
    default = max(set(counts), key=counts.count)
    per_name: dict[str, int] = {}  # --games counts by agent name, not by spec
    for spec, n in config.games.items():
        name = parse_spec(spec)[0]
        if per_name.setdefault(name, n) != n:
            raise ValueError(
                f"agents named {name!r} play different game counts: no --games says that"
            )
    games = [str(default)] + [f"{name}={n}" for name, n in per_name.items() if n != default]
    parts = [
        "friday eval",
        f"--agents {','.join(config.agents)}",
        f"--levels {format_levels(config.levels)}",
        f"--games {','.join(games)}",
        f"--search-sims {config.search_sims}",
    ]
    if config.save_games:
        parts.append("--save-games")
    if config.deals != "evaluation":
        parts.append(f"--deals {config.deals}")
    parts.append(f"--out {out}")
    return " ".join(parts)


def new_run_dir(config: EvalConfig, parent: Path = DEFAULT_OUT) -> Path:
    """Create and return a new folder for a run without ``--out``, CleanRL-style:
    ``parent/<agents>__<levels>__<YYYYmmdd-HHMMSS>`` (``-2``, ``-3``... if two runs start
    in the same second)."""
    agents = path_safe("+".join(config.agents))[:80]
    return new_run_folder(parent, f"{agents}__{path_safe(format_levels(config.levels))}")


def format_levels(levels: tuple[int, ...]) -> str:
    if list(levels) == list(range(levels[0], levels[-1] + 1)) and len(levels) > 1:
        return f"{levels[0]}-{levels[-1]}"
    return ",".join(map(str, levels))


# ---------------------------------------------------------------- run


def check_backend(args: argparse.Namespace) -> None:
    """The backend options make sense, and Ray is there when asked for."""
    if args.workers is not None and args.workers < 1:
        raise BadInputError(f"--workers must be at least 1, got {args.workers}")
    if args.address is not None and args.backend != "ray":
        raise BadInputError("--address is for --backend ray (a Ray cluster)")
    if args.backend == "ray":
        require("friday eval --backend ray", "ray")


def run(args: argparse.Namespace) -> int:
    with RunFolderLock() as lock:  # held until the report is written
        return _run(args, lock)


def _run(args: argparse.Namespace, lock: RunFolderLock) -> int:
    forget_agents()  # agents of an earlier run in this process may have read other files
    try:
        check_backend(args)
        config = config_from_args(args)
        check_libraries(config)
        _choose_out(args, config)
        lock.take(args.out, create=not args.resume)  # before anything there is read or written
        config = start_run(args.out, config, args.resume)
        if args.resume:
            check_resume_matches(args, config)
        done = load_rows(args.out, config)
    except (EvaluationError, BackendError, RunFolderBusy) as err:  # the run or backend refused
        raise BadInputError(str(err)) from None
    finished = {(r["agent"], r["level"], r["index"]) for r in done}
    todo = [t for t in config.tasks() if t.key not in finished]
    print(f"friday eval: {announce(config, len(todo))}; writing to {args.out}", flush=True)
    try:
        status = _play(config, todo, args, done)
    except KeyboardInterrupt:  # a second Ctrl-C while the first one was being handled
        status = _STOPPED_TWICE
    written: list[str] = []
    try:
        _report(config, args, written, plots=status != _STOPPED_TWICE)
    except KeyboardInterrupt:  # a second Ctrl-C (or the first, after the games): stop quietly
        return _stopped_in_report(args, written)
    if status == 0 and _is_set_up_run(args):
        print(sample_note(config))
    return 130 if status == _STOPPED_TWICE else status


def announce(config: EvalConfig, todo: int) -> str:
    """What the run is about to play, in a line."""
    games = sorted(set(config.games.values()))
    per_level = "/".join(map(str, games))
    return (
        f"{', '.join(config.agents)} on levels {format_levels(config.levels)}, {per_level} games "
        f"per agent and level ({todo} to play)"
    )


#: _play's status when a second Ctrl-C came while the games were stopping: skip the plots.
_STOPPED_TWICE = -130


def _is_set_up_run(args: argparse.Namespace) -> bool:
    """Every choice left to its default: the README's first command, a small sample."""
    chosen = ("agents", "levels", "games", "search_sims", "deals")
    return all(getattr(args, name) is None for name in chosen)


def sample_note(config: EvalConfig) -> str:
    """What the set-up run's table is, and where the full one is and how it was made."""
    counts = list(config.games.values())
    usual = max(set(counts), key=lambda n: (counts.count(n), n))
    fewer: dict[int, list[str]] = {}
    for spec, n in config.games.items():
        if n != usual:
            fewer.setdefault(n, []).append(spec)
    others = "".join(f", {n} for {' and '.join(specs)}" for n, specs in fewer.items())
    return (
        f"\nNote: this is a small sample ({usual} games per level{others}), so its numbers "
        "differ from the full results table by chance (compare the 95% intervals). The full "
        f"table is in {FULL_TABLE_PAGE} (its headline in the README); it was made with:\n"
        f"  {FULL_TABLE_COMMAND}"
    )


def _choose_out(args: argparse.Namespace, config: EvalConfig) -> None:
    """Without ``--out``: a new run folder (announced); ``--resume`` must name its run."""
    if args.out is not None:
        return
    if args.resume:
        raise BadInputError(
            f"--resume needs --out DIR, the run to continue (each run without --out has its "
            f"own folder under {DEFAULT_OUT}; the interrupted run printed its --resume command)"
        )
    args.out = new_run_dir(config)


def _play(config: EvalConfig, todo: list, args: argparse.Namespace, done: list[dict]) -> int:
    from friday_agents.evaluation.progress import EtaEstimator, advance, progress_bar

    if not todo:
        return 0
    eta = EtaEstimator(todo, done)
    progress = progress_bar(len(todo) + len(done), len(done), not args.progress, eta)
    workers = args.workers or (os.cpu_count() or 1 if args.backend == "process" else None)
    if args.backend == "process" or args.address is None:
        workers = workers and min(workers, len(todo))  # no idle processes or CPUs
    try:
        run_tasks(
            config,
            todo,
            args.out,
            workers,
            lambda row: advance(progress, eta, row),
            args.backend,
            args.address,
        )
    except BackendError as err:
        progress.close()
        raise BadInputError(
            f"{str(err).rstrip('.')}. Finished games are in {args.out / 'games.jsonl'}; "
            f"continue with: friday eval --out {args.out} --resume"
        ) from None
    except EvaluationInterrupted as why:
        progress.close()
        _say_stopped(str(why), args.out)
        return 130 if str(why) == "interrupted" else 1
    except KeyboardInterrupt:  # a second Ctrl-C while the games in flight were stopping
        progress.close()
        _say_stopped("interrupted", args.out)
        raise
    progress.close()
    return 0


def _say_stopped(why: str, out: Path) -> None:
    print(
        f"friday eval: {why}; every finished game is saved in {out / 'games.jsonl'}. "
        f"Continue with: friday eval --out {out} --resume",
        file=sys.stderr,
    )


def _stopped_in_report(args: argparse.Namespace, written: list[str]) -> int:
    saved = ", ".join([*written, f"every finished game ({args.out / 'games.jsonl'})"])
    print(
        f"\nfriday eval: interrupted while writing the report; saved: {saved}. Write the rest "
        f"(and play any missing games) with: friday eval --out {args.out} --resume",
        file=sys.stderr,
    )
    return 130


@contextlib.contextmanager
def _whole_files() -> Iterator[None]:
    """Within: a Ctrl-C waits until the block is done (then raises), so the files it writes
    are never cut short; a further Ctrl-C stops at once (`stop_at_a_boundary`)."""
    with stop_at_a_boundary() as ctrl_c:
        yield
    if ctrl_c.requested:
        raise KeyboardInterrupt


def _report(
    config: EvalConfig, args: argparse.Namespace, written: list[str], plots: bool = True
) -> None:
    """Write the results files, then the plots (which a Ctrl-C may skip), then print the
    table; ``written`` collects the names of the files finished."""
    with _whole_files():
        from friday_agents.evaluation.report import text_table

        rows = load_rows(args.out, config)
        if not rows:
            return
        results = _write_results(rows, config, args, written)
    out = args.out
    if plots:
        from friday_agents.evaluation.plots import plot_scores, plot_win_rates

        plot_win_rates(results, out / "winrate.png")
        plot_scores(results, rows, out / "scores.png")
        written += ["winrate.png", "scores.png"]
    print(text_table(results))
    state = "" if results["complete"] else " (partial: resume to finish)"
    print(f"\nwrote {out}/{', '.join(written)}{state}")


def _write_results(
    rows: list[dict], config: EvalConfig, args: argparse.Namespace, written: list[str]
) -> dict:
    """results.json and results.csv; returns the results."""
    from friday_agents.evaluation.report import build_results, write_csv, write_json

    out = args.out
    results = build_results(rows, config, command_line(config, out), args.bootstrap_seed)
    write_json(results, out / "results.json")
    write_csv(results, out / "results.csv")
    written += ["results.json", "results.csv"]
    return results
