"""The ``friday eval`` progress bar: an ETA weighted by what each agent's games cost, or
none until there is enough to estimate from (a count-based ETA is several times too long
while the slow search games come first)."""

from __future__ import annotations

from friday_agents.cli import main
from friday_agents.evaluation.progress import EtaEstimator
from friday_agents.evaluation.runner import EvalConfig


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _simulate(config: EvalConfig, cost: dict[str, float], checkpoints: list[int]):
    """One worker plays the tasks in order; at each checkpoint (games finished), the
    estimator's ETA and the count-based one, against the true time left."""
    tasks = config.tasks()
    clock = Clock()
    eta = EtaEstimator(tasks, [], clock=clock)
    total = sum(cost[t.agent] for t in tasks)
    seen = {}
    for done, task in enumerate(tasks, 1):
        clock.now += cost[task.agent]
        eta.finished({"agent": task.agent, "level": task.level, "seconds": cost[task.agent]})
        if done in checkpoints:
            by_count = clock.now / done * (len(tasks) - done)
            seen[done] = (eta.seconds_left(), by_count, total - clock.now)
    return seen


def test_the_eta_weights_games_by_their_agent_and_waits_for_enough_games():
    # the set-up command's shape: slow search and guided games only among the first deals
    games = {"random": 100, "heuristic": 100, "search": 25, "guided": 25}
    config = EvalConfig(tuple(games), (1, 2, 3, 4), games, search_sims=8)
    cost = {"random": 0.001, "heuristic": 0.004, "search": 1.0, "guided": 0.6}
    seen = _simulate(config, cost, [4, 40, 100, 300])
    assert seen[4][0] is None  # not every agent and level has finished a game yet
    for done in (40, 100, 300):
        estimate, _, truth = seen[done]
        assert abs(estimate - truth) <= 0.05 * truth + 0.01, (done, estimate, truth)
    assert seen[40][1] > 2 * seen[40][2]  # what a count-based bar showed: far too long


def test_the_eval_bar_shows_the_weighted_eta_not_tqdms(tmp_path, capsys):
    out = tmp_path / "run"
    options = ["--agents", "random,heuristic", "--levels", "1", "--games", "6", "--workers", "1"]
    assert main(["eval", "--out", str(out), "--progress", *options]) == 0
    bar = capsys.readouterr().err
    assert "friday eval" in bar and "ETA estimating" in bar and "ETA " in bar
    assert "<" not in bar  # tqdm's own count-based "remaining" field is not shown
