"""One vocabulary for ``friday train`` and ``friday rl``, and for the fits (``friday imitate
fit``/``dagger``, ``friday value fit``) where they take the same settings: the settings carry one
flag, one file key and one help text; old names are refused naming the new one; run folders and
curves written before it still read (the committed study run resumes)."""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

import pytest
from friday_cli import REPO

from friday_agents.cli import build_parser, parse_args
from friday_agents.harness.curve import heldout_rows, read_curve
from friday_agents.learning.config import RENAMED, SHARED_HELP, shared_names
from friday_agents.learning.rl.config import RLConfig
from friday_agents.learning.sb3.config import TrainConfig

#: The study run a long session resumes (experiments/from-nothing/learn.sh): written before
#: the one vocabulary, so its config.json holds the old names.
STUDY_RUN = REPO / "experiments" / "from-nothing" / "results" / "a2-l1"


def _subparser(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices[name]


def _options(command: str, step: str | None = None) -> dict[str, argparse.Action]:
    parser = _subparser(build_parser(command), command)
    if step is not None:
        parser = _subparser(parser, step)
    return {
        flag: action
        for action in parser._actions
        for flag in action.option_strings
        if action.help != argparse.SUPPRESS
    }


def test_the_two_trainers_share_every_setting_under_one_name():
    assert shared_names(TrainConfig) == shared_names(RLConfig) == set(SHARED_HELP)
    train, rl = _options("train"), _options("rl")
    for name, text in SHARED_HELP.items():
        flag = "--" + name.replace("_", "-")
        assert flag in train and flag in rl, flag
        assert train[flag].dest == rl[flag].dest == name
        assert train[flag].help.startswith(text) and rl[flag].help.startswith(text), flag
    for flag in ("--resume", "--progress", "--no-progress"):
        assert flag in train and flag in rl, flag


@pytest.mark.parametrize("command", ["train", "rl"])
def test_old_names_are_refused_in_one_line_naming_the_new(command, capsys):
    fields = (TrainConfig if command == "train" else RLConfig).__dataclass_fields__
    refused = [old for old, new in RENAMED.items() if new in fields and old not in fields]
    assert refused
    for old in refused:
        flag = "--" + old.replace("_", "-")
        with pytest.raises(SystemExit) as stop:
            parse_args([command, flag, "1"])
        assert stop.value.code == 2
        err = capsys.readouterr().err.strip()
        assert err == (
            f"friday {command}: error: {flag} is gone: it is now --{RENAMED[old].replace('_', '-')}"
        )


#: The fits' settings that are the trainers' too (they take these flags, dests and help texts).
FIT_SHARED = {
    ("imitate", "fit"): ("learning_rate", "device", "hidden", "epochs", "seed", "out"),
    ("imitate", "dagger"): ("learning_rate", "device", "hidden", "epochs", "seed", "out"),
    ("value", "fit"): ("device", "hidden", "seed", "out"),
}


@pytest.mark.parametrize(("command", "step"), FIT_SHARED)
def test_the_fits_take_the_trainers_names(command, step):
    fit, rl = _options(command, step), _options("rl")
    for name in FIT_SHARED[command, step]:
        flag = "--" + name.replace("_", "-")
        assert flag in fit and fit[flag].dest == rl[flag].dest == name, flag
    for name in ("learning_rate", "device"):
        flag = "--" + name.replace("_", "-")
        if flag in fit:
            assert fit[flag].help.startswith(SHARED_HELP[name]), flag


@pytest.mark.parametrize("step", ["fit", "dagger"])
def test_imitate_refuses_old_names_in_one_line_naming_the_new(step, capsys):
    flags = {action.dest for action in _options("imitate", step).values()}
    refused = [old for old, new in RENAMED.items() if new in flags and old not in flags]
    assert {"lr", "net_arch"} <= set(refused)
    for old in refused:
        flag = "--" + old.replace("_", "-")
        with pytest.raises(SystemExit) as stop:
            parse_args(["imitate", step, flag, "1"])
        assert stop.value.code == 2
        new = "--" + RENAMED[old].replace("_", "-")
        assert capsys.readouterr().err.strip() == (
            f"friday imitate {step}: error: {flag} is gone: it is now {new}"
        )


def test_a_stored_run_configuration_of_the_old_names_is_migrated():
    stored = json.loads((STUDY_RUN / "config.json").read_text())
    assert {"clip_coef", "update_epochs", "num_minibatches"} <= set(stored)
    config = RLConfig.from_dict(RLConfig.migrate(stored))
    assert (config.clip, config.epochs, config.minibatches) == (
        stored["clip_coef"],
        stored["update_epochs"],
        stored["num_minibatches"],
    )


def test_the_committed_study_run_resumes_for_one_update(tmp_path):
    """A copy of the study's run folder (old config keys, its checkpoint and curve) resumes
    with ``friday rl --resume --out`` and adds one update to its curve."""
    pytest.importorskip("torch")
    from friday_agents.cli import main

    run = tmp_path / "a2-l1"
    shutil.copytree(STUDY_RUN, run)
    before = read_curve(run / "curve.jsonl")
    done = before[-1]["frames"]
    assert (
        main(["rl", "--resume", "--out", str(run), "--frames", str(done + 1), "--no-progress"]) == 0
    )
    after = read_curve(run / "curve.jsonl")
    assert after[:-1] == before and after[-1]["updates"] == before[-1]["updates"] + 1
    assert after[-1]["heldout_deals"] == json.loads((run / "config.json").read_text())["eval_deals"]


@pytest.mark.parametrize(
    "curve",
    [
        "experiments/ppo-training/results/ppo-level1-curve.csv",  # friday train, before
        "experiments/expert-iteration/results/curve.json",  # friday distill, before
        "experiments/rl/scratch50m-ppo-l1/curve.jsonl",  # friday rl
    ],
)
def test_committed_curves_read_in_the_one_format(curve):
    rows = heldout_rows(read_curve(REPO / curve))
    assert rows
    for row in rows:
        levels = row.get("heldout_by_level") or {"trained": row}
        assert all(0 <= level["heldout_win_rate"] <= 1 for level in levels.values())
        assert "frames" in row or "cpu_seconds" in row


def test_one_curve_reader_finds_a_run_folders_curve(tmp_path):
    assert read_curve(tmp_path) == []
    (tmp_path / "curve.jsonl").write_text('{"frames": 1, "heldout_win_rate": 0.5}\n')
    assert read_curve(Path(tmp_path)) == [{"frames": 1, "heldout_win_rate": 0.5}]
