"""The ``friday`` command speaks one language: the same flags across subcommands (old
spellings kept for one release, with a deprecation note), help without reStructuredText
markup, a clear message naming the extra to install when an optional library is missing,
quick benchmarks that leave the committed results alone, and training logs in the run
directory (nothing in /tmp)."""

from __future__ import annotations

import csv
import json
import os
import re
from pathlib import Path

import pytest
from friday_cli import REPO, friday

SUBCOMMANDS = ("eval", "train", "bench", "play", "replay")
RST = re.compile(r"``|:(class|mod|func|data|meth|attr):`")
#: A tiny training run: a few seconds.
TINY_TRAIN = (
    "--frames", "128", "--num-envs", "2", "--num-steps", "32", "--minibatches", "2",
    "--epochs", "1", "--eval-every", "1", "--eval-deals", "2", "--checkpoint-every", "0",
)  # fmt: skip


def test_help_of_every_command_shows_no_rst_markup():
    for args in [("--help",)] + [(name, "--help") for name in SUBCOMMANDS]:
        done = friday(*args)
        assert done.returncode == 0, done.stderr
        assert not RST.search(done.stdout), f"friday {' '.join(args)}: {RST.findall(done.stdout)}"


@pytest.mark.parametrize(
    ("command", "flags"),
    [
        ("eval", ("--out", "--progress", "--no-progress")),
        ("train", ("--out", "--progress", "--no-progress")),
        ("bench", ("--out", "--progress", "--no-progress", "--from-json")),
    ],
)
def test_commands_share_one_flag_vocabulary(command, flags):
    text = friday(command, "--help").stdout
    for flag in flags:
        assert re.search(rf"(^|[\s,\[]){flag}\b(?!-)", text), f"friday {command}: no {flag}"


def _losses(run: Path) -> list[dict[str, str]]:
    with (run / "progress.csv").open(newline="") as handle:
        return list(csv.DictReader(handle))


def test_train_logs_losses_and_episodes_into_the_run_directory_and_nothing_in_tmp(tmp_path):
    run, scratch = tmp_path / "run", tmp_path / "tmp"
    scratch.mkdir()
    done = friday(
        "train", "--out", str(run), "--no-progress", *TINY_TRAIN,
        env={"TMPDIR": str(scratch)},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (run / "policy.zip").is_file()
    rows = _losses(run)
    assert rows, "progress.csv holds no row"
    columns = set(rows[0])
    for column in ("train/policy_gradient_loss", "train/value_loss", "rollout/ep_len_mean"):
        assert column in columns, f"progress.csv lacks {column}: {sorted(columns)}"
    assert any(row["train/value_loss"] for row in rows)
    # (torch may keep its own compile cache there; SB3's per-run log directory must not be)
    left = [path.name for path in scratch.iterdir() if path.name.startswith("SB3")]
    assert not left, f"SB3 left in the temp dir: {left}"
    try:
        import tensorboard  # noqa: F401
    except ImportError:
        return
    assert list(run.rglob("events.out.tfevents.*")), "TensorBoard is installed but not logged"


@pytest.mark.parametrize(
    ("command", "old", "new"),
    [
        ("train", "--out-dir", "--out"),
        ("train", "--progress-bar", "--progress"),
        ("train", "--n-envs", "--num-envs"),
        ("rl", "--clip-coef", "--clip"),
        ("rl", "--update-epochs", "--epochs"),
    ],
)
def test_old_spellings_are_refused_in_one_line_naming_the_new_one(tmp_path, command, old, new):
    run = tmp_path / "old"
    done = friday(command, old, "1", "--out", str(run))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1].endswith(f"{old} is gone: it is now {new}")
    assert not run.exists()


BLOCK = "import sys\nfor _name in {names!r}:\n    sys.modules[_name] = None\n"


@pytest.mark.parametrize(
    ("blocked", "args", "extra"),
    [
        (("tqdm",), ("eval", "--agents", "random", "--levels", "1", "--games", "1"), "eval"),
        (("matplotlib",), ("eval", "--agents", "random", "--levels", "1", "--games", "1"), "eval"),
        (("torch",), ("eval", "--agents", "ppo", "--levels", "1", "--games", "1"), "rl"),
        (("sb3_contrib",), ("eval", "--agents", "ppo", "--levels", "1", "--games", "1"), "rl"),
        (("torch",), ("train", "--out", "{tmp}/run", *TINY_TRAIN), "rl"),
        (("stable_baselines3",), ("bench", "--quick", "--only", "ppo", "--out", "{tmp}/b"), "rl"),
    ],
)  # fmt: skip
def test_a_missing_extra_is_named_with_the_install_command(tmp_path, blocked, args, extra):
    args = tuple(a.replace("{tmp}", str(tmp_path)) for a in args)
    if args[0] == "eval":
        args += ("--workers", "1", "--no-progress", "--out", str(tmp_path / "out"))
    done = friday(*args, prelude=BLOCK.format(names=blocked))
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    assert f"pip install 'friday-env[{extra}]'" in done.stderr, done.stderr
    assert blocked[0] in done.stderr


def test_bench_quick_leaves_the_committed_results_alone(tmp_path):
    """Quick runs go to a scratch file by default, never over benchmarks/results.json."""
    committed = tmp_path / "benchmarks" / "results.json"
    committed.parent.mkdir()
    committed.write_text('{"committed": true}\n')
    done = friday("bench", "--quick", "--only", "clone", "--no-progress", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert committed.read_text() == '{"committed": true}\n'
    written = re.search(r"results written to (\S+)", done.stdout)
    assert written, done.stdout
    path = Path(written.group(1))
    path = path if path.is_absolute() else tmp_path / path
    assert json.loads(path.read_text())["meta"]["quick"] is True


def test_bench_names_the_committed_file_only_as_an_explicit_out():
    text = " ".join(friday("bench", "--help").stdout.split())
    assert "--out benchmarks/results.json" in text
    assert "default: a new folder under results/bench/" in text


def _readme_python_blocks() -> list[str]:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```", readme, re.DOTALL)


def test_readme_sb3_snippet_imports_the_package_and_reports_progress(tmp_path):
    """The README's MaskablePPO snippet, run as written on a tiny budget: it must register
    the env itself and print something while it learns and when it is done."""
    import subprocess
    import sys

    (snippet,) = [block for block in _readme_python_blocks() if "MaskablePPO" in block]
    assert "import friday_env" in snippet
    budget = re.search(r"\.learn\(([\d_]+)", snippet)
    assert budget, snippet
    tiny = snippet.replace(budget.group(0), ".learn(256", 1).replace("n_steps=2048", "n_steps=64")
    tiny = tiny.replace("range(50)", "range(3)")  # the README's evaluation deals, fewer
    done = subprocess.run(
        [sys.executable, "-c", tiny],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=600,
        env={**os.environ, "OMP_NUM_THREADS": "1"},  # one torch thread beside the xdist workers
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip(), "the snippet printed nothing"


@pytest.mark.parametrize("index", range(2))
def test_readme_env_and_engine_snippets_run(tmp_path, index):
    import subprocess
    import sys

    blocks = [b for b in _readme_python_blocks() if "MaskablePPO" not in b]
    done = subprocess.run(
        [sys.executable, "-c", blocks[index]],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [(0.004, "4 ms"), (0.75, "0.8 s"), (12.34, "12.3 s"), (59.9, "59.9 s"), (90, "1.5 min"),
     (3000, "50.0 min"), (5400, "1.5 h")],
)  # fmt: skip
def test_durations_are_shown_in_a_unit_that_fits(seconds, shown):
    from friday_agents.harness.progress import format_duration

    assert format_duration(seconds) == shown
