"""Ctrl-C on the long commands: ``friday train``, ``friday rl``, ``friday distill`` and
``friday value data`` save
what they have, say how to resume, and exit with status 130 without a traceback; the
printed command resumes. (``friday eval``'s interruptions are tested in test_eval.py.)"""

from __future__ import annotations

import json
import re
import shlex
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from friday_cli import friday, popen_friday

pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")


#: Seconds a command may take on the wall clock to get ready and then to stop: generous, for a
#: machine at a load of 10 (the signal waits on what the command wrote, never on a sleep).
WALL_LIMIT = 600


def _start(*args: str, cwd: Path) -> subprocess.Popen:
    return popen_friday(
        *args,
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        # a shell's background job ignores SIGINT and a child inherits that: give the run
        # the default handling a user's terminal gives it
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def _interrupt_when(ready: Callable[[], bool], process: subprocess.Popen) -> tuple[str, str]:
    """Send Ctrl-C once ``ready()``; the command's stdout and stderr."""
    deadline = time.monotonic() + WALL_LIMIT
    while not ready():
        if process.poll() is not None:
            out, err = process.communicate()
            pytest.fail(f"the command ended before it could be interrupted:\n{out}\n{err}")
        if time.monotonic() > deadline:
            process.kill()
            pytest.fail("the command made no progress")
        time.sleep(0.1)
    process.send_signal(signal.SIGINT)
    return process.communicate(timeout=WALL_LIMIT)


def _lines(path: Path) -> int:
    return path.read_text().count("\n") if path.exists() else 0


def _check_stopped(process: subprocess.Popen, err: str) -> str:
    """Status 130, no traceback; the resume command the message gives."""
    assert process.returncode == 130, err
    assert "Traceback" not in err
    command = re.search(r"Continue with: (friday .+)$", err.strip(), re.MULTILINE)
    assert command, err
    return command.group(1)


def test_ctrl_c_in_friday_train_saves_a_checkpoint_that_resumes(tmp_path):
    out = tmp_path / "run"
    process = _start(
        "train", "--frames", "10000000", "--num-envs", "1", "--num-steps", "64",
        "--minibatches", "1", "--eval-every", "0", "--eval-deals", "2", "--checkpoint-every", "0",
        "--out", str(out), "--no-progress", cwd=tmp_path,
    )  # fmt: skip
    _, err = _interrupt_when(lambda: _lines(out / "progress.csv") >= 2, process)
    resume = _check_stopped(process, err)
    (checkpoint,) = (out / "checkpoints").glob("interrupted_*_steps.zip")
    steps = int(checkpoint.stem.split("_")[1])
    assert steps >= 64
    assert not (out / "final.zip").exists()
    # the policy so far, playable at once, and the message says where it is
    assert (out / "policy.zip").is_file() and f"{out}/policy.zip" in err
    assert [p.name for p in out.iterdir() if "tmp" in p.name or "partial" in p.name] == []
    done = friday(*shlex.split(resume)[1:], "--frames", str(steps + 64), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (out / "final.zip").exists() and (out / "policy.zip").exists()


def test_ctrl_c_in_friday_rl_saves_after_the_update_in_progress(tmp_path):
    torch = pytest.importorskip("torch")
    out = tmp_path / "run"
    process = _start(
        "rl", "--level", "1", "--num-envs", "4", "--num-steps", "32", "--hidden", "8,8",
        "--eval-deals", "3", "--eval-every", "0", "--checkpoint-every", "1000",
        "--frames", "100000000", "--out", str(out), "--no-progress", cwd=tmp_path,
    )  # fmt: skip
    _, err = _interrupt_when(lambda: _lines(out / "curve.jsonl") >= 3, process)
    resume = _check_stopped(process, err)
    state = torch.load(out / "checkpoint.pt", weights_only=True)
    rows = [json.loads(line) for line in (out / "curve.jsonl").read_text().splitlines()]
    # saved where it stopped, not at the last periodic checkpoint (there was none)
    assert state["updates"] == rows[-1]["updates"] >= 2
    frames = state["frames"] + 128
    done = friday(*shlex.split(resume)[1:], "--frames", str(frames), "--no-progress", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert torch.load(out / "checkpoint.pt", weights_only=True)["frames"] == frames


def test_ctrl_c_in_friday_distill_keeps_the_games_of_its_new_run_folder(tmp_path):
    config = {
        "rounds": 1, "levels": [1], "first_prior": "guided-prior", "teacher_games": 500,
        "student_games": 1, "sims": 4, "top": 2, "value": "guided-value-per-level", "tau": 2.0,
        "hidden": [8], "epochs": 1, "held_out_share": 0.3, "validation_net": 2,
        "validation_search": 1, "seed": 0,
    }  # fmt: skip
    (tmp_path / "study.json").write_text(json.dumps(config))
    process = _start(
        "distill", "--config", "study.json", "--workers", "1", "--no-progress", cwd=tmp_path
    )

    def teacher_games() -> list[Path]:
        return list((tmp_path / "results/distill").glob("study__*/games/round-00/teacher.jsonl"))

    out, err = _interrupt_when(lambda: any(_lines(p) >= 2 for p in teacher_games()), process)
    resume = _check_stopped(process, err)
    (games,) = teacher_games()
    run = games.parents[2]
    # it said what it would run, and where, before starting
    folder = run.relative_to(tmp_path)
    assert out.startswith("friday distill: 1 round of study.json on 1 worker; networks and ")
    assert f"summaries to {folder}, games to {folder / 'games'}" in out.splitlines()[0]
    assert f"--out {folder}" in resume
    assert _lines(games) >= 2


def test_ctrl_c_in_friday_value_data_keeps_whole_chunks_that_resume(tmp_path):
    out = tmp_path / "positions"
    process = _start(
        "value", "data", "--deals", "500", "--chunk-size", "1", "--agent", "guided:sims=4",
        "--continuations", "1", "--workers", "1", "--no-progress", "--out", str(out),
        cwd=tmp_path,
    )  # fmt: skip
    _, err = _interrupt_when(lambda: len(list(out.glob("chunk-*.npz"))) >= 2, process)
    resume = _check_stopped(process, err)
    done = sorted(p.name for p in out.glob("chunk-*.npz"))
    assert not list(out.glob("*.tmp")) and len(done) < 500
    # every chunk on disk is whole: its positions and games files both read
    games = {p.name.replace(".jsonl.gz", ".npz") for p in out.glob("chunk-*.jsonl.gz")}
    assert set(done) <= games
    assert f"--out {out}" in resume and "--deals 500" in resume
    finish = shlex.split(resume.replace("--deals 500", f"--deals {len(done) + 1}"))[1:]
    finished = friday(*finish, cwd=tmp_path)
    assert finished.returncode == 0, finished.stderr
    assert len(list(out.glob("chunk-*.npz"))) == len(done) + 1
