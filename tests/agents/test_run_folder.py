"""The one run-folder module (`friday_agents.learning.run_folder`): every committed run folder
still loads, a newer layout is refused, the resume rule's one message, files replaced whole
under temporary names of their own, one reader of hidden sizes, and one session per folder
for ``friday rl`` and ``friday train`` (finding R3 of issue 45)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from friday_agents.cli import main
from friday_agents.harness import files
from friday_agents.harness.errors import BadInputError
from friday_agents.harness.run_lock import RunFolderLock
from friday_agents.learning.config import parse_hidden
from friday_agents.learning.run_folder import (
    VERSION,
    ResumeRule,
    RunFolderError,
    load_run_config,
    read_config,
    write_config,
)

REPO = Path(__file__).resolve().parents[2]


def _committed_configs() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "experiments/*config.json"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return [REPO / name for name in listed]


def _load(path: Path) -> object:
    """The configuration in ``path`` read by the command that wrote it."""
    data = json.loads(path.read_text())
    if "design" in data:
        from friday_agents.learning.explore.run import load_config

        return load_config(path.parent)
    if "self_share" in data:  # friday thirteen train's
        from friday_agents.thirteen.train_config import TrainConfig as Thirteen

        return load_run_config(path.parent, Thirteen, complete=True)
    if "first_prior" in data:
        from friday_agents.learning.distill.config import load_config as load_study

        return load_study(path)
    if "method" in data:
        from friday_agents.learning.rl.config import RLConfig

        return load_run_config(path.parent, RLConfig)
    from friday_agents.learning.sb3.config import TrainConfig

    return load_run_config(path.parent, TrainConfig)


@pytest.mark.parametrize(
    "path", _committed_configs(), ids=lambda p: str(p.relative_to(REPO / "experiments"))
)
def test_every_committed_run_configuration_still_loads(path):
    assert _load(path) is not None


def test_a_configuration_of_a_newer_layout_is_refused(tmp_path):
    write_config(tmp_path, {"level": 1})
    assert read_config(tmp_path) == ({"level": 1}, VERSION)
    (tmp_path / "config.json").write_text(json.dumps({"level": 1, "run_folder_version": 7}))
    with pytest.raises(RunFolderError, match="written by a newer release"):
        read_config(tmp_path)


def test_the_resume_rule_says_what_may_change_in_one_message(tmp_path):
    rule = ResumeRule("friday x --resume", ("out", "frames", "device"))
    rule.check_flags(["out", "frames"], tmp_path)
    with pytest.raises(RunFolderError) as refused:
        rule.check_flags(["out", "seed", "hidden"], tmp_path)
    assert str(refused.value) == (
        f"friday x --resume continues the run in {tmp_path} with its own settings; only "
        "--frames and --device may change, not --hidden, --seed"
    )
    stored, source = {"seed": 1, "frames": 10}, tmp_path / "config.json"
    rule.check_settings(stored, {"seed": 1, "frames": 20}, source)
    with pytest.raises(RunFolderError, match=r"other settings \(seed; see .*only frames and"):
        rule.check_settings(stored, {"seed": 2, "frames": 20}, source)
    with pytest.raises(RunFolderError, match="nothing may change, not --level"):
        ResumeRule("friday y", ("out",)).check_flags(["level"], tmp_path)


def test_a_file_is_replaced_whole_under_a_temporary_name_of_its_own(tmp_path):
    path = tmp_path / "summary.json"
    path.write_text("old\n")
    names = []

    def fail(temporary: Path) -> None:
        names.append(temporary.name)
        temporary.write_text("half")
        raise KeyboardInterrupt  # a kill mid-write

    for _ in range(2):
        with pytest.raises(KeyboardInterrupt):
            files.replace_atomically(path, fail)
    assert path.read_text() == "old\n" and sorted(p.name for p in tmp_path.iterdir()) == [
        "summary.json"
    ]
    assert len(set(names)) == 2 and all(name.endswith(".tmp.json") for name in names)
    files.write_text_atomically(path, "new\n")
    assert path.read_text() == "new\n" and len(list(tmp_path.iterdir())) == 1


@pytest.mark.parametrize(
    ("text", "limits", "sizes"),
    [("64,64", {}, (64, 64)), ("8", {}, (8,)), (" 16, 4", {}, (16, 4))],
)
def test_hidden_sizes_are_read_one_way(text, limits, sizes):
    assert parse_hidden(text, BadInputError, **limits) == sizes


@pytest.mark.parametrize(
    ("text", "limits", "words"),
    [
        ("64,x", {}, "got '64,x'"),
        ("", {}, "got ''"),
        ("64,", {}, "got '64,'"),
        ("0", {}, "at least 1"),
        ("64,64,64,64", {"most_layers": 3}, "at most 3 of them"),
        ("1024", {"largest": 512}, "each at most 512"),
    ],
)
def test_bad_hidden_sizes_are_refused_in_one_message(text, limits, words):
    with pytest.raises(BadInputError, match="hidden must be layer sizes of at least 1 like 64,64"):
        parse_hidden(text, BadInputError, **limits)
    with pytest.raises(BadInputError, match=words):
        parse_hidden(text, BadInputError, **limits)


RL_TINY = ["--num-envs", "2", "--num-steps", "32", "--hidden", "8", "--eval-deals", "2"]
TRAIN_TINY = ["--num-envs", "2", "--num-steps", "32", "--hidden", "8", "--eval-deals", "2"]


@pytest.mark.parametrize(
    "argv",
    [
        ["rl", "--frames", "64", *RL_TINY, "--no-progress"],
        ["rl", "--resume", "--no-progress"],
        ["train", "--frames", "64", *TRAIN_TINY, "--no-progress"],
        ["train", "--resume"],
    ],
    ids=["rl", "rl --resume", "train", "train --resume"],
)
def test_a_second_session_on_a_run_folder_is_refused(tmp_path, capsys, argv):
    """R3: ``friday rl`` on a folder in use doubled its curve; nothing is written now."""
    pytest.importorskip("torch")
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "notes.txt").write_text("the other session's\n")
    with RunFolderLock() as other:
        other.take(folder)
        status = main([*argv, "--out", str(folder)])
    err = capsys.readouterr().err
    assert status == 2 and len(err.strip().splitlines()) == 1, err
    assert "in use by another friday command" in err and str(folder) in err
    assert [p.name for p in folder.iterdir()] == ["notes.txt"]


def test_a_new_rl_run_holds_its_folder_and_bad_input_leaves_none(tmp_path, capsys, monkeypatch):
    pytest.importorskip("torch")
    from friday_agents.learning.rl import trainer

    held = []
    start = trainer.Trainer.run

    def checking(self):
        with RunFolderLock() as other, pytest.raises(BadInputError, match="in use"):
            other.take(Path(self.config.out))
        held.append(True)
        return start(self)

    monkeypatch.setattr(trainer.Trainer, "run", checking)
    out = tmp_path / "run"
    assert main(["rl", "--frames", "64", *RL_TINY, "--no-progress", "--out", str(out)]) == 0
    assert held == [True]
    saved = json.loads((out / "config.json").read_text())
    assert saved["run_folder_version"] == VERSION
    bad = tmp_path / "bad"
    assert main(["rl", "--init", str(tmp_path / "none.npz"), "--out", str(bad)]) == 2
    assert not bad.exists()


def test_friday_train_writes_its_checkpoints_and_final_model_whole(tmp_path, monkeypatch):
    """SB3 writes its zips in place: a kill mid-write left the newest checkpoint cut short,
    and every resume picked it. Each goes through a temporary name of its own now."""
    pytest.importorskip("sb3_contrib")
    names: list[str] = []
    make = files._new_temporary

    def remembered(path: Path) -> Path:
        made = make(path)
        names.append(made.name)
        return made

    monkeypatch.setattr(files, "_new_temporary", remembered)
    out = tmp_path / "run"
    argv = ["train", "--frames", "128", *TRAIN_TINY, "--checkpoint-every", "1"]
    assert main([*argv, "--no-progress", "--out", str(out)]) == 0
    assert any(name.startswith(".ppo_64_steps.zip.") for name in names), names
    assert any(name.startswith(".final.zip.") for name in names), names
    left = [p for p in out.rglob(".*") if p.is_file()]
    assert left == [] and (out / "checkpoints" / "ppo_128_steps.zip").is_file()
