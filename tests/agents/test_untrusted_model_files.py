"""Model files never run code: a crafted PPO archive (``.zip``), ``friday rl`` checkpoint
(``.pt``) or network (``.npz``) whose pickled payload would create a marker file is refused
with a one-line error, and the marker never appears."""

from __future__ import annotations

import base64
import json
import pickle
import zipfile
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from friday_cli import friday, friday_main  # noqa: E402

from friday_agents.models import PPO_ALL_LEVELS  # noqa: E402
from friday_agents.players.ppo import PPOAgent, PPOCheckpointError  # noqa: E402
from friday_env import Game  # noqa: E402


class Payload:
    """Unpickling this creates ``marker``: what a crafted model file would run."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (open, (str(self.marker), "w"))


def pickled(marker: Path) -> str:
    return base64.b64encode(pickle.dumps(Payload(marker))).decode()


def crafted_archive(target: Path, *, data_change=None, member: str = "", blob: bytes = b""):
    """A copy of the committed PPO archive, its ``data`` edited or one member replaced."""
    with zipfile.ZipFile(PPO_ALL_LEVELS) as src, zipfile.ZipFile(target, "w") as dst:
        for info in src.infolist():
            content = src.read(info)
            if info.filename == "data" and data_change is not None:
                data = json.loads(content)
                data_change(data)
                content = json.dumps(data).encode()
            if info.filename == member:
                content = blob
            dst.writestr(info, content)
    return target


def test_a_zip_with_an_unknown_pickled_attribute_is_refused_unrun(tmp_path):
    marker = tmp_path / "ran"

    def add(data):
        data["payload"] = {":type:": "<class 'object'>", ":serialized:": pickled(marker)}

    path = crafted_archive(tmp_path / "crafted.zip", data_change=add)
    with pytest.raises(PPOCheckpointError, match=r"pickled objects \(payload\).*refused"):
        PPOAgent(model=str(path))
    assert not marker.exists()


def test_a_zip_whose_space_is_a_payload_loads_without_running_it(tmp_path):
    """The pickled attributes sb3 writes are rebuilt from what this version knows, never
    unpickled: the crafted one is ignored and the policy plays as the committed one."""
    marker = tmp_path / "ran"

    def swap(data):
        data["observation_space"][":serialized:"] = pickled(marker)

    path = crafted_archive(tmp_path / "crafted.zip", data_change=swap)
    game = Game.new(1, 7)
    assert PPOAgent(model=str(path)).act(game) == PPOAgent().act(game)
    assert not marker.exists()


def test_a_zip_whose_weights_are_a_payload_is_refused_unrun(tmp_path):
    marker = tmp_path / "ran"
    blob = pickle.dumps(Payload(marker), protocol=2)  # torch.save's protocol
    path = crafted_archive(tmp_path / "crafted.zip", member="policy.pth", blob=blob)
    with pytest.raises(PPOCheckpointError, match="cannot load"):
        PPOAgent(model=str(path))
    assert not marker.exists()


def test_friday_train_refuses_a_crafted_zip_in_one_line(tmp_path, capsys):
    marker = tmp_path / "ran"

    def add(data):
        data["payload"] = {":serialized:": pickled(marker)}

    path = crafted_archive(tmp_path / "crafted.zip", data_change=add)
    args = ["train", "--init", str(path), "--out", str(tmp_path / "run")]
    assert friday_main()(args) == 2  # in this process: torch is imported already
    assert_one_line(capsys.readouterr().err, "refused")
    assert not marker.exists()
    # the same archive as the newest checkpoint of a run that --resume continues
    run = tmp_path / "old"
    (run / "checkpoints").mkdir(parents=True)
    (run / "config.json").write_text("{}")
    (run / "checkpoints" / "ppo_64_steps.zip").write_bytes(path.read_bytes())
    assert friday_main()(["train", "--resume", "--out", str(run)]) == 2
    assert_one_line(capsys.readouterr().err, "refused")
    assert not marker.exists()


def test_a_crafted_rl_checkpoint_is_refused_unrun(tmp_path, tiny_rl, capsys):
    from friday_agents.learning.rl.trainer import Trainer

    out, marker = tmp_path / "run", tmp_path / "ran"
    Trainer(tiny_rl(out, frames=128)).run()  # a real run (in this process: one torch import)
    torch.save({"model": Payload(marker)}, out / "checkpoint.pt")
    capsys.readouterr()
    assert friday_main()(["rl", "--resume", "--out", str(out), "--no-progress"]) == 2
    assert_one_line(capsys.readouterr().err, "cannot read the checkpoint")
    assert not marker.exists()


def test_a_crafted_npz_is_refused_unrun_without_numpy_s_advice(tmp_path):
    marker, path = tmp_path / "ran", tmp_path / "crafted.npz"
    np.savez(path, observation=np.array([Payload(marker)], dtype=object))
    done = friday("eval", "--agents", f"net:model={path}", "--out", str(tmp_path / "e"))
    assert done.returncode == 2, done.stderr
    assert_one_line(done.stderr, "not an .npz archive of plain arrays")
    assert "allow_pickle" not in done.stderr
    assert not marker.exists() and not (tmp_path / "e").exists()


def assert_one_line(stderr: str, text: str) -> None:
    assert "Traceback" not in stderr
    assert len(stderr.strip().splitlines()) == 1, stderr
    assert text in stderr
