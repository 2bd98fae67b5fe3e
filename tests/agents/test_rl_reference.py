"""``friday rl`` learns what it learned before: tiny fixed-seed runs give the curves and weights
recorded from the trainer before it was split into modules (``tests/rl_reference.py`` says how
they were made), and a run folder written by that trainer resumes to the same end.

Counts, phases and held-out numbers must match exactly; losses and weights to float rounding
(``rel=1e-5, abs=1e-6``): another CPU's vector units may round a sum differently, but a change
of the learning moves them by far more."""

from __future__ import annotations

import json
import shutil

import pytest

pytest.importorskip("torch")

import rl_reference

from friday_agents.cli import main as friday_main

TOLERANCE = {"rel": 1e-5, "abs": 1e-6}


def assert_close(got: object, want: object, where: str = "") -> None:
    """``got`` equals ``want``: the same keys, lists and strings, ints and None exactly, floats
    within `TOLERANCE`."""
    if isinstance(want, dict):
        assert isinstance(got, dict) and sorted(got) == sorted(want), where
        for key in want:
            assert_close(got[key], want[key], f"{where}.{key}")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), where
        for index, (g, w) in enumerate(zip(got, want, strict=True)):
            assert_close(g, w, f"{where}[{index}]")
    elif isinstance(want, float):
        assert got == pytest.approx(want, **TOLERANCE), where
    else:
        assert got == want and type(got) is type(want), where


@pytest.fixture(scope="module")
def reference() -> dict:
    return json.loads(rl_reference.REFERENCE_FILE.read_text())


@pytest.mark.parametrize("case", sorted(rl_reference.CASES))
def test_a_fixed_seed_run_learns_what_it_learned_before(case, reference, tmp_path):
    assert_close(rl_reference.run_case(case, tmp_path), reference[case], case)


def test_the_dense_rows_learn_what_they_learned_before(reference, tmp_path):
    assert_close(rl_reference.run_case("ppo", tmp_path, dense=True), reference["ppo_dense"])


def test_a_run_folder_of_the_trainer_before_the_split_resumes_to_the_same_end(
    reference, tmp_path, capsys
):
    """``friday rl --resume`` on the committed run folder (2 of 4 updates, written by the
    trainer before the split) ends where the uninterrupted run of that trainer ended."""
    run = tmp_path / "run"
    shutil.copytree(rl_reference.PRE_SPLIT, run)
    argv = ["rl", "--resume", "--out", str(run), "--frames", "512", "--no-progress"]
    assert friday_main(argv) == 0, capsys.readouterr().err
    resumed = {
        "curve": rl_reference.without_times(rl_reference.curve_of(run)),
        "weights": rl_reference.weights_summary(run / "policy.npz"),
    }
    assert_close(resumed, reference["pre_split"], "pre_split")
