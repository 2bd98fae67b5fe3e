"""``friday train``: config handling, bad input, reproducibility, resume, the training envs."""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

from friday_agents.cli import main, parse_args
from friday_agents.cli.train import config_from_args
from friday_agents.harness.curve import read_curve
from friday_agents.harness.deals import heldout_deals, is_training_deal, is_validation_seed
from friday_agents.learning.sb3.callbacks import BEST_POLICY, is_best
from friday_agents.learning.sb3.config import TrainConfig, TrainConfigError
from friday_agents.learning.sb3.envs import (
    Deals,
    fixed_deals,
    make_env,
    training_deals,
)
from friday_agents.learning.sb3.train import build_eval_env, replot, train
from friday_agents.players.ppo.checkpoint import CheckpointError, load_model, recorded_encoder
from friday_env import Game
from friday_env.env import EnvOptionError
from friday_env.observation import FlatEncoder

#: A budget of a few seconds: 4 rollouts of 2 envs x 64 steps, evaluated 3 times on 2 deals.
TINY = [
    "--frames", "512", "--num-envs", "2", "--num-steps", "64", "--minibatches", "2",
    "--epochs", "1", "--eval-every", "2", "--eval-deals", "2", "--checkpoint-every", "2",
    "--hidden", "16", "--no-progress",
]  # fmt: skip


def tiny_config(run: Path, **changes) -> TrainConfig:
    args = parse_args(["train", *TINY, "--out", str(run)])
    config, _ = config_from_args(args)
    for name, value in changes.items():
        setattr(config, name, value)
    return config.validate()


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("run")
    train(tiny_config(out))
    return out


# ------------------------------------------------------------------ configuration


def test_help_shows_the_field_docs(capsys):
    with pytest.raises(SystemExit):
        main(["train", "--help"])
    text = capsys.readouterr().out
    assert "--frames" in text
    assert "total env steps of the run" in text
    assert "--levels" in text


def test_config_file_then_flags(tmp_path):
    toml = tmp_path / "c.toml"
    toml.write_text('[train]\nlevel = 3\nlearning_rate = 1\nnum_envs = 4\nreward = "score"\n')
    # learning_rate = 1 is an int in TOML: accepted for a float field, then rejected as >= 1
    args = parse_args(["train", "--config", str(toml)])
    with pytest.raises(TrainConfigError, match="learning_rate"):
        config_from_args(args)
    toml.write_text('[train]\nlevel = 3\nnum_envs = 4\nreward = "score"\n')
    args = parse_args(["train", "--config", str(toml), "--num-envs", "2"])
    config, _ = config_from_args(args)
    assert (config.level, config.num_envs, config.reward) == (3, 2, "score")
    as_json = tmp_path / "c.json"
    as_json.write_text(json.dumps({"levels": "1,2,3,4"}))
    config, _ = config_from_args(parse_args(["train", "--config", str(as_json)]))
    assert config.level_list() == [1, 2, 3, 4]


def test_old_names_are_refused_naming_the_new_one(tmp_path, capsys):
    with pytest.raises(SystemExit):
        parse_args(["train", "--total-timesteps", "5"])
    assert "--total-timesteps is gone: it is now --frames" in capsys.readouterr().err
    old = tmp_path / "old.toml"
    old.write_text("[train]\nn_envs = 4\n")
    with pytest.raises(TrainConfigError, match="'n_envs' is now 'num_envs'"):
        config_from_args(parse_args(["train", "--config", str(old)]))
    old.write_text('[train]\nreward = "value_shaped"\n')
    with pytest.raises(TrainConfigError, match="--reward win_loss --shaping value"):
        config_from_args(parse_args(["train", "--config", str(old)]))
    old.write_text('[train]\nbonus = "hazards"\n')
    with pytest.raises(TrainConfigError, match=r"unknown settings \['bonus'\]"):
        config_from_args(parse_args(["train", "--config", str(old)]))


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--frames", "-5"], "frames must be at least 1"),
        (["--level", "5"], "unknown level 5"),
        (["--levels", "1,7"], "unknown level 7"),
        (["--levels", "one"], "levels must be levels such as 1,2,3,4: bad levels 'one'"),
        (["--observation", "pixels"], "unknown observation"),
        (["--reward", "money"], "unknown reward"),
        (["--resume"], "--resume needs --out"),
        (["--init", "no/such/checkpoint.zip"], "does not exist"),
        (["--hidden", "64,-1"], "hidden"),
        (["--device", "tpu"], "unknown device 'tpu'"),
        (["--config", "no/such.toml"], "does not exist"),
    ],
)
def test_bad_config_exits_2_before_training(tmp_path, capsys, flags, message):
    out = tmp_path / "run"
    given = flags if flags == ["--resume"] else [*flags, "--out", str(out)]
    assert main(["train", *given]) == 2
    assert message in capsys.readouterr().err
    assert not out.exists()


def test_unknown_and_mistyped_config_file_settings(tmp_path):
    bad = tmp_path / "c.json"
    bad.write_text(json.dumps({"timesteps": 10}))
    with pytest.raises(TrainConfigError, match="unknown settings"):
        config_from_args(parse_args(["train", "--config", str(bad)]))
    bad.write_text(json.dumps({"num_envs": "8"}))
    with pytest.raises(TrainConfigError, match="num_envs must be int"):
        config_from_args(parse_args(["train", "--config", str(bad)]))


def test_corrupt_checkpoint_fails_loudly(tmp_path, capsys):
    corrupt = tmp_path / "broken.zip"
    corrupt.write_bytes(b"PK\x03\x04 this is not a model")
    out = tmp_path / "run"
    assert main(["train", "--init", str(corrupt), "--out", str(out)]) == 2
    assert "corrupt" in capsys.readouterr().err
    assert not out.exists()
    (out / "checkpoints").mkdir(parents=True)
    (out / "config.json").write_text("{}")
    shutil.copy(corrupt, out / "checkpoints" / "ppo_128_steps.zip")
    assert main(["train", "--resume", "--out", str(out)]) == 2
    assert "corrupt" in capsys.readouterr().err
    not_a_model = tmp_path / "other.zip"
    with zipfile.ZipFile(not_a_model, "w") as archive:
        archive.writestr("readme.txt", "hello")
    with pytest.raises(CheckpointError, match="not a MaskablePPO model"):
        load_model(not_a_model)


def test_damaged_model_archive_fails_loudly(tiny_run, tmp_path):
    damaged = tmp_path / "damaged.zip"
    with (
        zipfile.ZipFile(tiny_run / "policy.zip") as source,
        zipfile.ZipFile(damaged, "w") as target,
    ):
        for name in source.namelist():
            data = source.read(name)
            target.writestr(name, data[: len(data) // 2] if name == "policy.pth" else data)
    with pytest.raises(CheckpointError, match="cannot load checkpoint"):
        load_model(damaged)


# ------------------------------------------------------------------ training envs


def test_training_deals_are_neither_validation_nor_evaluation_deals():
    for level in (1, 4):
        stream = training_deals(level, [0, 0, 0])
        deals = [stream(None) for _ in range(2000)]
        assert all(is_training_deal(deal) for deal in deals)
        assert len(set(deals)) > 1900


def test_training_deal_streams_repeat_per_key_and_differ_across_keys():
    first = training_deals(2, [3, 0, 1])
    second = training_deals(2, [3, 0, 1])
    other = training_deals(2, [3, 0, 2])
    a = [first(None) for _ in range(20)]
    assert a == [second(None) for _ in range(20)]
    assert a != [other(None) for _ in range(20)]


def test_the_curve_plays_the_validation_deals(tmp_path):
    """One rule for both trainers: the held-out curve is measured on validation deals."""
    env = build_eval_env(tiny_config(tmp_path), level=2)
    env.seed(0)
    env.reset()
    assert env.get_attr("deal") == [heldout_deals(2, 2)[0]]
    assert all(is_validation_seed(deal) for deal in heldout_deals(2, 2))


def test_deals_wrapper_plays_the_chosen_deal_with_its_mask():
    env = Deals(gym.make("Friday-v0", level=2), fixed_deals([11, 12]))
    _, info = env.reset(seed=0)
    expected = Game.new(2, 11)
    assert env.unwrapped.game.legal_actions() == expected.legal_actions()
    assert np.flatnonzero(info["action_mask"]).tolist() == expected.legal_actions()
    assert np.array_equal(env.action_masks(), info["action_mask"])
    obs, _ = env.reset()
    assert env.unwrapped.game.seed == Game.new(2, 12).seed
    assert np.array_equal(obs, FlatEncoder().encode(Game.new(2, 12)))  # the new deal's view
    env.reset(seed=5)  # any reset seed restarts the list
    assert env.unwrapped.game.seed == expected.seed
    with pytest.raises(EnvOptionError, match="would be ignored"):
        env.reset(options={"scenario": {"step": "red"}})


def _play_out(env, seed: int) -> tuple[float, dict, Game]:
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    total, done, info = 0.0, False, {}
    while not done:
        action = rng.choice(np.flatnonzero(env.action_masks()))
        _, reward, done, _, info = env.step(action)
        total += reward
    return total, info, env.unwrapped.game


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_score_delta_sums_to_the_score_gained(seed):
    env = make_env(1, "flat", "score_delta", fixed_deals([seed]))
    start = Game.new(1, seed).score()
    total, info, game = _play_out(env, seed)
    assert total == pytest.approx((game.score() - start) / 100)
    assert info["final_score"] == game.score()
    assert info["is_success"] == game.won


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_progress_reward_is_the_envs_own(seed):
    env = make_env(1, "flat", "progress", fixed_deals([seed]), progress_coef=0.3)
    assert env.unwrapped.progress_coef == 0.3
    total, info, game = _play_out(env, seed)
    beaten = game.hazards_beaten() + game.pirates_beaten()
    assert info["hazards_beaten"] == game.hazards_beaten()
    assert total == pytest.approx((1 if game.won else -1) + 0.3 * beaten)


def test_the_default_reward_is_the_envs_progress_and_its_coefficient_is_checked(tmp_path):
    config = tiny_config(tmp_path / "run")
    assert (config.reward, config.progress_coef) == ("progress", 0.1)
    for changes, message in (
        ({"progress_coef": -0.5}, "progress_coef must be a finite number >= 0"),
        ({"progress_coef": float("inf")}, "progress_coef must be a finite number >= 0"),
        ({"reward": "win_loss", "progress_coef": 0.2}, "only for --reward progress"),
    ):
        with pytest.raises(TrainConfigError, match=message):
            tiny_config(tmp_path / "run", **changes)


# ------------------------------------------------------------------ runs


def test_run_writes_config_curve_checkpoints_and_plot(tiny_run):
    saved = json.loads((tiny_run / "config.json").read_text())
    assert saved["frames"] == 512 and saved["hidden"] == "16"
    rows = read_curve(tiny_run / "curve.jsonl")
    assert [r["frames"] for r in rows] == [0, 256, 512]
    assert all(r["heldout_deals"] == 2 and 0 <= r["heldout_win_rate"] <= 1 for r in rows)
    assert all(0 <= r["heldout_mean_hazards_beaten"] <= 30 for r in rows)
    assert load_model(tiny_run / BEST_POLICY).num_timesteps in [r["frames"] for r in rows]
    assert (tiny_run / "curve.png").stat().st_size > 10_000
    assert sorted(p.name for p in (tiny_run / "checkpoints").iterdir()) == [
        "ppo_256_steps.zip",
        "ppo_512_steps.zip",
    ]
    assert load_model(tiny_run / "policy.zip").num_timesteps == 512
    (tiny_run / "curve.png").unlink()
    assert replot(tiny_run).stat().st_size > 10_000


def test_the_best_held_out_evaluation_is_the_highest_win_rate_then_most_hazards():
    def row(level, win_rate, hazards):
        return {
            "level": level,
            "heldout_win_rate": win_rate,
            "heldout_mean_hazards_beaten": hazards,
        }

    rows = [row(1, 0.0, 3.0), row(1, 0.0, 9.0), {"level": 1, "frames": 5}]
    assert is_best(rows[:1], 1) and is_best(rows[:2], 1)
    assert not is_best([*rows[:2], row(1, 0.0, 9.0)], 1)  # a tie keeps the earlier one
    assert not is_best([*rows[:2], row(1, 0.0, 8.0)], 1)
    assert is_best([*rows[:2], row(1, 0.01, 2.0)], 1)  # a win beats any hazards
    assert is_best([*rows[:2], row(2, 0.0, 1.0)], 2)  # each level on its own
    assert is_best([row(1, 0.0, None), row(1, 0.0, 0.0)], 1)  # rows written before hazards


def test_same_seed_same_curve_and_weights(tiny_run, tmp_path):
    """Reproducibility: the same seed and config give the same curve and the same policy."""
    train(tiny_config(tmp_path / "again"))
    assert (tmp_path / "again" / "curve.jsonl").read_text() == (
        tiny_run / "curve.jsonl"
    ).read_text()
    first = load_model(tiny_run / "final.zip").policy.state_dict()
    second = load_model(tmp_path / "again" / "final.zip").policy.state_dict()
    assert all(np.array_equal(first[k].numpy(), second[k].numpy()) for k in first)


def test_another_seed_another_policy(tiny_run, tmp_path):
    train(tiny_config(tmp_path / "other", seed=1))
    first = load_model(tiny_run / "final.zip").policy.state_dict()
    other = load_model(tmp_path / "other" / "final.zip").policy.state_dict()
    assert any(not np.array_equal(first[k].numpy(), other[k].numpy()) for k in first)


def test_resume_continues_from_the_newest_checkpoint(tiny_run, tmp_path):
    out = tmp_path / "resumed"
    # the run as it was after its first checkpoint, with its curve beyond it (redone)
    shutil.copytree(tiny_run, out)
    (out / "final.zip").unlink()
    (out / "checkpoints" / "ppo_512_steps.zip").unlink()
    assert main(["train", "--resume", "--out", str(out), "--frames", "768"]) == 0
    assert load_model(out / "final.zip").num_timesteps == 768
    rows = read_curve(out / "curve.jsonl")
    assert [r["frames"] for r in rows] == [0, 256, 512, 768]
    assert rows[:2] == read_curve(tiny_run / "curve.jsonl")[:2]
    assert json.loads((out / "config.json").read_text())["frames"] == 768


def test_resume_refuses_other_settings_and_a_new_run_refuses_a_used_folder(tiny_run, capsys):
    assert main(["train", "--resume", "--out", str(tiny_run), "--seed", "3"]) == 2
    assert (
        "only --frames, --device and --progress may change, not --seed" in capsys.readouterr().err
    )
    assert main(["train", *TINY, "--out", str(tiny_run)]) == 2
    assert "already holds a run: pass --resume" in capsys.readouterr().err


def test_resume_from_the_cli_and_a_finished_run(tiny_run, tmp_path):
    out = tmp_path / "cli"
    shutil.copytree(tiny_run, out)
    assert main(["train", "--resume", "--out", str(out)]) == 0
    assert load_model(out / "final.zip").num_timesteps == 512  # nothing left to train


def test_a_run_folder_of_the_older_vocabulary_resumes(tiny_run, tmp_path):
    """A config.json written before the one vocabulary is read in today's names."""
    out = tmp_path / "old"
    shutil.copytree(tiny_run, out)
    old = {
        "total_timesteps": 512, "n_envs": 2, "n_steps": 64, "batch_size": 64, "n_epochs": 1,
        "eval_freq": 256, "eval_games": 2, "checkpoint_freq": 256, "net_arch": "16",
        "out_dir": str(out), "resume": "", "progress_bar": False, "reward": "progress",
        "clip_range": 0.2, "vf_warmup": 0, "curriculum": "",
    }  # fmt: skip
    (out / "config.json").write_text(json.dumps(old))
    config, resume = config_from_args(parse_args(["train", "--resume", "--out", str(out)]))
    assert resume and config == tiny_config(out, reward="progress")


def test_curriculum_trains_each_level_in_turn(tmp_path):
    config = tiny_config(tmp_path / "curriculum", levels="1,2", checkpoint_every=0)
    train(config)
    rows = read_curve(tmp_path / "curriculum" / "curve.jsonl")
    assert [(r["frames"], r["level"]) for r in rows] == [
        (0, 1),
        (256, 1),
        (256, 2),
        (512, 2),
    ]


@pytest.mark.slow
def test_subproc_vec_env_trains(tmp_path):
    """One process per env: the deal streams and wrappers travel to the workers."""
    config = tiny_config(tmp_path / "subproc", vec_env="subproc", checkpoint_every=0)
    result = train(config)
    assert result.timesteps == 512
    assert len(read_curve(tmp_path / "subproc" / "curve.jsonl")) == 3


# ------------------------------------------------------------ run names, encoders


def test_runs_without_an_out_dir_get_a_cleanrl_style_name(tmp_path, monkeypatch):
    config = tiny_config(tmp_path, frames=128, eval_every=0, checkpoint_every=0)
    assert config.run_name(1700000000) == "level1__progress__0__1700000000"
    config.levels, config.reward, config.seed = "1-2,4", "score", 7
    assert config.run_name(5) == "levels1-2-4__score__7__5"
    monkeypatch.chdir(tmp_path)
    result = train(tiny_config(Path(), out="", frames=128, eval_every=0))
    run = result.policy.parent
    assert run.parent == Path("runs") and run.name.startswith("level1__progress__0__")
    assert json.loads((run / "config.json").read_text())["out"] == str(run)


def test_every_save_of_a_run_records_its_encoder(tiny_run):
    saved = [tiny_run / "policy.zip", tiny_run / "final.zip"]
    saved += sorted((tiny_run / "checkpoints").glob("*.zip"))
    assert len(saved) > 2
    assert {recorded_encoder(path) for path in saved} == {"flat"}


def test_resume_refuses_a_checkpoint_of_another_encoder(tiny_run, tmp_path):
    out = tmp_path / "dict"
    shutil.copytree(tiny_run, out)
    with pytest.raises(CheckpointError, match="trained on the 'flat' observation, not 'dict'"):
        train(tiny_config(out, observation="dict"), resume=True)


def test_device_cuda_without_cuda_stops_in_one_line(tmp_path, capsys):
    import torch

    if torch.cuda.is_available():
        pytest.skip("this machine has CUDA")
    assert main(["train", *TINY, "--device", "cuda", "--out", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "torch sees no CUDA GPU" in err[0]
    assert not (tmp_path / "r").exists()


@pytest.mark.skipif(not __import__("torch").cuda.is_available(), reason="needs CUDA")
def test_a_run_on_cuda_trains(tmp_path):
    result = train(tiny_config(tmp_path / "gpu", device="cuda"))
    assert result.timesteps == 512
    assert next(load_model(tmp_path / "gpu" / "final.zip").policy.parameters()).is_cpu
