"""PPOAgent: loads a checkpoint, plays legal games, plugs into ``friday eval``."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from friday_agents.cli import main, parse_args
from friday_agents.cli.train import config_from_args
from friday_agents.harness.deals import evaluation_seeds
from friday_agents.learning.sb3.train import train
from friday_agents.players.base import play_game
from friday_agents.players.ppo.agent import PPOAgent, PPOCheckpointError, default_checkpoint
from friday_agents.players.ppo.checkpoint import ENCODER_ATTRIBUTE, recorded_encoder
from friday_agents.players.registry import AgentSpecError, make_agent
from friday_env import Game
from friday_env.core import STATE_FIELDS


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory) -> Path:
    """A policy trained for a few seconds (it plays badly, but it is a real checkpoint)."""
    out = tmp_path_factory.mktemp("ppo")
    args = parse_args(
        [
            *["train", "--frames", "256", "--num-envs", "2", "--num-steps", "64"],
            *["--minibatches", "2", "--eval-deals", "2"],
            *["--epochs", "1", "--eval-every", "0", "--checkpoint-every", "0", "--hidden", "16"],
            *["--no-progress", "--out", str(out)],
        ]
    )
    return train(config_from_args(args)[0]).policy


def test_plays_whole_legal_games_on_every_level(checkpoint):
    agent = PPOAgent(model=str(checkpoint))
    for level in (1, 2, 3, 4):
        game = play_game(agent, level, evaluation_seeds(level, 1)[0])  # raises if illegal
        assert game.done


def test_deterministic_agent_repeats_itself(checkpoint):
    agent = PPOAgent(model=str(checkpoint))
    first = play_game(agent, 1, 123).history
    assert play_game(agent, 1, 123).history == first


def test_sampling_agent_uses_its_own_seeded_generator(checkpoint):
    agent = PPOAgent(model=str(checkpoint), deterministic=0)
    histories = [play_game(agent, 1, 77, agent_seed=s).history for s in (5, 5, 6, 7, 8)]
    assert histories[0] == histories[1]
    assert len({tuple(h) for h in histories}) > 1


def test_agent_does_not_change_the_game(checkpoint):
    agent = PPOAgent(model=str(checkpoint))
    game = Game.new(2, 9)
    before = game.clone()
    action = agent.act(game)
    assert action in game.legal_actions()

    def state(g):  # every field of the state, on either core
        return {name: getattr(g, name) for name in STATE_FIELDS}

    assert state(game) == state(before)


def test_missing_checkpoint_is_a_clear_error(tmp_path):
    with pytest.raises(PPOCheckpointError, match="does not exist"):
        PPOAgent(model=str(tmp_path / "nope.zip"))
    with pytest.raises(AgentSpecError, match="does not exist"):
        make_agent(f"ppo:model={tmp_path / 'nope.zip'}")


def test_corrupt_checkpoint_is_a_clear_error(tmp_path):
    broken = tmp_path / "broken.zip"
    broken.write_bytes(b"not a zip at all")
    with pytest.raises(PPOCheckpointError, match="corrupt"):
        PPOAgent(model=str(broken))


def test_friday_eval_with_a_given_checkpoint(checkpoint, tmp_path, capsys):
    out = tmp_path / "eval"
    code = main(
        [
            *["eval", "--agents", f"random,ppo:model={checkpoint}", "--levels", "1"],
            *["--games", "3", "--workers", "1", "--no-progress", "--out", str(out)],
        ]
    )
    assert code == 0
    rows = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    ppo_rows = [r for r in rows if r["agent"].startswith("ppo")]
    assert len(ppo_rows) == 3
    assert "ppo" in capsys.readouterr().out


def test_friday_eval_with_a_missing_checkpoint_exits_2(tmp_path, capsys):
    code = main(
        [
            *["eval", "--agents", f"ppo:model={tmp_path / 'nope.zip'}", "--levels", "1"],
            *["--games", "1", "--workers", "1", "--no-progress", "--out", str(tmp_path / "e")],
        ]
    )
    assert code == 2
    assert "does not exist" in capsys.readouterr().err


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_committed_default_checkpoints_load_and_play(level):
    """``friday eval --agents ppo`` works out of the box: a committed policy per level that
    fits the current observation encoder."""
    assert default_checkpoint(level).is_file(), (
        "run experiments/ppo-training/train_ppo.sh to make it"
    )
    game = play_game(PPOAgent(), level, evaluation_seeds(level, 1)[0])
    assert game.done


def test_friday_eval_with_the_default_checkpoints(tmp_path):
    out = tmp_path / "eval"
    code = main(
        [
            *["eval", "--agents", "ppo", "--levels", "1-4", "--games", "1", "--workers", "1"],
            *["--no-progress", "--out", str(out)],
        ]
    )
    assert code == 0
    rows = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert sorted(r["level"] for r in rows) == [1, 2, 3, 4]


def _with_data(source: Path, target: Path, change) -> Path:
    """A copy of the checkpoint ``source`` whose ``data`` member ``change`` has edited."""
    with zipfile.ZipFile(source) as src, zipfile.ZipFile(target, "w") as dst:
        for info in src.infolist():
            blob = src.read(info)
            if info.filename == "data":
                data = json.loads(blob)
                change(data)
                blob = json.dumps(data).encode()
            dst.writestr(info, blob)
    return target


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_committed_checkpoints_record_their_encoder(level):
    assert recorded_encoder(default_checkpoint(level)) == "flat"


def test_a_legacy_checkpoint_reads_the_one_encoder_with_its_space(tmp_path):
    """Archives from before encoders were recorded: the encoder whose space is theirs."""
    legacy = _with_data(
        default_checkpoint(1), tmp_path / "legacy.zip", lambda d: d.pop(ENCODER_ATTRIBUTE)
    )
    assert recorded_encoder(legacy) is None
    agent = PPOAgent(model=str(legacy))
    assert agent._load(legacy)[1].name == "flat"
    game = Game.new(1, evaluation_seeds(1, 1)[0])
    reference = PPOAgent()
    assert agent.act(game) == reference.act(game)


def test_a_checkpoint_naming_an_unknown_encoder_is_refused(tmp_path):
    def rename(data):
        data[ENCODER_ATTRIBUTE] = "pixels"

    odd = _with_data(default_checkpoint(1), tmp_path / "odd.zip", rename)
    with pytest.raises(PPOCheckpointError, match="encoder 'pixels'"):
        PPOAgent(model=str(odd))
