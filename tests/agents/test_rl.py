"""``friday rl`` (friday_agents.learning.rl): the masked PPO trainer on tiny budgets, and the vector
env's ``set_next_deals`` / ``set_game`` that it relies on. No learning thresholds: these
runs are seconds long."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from studies import study_module  # noqa: E402

from friday_agents.cli import main as friday_main  # noqa: E402
from friday_agents.harness.deals import (  # noqa: E402
    draw_training_deals,
    is_training_deal,
    validation_seed,
)
from friday_agents.learning.networks import ActorCritic  # noqa: E402
from friday_agents.learning.rl.config import RLConfig  # noqa: E402
from friday_agents.learning.rl.curriculum import ReverseCurriculum, Start, replay  # noqa: E402
from friday_agents.learning.rl.shaping import FIGHTS_FEATURE, cell_of  # noqa: E402
from friday_agents.learning.rl.trainer import Trainer  # noqa: E402
from friday_agents.players.net.agent import NetAgent  # noqa: E402
from friday_agents.players.networks.policy_net import (  # noqa: E402
    PolicyNetwork,
    load_policy_network,
    save_policy_network,
)
from friday_env import Game  # noqa: E402
from friday_env.observation import FLAT_SIZE, FlatEncoder  # noqa: E402
from friday_env.vector import FridayVectorEnv  # noqa: E402


def random_network_file(path: Path, value_head: bool = True, seed: int = 0) -> Path:
    """A PolicyNetwork .npz with random weights, as expert iteration writes them."""
    rng = np.random.default_rng(seed)

    def layers(sizes: list[int]):
        return tuple(
            (rng.normal(0, 1 / np.sqrt(a), (a, b)).astype(np.float32), np.zeros(b, np.float32))
            for a, b in itertools.pairwise(sizes)
        )

    value = layers([FLAT_SIZE, 16, 1]) if value_head else ()
    save_policy_network(PolicyNetwork("flat", layers([FLAT_SIZE, 16, 199]), value), path)
    return path


def curve(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "curve.jsonl").read_text().splitlines()]


def without_times(rows: list[dict]) -> list[dict]:
    return [{k: v for k, v in row.items() if not k.endswith("seconds")} for row in rows]


# ---------------------------------------------------------------- runs


def test_run_writes_checkpoint_curve_and_policy(tmp_path, tiny_rl):
    row = Trainer(tiny_rl(tmp_path / "run")).run()
    out = tmp_path / "run"
    assert {p.name for p in out.iterdir()} >= {
        "config.json",
        "checkpoint.pt",
        "curve.jsonl",
        "policy.npz",
    }
    rows = curve(out)
    assert [r["updates"] for r in rows] == [0, 1, 2, 3, 4]
    assert rows[-1] == row and row["frames"] == 4 * 4 * 32
    assert {"policy_loss", "value_loss", "kl_to_start", "cpu_seconds", "wall_seconds"} <= set(row)
    assert row["heldout_deals"] == 3 and 0.0 <= row["heldout_win_rate"] <= 1.0
    assert rows[1]["cpu_seconds"] > 0 and rows[-1]["cpu_seconds"] > rows[1]["cpu_seconds"]
    # the loss moved the policy away from its start
    assert rows[-1]["kl_to_start"] > 0


def test_heldout_curve_on_several_levels(tmp_path, tiny_rl):
    row = Trainer(tiny_rl(tmp_path / "run", frames=128, eval_levels="4,1,2")).run()
    assert sorted(row["heldout_by_level"]) == ["1", "2", "4"]
    assert row["heldout_by_level"]["1"]["heldout_win_rate"] == row["heldout_win_rate"]
    assert all(v["heldout_deals"] == 3 for v in row["heldout_by_level"].values())


def test_same_seed_same_run(tmp_path, tiny_rl):
    Trainer(tiny_rl(tmp_path / "a", frames=256)).run()
    Trainer(tiny_rl(tmp_path / "b", frames=256)).run()
    assert without_times(curve(tmp_path / "a")) == without_times(curve(tmp_path / "b"))


def held_out_only_at_periodic_updates(rows: list[dict], every: int) -> list[dict]:
    """The rows without the held-out fields that a chunk's last update adds."""
    held = ("heldout_win_rate", "heldout_mean_score", "heldout_deals")
    return [
        {k: v for k, v in row.items() if k not in held or row["updates"] % every == 0}
        for row in without_times(rows)
    ]


@pytest.mark.parametrize(
    ("method", "init", "cut", "bonus"),
    [
        ("ppo", False, 128, "none"),
        ("reverse", False, 256, "none"),
        ("ppo", True, 384, "none"),
        ("ppo", False, 256, "counts"),  # the visit counts are in the checkpoint
    ],
)
def test_resume_continues_exactly(tmp_path, method, init, cut, bonus, tiny_rl):
    """A run cut at ``cut`` frames (after 1, 2 or 3 of 4 updates; with --init the cut falls
    after the warm-up and an evaluation that halves the KL weight) and resumed ends with
    the same networks and the same curve as the uninterrupted run."""
    extra = {"method": method, "reverse_window": 4, "reverse_start": 2, "bonus": bonus}
    if init:
        extra |= {"init": str(random_network_file(tmp_path / "init.npz")), "warmup_frames": 128}
    Trainer(tiny_rl(tmp_path / "whole", **extra)).run()
    Trainer(tiny_rl(tmp_path / "split", frames=cut, **extra)).run()
    resumed = RLConfig.from_dict(json.loads((tmp_path / "split" / "config.json").read_text()))
    resumed.frames = 512
    Trainer(resumed, resume=True).run()
    whole, split = (np.load(tmp_path / name / "policy.npz") for name in ("whole", "split"))
    assert sorted(whole.files) == sorted(split.files)
    for key in whole.files:
        np.testing.assert_array_equal(whole[key], split[key])
    rows = {name: curve(tmp_path / name) for name in ("whole", "split")}
    assert held_out_only_at_periodic_updates(rows["split"], 2) == held_out_only_at_periodic_updates(
        rows["whole"], 2
    )


def test_resume_drops_curve_rows_after_the_checkpoint(tmp_path, tiny_rl):
    out = tmp_path / "run"
    Trainer(tiny_rl(out, frames=256)).run()
    with open(out / "curve.jsonl", "a") as f:  # a row a killed run wrote after its checkpoint
        f.write(json.dumps({"updates": 3, "frames": 384}) + "\n")
    config = tiny_rl(out, frames=512)
    Trainer(config, resume=True).run()
    assert [r["updates"] for r in curve(out)] == [0, 1, 2, 3, 4]


def test_exported_policy_plays_legal_games_as_net(tmp_path, tiny_rl):
    Trainer(tiny_rl(tmp_path / "run", frames=128)).run()
    agent = NetAgent(str(tmp_path / "run" / "policy.npz"))
    for index in range(2):
        game = Game.new(1, validation_seed(1, index), core="python")
        while not game.done:
            action = agent.act(game)
            assert action in game.legal_actions()
            game.apply(action)


def test_npz_round_trip_keeps_both_networks(tmp_path):
    path = random_network_file(tmp_path / "init.npz")
    model, critic_loaded = ActorCritic.from_file(path)
    assert critic_loaded
    model.save_npz(tmp_path / "again.npz")
    first, again = load_policy_network(path), load_policy_network(tmp_path / "again.npz")
    obs = np.random.default_rng(1).random((5, FLAT_SIZE), dtype=np.float32)
    np.testing.assert_allclose(again.logits(obs), first.logits(obs), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(again.values(obs), first.values(obs), rtol=1e-5, atol=1e-5)
    torch_logits = model.actor(torch.as_tensor(obs)).detach().numpy()
    np.testing.assert_allclose(torch_logits, first.logits(obs), rtol=1e-4, atol=1e-4)


def test_file_without_value_head_gets_a_fresh_critic(tmp_path):
    model, critic_loaded = ActorCritic.from_file(random_network_file(tmp_path / "p.npz", False))
    assert not critic_loaded and model.critic[-1].out_features == 1


# ---------------------------------------------------------------- fine-tuning


def test_defaults_depend_on_init():
    scratch = RLConfig(out="run").resolved()
    tuned = RLConfig(out="run", init="net.npz").resolved()
    assert (scratch.reward, scratch.warmup_frames, scratch.kl_coef) == ("score", 0, 0.0)
    assert (tuned.reward, tuned.warmup_frames, tuned.kl_coef) == ("win_loss", 200_000, 1.0)
    given = RLConfig(out="run", init="net.npz", reward="score", kl_coef=0.1).resolved()
    assert (given.reward, given.kl_coef) == ("score", 0.1)


def test_kl_to_start_is_zero_at_start_and_positive_after_moving(tmp_path, tiny_rl):
    init = random_network_file(tmp_path / "init.npz")
    trainer = Trainer(
        tiny_rl(tmp_path / "run", init=str(init), warmup_frames=0, learning_rate=1e-2)
    )
    obs, mask = trainer.games.obs.clone(), trainer.games.mask.clone()
    assert trainer.kl_to_start(obs, mask) == pytest.approx(0.0, abs=1e-7)
    trainer.run()
    assert trainer.kl_to_start(obs, mask) > 1e-4
    assert all(row["kl_to_start"] > 0 for row in curve(tmp_path / "run")[1:])


def test_fights_shaping_pays_per_fight_and_takes_it_all_back_at_the_end(tmp_path, tiny_rl):
    """--shaping fights is potential-based: same games (the first rollout's policy is the
    same), each step's bonus is the change of fights / 50, and a whole game's shaped return
    equals its plain win_loss return."""
    rollouts = {}
    for shaping in ("none", "fights"):
        config = tiny_rl(tmp_path / shaping, reward="win_loss", shaping=shaping, num_steps=400)
        rollouts[shaping] = Trainer(config).collect_rollout()
    plain, shaped = rollouts["none"], rollouts["fights"]
    assert torch.equal(plain["action"], shaped["action"])
    bonus = shaped["reward"] - plain["reward"]
    assert (bonus > 0).any()
    ended = 0
    for env in range(plain["done"].shape[1]):
        # the first step of a next game
        starts = torch.nonzero(plain["done"][:, env]).flatten().tolist()
        if not starts:
            continue
        end = starts[0]  # the first game ran from step 0 (a deal's start: no fight yet)
        assert torch.isclose(bonus[:end, env].sum(), torch.tensor(0.0), atol=1e-5)
        assert abs(float(plain["reward"][:end, env].sum())) == 1.0
        fights = shaped["obs"][:end, env, FIGHTS_FEATURE]
        steps = torch.diff(fights)
        assert torch.allclose(bonus[: end - 1, env], steps, atol=1e-6)
        ended += 1
    assert ended > 0


def test_count_bonus_pays_for_entering_cells_less_as_they_become_common(tmp_path, tiny_rl):
    """--bonus counts: same games as without (first rollout), a bonus only on the steps
    that finish a fight within a game, coef on a first visit of the cell it leads to,
    coef / sqrt(n) after."""
    rollouts, trainers = {}, {}
    for bonus in ("none", "counts"):
        config = tiny_rl(tmp_path / bonus, reward="win_loss", bonus=bonus, bonus_coef=0.1)
        trainers[bonus] = Trainer(config.__class__(**{**config.to_dict(), "num_steps": 200}))
        rollouts[bonus] = trainers[bonus].collect_rollout()
    plain, counted = rollouts["none"], rollouts["counts"]
    assert torch.equal(plain["action"], counted["action"])
    bonus = (counted["reward"] - plain["reward"]).numpy()
    steps = bonus.shape[0]
    obs = counted["obs"].numpy()
    visited = np.zeros_like(trainers["counts"].games.visits)
    for t in range(steps - 1):
        same_game = counted["done"][t + 1].numpy() == 0
        fought = (obs[t + 1, :, FIGHTS_FEATURE] > obs[t, :, FIGHTS_FEATURE]) & same_game
        assert np.all(bonus[t][~fought] == 0)
        assert np.all(bonus[t][fought] > 0)
        np.add.at(visited, cell_of(obs[t + 1][fought]), 1)
    assert visited.sum() > 0
    assert bonus.max() == pytest.approx(0.1)
    assert 0 < bonus[bonus > 0].min() < 0.1  # a cell entered again pays less
    # the last step's fights are not in this rollout's observations
    extra = trainers["counts"].games.visits - visited
    assert extra.min() >= 0 and extra.sum() <= counted["obs"].shape[1]
    assert trainers["none"].games.visits.sum() == 0


def test_critic_warmup_leaves_the_actor_unchanged(tmp_path, tiny_rl):
    init = random_network_file(tmp_path / "init.npz")
    config = tiny_rl(tmp_path / "run", init=str(init), warmup_frames=512, init_temperature="1")
    Trainer(config).run()
    start, after = load_policy_network(init), load_policy_network(tmp_path / "run" / "policy.npz")
    for (w0, b0), (w1, b1) in zip(start.layers, after.layers, strict=True):
        np.testing.assert_array_equal(w0, w1)
        np.testing.assert_array_equal(b0, b1)
    assert any(
        not np.array_equal(w0, w1)
        for (w0, _), (w1, _) in zip(start.value_layers, after.value_layers, strict=True)
    )
    assert {row["phase"] for row in curve(tmp_path / "run")[1:]} == {"warmup"}


def test_init_temperature_sharpens_the_start_policy_only(tmp_path, tiny_rl):
    init = random_network_file(tmp_path / "init.npz")
    config = tiny_rl(tmp_path / "run", init=str(init), warmup_frames=512, init_temperature="0.25")
    Trainer(config).run()
    start, after = load_policy_network(init), load_policy_network(tmp_path / "run" / "policy.npz")
    for (w0, b0), (w1, b1) in zip(start.layers[:-1], after.layers[:-1], strict=True):
        np.testing.assert_array_equal(w0, w1)
        np.testing.assert_array_equal(b0, b1)
    np.testing.assert_allclose(after.layers[-1][0], 4 * start.layers[-1][0], rtol=1e-6)
    assert curve(tmp_path / "run")[0]["init_temperature"] == 0.25


def test_auto_temperature_follows_its_rule(tmp_path, tiny_rl):
    init = random_network_file(tmp_path / "init.npz")
    Trainer(tiny_rl(tmp_path / "run", init=str(init), frames=128)).run()
    start = curve(tmp_path / "run")[0]
    rates = {float(t): rate for t, rate in start["sampled_win_rate_by_temperature"].items()}
    assert sorted(rates) == [0.02, 0.05, 0.1, 0.2, 0.5, 1.0]
    best = max(rates.values())
    good = [t for t, rate in rates.items() if best > 0 and rate >= 0.9 * best]
    assert start["init_temperature"] == max(good, default=1.0)


def test_kl_weight_halves_when_the_heldout_rate_holds(tmp_path, tiny_rl):
    init = random_network_file(tmp_path / "init.npz")
    Trainer(tiny_rl(tmp_path / "run", init=str(init), warmup_frames=128)).run()
    rows = curve(tmp_path / "run")
    start = rows[0]["heldout_win_rate"]
    coef = 1.0
    for row in rows[1:]:
        assert row["kl_coef"] == coef * (
            0.5 if row["phase"] == "ppo" and row.get("heldout_win_rate", -1) >= start else 1.0
        )
        coef = row["kl_coef"]


# ---------------------------------------------------------------- deals and curriculum


def spy_on_training_deals(monkeypatch, num_envs: int) -> list[int]:
    """Every deal seed the training env (the one with ``num_envs`` envs) starts a game of:
    at reset, at every autoreset, and every game put in by ``set_game``."""
    started: list[int] = []
    reset, step, set_game = FridayVectorEnv.reset, FridayVectorEnv.step, FridayVectorEnv.set_game

    def spy_reset(self, *, seed=None, options=None):
        result = reset(self, seed=seed, options=options)
        if self.num_envs == num_envs:
            started.extend(int(s) for s in options["deal"])
        return result

    def spy_step(self, actions):
        pending = self._out.next_seeds.copy()
        result = step(self, actions)
        if self.num_envs == num_envs:
            started.extend(int(s) for s in pending[result[2]])
        return result

    def spy_set_game(self, env, game):
        if self.num_envs == num_envs:
            started.append(int(game.seed))
        return set_game(self, env, game)

    monkeypatch.setattr(FridayVectorEnv, "reset", spy_reset)
    monkeypatch.setattr(FridayVectorEnv, "step", spy_step)
    monkeypatch.setattr(FridayVectorEnv, "set_game", spy_set_game)
    return started


@pytest.mark.parametrize("method", ["ppo", "reverse"])
def test_only_training_deals_are_played(tmp_path, monkeypatch, method, tiny_rl):
    started = spy_on_training_deals(monkeypatch, num_envs=4)
    Trainer(tiny_rl(tmp_path / "run", method=method, frames=768)).run()
    assert len(started) > 4 + 10  # the reset's deals and many autoresets
    assert all(is_training_deal(seed) for seed in started)


def test_drawn_deals_are_training_deals():
    seeds = draw_training_deals(3, 10_000, np.random.default_rng(0))
    assert all(is_training_deal(int(s)) and 3_000_000 <= s < 3_900_000 for s in seeds)


def test_curriculum_starts_episodes_from_stored_states(tmp_path, monkeypatch, tiny_rl):
    put: list[tuple[int, int]] = []
    set_game = FridayVectorEnv.set_game

    def spy_set_game(self, env, game):
        put.append((int(game.seed), len(game.history)))
        return set_game(self, env, game)

    archived: set[tuple[int, int]] = set()  # every game offered to the archive
    add_game = ReverseCurriculum.add_game

    def spy_add_game(self, seed, actions, won, score):
        archived.add((int(seed), len(actions)))
        return add_game(self, seed, actions, won, score)

    monkeypatch.setattr(FridayVectorEnv, "set_game", spy_set_game)
    monkeypatch.setattr(ReverseCurriculum, "add_game", spy_add_game)
    trainer = Trainer(tiny_rl(tmp_path / "run", method="reverse", reverse_share=1.0, frames=768))
    trainer.run()
    assert put and any(played > 0 for _, played in put)  # games begun in the middle
    # every start is an archived game's deal, k = 5 decisions before its end (or its start)
    lengths = {}
    for seed, length in archived:
        lengths.setdefault(seed, set()).add(max(0, length - 5))
    starts_of_known = [(s, p) for s, p in put if s in lengths]
    assert starts_of_known and all(p in lengths[s] for s, p in starts_of_known)


def test_reverse_curriculum_archive_and_schedule():
    curriculum = ReverseCurriculum(share=1.0, start=2, step=3, threshold=0.5, window=2, size=2)
    curriculum.add_game(1_000_001, [1, 2, 3, 4], won=False, score=-10)
    curriculum.add_game(1_000_002, [5, 6, 7], won=False, score=-5)
    curriculum.add_game(1_000_003, [8, 9], won=False, score=-20)  # worse than both: not kept
    assert sorted(g.seed for g in curriculum.archive) == [1_000_001, 1_000_002]
    start = curriculum.choose_start(np.random.default_rng(0))
    assert start is not None and len(start.prefix) in (2, 1)
    target = Start(1_000_001, (1, 2), target_won=False, target_score=-10)
    curriculum.record(target, won=False, score=-12)  # worse than the game it came from
    curriculum.record(target, won=False, score=-10)  # as good: a success
    assert curriculum.k == 5 and curriculum.outcomes == []  # 1/2 >= 0.5: k moved back
    curriculum.record(target, won=False, score=-30)
    curriculum.record(target, won=False, score=-30)
    assert curriculum.k == 5


def test_reverse_curriculum_keeps_the_best_game_of_each_deal():
    """Wins on one deal replace that deal's game only: they never push another deal's win
    out (a list of the best games filled with one deal's wins), and starts are drawn over
    the deals with a win, not over games."""
    curriculum = ReverseCurriculum(share=1.0, start=2, step=1, threshold=1.0, window=9, size=3)
    curriculum.add_game(1_000_001, [1] * 6, won=True, score=10)
    curriculum.add_game(1_000_002, [2] * 6, won=True, score=20)
    curriculum.add_game(1_000_003, [3] * 6, won=False, score=-5)
    for n in range(5):  # ever better wins on deal 2
        curriculum.add_game(1_000_002, [4] * (6 + n), won=True, score=30 + n)
    curriculum.add_game(1_000_002, [5] * 9, won=False, score=99)  # a loss never replaces a win
    assert [(g.seed, g.won, g.score) for g in curriculum.archive] == [
        (1_000_001, True, 10),
        (1_000_002, True, 34),
        (1_000_003, False, -5),
    ]
    curriculum.add_game(1_000_004, [6] * 6, won=False, score=-9)  # below the worst: left out
    curriculum.add_game(1_000_005, [7] * 6, won=True, score=0)  # a new deal's win: in
    assert sorted(g.seed for g in curriculum.archive) == [1_000_001, 1_000_002, 1_000_005]
    rng = np.random.default_rng(0)
    drawn = {curriculum.choose_start(rng).seed for _ in range(60)}
    assert drawn == {1_000_001, 1_000_002, 1_000_005}
    again = ReverseCurriculum(share=1.0, start=2, step=1, threshold=1.0, window=9, size=3)
    again.load_state_dict(curriculum.state_dict())
    assert again.archive == curriculum.archive


def test_reverse_curriculum_starts_from_won_games_when_it_has_any():
    curriculum = ReverseCurriculum(share=1.0, start=2, step=1, threshold=1.0, window=9, size=5)
    for n in range(4):
        curriculum.add_game(1_000_000 + n, [n] * 6, won=False, score=10 * n)
    curriculum.add_game(1_000_009, [9] * 6, won=True, score=-50)
    rng = np.random.default_rng(3)
    starts = [curriculum.choose_start(rng) for _ in range(20)]
    assert {(s.seed, s.prefix, s.target_won) for s in starts} == {(1_000_009, (9,) * 4, True)}
    assert not starts[0].succeeded(won=False, score=100) and starts[0].succeeded(True, -90)


def test_replay_rebuilds_the_game():
    game = Game.new(2, 2_000_017, core="python")
    for _ in range(12):
        game.apply(game.legal_actions()[-1])
    again = replay(2, 2_000_017, game.history, core="python")
    assert FlatEncoder().encode(again).tolist() == FlatEncoder().encode(game).tolist()
    assert again.legal_actions() == game.legal_actions()


# ---------------------------------------------------------------- the command


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--level", "5"], "level must be 1-4"),
        (["--method", "magic"], "unknown method 'magic'"),
        (["--reward", "points"], "unknown reward 'points'"),
        (["--reward", "progress", "--progress-coef", "-1"], "progress_coef must be a finite"),
        (["--reward", "progress", "--progress-coef", "nan"], "progress_coef must be a finite"),
        (["--progress-coef", "0.2"], "only for --reward progress"),
        (["--shaping", "progress"], "unknown shaping 'progress'"),
        (["--shaping-coef", "-1"], "shaping_coef must be"),
        (["--bonus", "novelty"], "unknown bonus 'novelty'"),
        (["--bonus-coef", "-0.1"], "bonus_coef must be"),
        (["--kl-coef", "0.5"], "kl_coef needs --init"),
        (["--init", "missing.npz"], "does not exist"),
        (["--init", "net.zip"], "must be a PolicyNetwork .npz"),
        (["--init", "bad.npz"], "maps 3 inputs"),
        (["--num-envs", "3", "--num-steps", "5"], "equal minibatches"),
        (["--frames", "0"], "frames must be at least 1"),
        (["--hidden", "64,x"], "hidden must be layer sizes of at least 1 like 64,64"),
        (["--gamma", "1.5"], "gamma must be in"),
        (["--eval-levels", "1,5"], "eval_levels must be levels 1-4"),
        (["--init-temperature", "0"], "init_temperature must be auto or a positive number"),
        (["--resume", "--seed", "3"], "only --frames and --device may change, not --seed"),
        (["--resume", "--out", "nowhere"], "nothing to resume"),
    ],
)
def test_bad_arguments_are_rejected(argv, message, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    weights = {"observation": np.array("flat"), "w0": np.zeros((3, 199)), "b0": np.zeros(199)}
    np.savez(tmp_path / "bad.npz", **weights)  # a network for another observation size
    out = [] if "--out" in argv else ["--out", str(tmp_path / "run")]
    assert friday_main(["rl", *out, *argv, "--no-progress"]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "run").exists()


def test_the_progress_reward_trains_on_the_envs_own_and_resumes_with_it(tmp_path):
    """``--reward progress``: the run's envs pay the env's progress reward with the run's
    coefficient; config.json keeps both and a resumed run trains on them again."""
    out = tmp_path / "run"
    tiny = ["--num-envs", "2", "--num-steps", "32", "--hidden", "8", "--eval-deals", "2"]
    argv = ["rl", "--out", str(out), "--frames", "64", *tiny, "--no-progress"]
    assert friday_main([*argv, "--reward", "progress", "--progress-coef", "0.25"]) == 0
    saved = json.loads((out / "config.json").read_text())
    assert (saved["reward"], saved["progress_coef"]) == ("progress", 0.25)
    resumed = RLConfig.from_dict(saved)
    envs = Trainer(resumed, resume=True).games.envs.unwrapped
    assert (envs.reward_mode, envs.progress_coef) == ("progress", 0.25)
    more = ["rl", "--out", str(out), "--resume", "--frames", "128", "--no-progress"]
    assert friday_main(more) == 0
    assert json.loads((out / "config.json").read_text())["reward"] == "progress"
    assert curve(out)[-1]["frames"] == 128


def test_a_second_run_in_the_same_folder_is_refused(tmp_path, capsys):
    argv = [
        "rl",
        "--out",
        str(tmp_path / "run"),
        "--frames",
        "64",
        "--num-envs",
        "2",
        "--num-steps",
        "32",
        "--hidden",
        "8",
        "--eval-deals",
        "2",
        "--no-progress",
    ]
    assert friday_main(argv) == 0
    assert friday_main(argv) == 2
    assert "already holds a run" in capsys.readouterr().err


def test_help_names_every_option(capsys):
    with pytest.raises(SystemExit):
        friday_main(["rl", "--help"])
    text = capsys.readouterr().out
    for flag in (
        "--init",
        "--method",
        "--warmup-frames",
        "--kl-coef",
        "--kl-decay",
        "--resume",
        "--reverse-share",
        "--archive-from",
    ):
        assert flag in text


def test_progress_text_estimates_only_after_a_ppo_update():
    from friday_agents.learning.rl.bookkeeping import postfix

    warmup = {"phase": "warmup", "updates": 3}
    assert postfix(warmup, 1000, 0.01) == "warmup, update 3, ETA estimating"
    ppo = {"phase": "ppo", "updates": 9, "heldout_win_rate": 0.25}
    assert postfix(ppo, 1000, 0.01) == "ppo, update 9, held-out win 25.0%, ETA 10.0 s"
    assert postfix(ppo, 0, 0.01) == "ppo, update 9, held-out win 25.0%"


def test_friday_rl_help_imports_no_torch():
    import subprocess
    import sys

    code = (
        "import sys; from friday_agents.cli import build_parser; build_parser('rl'); "
        "print('torch' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_behaviour_report_counts_every_decision_of_a_committed_policy(tmp_path):
    behaviour = study_module("rl", "behaviour")
    out = tmp_path / "b.json"
    assert behaviour.main(["--runs", "scratch-ppo-l1", "--deals", "3", "--out", str(out)]) == 0
    row = json.loads(out.read_text())["scratch-ppo-l1"]
    assert row["deals"] == 3 and 0 <= row["wins"] <= 3
    assert row["decisions_per_game"] > 0 and 0 < sum(row["decision_shares"].values()) <= 1.0001
    assert behaviour.decision_kind("end the fight: 3 against 4") == "end the fight"
    with pytest.raises(SystemExit):
        behaviour.main(["--runs", "no-such-run", "--out", str(out)])


# ---------------------------------------------------------------- devices


def test_the_gpu_path_trains_and_resumes_on_the_cpu(tmp_path, monkeypatch, tiny_rl):
    """The trainer's GPU path (observations whole in `DenseRows`, rollout buffers on the
    device, dense layers) on the CPU device: a run and its resumption, legal throughout."""
    from friday_agents import learning
    from friday_agents.learning.rl import trainer

    monkeypatch.setattr(
        trainer,
        "observation_rows",
        lambda n, width, device: learning.sparse.DenseRows(n, width, device),
    )
    run = Trainer(tiny_rl(tmp_path / "dense"))
    assert isinstance(run.rows, learning.sparse.DenseRows)
    run.run()
    assert run.updates == 4
    more = tiny_rl(tmp_path / "dense", frames=6 * 4 * 32)
    resumed = Trainer(more, resume=True)
    resumed.run()
    rows = curve(tmp_path / "dense")
    assert [row["updates"] for row in rows if row["phase"] == "ppo"] == [1, 2, 3, 4, 5, 6]


def test_device_cuda_without_cuda_stops_in_one_line(tmp_path, capsys):
    if torch.cuda.is_available():
        pytest.skip("this machine has CUDA")
    code = friday_main(["rl", "--device", "cuda", "--out", str(tmp_path / "r"), "--no-progress"])
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "torch sees no CUDA GPU" in err[0]
    assert not (tmp_path / "r").exists()


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_a_run_on_cuda_trains_resumes_on_the_cpu(tmp_path, tiny_rl):
    run = Trainer(tiny_rl(tmp_path / "gpu", device="cuda"))
    assert next(run.model.parameters()).is_cuda
    run.run()
    resumed = Trainer(tiny_rl(tmp_path / "gpu", device="cpu", frames=6 * 4 * 32), resume=True)
    resumed.run()
    assert resumed.updates == 6
