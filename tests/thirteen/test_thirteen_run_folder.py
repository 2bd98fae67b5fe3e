"""``friday thirteen train``'s run folder goes through `friday_agents.learning.run_folder` like
every learning command's: one session per folder, the resume rule as data with its one
message, config.json read back checked (the committed one of before the version key too), a
damaged checkpoint refused in one line, every file replaced whole."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from friday_agents.cli import main
from friday_agents.harness import files
from friday_agents.harness.run_lock import RunFolderLock
from friday_agents.learning.run_folder import VERSION, load_run_config, write_config
from friday_agents.thirteen.train_config import TrainConfig

REPO = Path(__file__).resolve().parents[2]
TINY = ["--eval-every", "1", "--eval-deals", "4", "--games", "4", "--steps-per-update", "200",
        "--imitate-moves", "300", "--imitate-epochs", "1", "--no-progress"]  # fmt: skip


def _stored_run(folder: Path, **settings: object) -> TrainConfig:
    """A run folder as a started run leaves it (its config.json), without training."""
    config = TrainConfig(games=4, steps_per_update=200, eval_deals=4, **settings)  # type: ignore[arg-type]
    write_config(folder, config.to_dict())
    return config


def _one_line_error(capsys) -> str:
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    return err


def test_the_committed_run_configuration_loads_through_the_one_reader():
    config = load_run_config(REPO / "experiments" / "thirteen", TrainConfig, complete=True)
    assert config.players == (4,) and config.imitate_moves == 150_000 and config.win_weight == 4.0


def test_resume_refuses_a_setting_that_differs_in_one_line_naming_it(tmp_path, capsys):
    run = tmp_path / "run"
    _stored_run(run, seed=1)
    before = (run / "config.json").read_text()
    argv = ["thirteen", "train", "--out", str(run), "--resume", "--no-progress"]
    assert main([*argv, "--seed", "2", "--cpu-minutes", "9"]) == 2
    err = _one_line_error(capsys)
    assert "other settings (seed;" in err and "only cpu_minutes may change" in err
    assert (run / "config.json").read_text() == before and sorted(run.iterdir()) == [
        run / "config.json"
    ]


def test_resume_refuses_a_stored_setting_out_of_range_naming_the_file(tmp_path, capsys):
    run = tmp_path / "run"
    _stored_run(run)
    stored = json.loads((run / "config.json").read_text())
    (run / "config.json").write_text(json.dumps({**stored, "players": [2]}))
    assert main(["thirteen", "train", "--out", str(run), "--resume", "--no-progress"]) == 2
    err = _one_line_error(capsys)
    assert str(run / "config.json") in err and "3 to 6 players" in err


def test_a_damaged_checkpoint_is_refused_in_one_line(tmp_path, capsys):
    pytest.importorskip("torch")
    run = tmp_path / "run"
    _stored_run(run)
    (run / "checkpoint.pt").write_bytes(b"not a checkpoint")
    assert main(["thirteen", "train", "--out", str(run), "--resume", "--no-progress"]) == 2
    err = _one_line_error(capsys)
    assert "is not a checkpoint this trainer wrote" in err and "checkpoint.pt" in err


@pytest.mark.parametrize("resume", [False, True], ids=["new", "--resume"])
def test_a_second_session_on_the_run_folder_is_refused(tmp_path, capsys, resume):
    pytest.importorskip("torch")
    run = tmp_path / "run"
    run.mkdir()
    if resume:
        _stored_run(run)
    kept = sorted(run.iterdir())
    argv = ["thirteen", "train", "--out", str(run), "--cpu-minutes", "0.01", *TINY]
    with RunFolderLock() as other:
        other.take(run)
        assert main([*argv, *(["--resume"] if resume else [])]) == 2
    err = _one_line_error(capsys)
    assert "in use by another friday command" in err and str(run) in err
    assert sorted(run.iterdir()) == kept


def test_a_run_writes_every_file_whole_and_resumes_with_its_own_settings(
    tmp_path, monkeypatch, capsys
):
    pytest.importorskip("torch")
    names: list[str] = []
    make = files._new_temporary

    def remembered(path: Path) -> Path:
        made = make(path)
        names.append(made.name)
        return made

    monkeypatch.setattr(files, "_new_temporary", remembered)
    run = tmp_path / "run"
    argv = ["thirteen", "train", "--out", str(run), *TINY, "--seed", "3"]
    assert main([*argv, "--cpu-minutes", "0.01"]) == 0
    for name in ("config.json", "checkpoint.pt", "curve.csv", "best.npz", "last.npz"):
        assert any(made.startswith(f".{name}.") for made in names), name
    assert [p.name for p in run.iterdir() if p.name.startswith(".")] == []
    assert main(["thirteen", "train", "--out", str(run), "--resume", "--cpu-minutes", "0.02"]) == 0
    stored = json.loads((run / "config.json").read_text())
    assert stored["run_folder_version"] == VERSION
    assert (stored["seed"], stored["games"], stored["cpu_minutes"]) == (3, 4, 0.02)
