"""``friday thirteen``: the second game, Reiner Knizia's *Friday the 13th* (3-6 players).

Steps:

  friday thirteen eval --candidate heuristic --opponents random --players 3 4 5 6 --deals 1000
  friday thirteen train --out runs/thirteen --cpu-minutes 20 [--resume]
  friday thirteen play --players 4 --seat 0 --opponents heuristic --seed 7

``eval`` seats the candidate at seat ``deal % players`` of each fixed deal (deal i is
Game13.new(players, first_deal + i)) with the opponent agent at every other seat, plays the
same deals again with the opponent in that seat (the baseline), and reports win rate (ties
split) and mean bad luck, overall and by seat, with 95 % bootstrap intervals and the paired
difference to the baseline. ``train`` is self-play PPO (torch), one process, resumable, and
stops after the given CPU time. ``play`` is a game in the terminal against agents.
Agents: random, heuristic, search[:worlds=N:rollout=heuristic|safe], net[:model=FILE].

Exit status: 0 done, 2 bad input, 130 interrupted (train: its checkpoint is kept).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from friday_agents.cli.arguments import add_progress, add_step, add_steps
from friday_agents.harness.errors import BadInputError, require
from friday_agents.harness.files import write_text_atomically


def add_arguments(parser: argparse.ArgumentParser) -> None:
    steps = add_steps(parser, __doc__)
    _add_eval(steps)
    _add_train(steps)
    _add_play(steps)


def _add_eval(steps) -> None:
    sub = add_step(
        steps,
        "eval",
        "a candidate agent against fixed opponents on fixed deals, paired",
        "Win rate (ties split) and mean bad luck of a candidate agent, overall and by seat, "
        "against fixed opponents on fixed deals, paired with the opponent agent in the "
        "candidate's seat on the same deals.",
    )
    sub.add_argument("--candidate", default="heuristic", help="the agent (default heuristic)")
    sub.add_argument(
        "--opponents", default="random", help="the other seats' agent (default random)"
    )
    sub.add_argument(
        "--players", type=int, nargs="+", default=[3, 4, 5, 6], help="table sizes (default 3-6)"
    )
    sub.add_argument("--deals", type=int, default=1000, help="deals per table size (default 1000)")
    sub.add_argument("--first-deal", type=int, default=0, help="first deal seed (default 0)")
    sub.add_argument("--out", type=Path, help="also write the report as JSON here")
    add_progress(sub)


#: friday thirteen train's options after --out: (flag, type, default, help).
TRAIN_OPTIONS = (
    ("--cpu-minutes", float, 20.0, "CPU budget in minutes (default 20)"),
    ("--players", int, (4,), "table sizes (default 4)"),
    ("--lr", float, 3e-4, "Adam's step size (default 3e-4)"),
    ("--self-share", float, 0.5, "chance a seat is the network, else the heuristic (0.5)"),
    ("--imitate-moves", int, 150_000,
     "warm start: imitate the heuristic on this many moves (150000; 0: from random weights)"),
    ("--imitate-epochs", int, 15, "passes over the imitation moves (default 15)"),
    ("--win-weight", float, 1.0, "the weight of the win share in the reward (default 1)"),
    ("--games", int, 64, "games played side by side (default 64)"),
    ("--steps-per-update", int, 8192, "network moves per PPO update (default 8192)"),
    ("--eval-every", int, 10, "PPO updates between validations (default 10)"),
    ("--eval-deals", int, 200, "validation deals (default 200)"),
    ("--seed", int, 0, "the run's seed (default 0)"),
)  # fmt: skip


def _add_train(steps) -> None:
    sub = add_step(
        steps,
        "train",
        "self-play PPO (torch), resumable, stops after a CPU budget",
        "Self-play PPO for Friday the 13th: the network plays itself and the heuristic; "
        "config.json, curve.csv, best.npz, last.npz and checkpoint.pt go to --out.",
    )
    sub.add_argument("--out", type=Path, required=True, help="the run folder")
    sub.add_argument(
        "--resume",
        action="store_true",
        help="continue the run's checkpoint with its own settings (only --cpu-minutes may change)",
    )
    for flag, kind, default, help_text in TRAIN_OPTIONS:
        nargs = "+" if isinstance(default, tuple) else None
        # None unless given: --resume must know which settings were named
        sub.add_argument(flag, type=kind, default=None, nargs=nargs, help=help_text)
    sub.set_defaults(out_is_folder=True)
    add_progress(sub)


def _add_play(steps) -> None:
    sub = add_step(steps, "play", "play a game in the terminal", "Play Friday the 13th.")
    sub.add_argument("--players", type=int, default=4, help="table size 3-6 (default 4)")
    sub.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    sub.add_argument("--opponents", default="heuristic", help="the others' agent")
    sub.add_argument("--seed", type=int, default=0, help="the deals' seed (default 0)")


def run(args: argparse.Namespace) -> int:
    return {"eval": run_eval, "train": run_train, "play": run_play}[args.step](args)


def _check_players(players: list[int]) -> None:
    bad = [n for n in players if not 3 <= n <= 6]
    if bad:
        raise BadInputError(f"--players: Friday the 13th is for 3 to 6 players, got {bad[0]}")


def run_eval(args: argparse.Namespace) -> int:
    from friday_agents.thirteen.evaluation import compare
    from friday_agents.thirteen.players import make_agent
    from friday_agents.thirteen.report import format_table

    _check_players(args.players)
    if args.deals < 1 or args.first_deal < 0:
        raise BadInputError("--deals must be at least 1 and --first-deal at least 0")
    make_agent(args.candidate), make_agent(args.opponents)  # refuse bad specs before playing
    reports = []
    bar = _bar(2 * args.deals * len(args.players), args.progress)
    for players in args.players:
        deals = range(args.first_deal, args.first_deal + args.deals)
        reports.append(compare(args.candidate, args.opponents, players, deals, bar.update))
    bar.close()
    print(format_table(reports))
    if args.out is not None:
        write_text_atomically(args.out, json.dumps({"reports": reports}, indent=2) + "\n")
        print(f"report written to {args.out}")
    return 0


def _bar(total: int, show: bool):
    from tqdm import tqdm

    return tqdm(total=total, disable=not show, unit="game", file=sys.stderr)


def run_train(args: argparse.Namespace) -> int:
    from friday_agents.learning.run_folder import held, taken

    require("friday thirteen train", "torch", *(("tqdm",) if args.progress else ()))
    with held(args.out) as lock:  # before the run's configuration is read
        config = _train_config(args)
        from friday_agents.thirteen.selfplay import Trainer

        with taken(lock, args.out):
            trainer = Trainer(args.out, config, resume=args.resume)
        return _train(args, config, trainer)


def _train_config(args: argparse.Namespace):
    """The run's settings: the flags given over the defaults for a new run, the run's own
    for ``--resume`` (`friday_agents.thirteen.train_config.RESUME` says what may change)."""
    from friday_agents.thirteen import train_config

    defaults: dict[str, Any] = {_setting(flag): default for flag, _, default, _ in TRAIN_OPTIONS}
    given = {name: getattr(args, name) for name in defaults if getattr(args, name) is not None}
    if "players" in given:
        _check_players(given["players"])
        given["players"] = tuple(given["players"])
    if args.resume:
        return train_config.resumed_run(args.out, given)
    values = defaults | given
    values["minibatch"] = min(1024, values["steps_per_update"])
    return train_config.new_run(args.out, train_config.TrainConfig(**values))


def _setting(flag: str) -> str:
    """The setting a flag of `TRAIN_OPTIONS` names (``--cpu-minutes``: ``cpu_minutes``)."""
    return flag.removeprefix("--").replace("-", "_")


def _train(args: argparse.Namespace, config, trainer) -> int:
    bar = _bar(round(60 * config.cpu_minutes), args.progress)
    bar.update(round(trainer.cpu_seconds))

    def progress(cpu: float, budget: float, row: dict) -> None:
        bar.update(round(cpu) - bar.n)
        if row:
            bar.set_postfix(val_win=row["val_win_rate"], bad_luck=row["val_bad_luck"])

    last = trainer.run(progress)
    bar.close()
    print(f"{trainer.updates} updates, {trainer.cpu_seconds / 60:.1f} CPU-minutes; last: {last}")
    print(f"best validation win rate {trainer.best} %: {args.out / 'best.npz'}")
    return 0


def run_play(args: argparse.Namespace) -> int:
    from friday_agents.thirteen.play import play_in_terminal

    _check_players([args.players])
    if not 0 <= args.seat < args.players:
        raise BadInputError(f"--seat must be 0-{args.players - 1}, got {args.seat}")
    return play_in_terminal(args.players, args.seat, args.opponents, args.seed)
