"""An evaluation's run, from settings to the written report: what ``friday eval`` runs.

`EvalSettings` holds one run's settings, typed (what ``friday eval``'s flags say; None leaves a
setting to its default, or with ``resume`` to the stored run's); `run_evaluation` checks them,
takes the run folder's lock, plays the missing games (`friday_agents.evaluation.runner`),
writes the results files and plots and prints the table. From Python::

    outcome = run_evaluation(EvalSettings(agents="heuristic,random", levels=(1,), games=20))
    outcome.status, outcome.out  # 0 and the new run folder under results/eval

Bad settings raise `friday_agents.harness.errors.BadInputError` before anything is written.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

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
from friday_agents.harness.errors import BadInputError, require
from friday_agents.harness.files import new_run_folder, path_safe
from friday_agents.harness.interrupts import stop_at_a_boundary
from friday_agents.harness.parallel import BACKENDS, BackendError
from friday_agents.harness.paths import portable_path
from friday_agents.harness.run_lock import RunFolderBusy, RunFolderLock
from friday_agents.players.registry import parse_spec
from friday_agents.players.search import DEFAULT_SIMS
from friday_env.errors import InvalidLevelError
from friday_env.levels import parse_levels as levels_in

DEFAULT_AGENTS = "random,heuristic,search,guided"
#: Simulations per decision of the agents that search, unless told: the search's own default
#: (this module is the one part of friday_agents besides the players that reads the search).
DEFAULT_SEARCH_SIMS = DEFAULT_SIMS
DEFAULT_LEVELS = "1-4"
DEFAULT_GAMES = "100,search=25,guided=25"
#: Without an out folder, each run writes a new folder here
#: ([`new_run_dir`][friday_agents.evaluation.workflow.new_run_dir]).
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


@dataclass(frozen=True)
class EvalSettings:
    """One evaluation run. What is played (None: the default, or with ``resume`` the stored
    run's; a value given with ``resume`` must agree with the stored run): ``agents`` (specs,
    or their comma-separated text), ``levels`` (or their text, ``"1-4"``), ``games`` per agent
    and level (N, or ``"N,name=M"``), ``search_sims``, ``save_games``, ``deals``. How: ``out``
    (None: a new folder under `DEFAULT_OUT`), ``resume``, ``workers`` (None: every core),
    ``backend`` (``process`` or ``ray``, at ``address``), ``bootstrap_seed``, ``progress``."""

    agents: str | tuple[str, ...] | None = None
    levels: str | tuple[int, ...] | None = None
    games: int | str | None = None
    search_sims: int | None = None
    save_games: bool | None = None
    deals: str | None = None
    out: Path | None = None
    resume: bool = False
    workers: int | None = None
    backend: str = "process"
    address: str | None = None
    bootstrap_seed: int = 0
    progress: bool = True

    def given(self) -> set[str]:
        """The settings of what is played that are not left to a default."""
        return {name for name in _PLAYED if getattr(self, name) is not None}


#: The settings of what is played (the rest say how).
_PLAYED = ("agents", "levels", "games", "search_sims", "save_games", "deals")


@dataclass(frozen=True)
class EvalOutcome:
    """How a run ended: its exit status (0 done, 1 a worker died, 130 interrupted) and its
    folder."""

    status: int
    out: Path


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
    games: dict[str, int] = {}
    for spec in agents:
        name = parse_spec(spec)[0]
        played = per_name.get(name, default)
        if played is None:
            raise BadInputError(f"--games gives no count for agent {name!r}: add a plain N")
        games[spec] = played
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


def config_of(settings: EvalSettings) -> EvalConfig:
    """What ``settings`` plays, each setting checked (unknown agents are built to check)."""
    sims = DEFAULT_SEARCH_SIMS if settings.search_sims is None else settings.search_sims
    if sims < 1:
        raise BadInputError(f"--search-sims must be positive, got {sims}")
    if settings.deals is not None and settings.deals not in DEAL_SETS:
        raise BadInputError(
            f"--deals must be one of {', '.join(DEAL_SETS)}, got {settings.deals!r}"
        )
    # an empty --agents is an error, not the default agents
    agents = parse_agents(_as_text(settings.agents, DEFAULT_AGENTS), sims)
    games = None if settings.games is None else str(settings.games)
    return EvalConfig(
        agents=agents,
        levels=parse_levels(_as_text(settings.levels) or DEFAULT_LEVELS),
        games=parse_games(games or DEFAULT_GAMES, agents, strict=games is not None),
        search_sims=sims,
        save_games=bool(settings.save_games),
        deals=settings.deals or "evaluation",
    )


def _as_text(value: str | tuple | None, default: str = "") -> str:
    """A setting given as text or as a tuple of values, as the flag's comma-separated text
    (``default`` when None)."""
    if value is None:
        return default
    return ",".join(map(str, value)) if isinstance(value, tuple) else value


def check_resume_matches(settings: EvalSettings, stored: EvalConfig) -> None:
    """Settings given with ``resume`` must agree with the stored run."""
    given = config_of(settings)
    for name in settings.given():
        if getattr(given, name) != getattr(stored, name):
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
    parts.append(f"--out {portable_path(out)}")  # never an absolute path of this machine
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


def check_backend(settings: EvalSettings) -> None:
    """The backend settings make sense, and Ray is there when asked for."""
    if settings.backend not in BACKENDS:
        raise BadInputError(f"--backend must be one of {', '.join(BACKENDS)}")
    if settings.workers is not None and settings.workers < 1:
        raise BadInputError(f"--workers must be at least 1, got {settings.workers}")
    if settings.address is not None and settings.backend != "ray":
        raise BadInputError("--address is for --backend ray (a Ray cluster)")
    if settings.backend == "ray":
        require("friday eval --backend ray", "ray")


def run_evaluation(settings: EvalSettings) -> EvalOutcome:
    """Play the run's missing games and write its report (see the module's docstring)."""
    with RunFolderLock() as lock:  # held until the report is written
        return _run(settings, lock)


def _run(settings: EvalSettings, lock: RunFolderLock) -> EvalOutcome:
    forget_agents()  # agents of an earlier run in this process may have read other files
    try:
        check_backend(settings)
        config = config_of(settings)
        check_libraries(config)
        out = _choose_out(settings, config)
        lock.take(out, create=not settings.resume)  # before anything there is read or written
        config = start_run(out, config, settings.resume)
        if settings.resume:
            check_resume_matches(settings, config)
        done = load_rows(out, config)
    except (EvaluationError, BackendError, RunFolderBusy) as err:  # the run or backend refused
        raise BadInputError(str(err)) from None
    finished = {(r["agent"], r["level"], r["index"]) for r in done}
    todo = [t for t in config.tasks() if t.key not in finished]
    print(f"friday eval: {announce(config, len(todo))}; writing to {out}", flush=True)
    try:
        status = _play(config, todo, settings, out, done)
    except KeyboardInterrupt:  # a second Ctrl-C while the first one was being handled
        status = _STOPPED_TWICE
    written: list[str] = []
    try:
        _report(config, settings, out, written, plots=status != _STOPPED_TWICE)
    except KeyboardInterrupt:  # a second Ctrl-C (or the first, after the games): stop quietly
        return EvalOutcome(_stopped_in_report(out, written), out)
    if status == 0 and not settings.given() - {"save_games"}:  # the README's first command
        print(sample_note(config))
    return EvalOutcome(130 if status == _STOPPED_TWICE else status, out)


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


def sample_note(config: EvalConfig) -> str:
    """What the set-up run's table is (every choice left to its default: the README's first
    command, a small sample), and where the full one is and how it was made."""
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


def _choose_out(settings: EvalSettings, config: EvalConfig) -> Path:
    """The run's folder: ``out``, or without it a new run folder; ``resume`` must name its
    run."""
    if settings.out is not None:
        return settings.out
    if settings.resume:
        raise BadInputError(
            f"--resume needs --out DIR, the run to continue (each run without --out has its "
            f"own folder under {DEFAULT_OUT}; the interrupted run printed its --resume command)"
        )
    return new_run_dir(config)


def _play(
    config: EvalConfig, todo: list, settings: EvalSettings, out: Path, done: list[dict]
) -> int:
    from friday_agents.evaluation.progress import EtaEstimator, advance, progress_bar

    if not todo:
        return 0
    eta = EtaEstimator(todo, done)
    progress = progress_bar(len(todo) + len(done), len(done), not settings.progress, eta)
    workers = settings.workers or (os.cpu_count() or 1 if settings.backend == "process" else None)
    if settings.backend == "process" or settings.address is None:
        workers = workers and min(workers, len(todo))  # no idle processes or CPUs
    try:
        run_tasks(
            config,
            todo,
            out,
            workers,
            lambda row: advance(progress, eta, row),
            settings.backend,
            settings.address,
        )
    except BackendError as err:
        progress.close()
        raise BadInputError(
            f"{str(err).rstrip('.')}. Finished games are in {out / 'games.jsonl'}; "
            f"continue with: friday eval --out {out} --resume"
        ) from None
    except EvaluationInterrupted as why:
        progress.close()
        _say_stopped(str(why), out)
        return 130 if str(why) == "interrupted" else 1
    except KeyboardInterrupt:  # a second Ctrl-C while the games in flight were stopping
        progress.close()
        _say_stopped("interrupted", out)
        raise
    progress.close()
    return 0


def _say_stopped(why: str, out: Path) -> None:
    print(
        f"friday eval: {why}; every finished game is saved in {out / 'games.jsonl'}. "
        f"Continue with: friday eval --out {out} --resume",
        file=sys.stderr,
    )


def _stopped_in_report(out: Path, written: list[str]) -> int:
    saved = ", ".join([*written, f"every finished game ({out / 'games.jsonl'})"])
    print(
        f"\nfriday eval: interrupted while writing the report; saved: {saved}. Write the rest "
        f"(and play any missing games) with: friday eval --out {out} --resume",
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
    config: EvalConfig, settings: EvalSettings, out: Path, written: list[str], plots: bool = True
) -> None:
    """Write the results files, then the plots (which a Ctrl-C may skip), then print the
    table; ``written`` collects the names of the files finished."""
    with _whole_files():
        from friday_agents.evaluation.report import text_table

        rows = load_rows(out, config)
        if not rows:
            return
        results = _write_results(rows, config, settings, out, written)
    if plots:
        from friday_agents.evaluation.plots import plot_scores, plot_win_rates

        plot_win_rates(results, out / "winrate.png")
        plot_scores(results, rows, out / "scores.png")
        written += ["winrate.png", "scores.png"]
    print(text_table(results))
    state = "" if results["complete"] else " (partial: resume to finish)"
    print(f"\nwrote {out}/{', '.join(written)}{state}")


def _write_results(
    rows: list[dict], config: EvalConfig, settings: EvalSettings, out: Path, written: list[str]
) -> dict:
    """results.json and results.csv; returns the results."""
    from friday_agents.evaluation.report import build_results, write_csv, write_json

    results = build_results(rows, config, command_line(config, out), settings.bootstrap_seed)
    write_json(results, out / "results.json")
    write_csv(results, out / "results.csv")
    written += ["results.json", "results.csv"]
    return results
