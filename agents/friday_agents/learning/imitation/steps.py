"""The steps of ``friday imitate``, each run from its typed settings
(`friday_agents.learning.imitation.settings`; `friday_agents.cli.imitate` parses the command
line into them)."""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from friday_agents.harness.files import write_text_atomically
from friday_agents.harness.parallel import run_games
from friday_agents.harness.progress import format_duration
from friday_agents.harness.run_lock import RunFolderLock
from friday_agents.learning.imitation.data import (
    ImitationDataError,
    collect,
    done_games,
    encode_games,
    load_dataset,
    read_games,
)
from friday_agents.learning.imitation.settings import Collect, Dagger, Encode, Fit, PolicyFit
from friday_agents.learning.sb3.config import TrainConfig, load_config_file
from friday_agents.players.registry import make_agent
from friday_env.levels import parse_levels


def write_log(path: Path, record: dict) -> None:
    """Write a fit log (JSON) with the time it was written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    record["written"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    write_text_atomically(path, json.dumps(record, indent=2) + "\n")


def _bar(total: int, disabled: bool):
    from tqdm import tqdm

    return tqdm(total=total, unit="game", disable=disabled)


def collect_step(settings: Collect) -> int:
    levels, play = parse_levels(settings.levels), settings.play
    indices = play.indices
    print(
        f"friday imitate collect: {settings.teacher} plays {play.games} games per level on "
        f"levels {','.join(map(str, levels))} (deals {indices.start}-{indices.stop - 1}); "
        f"appending to {settings.out}",
        flush=True,
    )
    with _bar(len(levels) * len(indices), not play.progress) as bar:
        tick = lambda _: bar.update()  # noqa: E731
        how = (play.workers, tick, play.backend, play.address)
        played = collect(settings.teacher, levels, indices, settings.out, *how)
    out = settings.out
    games = [g for g in read_games(out) if g["level"] in levels and g["index"] in indices]
    seconds = sum(g.get("seconds", 0.0) for g in games)
    print(f"{played} games played, {len(games)} in {out}; teacher CPU {format_duration(seconds)}")
    return 0


def encode_step(settings: Encode) -> int:
    games = [line for path in settings.games_files for line in read_games(path)]
    if not games:
        raise ImitationDataError(f"no games in {', '.join(map(str, settings.games_files))}")
    started = time.process_time()
    data = encode_games(games, settings.observation, parse_levels(settings.levels))
    data.save(settings.out)
    print(
        f"{len(data)} decisions from {len(games)} games -> {settings.out} "
        f"(CPU {format_duration(time.process_time() - started)})"
    )
    return 0


def _config(settings: PolicyFit, level: int) -> TrainConfig:
    values = load_config_file(settings.config) if settings.config else {}
    values.update(level=level, hidden=settings.hidden, seed=settings.seed, device=settings.device)
    return TrainConfig.from_dict(values).validate()


def fit_into_policy(settings: PolicyFit, data, levels: tuple[int, ...]) -> dict:
    """Build (or load with ``--init``) the policy, fit it to ``data`` and save it."""
    import torch

    from friday_agents.learning.imitation.fit import FitSettings, build_model, fit, save_policy
    from friday_agents.learning.sb3.train import init_weights

    torch.set_num_threads(1)
    config = _config(settings, levels[0])
    if data.observation != config.observation:
        raise ImitationDataError(
            f"dataset holds {data.observation!r} observations, the policy reads "
            f"{config.observation!r}: re-encode the games with --observation"
        )
    data = data.subset(np.isin(data.levels, levels))
    if len(data) == 0:
        raise ImitationDataError(f"the dataset has no decisions of levels {levels}")
    model = build_model(config, levels[0])
    if settings.init:
        init_weights(model, settings.init)
    rates = (settings.learning_rate, settings.soft_tau)
    steps = FitSettings(settings.epochs, settings.batch_size, *rates, seed=settings.seed)
    print(
        f"friday imitate: fitting a {config.hidden} policy on {len(data)} decisions of levels "
        f"{','.join(map(str, levels))}, {settings.epochs} epochs; writing {settings.out}",
        flush=True,
    )
    started = time.process_time()
    log = fit(model, data, steps, report=lambda row: print(_epoch_line(row), flush=True))
    save_policy(model, settings.out)
    record: dict[str, Any] = {
        "levels": list(levels),
        "settings": vars(steps),
        "config": config.to_dict(),
    }
    record.update(decisions=len(data), cpu_seconds=round(time.process_time() - started, 1))
    record["epochs"] = log
    write_log(settings.out.with_suffix(".fit.json"), record)
    print(f"policy: {settings.out} (CPU {format_duration(record['cpu_seconds'])})")
    return record


def _epoch_line(row: dict) -> str:
    return (
        f"epoch {row['epoch']}: train ce {row['train_ce']:.3f} agree "
        f"{row['train_agreement']:.3f} | held-out ce {row.get('held_out_ce', float('nan')):.3f} "
        f"agree {row.get('held_out_agreement', float('nan')):.3f} "
        f"value mse {row.get('held_out_value_mse', float('nan')):.3f} ({row['cpu_seconds']:.0f} s)"
    )


def fit_step(settings: Fit) -> int:
    policy = settings.policy
    fit_into_policy(policy, load_dataset(settings.dataset), policy.chosen_levels())
    return 0


def dagger_step(settings: Dagger) -> int:
    """Roll the student out, let the teacher label, refit on everything from the student."""
    from friday_agents.players.ppo import PPOAgent

    student, teacher = settings.student, settings.teacher
    levels = settings.policy.chosen_levels()
    make_agent(teacher)
    PPOAgent(model=str(student))  # a bad checkpoint fails before any game
    if not 0 < settings.label_share <= 1:
        raise ValueError(f"--label-share must be in (0, 1], got {settings.label_share}")
    with RunFolderLock() as lock:  # a second session would play and store the games twice
        lock.take_file(settings.games_file, "--games-file")
        _dagger_games(settings, levels)
        games = [g for p in [*settings.data, settings.games_file] for g in read_games(p)]
        policy = settings.policy
        if policy.init is None:
            policy = dataclasses.replace(policy, init=student)
        fit_into_policy(policy, encode_games(games, "flat", levels), levels)
    return 0


def _dagger_games(settings: Dagger, levels: tuple[int, ...]) -> None:
    """The student's games the games file still lacks, each labelled by the teacher and
    appended as it finishes (a last line cut short by a kill is removed first)."""
    from friday_agents.learning.imitation.fit import dagger_game

    student, teacher, play = settings.student, settings.teacher, settings.play
    done = done_games(settings.games_file)
    print(
        f"friday imitate dagger: {student} plays {play.games} games per level on levels "
        f"{','.join(map(str, levels))}, {teacher} labels them; appending to "
        f"{settings.games_file}, then fitting into {settings.policy.out}",
        flush=True,
    )
    jobs = [
        (str(student), teacher, level, i, settings.label_share)
        for i in play.indices
        for level in levels
        if (level, i) not in done
    ]
    with settings.games_file.open("a") as handle, _bar(len(jobs), not play.progress) as bar:
        lines = run_games(
            dagger_game, jobs, backend=play.backend, workers=play.workers, address=play.address
        )
        for line in lines:
            handle.write(json.dumps(line) + "\n")
            handle.flush()
            bar.update()


#: Each step of ``friday imitate`` by name, taking its settings; the command's exit status.
STEPS: dict[str, Callable[[Any], int]] = {
    "collect": collect_step,
    "encode": encode_step,
    "fit": fit_step,
    "dagger": dagger_step,
}
