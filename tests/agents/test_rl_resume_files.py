"""``friday rl --resume`` on a run folder whose files were damaged or tampered with: the
checkpoint (wrong shapes, wrong dtypes, missing keys, wrong types, cut short, not a zip), the
configuration and the curve. Each stops with exit status 2 and one line naming the file and
what is wrong, and leaves every file of the folder as it was (issue 45, R1 and R7).

An Adam moment smaller than its parameter once crashed the process (the fused Adam step read
past it; the process was killed), which no in-process test survives: that resume runs in a
fresh interpreter (`CRASHED`), the others in this one (``friday``'s ``main``, seconds faster
each)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

torch = pytest.importorskip("torch")

from conftest import TINY_RL  # noqa: E402
from friday_cli import friday  # noqa: E402

from friday_agents.cli import main as friday_main  # noqa: E402
from friday_agents.harness.deals import validation_seed  # noqa: E402
from friday_agents.learning.rl.config import RLConfig  # noqa: E402
from friday_agents.learning.rl.trainer import Trainer  # noqa: E402


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory) -> Path:
    """A tiny run of 2 updates (a checkpoint at update 2), made once."""
    out = tmp_path_factory.mktemp("rl") / "run"
    Trainer(RLConfig(out=str(out), **{**TINY_RL, "frames": 256})).run()
    return out


@pytest.fixture(scope="module")
def reverse_run(tmp_path_factory) -> Path:
    """A tiny run of ``--method reverse`` (a curriculum in the checkpoint), made once."""
    out = tmp_path_factory.mktemp("rl") / "run"
    settings = {**TINY_RL, "frames": 256, "method": "reverse", "reverse_window": 4}
    Trainer(RLConfig(out=str(out), **settings)).run()
    return out


def files_of(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def resume(folder: Path, capsys, fresh_process: bool = False) -> tuple[int, list[str]]:
    """``friday rl --resume`` on ``folder`` to 512 frames (``fresh_process``: in a fresh
    interpreter): exit status and stderr's lines."""
    argv = ["rl", "--resume", "--out", str(folder), "--frames", "512", "--no-progress"]
    if fresh_process:
        done = friday(*argv)
        return done.returncode, done.stderr.strip().splitlines()
    capsys.readouterr()
    code = friday_main(argv)
    return code, capsys.readouterr().err.strip().splitlines()


def refusal(
    run: Path, tmp_path: Path, capsys, tamper: Callable[[Path], None], fresh_process: bool = False
) -> str:
    """The one line ``friday rl --resume`` stops with (exit status 2) on a copy of ``run``
    that ``tamper`` changed, every file of the copy left as it was."""
    folder = tmp_path / "run"
    shutil.copytree(run, folder)
    tamper(folder)
    before = files_of(folder)
    code, err = resume(folder, capsys, fresh_process)
    assert code == 2 and len(err) == 1, err
    assert files_of(folder) == before
    return err[0]


def checkpoint_state(folder: Path) -> dict[str, Any]:
    return torch.load(folder / "checkpoint.pt", weights_only=True)


def with_state(change: Callable[[dict[str, Any]], None]) -> Callable[[Path], None]:
    """A tampering that rewrites the checkpoint with ``change`` applied to its state."""

    def tamper(folder: Path) -> None:
        state = checkpoint_state(folder)
        change(state)
        torch.save(state, folder / "checkpoint.pt")

    return tamper


def first_moment(state: dict[str, Any]) -> dict[str, Any]:
    return state["optimizer"]["state"][0]


def cut_short(folder: Path) -> None:
    data = (folder / "checkpoint.pt").read_bytes()
    (folder / "checkpoint.pt").write_bytes(data[: len(data) // 2])


def resized(rows: int) -> Callable[[dict[str, Any]], None]:
    """The first parameter's first Adam moment with ``rows`` rows (it has 8)."""

    def change(state: dict[str, Any]) -> None:
        moment = first_moment(state)["exp_avg"]
        first_moment(state)["exp_avg"] = torch.zeros((rows, *moment.shape[1:]), dtype=moment.dtype)

    return change


PARAMETER = "actor.0.weight"
#: The tamperings that crashed the process before the checkpoint was checked.
CRASHED = ("optimizer moment smaller",)

#: A name, what is done to the folder, and a word the error line must hold.
TAMPERINGS: list[tuple[str, Callable[[Path], None], str]] = [
    ("not a zip", lambda f: (f / "checkpoint.pt").write_bytes(b"not a checkpoint"), "checkpoint"),
    ("empty", lambda f: (f / "checkpoint.pt").write_bytes(b""), "checkpoint"),
    ("cut short", cut_short, "checkpoint"),
    ("not a dict", lambda f: torch.save([1, 2], f / "checkpoint.pt"), "checkpoint"),
    ("no optimizer", with_state(lambda s: s.pop("optimizer")), "optimizer"),
    ("no model", with_state(lambda s: s.pop("model")), "model"),
    ("no parameter", with_state(lambda s: s["model"]["parameters"].pop(PARAMETER)), PARAMETER),
    (
        "parameter shape",
        with_state(lambda s: s["model"]["parameters"].update({PARAMETER: torch.zeros(3, 3)})),
        PARAMETER,
    ),
    (
        "parameter dtype",
        with_state(
            lambda s: s["model"]["parameters"].update(
                {PARAMETER: s["model"]["parameters"][PARAMETER].double()}
            )
        ),
        PARAMETER,
    ),
    (
        "hidden sizes",
        with_state(lambda s: s["model"].update({"actor_hidden": [5, 5]})),
        "model",
    ),
    ("optimizer moment smaller", with_state(resized(1)), "optimizer"),
    ("optimizer moment larger", with_state(resized(11)), "optimizer"),
    (
        "optimizer moment dtype",
        with_state(
            lambda s: first_moment(s).update({"exp_avg_sq": first_moment(s)["exp_avg_sq"].double()})
        ),
        "optimizer",
    ),
    (
        "optimizer step",
        with_state(lambda s: first_moment(s).update({"step": "many"})),
        "optimizer",
    ),
    (
        "optimizer groups",
        with_state(lambda s: s["optimizer"]["param_groups"][0]["params"].pop()),
        "optimizer",
    ),
    ("reference", with_state(lambda s: s["reference"]["parameters"].clear()), "reference"),
    ("frames", with_state(lambda s: s.update({"frames": "lots"})), "frames"),
    ("updates", with_state(lambda s: s.update({"updates": -1})), "updates"),
    ("numpy rng", with_state(lambda s: s.update({"numpy_rng": "{"})), "numpy_rng"),
    ("torch rng", with_state(lambda s: s.update({"torch_rng": torch.zeros(3)})), "torch_rng"),
    ("next deals", with_state(lambda s: s.update({"next_deals": torch.zeros(1)})), "next_deals"),
    ("visits", with_state(lambda s: s.update({"visits": torch.zeros(2, 2)})), "visits"),
    (
        "a validation deal next",
        with_state(lambda s: s["next_deals"].__setitem__(0, validation_seed(1, 0))),
        "next_deals",
    ),
    (
        "episodes",
        with_state(lambda s: s["episodes"].update({"seeds": s["episodes"]["seeds"][:1]})),
        "episodes",
    ),
    (
        "not an action",
        with_state(lambda s: s["episodes"]["actions"][0].append(10_000)),
        "episodes",
    ),
    (
        "an illegal action",
        with_state(lambda s: s["episodes"]["actions"][0].extend([198] * 60)),
        "episodes",
    ),
    (
        "a validation deal",
        with_state(lambda s: s["episodes"]["seeds"].__setitem__(0, validation_seed(1, 0))),
        "episodes",
    ),
    (
        "world",
        with_state(lambda s: s.update({"world": 2, "ranks": []})),
        "process",
    ),
]


@pytest.mark.parametrize(("name", "tamper", "word"), TAMPERINGS, ids=[t[0] for t in TAMPERINGS])
def test_a_tampered_checkpoint_stops_in_one_line_and_changes_nothing(
    tiny_run, tmp_path, capsys, name, tamper, word
):
    line = refusal(tiny_run, tmp_path, capsys, tamper, fresh_process=name in CRASHED)
    assert "checkpoint.pt" in line and word in line, line


def write_config(change: Callable[[dict[str, Any]], Any]) -> Callable[[Path], None]:
    def tamper(folder: Path) -> None:
        config = json.loads((folder / "config.json").read_text())
        config = change(config) or config
        (folder / "config.json").write_text(json.dumps(config))

    return tamper


def write_curve(text: str) -> Callable[[Path], None]:
    def tamper(folder: Path) -> None:
        with open(folder / "curve.jsonl", "a") as curve:
            curve.write(text)

    return tamper


#: Damage to the configuration or the curve: a name, the change, the file and a word.
DAMAGE: list[tuple[str, Callable[[Path], None], str, str]] = [
    ("config not JSON", lambda f: (f / "config.json").write_text("{"), "config.json", "JSON"),
    ("config a list", write_config(lambda c: [c]), "config.json", "object"),
    ("config type", write_config(lambda c: c.update({"num_envs": "4"})), "config.json", "num_envs"),
    ("config unknown", write_config(lambda c: c.update({"colour": 1})), "config.json", "colour"),
    ("config range", write_config(lambda c: c.update({"num_envs": 0})), "config.json", "num_envs"),
    ("curve not JSON", write_curve("{not json\n"), "curve.jsonl", "line 4"),
    ("curve a list", write_curve("[1, 2]\n"), "curve.jsonl", "line 4"),
    ("curve no updates", write_curve('{"frames": 384}\n'), "curve.jsonl", "updates"),
    ("curve bad updates", write_curve('{"updates": "3"}\n'), "curve.jsonl", "updates"),
]


def archived(change: Callable[[list], Any]) -> Callable[[Path], None]:
    """A tampering of the first archived game of the curriculum (won, score, order, deal,
    actions)."""

    def tamper(state: dict[str, Any]) -> None:
        archive = state["curriculum"]["archive"]
        row = list(archive[0])
        changed = change(row)
        archive[0] = tuple(row if changed is None else changed)

    return with_state(tamper)


#: Tamperings of the curriculum's state: a name and what is done.
CURRICULUM: list[tuple[str, Callable[[Path], None]]] = [
    ("no curriculum", with_state(lambda s: s.update({"curriculum": None}))),
    ("no archive", with_state(lambda s: s["curriculum"].pop("archive"))),
    ("a short row", archived(lambda row: row[:3])),
    ("a score as text", archived(lambda row: row.__setitem__(1, "high"))),
    ("a validation deal", archived(lambda row: row.__setitem__(3, validation_seed(1, 0)))),
    ("an illegal action", archived(lambda row: row.__setitem__(4, row[4] + bytes([198] * 60)))),
    ("k as text", with_state(lambda s: s["curriculum"].update({"k": "far"}))),
]


@pytest.mark.parametrize("tamper", [c[1] for c in CURRICULUM], ids=[c[0] for c in CURRICULUM])
def test_a_tampered_curriculum_stops_in_one_line_and_changes_nothing(
    reverse_run, tmp_path, capsys, tamper
):
    line = refusal(reverse_run, tmp_path, capsys, tamper)
    assert "checkpoint.pt" in line and "curriculum" in line, line


@pytest.mark.parametrize(
    ("damage", "name", "word"), [d[1:] for d in DAMAGE], ids=[d[0] for d in DAMAGE]
)
def test_a_damaged_config_or_curve_stops_in_one_line_and_changes_nothing(
    tiny_run, tmp_path, capsys, damage, name, word
):
    line = refusal(tiny_run, tmp_path, capsys, damage)
    assert name in line and word in line, line


def test_the_untampered_run_resumes(tiny_run, tmp_path, capsys):
    """The tamperings' control: the same resume of the folder as it was succeeds."""
    folder = tmp_path / "run"
    shutil.copytree(tiny_run, folder)
    code, err = resume(folder, capsys)
    assert code == 0, err
    assert json.loads((folder / "curve.jsonl").read_text().splitlines()[-1])["updates"] == 4
