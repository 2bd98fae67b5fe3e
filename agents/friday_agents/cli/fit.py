"""``friday fit``: the search's models fitted on games files (numpy; the networks with torch).

Steps:

  friday fit linear-value --games 5000 --out search_value.json
  friday fit linear-value --data GAMES.jsonl.gz --features cards --out guided_value_cards.json
  friday fit value-net --data GAMES.jsonl.gz --out value_net.npz --report value_net_fit.json
  friday fit policy-net --data GAMES.jsonl --out guided_prior.npz --report policy_net_fit.json

``linear-value`` fits one ridge regression per level and step (the ``search`` agent's value,
friday_agents.learning.fitting.value_fit), on heuristic games it plays on training deals or on
the recorded games of --data. ``value-net`` fits the value network on the search's own games
(friday_agents.learning.fitting.value_net_fit), ``policy-net`` the policy prior on the action
values the search recorded (friday_agents.learning.fitting.policy_net_fit; ``friday imitate
collect --teacher search`` writes such games). Games on evaluation or validation deals are
refused. Each fit is deterministic: the same command writes the same file. The search's leaf
network of the probability of winning is ``friday value fit``.

Exit status: 0 done, 2 bad input (a missing games file, an evaluation deal, bad settings).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from friday_agents.cli.arguments import add_network_fit, add_step, add_steps, add_workers
from friday_agents.harness.errors import BadInputError

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

#: A fit's settings dataclass.
Settings = TypeVar("Settings", bound="DataclassInstance")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    steps = add_steps(parser, __doc__)
    _add_linear_value(steps)
    _add_value_net(steps)
    _add_policy_net(steps)


def _add_linear_value(steps: argparse._SubParsersAction) -> None:
    from friday_agents.players.networks.linear_value import FEATURE_SETS, WEIGHTS_FILE

    linear = add_step(
        steps,
        "linear-value",
        "the search's linear value: one ridge regression per level and step",
        "Fit the search's linear value (the final score plus a win bonus, from a turn start's "
        "public features) on heuristic games on training deals, or on recorded games; prints "
        "each level and step's R².",
    )
    linear.add_argument("--games", type=int, default=3000, help="heuristic games per level (3000)")
    linear.add_argument(
        "--data",
        type=Path,
        nargs="+",
        help="fit on the recorded games of these files (one JSON line each, e.g. the search "
        "agent's) instead of playing --games heuristic games",
    )
    linear.add_argument(
        "--ridge", type=float, default=1e-3, help="L2 penalty per state on standardized features"
    )
    _add_win_bonus(linear)
    linear.add_argument(
        "--min-states",
        type=int,
        help="fewest states of a level and step to fit on (default: twice the features)",
    )
    linear.add_argument(
        "--features",
        choices=sorted(FEATURE_SETS),
        default="basic",
        help="basic: the public summary (default); cards: it, plus a count per card type "
        "Robinson holds and the pirates he faces",
    )
    add_workers(linear)
    linear.add_argument(
        "--out",
        type=Path,
        required=True,
        help=f"where the weights go (the search agent loads {WEIGHTS_FILE.name} beside its "
        "value module: agents/friday_agents/models/search_value.json in a checkout)",
    )


def _add_win_bonus(parser: argparse.ArgumentParser) -> None:
    from friday_agents.learning.fitting.value_fit import DEFAULT_WIN_BONUS

    parser.add_argument(
        "--win-bonus",
        type=float,
        default=DEFAULT_WIN_BONUS,
        help=f"added to a won game's final score in the target (default {DEFAULT_WIN_BONUS:g})",
    )


def _add_value_net(steps: argparse._SubParsersAction) -> None:
    net = add_step(
        steps,
        "value-net",
        "the search's value network, on its own games",
        "Fit the value network on search games (every turn start, the final score plus a win "
        "bonus as target); the report compares its held-out error with the shipped linear "
        "model's, level by level. Needs torch (the rl extra).",
    )
    net.add_argument("--data", type=Path, required=True, help="search games, one per line")
    add_network_fit(net, (64, 64), report="write the held-out errors here too (JSON)")
    net.add_argument("--epochs", type=int, default=40, help="training epochs (default 40)")
    net.add_argument("--holdout", type=int, default=10, help="hold out 1 deal in N (default 10)")
    _add_win_bonus(net)


def _add_policy_net(steps: argparse._SubParsersAction) -> None:
    prior = add_step(
        steps,
        "policy-net",
        "the search's policy prior, on the action values it recorded",
        "Fit the policy prior on search games with their action values (soft targets "
        "softmax(q / tau) over the tried actions), or export a MaskablePPO actor; the report "
        "gives, on held-out deals, how often the network's top actions keep the search's "
        "choice. Needs torch (the rl extra).",
    )
    prior.add_argument("--data", type=Path, nargs="+", required=True, help="search games files")
    add_network_fit(prior, (128, 128), report="write the held-out report here (JSON)")
    prior.add_argument("--from-ppo", type=Path, help="export this MaskablePPO actor instead")
    prior.add_argument("--observation", default="flat", help="observation encoder (flat)")
    prior.add_argument("--epochs", type=int, default=6, help="training epochs (default 6)")
    prior.add_argument("--tau", type=float, default=2.0, help="soft-target temperature (2)")
    prior.add_argument(
        "--holdout",
        type=_deal_range,
        default=(520, 649),
        metavar="FIRST-LAST",
        help="deal indices held out (default 520-649)",
    )


def _deal_range(text: str) -> tuple[int, int]:
    first, sep, last = text.partition("-")
    if not sep or not first.isdigit() or not last.isdigit() or int(first) > int(last):
        raise argparse.ArgumentTypeError(f"must be FIRST-LAST deal indices, got {text!r}")
    return int(first), int(last)


def run(args: argparse.Namespace) -> int:
    from friday_agents.harness.games_file import GamesFileError

    try:
        _FITS[args.step](args)
    except GamesFileError as err:  # a games file that is missing or holds no games
        raise BadInputError(str(err)) from None
    return 0


def _settings(settings: type[Settings], args: argparse.Namespace) -> Settings:
    """``settings`` (a fit's dataclass) from the flags of the same names; lists of files
    become tuples."""
    values = {name: getattr(args, name) for name in settings.__dataclass_fields__}
    if isinstance(values.get("data"), list):
        values["data"] = tuple(values["data"])
    return settings(**values)


def _linear_value(args: argparse.Namespace) -> None:
    from friday_agents.learning.fitting.value_fit import LinearValueFit, fit_linear_value

    fit_linear_value(_settings(LinearValueFit, args))


def _value_net(args: argparse.Namespace) -> None:
    from friday_agents.learning.fitting.value_net_fit import ValueNetFit, fit_value_network

    fit_value_network(_settings(ValueNetFit, args))


def _policy_net(args: argparse.Namespace) -> None:
    from friday_agents.learning.fitting.policy_net_fit import PolicyNetFit, fit_policy_network

    fit_policy_network(_settings(PolicyNetFit, args))


_FITS = {"linear-value": _linear_value, "value-net": _value_net, "policy-net": _policy_net}
