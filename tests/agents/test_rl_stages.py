"""``friday rl``'s options for the no-teacher study's later stages, on tiny budgets (no learning
threshold): ``--levels`` (one policy trained on several levels at once, the envs split equally
among them) and ``--progress-coef-final`` (the progress reward's coefficient annealed linearly
over the run's frames, set on the vector env between steps)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from test_rl import curve, held_out_only_at_periodic_updates, random_network_file  # noqa: E402

from friday_agents.cli import main as friday_main  # noqa: E402
from friday_agents.harness.deals import is_training_deal  # noqa: E402
from friday_agents.learning.rl.config import RLConfig  # noqa: E402
from friday_agents.learning.rl.games import make_envs  # noqa: E402
from friday_agents.learning.rl.levels import MixedLevelEnvs, env_levels  # noqa: E402
from friday_agents.learning.rl.trainer import Trainer  # noqa: E402
from friday_env import Game  # noqa: E402
from friday_env.episode import STATS  # noqa: E402

#: A tiny four-level run: 8 envs (2 per level) of 32 steps.
MIXED = {"levels": "1,2,3,4", "num_envs": 8}


def level_of(seed: int) -> int:
    """The level of a training deal (its seed is ``level * 1_000_000 + index``)."""
    return seed // 1_000_000


def same_weights(a: Path, b: Path) -> None:
    first, second = np.load(a / "policy.npz"), np.load(b / "policy.npz")
    assert sorted(first.files) == sorted(second.files)
    for key in first.files:
        np.testing.assert_array_equal(first[key], second[key])


def resume_to(folder: Path, frames: int, config_edit=None) -> None:
    """Resume the run in ``folder`` to ``frames`` from its config.json (``config_edit`` may
    change the file's values first, as an older version of it would have held them)."""
    values = json.loads((folder / "config.json").read_text())
    if config_edit is not None:
        values = config_edit(values)
        (folder / "config.json").write_text(json.dumps(values))
    config = RLConfig.from_dict(values)
    config.frames = frames
    Trainer(config, resume=True).run()


# ---------------------------------------------------------------- the mixed vector env


def test_the_mixed_env_is_its_levels_vector_envs_side_by_side():
    """Obs, masks, rewards, terminated and final_info of `MixedLevelEnvs` are the level
    envs' in env order, for the same deals and actions; ``set_game`` reaches the right one."""
    config = RLConfig(out="unused", reward="progress")
    mixed = MixedLevelEnvs([2, 4], 4, lambda level, n: make_envs(config, n, level))
    alone = {level: make_envs(config, 2, level) for level in (2, 4)}
    deals = np.array([2_000_001, 2_000_002, 4_000_003, 4_000_004], np.uint64)
    obs, info = mixed.reset(options={"deal": deals})
    parts = [
        alone[2].reset(options={"deal": deals[:2]}),
        alone[4].reset(options={"deal": deals[2:]}),
    ]
    np.testing.assert_array_equal(obs, np.concatenate([p[0] for p in parts]))
    next_deals = deals + 100  # the games after these: the same deals in both (as a trainer)
    mixed.set_next_deals(next_deals)
    alone[2].set_next_deals(next_deals[:2])
    alone[4].set_next_deals(next_deals[2:])
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(400):
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in info["action_mask"]])
        obs, reward, terminated, _, info = mixed.step(actions)
        steps = [alone[2].step(actions[:2]), alone[4].step(actions[2:])]
        np.testing.assert_array_equal(obs, np.concatenate([s[0] for s in steps]))
        np.testing.assert_array_equal(reward, np.concatenate([s[1] for s in steps]))
        np.testing.assert_array_equal(terminated, np.concatenate([s[2] for s in steps]))
        if terminated.any():
            mixed.set_next_deals(next_deals)
            alone[2].set_next_deals(next_deals[:2])
            alone[4].set_next_deals(next_deals[2:])
            ended += int(terminated.sum())
            for i in np.flatnonzero(terminated):
                part, j = steps[i // 2], i % 2
                for key in STATS[:-1]:
                    assert info["final_info"][key][i] == part[4]["final_info"][key][j], key
                assert info["final_info"]["level"][i] == (2 if i < 2 else 4)
            assert (info["_final_info"] == terminated).all()
    assert ended >= 4
    game = Game.new(4, 4_000_009)
    row, _ = mixed.set_game(3, game)
    np.testing.assert_array_equal(row, alone[4].set_game(1, game)[0])
    with pytest.raises(ValueError, match=r"env 4 is not in 0\.\.3"):
        mixed.set_game(4, game)


def test_env_levels_split_equally_in_the_order_given():
    assert env_levels([3, 1], 6).tolist() == [3, 3, 3, 1, 1, 1]


# ---------------------------------------------------------------- --levels runs


def test_a_mixed_run_plays_training_deals_of_each_envs_level_and_measures_every_level(
    tmp_path, tiny_rl
):
    trainer = Trainer(tiny_rl(tmp_path / "run", frames=512, **MIXED))
    assert trainer.games.levels.tolist() == [1, 1, 2, 2, 3, 3, 4, 4]
    row = trainer.run()
    games = trainer.games
    seeds = [*games.episodes.seeds, *games.next_deals.tolist()]
    assert all(is_training_deal(seed) for seed in seeds)
    assert [level_of(s) for s in games.episodes.seeds] == games.levels.tolist()
    assert [level_of(int(s)) for s in games.next_deals] == games.levels.tolist()
    assert row["levels"] == [1, 2, 3, 4] and row["level"] == 1
    assert sorted(row["heldout_by_level"]) == ["1", "2", "3", "4"]
    rates = [row["heldout_by_level"][str(lv)]["heldout_win_rate"] for lv in (1, 2, 3, 4)]
    assert row["heldout_trained_win_rate"] == pytest.approx(np.mean(rates))
    saved = json.loads((tmp_path / "run" / "config.json").read_text())
    assert saved["levels"] == "1,2,3,4"


def test_a_mixed_fine_tuning_run_resumes_exactly(tmp_path, tiny_rl):
    """``--init`` on four levels (the start's temperature measured on each), cut after the
    warm-up and resumed: the same networks and curve as the uninterrupted run."""
    extra = {**MIXED, "init": str(random_network_file(tmp_path / "init.npz")), "warmup_frames": 256}
    Trainer(tiny_rl(tmp_path / "whole", frames=1024, **extra)).run()
    Trainer(tiny_rl(tmp_path / "split", frames=512, **extra)).run()
    resume_to(tmp_path / "split", 1024)
    same_weights(tmp_path / "whole", tmp_path / "split")
    rows = {name: curve(tmp_path / name) for name in ("whole", "split")}
    assert rows["whole"][0]["init_temperature"] > 0
    assert held_out_only_at_periodic_updates(rows["split"], 2) == held_out_only_at_periodic_updates(
        rows["whole"], 2
    )


def test_a_run_folder_from_before_the_new_options_resumes_as_one_level(tmp_path, tiny_rl):
    """config.json written before ``--levels`` and the annealing existed (no such keys)
    resumes as the one-level run it was, to the uninterrupted run's end."""
    Trainer(tiny_rl(tmp_path / "whole", reward="progress")).run()
    Trainer(tiny_rl(tmp_path / "split", frames=256, reward="progress")).run()
    new_keys = ("levels", "progress_coef_final", "progress_anneal_frames")
    resume_to(tmp_path / "split", 512, lambda v: {k: x for k, x in v.items() if k not in new_keys})
    same_weights(tmp_path / "whole", tmp_path / "split")
    assert [row.get("levels") for row in curve(tmp_path / "split")] == [None] * 5


def test_one_level_named_in_levels_is_the_plain_run(tmp_path, tiny_rl):
    Trainer(tiny_rl(tmp_path / "plain", frames=256, level=2)).run()
    Trainer(tiny_rl(tmp_path / "named", frames=256, level=2, levels="2")).run()
    same_weights(tmp_path / "plain", tmp_path / "named")


# ---------------------------------------------------------------- --progress-coef-final


def test_the_coefficient_falls_linearly_and_the_env_pays_it(tmp_path, tiny_rl):
    anneal = {"reward": "progress", "progress_coef": 0.2, "progress_coef_final": 0.0}
    trainer = Trainer(tiny_rl(tmp_path / "run", **anneal))
    trainer.run()
    rows = curve(tmp_path / "run")[1:]
    assert [row["progress_coef"] for row in rows] == pytest.approx([0.2, 0.15, 0.1, 0.05])
    assert trainer.games.envs.progress_coef == pytest.approx(0.05)  # the last update's
    saved = json.loads((tmp_path / "run" / "config.json").read_text())
    assert saved["progress_anneal_frames"] == 512
    plain = Trainer(tiny_rl(tmp_path / "plain", frames=256, reward="progress")).config
    assert plain.progress_anneal_frames == 0  # no schedule without annealing


def test_without_a_final_value_the_coefficient_stays(tmp_path, tiny_rl):
    Trainer(tiny_rl(tmp_path / "run", frames=256, reward="progress", progress_coef=0.3)).run()
    assert {row.get("progress_coef") for row in curve(tmp_path / "run")[1:]} == {0.3}


def test_an_annealed_mixed_run_resumes_exactly_and_keeps_its_schedule(tmp_path, tiny_rl):
    """Cut after 4 of 8 updates and resumed with more frames than it started with: the
    schedule (over the frames first asked) continues where it was, then stays at the end."""
    anneal = {**MIXED, "reward": "progress", "progress_coef": 0.2, "progress_coef_final": 0.05}
    Trainer(tiny_rl(tmp_path / "whole", frames=2048, progress_anneal_frames=1024, **anneal)).run()
    Trainer(tiny_rl(tmp_path / "split", frames=1024, **anneal)).run()
    resume_to(tmp_path / "split", 2048)
    same_weights(tmp_path / "whole", tmp_path / "split")
    coefs = [row["progress_coef"] for row in curve(tmp_path / "split")[1:]]
    assert coefs == pytest.approx([0.2, 0.1625, 0.125, 0.0875, *[0.05] * 4])


# ---------------------------------------------------------------- the command


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--levels", "1,5"], "levels must be levels 1-4 like 1,2,3,4, got '1,5'"),
        (["--levels", "1,x"], "levels must be levels 1-4"),
        (["--levels", "1,1,2"], "levels must name each level once"),
        (["--levels", "1,2,3", "--num-envs", "4"], "num_envs (4) must split equally among the 3"),
        (["--levels", "1,3", "--level", "2"], "level 2 is not one of levels '1,3'"),
        (["--levels", "1,2", "--method", "reverse"], "--method reverse trains on one level"),
        (
            ["--reward", "progress", "--progress-coef-final", "-0.5"],
            "progress_coef_final must be a finite number >= 0",
        ),
        (
            ["--reward", "progress", "--progress-coef-final", "nan"],
            "progress_coef_final must be a finite number >= 0",
        ),
        (["--progress-coef-final", "0"], "progress_coef_final=0.0 is only for --reward progress"),
        (
            [
                "--reward",
                "progress",
                "--progress-coef-final",
                "0",
                "--progress-anneal-frames",
                "-1",
            ],
            "progress_anneal_frames must be at least 0",
        ),
        (
            ["--reward", "progress", "--progress-anneal-frames", "1000"],
            "progress_anneal_frames is only for an annealed coefficient",
        ),
    ],
)
def test_bad_values_are_refused_in_one_line(argv, message, tmp_path, capsys):
    out = ["--out", str(tmp_path / "run"), "--num-envs", "4", "--no-progress"]
    assert friday_main(["rl", *out, *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err
    assert not (tmp_path / "run").exists()


def test_levels_on_the_command_line_start_the_curve_at_the_first_named(tmp_path, capsys):
    out = tmp_path / "run"
    tiny = ["--num-envs", "4", "--num-steps", "16", "--hidden", "8", "--eval-deals", "2"]
    argv = ["rl", "--out", str(out), "--frames", "64", *tiny, "--levels", "3,2", "--no-progress"]
    assert friday_main(argv) == 0
    assert "on levels 3,2 mixed" in capsys.readouterr().out
    assert curve(out)[-1]["level"] == 3 and curve(out)[-1]["levels"] == [3, 2]


def test_help_names_the_new_options(capsys):
    with pytest.raises(SystemExit):
        friday_main(["rl", "--help"])
    text = capsys.readouterr().out
    for flag in ("--levels", "--progress-coef-final", "--progress-anneal-frames"):
        assert flag in text
