"""The steps of ``friday imitate`` (see `friday_agents.cli.imitate` for the command
line)."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from friday_agents.harness.parallel import run_games
from friday_agents.harness.progress import format_duration
from friday_agents.learning.imitation.data import (
    ImitationDataError,
    collect,
    encode_games,
    load_dataset,
    read_games,
)
from friday_agents.learning.sb3.config import TrainConfig, load_config_file
from friday_agents.players.registry import make_agent
from friday_env.levels import parse_levels


def write_log(path: Path, record: dict) -> None:
    """Write a fit log (JSON) with the time it was written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    record["written"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    path.write_text(json.dumps(record, indent=2) + "\n")


def _bar(total: int, disabled: bool):
    from tqdm import tqdm

    return tqdm(total=total, unit="game", disable=disabled)


def collect_step(args: argparse.Namespace) -> int:
    levels = parse_levels(args.levels)
    indices = range(args.first_index, args.first_index + args.games)
    print(
        f"friday imitate collect: {args.teacher} plays {args.games} games per level on levels "
        f"{','.join(map(str, levels))} (deals {indices.start}-{indices.stop - 1}); appending to "
        f"{args.out}",
        flush=True,
    )
    with _bar(len(levels) * len(indices), args.no_progress) as bar:
        tick = lambda _: bar.update()  # noqa: E731
        played = collect(
            args.teacher, levels, indices, args.out, args.workers, tick, args.backend, args.address
        )
    games = [g for g in read_games(args.out) if g["level"] in levels and g["index"] in indices]
    seconds = sum(g.get("seconds", 0.0) for g in games)
    print(
        f"{played} games played, {len(games)} in {args.out}; teacher CPU {format_duration(seconds)}"
    )
    return 0


def encode_step(args: argparse.Namespace) -> int:
    games = [line for path in args.games_files for line in read_games(path)]
    if not games:
        raise ImitationDataError(f"no games in {', '.join(map(str, args.games_files))}")
    started = time.process_time()
    data = encode_games(games, args.observation, parse_levels(args.levels))
    data.save(args.out)
    print(
        f"{len(data)} decisions from {len(games)} games -> {args.out} "
        f"(CPU {format_duration(time.process_time() - started)})"
    )
    return 0


def _config(args: argparse.Namespace, level: int) -> TrainConfig:
    values = load_config_file(args.config) if args.config else {}
    values.update(level=level, hidden=args.hidden, seed=args.seed, device=args.device)
    return TrainConfig.from_dict(values).validate()


def fit_into_policy(args: argparse.Namespace, data, levels: tuple[int, ...]) -> dict:
    """Build (or load with ``--init``) the policy, fit it to ``data`` and save it."""
    import torch

    from friday_agents.learning.imitation.fit import FitSettings, build_model, fit, save_policy
    from friday_agents.learning.sb3.train import init_weights

    torch.set_num_threads(1)
    config = _config(args, levels[0])
    if data.observation != config.observation:
        raise ImitationDataError(
            f"dataset holds {data.observation!r} observations, the policy reads "
            f"{config.observation!r}: re-encode the games with --observation"
        )
    data = data.subset(np.isin(data.levels, levels))
    if len(data) == 0:
        raise ImitationDataError(f"the dataset has no decisions of levels {levels}")
    model = build_model(config, levels[0])
    if args.init:
        init_weights(model, args.init)
    settings = FitSettings(
        args.epochs, args.batch_size, args.learning_rate, args.soft_tau, seed=args.seed
    )
    print(
        f"friday imitate: fitting a {config.hidden} policy on {len(data)} decisions of levels "
        f"{','.join(map(str, levels))}, {args.epochs} epochs; writing {args.out}",
        flush=True,
    )
    started = time.process_time()
    log = fit(model, data, settings, report=lambda row: print(_epoch_line(row), flush=True))
    save_policy(model, args.out)
    record = {"levels": list(levels), "settings": vars(settings), "config": config.to_dict()}
    record.update(decisions=len(data), cpu_seconds=round(time.process_time() - started, 1))
    record["epochs"] = log
    write_log(args.out.with_suffix(".fit.json"), record)
    print(f"policy: {args.out} (CPU {format_duration(record['cpu_seconds'])})")
    return record


def _epoch_line(row: dict) -> str:
    return (
        f"epoch {row['epoch']}: train ce {row['train_ce']:.3f} agree "
        f"{row['train_agreement']:.3f} | held-out ce {row.get('held_out_ce', float('nan')):.3f} "
        f"agree {row.get('held_out_agreement', float('nan')):.3f} "
        f"value mse {row.get('held_out_value_mse', float('nan')):.3f} ({row['cpu_seconds']:.0f} s)"
    )


def fit_step(args: argparse.Namespace) -> int:
    levels = parse_levels(args.levels)
    fit_into_policy(args, load_dataset(args.dataset), levels)
    return 0


def dagger_step(args: argparse.Namespace) -> int:
    """Roll the student out, let the teacher label, refit on everything from the student."""
    from friday_agents.learning.imitation.fit import dagger_game
    from friday_agents.players.ppo import PPOAgent

    levels = (args.level,) if args.level else parse_levels(args.levels)
    make_agent(args.teacher)
    PPOAgent(model=str(args.student))  # a bad checkpoint fails before any game
    if not 0 < args.label_share <= 1:
        raise ValueError(f"--label-share must be in (0, 1], got {args.label_share}")
    done = {(g["level"], g["index"]) for g in read_games(args.games_file, missing_ok=True)}
    first = args.first_index
    print(
        f"friday imitate dagger: {args.student} plays {args.games} games per level on levels "
        f"{','.join(map(str, levels))}, {args.teacher} labels them; appending to "
        f"{args.games_file}, then fitting into {args.out}",
        flush=True,
    )
    jobs = [
        (str(args.student), args.teacher, level, i, args.label_share)
        for i in range(first, first + args.games)
        for level in levels
        if (level, i) not in done
    ]
    args.games_file.parent.mkdir(parents=True, exist_ok=True)
    with args.games_file.open("a") as handle, _bar(len(jobs), args.no_progress) as bar:
        lines = run_games(
            dagger_game, jobs, backend=args.backend, workers=args.workers, address=args.address
        )
        for line in lines:
            handle.write(json.dumps(line) + "\n")
            bar.update()
    games = [g for p in [*args.data, args.games_file] for g in read_games(p)]
    if args.init is None:
        args.init = args.student
    fit_into_policy(args, encode_games(games, "flat", levels), levels)
    return 0


STEPS = {"collect": collect_step, "encode": encode_step, "fit": fit_step, "dagger": dagger_step}
