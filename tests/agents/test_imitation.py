"""``friday imitate``: the pipeline on a tiny budget, DAgger, bad input, and the training hooks
it feeds (``friday train --init``, ``--shaping value``). No learning threshold here."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from rendered import provider
from studies import study_module

from friday_agents.cli import main
from friday_agents.harness.deals import TRAINING_SEED_LIMIT, training_seed
from friday_agents.learning.imitation.data import (
    encode_games,
    load_dataset,
    read_games,
    teacher_game,
)
from friday_agents.learning.sb3.envs import fixed_deals, make_env
from friday_agents.learning.sb3.shaping import potential
from friday_agents.learning.sb3.train import CheckpointError, init_weights, load_model
from friday_agents.players.base import play_game
from friday_agents.players.ppo import PPOAgent
from friday_agents.players.search import SearchAgent
from friday_env import Game

FIT = ["--epochs", "1", "--hidden", "16", "--learning-rate", "0.002"]


@pytest.fixture(scope="module")
def pipeline(tmp_path_factory) -> Path:
    """Two heuristic games per level, encoded, fitted for one epoch on all levels."""
    root = tmp_path_factory.mktemp("imitate")
    games, data = root / "games.jsonl", root / "data.npz"
    collect = ["imitate", "collect", "--teacher", "heuristic", "--levels", "1-4"]
    assert main([*collect, "--games", "2", "--out", str(games), "--workers", "1"]) == 0
    assert main(["imitate", "encode", str(games), "--out", str(data)]) == 0
    fit = ["imitate", "fit", "--dataset", str(data), "--levels", "1-4", *FIT]
    assert main([*fit, "--out", str(root / "policy.zip")]) == 0
    return root


def test_collect_plays_training_deals_and_resumes(pipeline):
    games = read_games(pipeline / "games.jsonl")
    assert sorted((g["level"], g["index"]) for g in games) == [
        (level, i) for level in range(1, 5) for i in range(2)
    ]
    assert all(g["seed"] == training_seed(g["level"], g["index"]) for g in games)
    assert all(g["seed"] < TRAINING_SEED_LIMIT for g in games)
    again = ["imitate", "collect", "--teacher", "heuristic", "--levels", "1-4", "--games", "2"]
    assert main([*again, "--out", str(pipeline / "games.jsonl"), "--workers", "1"]) == 0
    assert len(read_games(pipeline / "games.jsonl")) == 8  # nothing played twice


def test_dataset_holds_every_choice_of_the_teacher(pipeline):
    data = load_dataset(pipeline / "data.npz", "flat")
    games = read_games(pipeline / "games.jsonl")
    assert data.observation == "flat"
    assert set(np.unique(data.levels)) == {1, 2, 3, 4}
    assert data.masks[np.arange(len(data)), data.actions].all()  # labels are legal
    assert (data.masks.sum(axis=1) > 1).all()  # forced moves are left out
    first = games[0]
    replay = Game.new(first["level"], first["seed"])
    choices = []
    for action in first["actions"]:
        if len(replay.legal_actions()) > 1:
            choices.append(action)
        replay.apply(action)
    assert data.actions[data.games == 0].tolist() == choices


def test_fitted_policy_loads_and_plays_legal_games_on_every_level(pipeline):
    agent = PPOAgent(model=str(pipeline / "policy.zip"))
    fit_log = json.loads((pipeline / "policy.fit.json").read_text())
    assert fit_log["levels"] == [1, 2, 3, 4] and len(fit_log["epochs"]) == 1
    for level in range(1, 5):
        game = play_game(agent, level, training_seed(level, 999))  # illegal moves raise
        assert game.done


def test_the_fit_record_holds_the_settings_given(pipeline):
    record = json.loads((pipeline / "policy.fit.json").read_text())
    assert (record["settings"]["epochs"], record["settings"]["learning_rate"]) == (1, 0.002)


def test_search_teacher_records_values_and_replays_its_own_game():
    line = teacher_game("search:sims=2", 4, 7)
    reference = play_game(SearchAgent(sims=2), 4, training_seed(4, 7))
    assert line["actions"] == list(reference.history)
    assert line["q"] and all(len(v) > 1 for v in line["q"].values())
    data = encode_games([line])
    assert data.has_q.any()
    row = int(np.flatnonzero(data.has_q)[0])
    valued = np.isfinite(data.q[row].astype(np.float32))  # NaN: an action not tried
    assert set(np.flatnonzero(valued)) == set(np.flatnonzero(data.masks[row]))  # search tries all


def test_a_dagger_round_labels_student_states_and_refits(pipeline, tmp_path):
    dagger = ["imitate", "dagger", "--student", str(pipeline / "policy.zip")]
    dagger += ["--teacher", "heuristic", "--level", "2", "--games", "2", "--workers", "1"]
    dagger += ["--games-file", str(tmp_path / "dagger.jsonl"), *FIT]
    dagger += ["--data", str(pipeline / "games.jsonl"), "--out", str(tmp_path / "p.zip")]
    assert main(dagger) == 0
    lines = read_games(tmp_path / "dagger.jsonl")
    assert len(lines) == 2 and all(line["labels"] for line in lines)
    game = Game.new(2, 5)
    assert PPOAgent(model=str(tmp_path / "p.zip")).act(game) in game.legal_actions()


def test_train_init_starts_from_the_imitated_weights(pipeline, tmp_path):
    source = load_model(pipeline / "policy.zip")
    from friday_agents.learning.imitation.fit import build_model
    from friday_agents.learning.sb3.config import TrainConfig

    model = build_model(TrainConfig(hidden="16", num_envs=1), 1)
    init_weights(model, pipeline / "policy.zip")
    copied = model.policy.state_dict()
    for name, weights in source.policy.state_dict().items():
        assert np.array_equal(weights.numpy(), copied[name].numpy()), name
    other = build_model(TrainConfig(hidden="8", num_envs=1), 1)
    with pytest.raises(CheckpointError, match="network sizes"):
        init_weights(other, pipeline / "policy.zip")


def test_train_with_init_runs(pipeline, tmp_path):
    flags = ["train", "--init", str(pipeline / "policy.zip"), "--hidden", "16"]
    flags += ["--frames", "128", "--num-envs", "2", "--num-steps", "64", "--eval-deals", "2"]
    flags += ["--minibatches", "2", "--epochs", "1", "--eval-every", "0"]
    flags += ["--no-progress", "--out", str(tmp_path / "run")]
    assert main(flags) == 0
    assert PPOAgent(model=str(tmp_path / "run" / "policy.zip")).act(Game.new(1, 1)) >= 0


# --------------------------------------------------------------------- bad input


def test_unknown_teacher_exits_2(tmp_path, capsys):
    flags = ["imitate", "collect", "--teacher", "grandmaster", "--games", "1"]
    assert main([*flags, "--out", str(tmp_path / "g.jsonl")]) == 2
    assert "unknown agent 'grandmaster'" in capsys.readouterr().err
    assert not (tmp_path / "g.jsonl").exists()


def test_empty_games_and_dataset_exit_2(pipeline, tmp_path, capsys):
    (tmp_path / "empty.jsonl").write_text("")
    assert main(["imitate", "encode", str(tmp_path / "empty.jsonl"), "--out", "x.npz"]) == 2
    assert "no games" in capsys.readouterr().err
    empty = load_dataset(pipeline / "data.npz").subset(np.zeros(0, dtype=int))
    empty.save(tmp_path / "empty.npz")
    fit = ["imitate", "fit", "--dataset", str(tmp_path / "empty.npz"), *FIT]
    assert main([*fit, "--out", str(tmp_path / "p.zip")]) == 2
    assert "is empty" in capsys.readouterr().err
    assert not (tmp_path / "p.zip").exists()


def test_dataset_of_another_observation_exits_2(pipeline, tmp_path, capsys):
    (tmp_path / "dict.toml").write_text('[train]\nobservation = "flat_mask"\n')
    fit = ["imitate", "fit", "--dataset", str(pipeline / "data.npz"), *FIT]
    fit += ["--config", str(tmp_path / "dict.toml"), "--out", str(tmp_path / "p.zip")]
    assert main(fit) == 2
    assert "holds 'flat' observations, the policy reads 'flat_mask'" in capsys.readouterr().err


def test_not_a_dataset_exits_2(tmp_path, capsys):
    (tmp_path / "bad.npz").write_bytes(b"not a zip")
    fit = ["imitate", "fit", "--dataset", str(tmp_path / "bad.npz"), *FIT]
    assert main([*fit, "--out", str(tmp_path / "p.zip")]) == 2
    assert "is not an imitation dataset" in capsys.readouterr().err


# ------------------------------------------------------------- value shaping


@pytest.mark.parametrize("seed", [1, 2])
def test_value_shaping_telescopes_to_win_loss_minus_the_start_potential(seed):
    env = make_env(1, "flat", "win_loss", fixed_deals([seed]), gamma=1.0, shaping=("value", 1.0))
    env.reset(seed=0)
    start = potential(Game.new(1, seed))
    total, done = 0.0, False
    while not done:
        action = int(np.flatnonzero(env.action_masks())[0])
        _, reward, done, _, info = env.step(action)
        total += reward
    assert total == pytest.approx((1 if info["is_success"] else -1) - start)


# ------------------------------------------------------------------ the study


def test_study_evaluates_times_and_renders_paired_rows(pipeline, tmp_path):
    study = study_module("imitation", "study").main

    results = tmp_path / "results"
    timed = tmp_path / "timed.jsonl"
    assert study(["timed", "--levels", "1 2", str(timed), "--", "true"]) == 0
    assert json.loads(timed.read_text())["levels"] == [1, 2]
    common = ["--levels", "1", "--games", "3", "--workers", "1", "--results", str(results)]
    assert study(["evaluate", "heuristic", "--agent", "heuristic", *common]) == 0
    policy = f"ppo:model={pipeline / 'policy.zip'}"
    data = ["--data", str(pipeline / "games.jsonl"), "--timed", str(timed)]
    assert study(["evaluate", "bc", "--agent", policy, *common, *data, "--note", "tiny"]) == 0
    row = json.loads((results / "bc.json").read_text())["levels"]["1"]
    assert len(row["wins"]) == 3 and set(row["cpu_seconds"]) == {"collect", "fit", "train"}
    assert not list(tmp_path.rglob("*.md")), "the study writes results, never Markdown"
    text = provider("imitation").section(results)
    assert "| bc | 1 | 3 |" in text and "(3 deals)" in text and "- **bc**: tiny" in text


def test_same_games_finds_a_cache_that_differs(pipeline, tmp_path):
    study = study_module("imitation", "study").main

    games = pipeline / "games.jsonl"
    assert study(["same-games", str(games), str(games)]) == 0
    lines = read_games(games)
    lines[0]["actions"] = lines[0]["actions"][:-1]
    (tmp_path / "cache.jsonl").write_text("".join(json.dumps(g) + "\n" for g in lines))
    assert study(["same-games", str(games), str(tmp_path / "cache.jsonl")]) == 1


def test_value_warmup_trains_the_critic_and_keeps_the_imitated_actor(pipeline, tmp_path):
    flags = ["train", "--init", str(pipeline / "policy.zip"), "--hidden", "16"]
    flags += ["--frames", "128", "--num-envs", "2", "--num-steps", "64", "--warmup-frames", "1000"]
    flags += ["--minibatches", "2", "--epochs", "1", "--eval-every", "0", "--eval-deals", "2"]
    flags += ["--no-progress", "--out", str(tmp_path / "run")]
    assert main(flags) == 0
    before = load_model(pipeline / "policy.zip").policy.state_dict()
    after = load_model(tmp_path / "run" / "policy.zip").policy.state_dict()
    actor = [k for k in before if k.startswith(("mlp_extractor.policy_net", "action_net"))]
    critic = [k for k in before if k.startswith(("mlp_extractor.value_net", "value_net"))]
    assert actor and critic
    assert all(np.array_equal(before[k].numpy(), after[k].numpy()) for k in actor)
    assert not all(np.array_equal(before[k].numpy(), after[k].numpy()) for k in critic)


def test_soft_targets_of_a_pruned_teacher_cover_only_the_actions_it_tried():
    """A pruned search (``guided``: the prior's choice and the heuristic's) values only some
    legal actions; the others get no share of the soft target (not the value 0)."""
    pytest.importorskip("torch")
    from friday_agents.learning.imitation.fit import _targets

    line = teacher_game("guided:sims=4", 1, 0)
    data = encode_games([line])
    searched = np.flatnonzero(data.has_q)
    assert searched.size, "the pruned teacher searched no decision"
    tried = data.masks & np.isfinite(data.q.astype(np.float32))
    assert (tried.sum(axis=1)[searched] < data.masks.sum(axis=1)[searched]).any()
    targets = _targets(data, tau=2.0).numpy()
    assert np.allclose(targets.sum(axis=1), 1.0)
    assert (targets[searched][~tried[searched]] == 0).all()
