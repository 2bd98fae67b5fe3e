"""friday_agents.harness.parallel.run_games, the interface every collector plays through."""

from __future__ import annotations

import pytest

from friday_agents.harness.parallel import BackendError, run_games
from friday_agents.learning.imitation.data import parallel_map

_SETUP: list[int] = []


def square(x: int) -> int:
    return x * x + sum(_SETUP)


def setup(offset: int) -> None:
    _SETUP.append(offset)


def fail_on_three(x: int) -> int:
    if x == 3:
        raise ArithmeticError("game 3 broke")
    return x


@pytest.mark.parametrize("workers", [1, 2])
def test_every_job_once_with_the_worker_setup(workers):
    _SETUP.clear()
    got = run_games(square, range(20), workers=workers, setup=setup, setup_args=(1000,))
    assert sorted(got) == [x * x + 1000 for x in range(20)]


def test_parallel_map_keeps_the_job_order():
    jobs = list(range(30, 0, -1))
    assert list(parallel_map(square, jobs, workers=2)) == [x * x for x in jobs]


@pytest.mark.parametrize("workers", [1, 2])
def test_a_failing_job_raises_its_own_error(workers):
    with pytest.raises(ArithmeticError, match="game 3 broke"):
        list(run_games(fail_on_three, range(6), workers=workers))


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"backend": "dask"}, "unknown backend 'dask'"),
        ({"workers": 0}, "at least 1"),
        ({"address": "auto"}, "for the ray backend"),
    ],
)
def test_bad_options_are_refused_before_anything_runs(options, message):
    with pytest.raises(BackendError, match=message):
        run_games(square, [1], **options)
