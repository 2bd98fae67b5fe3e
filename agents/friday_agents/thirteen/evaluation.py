"""``friday thirteen eval``: a candidate agent against fixed opponents, paired on fixed deals.

Deal ``i`` is ``Game13.new(players, first_deal + i)`` (its four rounds fixed by the seed
alone). The candidate sits at seat ``i % players`` (every seat equally often) and the other
seats are the opponent agent. The same deal is played again with the opponent in the
candidate's seat too (the baseline: a table of opponents only), so the candidate's win share
and bad luck are compared with the opponent's own in the same seat on the same cards: a
paired difference, bootstrapped like the solo game's paired comparisons. Win share counts a
win 1 and a tie for fewest bad luck points ``1/k`` (ruling T5), so it is a mean with a
bootstrap interval rather than a Wilson one.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from friday_agents.harness.stats import bootstrap_interval, paired_difference_interval
from friday_agents.thirteen.players import Agent13, make_agent
from friday_env.thirteen.game import Game13

#: The trainer's validation deals start here, far from the evaluation's (0 on).
VALIDATION_FIRST_DEAL = 1_000_000


def play_game(agents: Sequence[Agent13], seed: int) -> Game13:
    """One whole game on deal ``seed``, ``agents[p]`` at seat ``p``; each agent is reseeded
    from the deal and its seat, so a game replays exactly."""
    game = Game13.new(len(agents), seed)
    for seat, agent in enumerate(agents):
        agent.reset(seed * 8 + seat)
    while not game.done:
        game.apply(agents[game.current_player].act(game))
    return game


@dataclass
class SeatResults:
    """Per deal: the seat played, and that seat's win share and total bad luck."""

    seats: np.ndarray
    win_shares: np.ndarray
    bad_luck: np.ndarray


def play_seat(
    candidate: Agent13,
    opponent: Agent13,
    players: int,
    deals: Sequence[int],
    tick: Callable[[], None] = lambda: None,
) -> SeatResults:
    """The candidate at seat ``deal % players`` of each deal, ``opponent`` at the others."""
    seats, shares, bad = [], [], []
    for deal in deals:
        seat = deal % players
        table = [candidate if p == seat else opponent for p in range(players)]
        game = play_game(table, deal)
        seats.append(seat)
        shares.append(game.win_shares()[seat])
        bad.append(game.scores[seat])
        tick()
    return SeatResults(np.array(seats), np.array(shares), np.array(bad, dtype=float))


def summary(results: SeatResults, players: int) -> dict:
    """Win rate (ties split) and mean bad luck with 95 % bootstrap intervals, overall and by
    seat."""
    low, high = bootstrap_interval(results.win_shares)
    bad_low, bad_high = bootstrap_interval(results.bad_luck)
    by_seat = {}
    for seat in range(players):
        chosen = results.seats == seat
        by_seat[str(seat)] = {
            "games": int(chosen.sum()),
            "win_rate": round(100 * float(results.win_shares[chosen].mean()), 1),
            "bad_luck": round(float(results.bad_luck[chosen].mean()), 2),
        }
    return {
        "games": int(results.seats.size),
        "win_rate": round(100 * float(results.win_shares.mean()), 1),
        "win_rate_interval": [round(100 * low, 1), round(100 * high, 1)],
        "bad_luck": round(float(results.bad_luck.mean()), 2),
        "bad_luck_interval": [round(bad_low, 2), round(bad_high, 2)],
        "by_seat": by_seat,
    }


def paired(candidate: SeatResults, baseline: SeatResults) -> dict:
    """Candidate minus baseline on the same deals and seats: win-rate points and bad luck,
    with 95 % bootstrap intervals."""
    win, win_low, win_high = paired_difference_interval(baseline.win_shares, candidate.win_shares)
    bad, bad_low, bad_high = paired_difference_interval(baseline.bad_luck, candidate.bad_luck)
    return {
        "win_rate_points": round(100 * win, 1),
        "win_rate_points_interval": [round(100 * win_low, 1), round(100 * win_high, 1)],
        "bad_luck": round(bad, 2),
        "bad_luck_interval": [round(bad_low, 2), round(bad_high, 2)],
    }


def models_of(agents: Sequence[Agent13]) -> dict[str, dict]:
    """The model file each agent playing one loaded (by spec): its path as given (relative
    stays relative) and SHA-256, so a report says which network played."""
    models = {}
    for agent in agents:
        path = getattr(agent, "model_path", None)
        if path is not None:
            digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
            models[agent.name] = {"path": _relative(Path(path)), "sha256": digest}
    return models


def _relative(path: Path) -> str:
    """``path`` relative to the working folder when it lies below it, else its name alone
    (a report never holds an absolute path)."""
    if not path.is_absolute():
        return path.as_posix()
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.name


def compare(
    candidate_spec: str,
    opponent_spec: str,
    players: int,
    deals: Sequence[int],
    tick: Callable[[], None] = lambda: None,
) -> dict:
    """The candidate and the baseline (the opponent in the candidate's seat) on ``deals``,
    and their paired difference."""
    opponent, candidate = make_agent(opponent_spec), make_agent(candidate_spec)
    cand = play_seat(candidate, opponent, players, deals, tick)
    base = play_seat(make_agent(opponent_spec), opponent, players, deals, tick)
    return {
        "candidate": candidate_spec,
        "opponents": opponent_spec,
        "models": models_of([candidate, opponent]),
        "players": players,
        "first_deal": int(deals[0]),
        "deals": len(deals),
        "result": summary(cand, players),
        "baseline": summary(base, players),
        "paired": paired(cand, base),
    }
