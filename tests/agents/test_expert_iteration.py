"""``friday distill`` (expert iteration) on a tiny budget, and the ``net`` agent it feeds: the
pipeline runs, resumes without replaying, trains on training deals only, refuses bad
settings; ``net`` plays legal games from the public view. No learning threshold here."""

from __future__ import annotations

import contextlib
import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from studies import study_module

from friday_agents.cli import main
from friday_agents.harness.curve import read_curve
from friday_agents.harness.deals import evaluation_seed, training_seed
from friday_agents.harness.games_file import read_games_file
from friday_agents.learning.distill import fit as fit_module
from friday_agents.learning.distill.config import ExitConfigError, load_config, with_overrides
from friday_agents.learning.distill.dataset import Decisions, read_decisions
from friday_agents.learning.distill.fit import fit_network
from friday_agents.learning.distill.games import student_job
from friday_agents.learning.distill.rounds import check_resume
from friday_agents.learning.fitting.policy_net_fit import searched_decisions
from friday_agents.learning.run_folder import RunFolderError
from friday_agents.models import NET_V1
from friday_agents.players.base import play_game
from friday_agents.players.net.agent import NetAgent
from friday_agents.players.networks.policy_net import load_policy_network
from friday_agents.players.registry import make_agent
from friday_env import Game
from friday_env.actions import NUM_ACTIONS
from friday_env.observation import FLAT_SIZE, make_encoder

TINY = {
    "rounds": 2,
    "levels": [1, 4],
    "first_prior": "guided-prior",
    "teacher_games": 1,
    "student_games": 1,
    "sims": 4,
    "top": 2,
    "value": "guided-value-per-level",
    "tau": 2.0,
    "hidden": [8],
    "epochs": 1,
    "held_out_share": 0.3,
    "validation_net": 2,
    "validation_search": 1,
    "seed": 0,
}


def run_distill(root: Path, config: dict, *extra: str) -> int:
    (root / "config.json").write_text(json.dumps(config))
    paths = ["--config", str(root / "config.json"), "--out", str(root / "out")]
    return main(
        ["distill", *paths, "--data", str(root / "data"), "--workers", "1", "--no-progress", *extra]
    )


@pytest.fixture(scope="module")
def study(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("exit")
    assert run_distill(root, TINY) == 0
    return root


def test_rounds_write_networks_summaries_and_the_curve(study):
    out = study / "out"
    for number in (0, 1):
        summary = json.loads((out / f"round-{number:02d}" / "summary.json").read_text())
        assert summary["round"] == number
        assert summary["games"]["teacher"]["games"] == 2  # one deal on each of two levels
        assert summary["games"]["student"]["games"] == 2
        assert set(summary["net"]["levels"]) == set(summary["search"]["levels"]) == {"1", "4"}
        network = load_policy_network(out / f"round-{number:02d}" / "network.npz")
        assert network.value_layers, "the round's network has a value head"
    # round 1 starts from round 0's network, as prior and as student
    second = json.loads((out / "round-01" / "summary.json").read_text())
    assert second["prior"] == str(out / "round-00" / "network.npz")
    assert f"prior={out / 'round-00' / 'network.npz'}" in second["teacher"]
    curve = read_curve(out / "curve.jsonl")
    assert [row.get("round") for row in curve] == [None, 0, 1]
    assert curve[0]["phase"] == "start" and curve[0]["cpu_seconds"] == 0
    # a tiny study costs seconds: the hours may round to 0, never go down
    assert curve[2]["cpu_seconds"] >= curve[1]["cpu_seconds"] >= 0
    games = read_games_file(study / "data" / "round-01" / "teacher.jsonl").games
    assert all(game["seconds"] > 0 for game in games)  # what the hours add up
    assert (out / "curve.png").stat().st_size > 0


def test_a_second_run_resumes_without_playing_again(study):
    files = sorted((study / "data").rglob("*.jsonl"))
    before = {f: f.read_text() for f in files}
    summaries = {f: f.read_text() for f in (study / "out").rglob("summary.json")}
    assert run_distill(study, TINY) == 0
    assert {f: f.read_text() for f in files} == before
    assert {f: f.read_text() for f in (study / "out").rglob("summary.json")} == summaries


def test_rounds_play_training_deals_only_and_the_games_replay(study):
    for path in (study / "data").rglob("*.jsonl"):
        for line in read_games_file(path).games:
            assert line["seed"] == training_seed(line["level"], line["index"])
            assert line["index"] >= 100_000  # none of the earlier studies' deals
    decisions = read_decisions(sorted((study / "data").rglob("*.jsonl")))
    assert len(decisions) > 0
    dense = decisions.batch(np.arange(len(decisions)))
    assert (dense.tried <= dense.legal).all()
    assert (dense.tried.sum(axis=1) >= 2).all()


def test_the_fit_refuses_an_evaluation_deal(tmp_path):
    line = {
        "level": 1,
        "seed": evaluation_seed(1, 0),
        "index": 0,
        "actions": [],
        "won": False,
        "q": {},
    }
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(line) + "\n")
    with pytest.raises(ValueError, match=f"seed {evaluation_seed(1, 0)} is an evaluation deal"):
        read_decisions([path])


def test_student_games_are_the_students_moves_labelled_by_the_search():
    teacher = "search:sims=4:value=guided-value-per-level:prior=guided-prior:top=2"
    line = student_job(("net:model=guided-prior", teacher, 1, 100_000))
    student, game = NetAgent(model="guided-prior"), Game.new(1, line["seed"])
    for step, action in enumerate(line["actions"]):
        legal = game.legal_actions()
        assert action == (legal[0] if len(legal) == 1 else student.act(game))
        if str(step) in line["q"]:
            assert {a for a, _ in line["q"][str(step)]} <= set(legal)
        game.apply(action)
    assert game.done and game.won == line["won"]
    assert line["q"], "the search labelled the student's decisions"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"rounds": 0}, "rounds"),
        ({"levels": [5]}, "levels"),
        ({"hidden": []}, "hidden"),
        ({"tau": 0}, "tau"),
        ({"teacher_games": 0, "student_games": 0}, "teacher_games"),
        ({"value_scale": [1, 1, 1]}, "value_scale"),
        ({"value_scale": [1, 1, 1, 0]}, "value_scale"),
        ({"value_scale": [1, 1, 1, "x"]}, "value_scale"),
    ],
)
def test_bad_settings_are_refused_by_name(tmp_path, change, message):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(TINY | change))
    with pytest.raises(ExitConfigError, match=message):
        load_config(path)


def test_missing_and_unknown_settings_exit_2(tmp_path, capsys):
    config = {k: v for k, v in TINY.items() if k != "sims"} | {"simulations": 4}
    assert run_distill(tmp_path, config) == 2
    err = capsys.readouterr().err
    assert "missing settings ['sims']" in err and "unknown settings ['simulations']" in err


def test_net_plays_legal_games_on_every_level():
    agent = make_agent("net:model=guided-prior")
    for level in (1, 2, 3, 4):
        game = play_game(agent, level, training_seed(level, 7))
        assert game.done


def test_net_plays_the_networks_best_legal_action():
    agent = NetAgent(model="guided-prior")
    game = Game.new(2, training_seed(2, 3))
    while len(game.legal_actions()) < 2:
        game.apply(game.legal_actions()[0])
    probabilities = agent.probabilities(game)
    assert probabilities.sum() == pytest.approx(1.0)
    assert agent.act(game) == game.legal_actions()[int(np.argmax(probabilities))]


@pytest.mark.parametrize("model", ["nets/policy.zip", 3])
def test_net_refuses_a_model_that_is_not_a_network_file(model):
    with pytest.raises(ValueError, match="npz"):
        NetAgent(model=model)


def test_decisions_are_cached_beside_their_games_and_rebuilt_when_they_change(study, tmp_path):
    source = next((study / "data").rglob("teacher.jsonl"))
    lines = source.read_text().splitlines()
    copy = tmp_path / "teacher.jsonl"
    copy.write_text(lines[0] + "\n")
    first = read_decisions([copy])
    cache = tmp_path / "teacher.jsonl.decisions.npz"
    assert cache.exists()
    again = read_decisions([copy])  # read back from the cache
    assert np.array_equal(again.obs_value, first.obs_value)
    assert np.array_equal(again.obs_index, first.obs_index)
    copy.write_text("\n".join(lines[:2]) + "\n")
    assert len(read_decisions([copy])) > len(first)  # the games changed: encoded again


# ------------------------------------------------------------------ at scale: storage, resume


def test_the_sparse_rows_are_the_games_dense_rows(study):
    """Every row read back dense is the replayed game's observation, legal actions and the
    search's values, in the file's order by level and deal."""
    path = study / "data" / "round-00" / "teacher.jsonl"
    decisions = read_decisions([path])
    expected = []
    encoder = make_encoder("flat")
    for line in sorted(read_games_file(path).games, key=lambda g: (g["level"], g["index"])):
        game = Game.new(line["level"], line["seed"])
        for _, legal, tried, q in searched_decisions(game, line, np.float16):
            expected.append((encoder.encode(game).astype(np.float16), legal, tried, q))
    dense = decisions.batch(np.arange(len(decisions)))
    assert len(decisions) == len(expected) > 0
    for row, (obs, legal, tried, q) in enumerate(expected):
        assert np.array_equal(dense.obs[row], obs.astype(np.float32))
        assert np.array_equal(dense.legal[row], legal)
        assert np.array_equal(dense.tried[row], tried)
        assert np.array_equal(dense.q[row], q.astype(np.float32))
    # a tenth of the dense rows' bytes (2.8 KB a decision) or less
    assert decisions.nbytes < 0.2 * len(decisions) * 2788


def test_value_scale_multiplies_the_values_of_its_levels_rows_only(study, tmp_path):
    # net-scale amendment 9: level 4's win probabilities put on the points of levels 1-3
    decisions = read_decisions(sorted((study / "data").rglob("*.jsonl")))
    scaled = decisions.with_value_scale((1.0, 1.0, 1.0, 200.0))
    level4 = (decisions.levels == 4)[
        np.repeat(np.arange(len(decisions)), np.diff(decisions.act_ptr))
    ]
    assert level4.any() and (~level4).any()
    original = decisions.q.astype(np.float32)
    assert np.allclose(scaled.q[level4], 200.0 * original[level4])
    assert np.array_equal(scaled.q[~level4], original[~level4])
    path = tmp_path / "config.json"
    path.write_text(json.dumps(TINY | {"value_scale": [1, 1, 1, 200.0]}))
    config = load_config(path)
    assert [config.value_scale_of(level) for level in (1, 4)] == [1.0, 200.0]
    assert load_config(study / "config.json").value_scale_of(4) == 1.0  # left out: 1


def test_subsets_and_concatenations_keep_each_rows_entries(study):
    decisions = read_decisions(sorted((study / "data").rglob("*.jsonl")))
    rows = np.random.default_rng(0).permutation(len(decisions))
    first, second = rows[: len(rows) // 3], rows[len(rows) // 3 :]
    joined = Decisions.concatenate([decisions.subset(first), decisions.subset(second)])
    whole, parts = decisions.batch(rows), joined.batch(np.arange(len(joined)))
    for name in ("obs", "legal", "tried", "q", "outcome"):
        assert np.array_equal(getattr(whole, name), getattr(parts, name)), name
    mask = decisions.levels == 4
    assert np.array_equal(decisions.subset(mask).outcome, decisions.outcome[mask])


def test_the_sparse_fit_computes_the_dense_fits_losses_and_gradients(study):
    """On the CPU the fit runs the sparse first layers and the legal actions' logits only:
    the same function as the dense rows, up to float rounding."""
    torch = pytest.importorskip("torch")
    from friday_agents.learning.networks import tanh_mlp
    from friday_agents.learning.sparse import kernel_built

    if not kernel_built():
        pytest.skip("the sparse kernel is not built: the fit runs dense")
    decisions = read_decisions(sorted((study / "data").rglob("*.jsonl")))
    torch.manual_seed(0)
    policy, value = tanh_mlp((FLAT_SIZE, 16, NUM_ACTIONS)), tanh_mlp((FLAT_SIZE, 16, 1))
    batch = np.random.default_rng(1).permutation(len(decisions))[:64]
    results = []
    for losses in (fit_module._dense_losses, fit_module._sparse_losses):
        policy.zero_grad()
        value.zero_grad()
        policy_loss, value_loss = losses(policy, value, decisions, batch, 2.0, "cpu")
        (policy_loss + value_loss).backward()
        grads = [p.grad.clone() for p in (*policy.parameters(), *value.parameters())]
        results.append((float(policy_loss.detach()), float(value_loss.detach()), grads))
    (dense_p, dense_v, dense_g), (sparse_p, sparse_v, sparse_g) = results
    assert sparse_p == pytest.approx(dense_p, rel=1e-5)
    assert sparse_v == pytest.approx(dense_v, rel=1e-5)
    for a, b in zip(dense_g, sparse_g, strict=True):
        assert torch.allclose(a, b, atol=1e-6)
    _, info = fit_network(decisions, (8,), 1, 2.0, 0)
    assert info["fit_first_layer"] == "sparse"


def test_a_run_stopped_mid_round_fits_what_an_uninterrupted_run_fits(study, tmp_path):
    """Round 1 stopped after one teacher game (the other level's, so the continued file holds
    the games in another order): continued, it plays the same games and fits the same
    network."""
    copy = tmp_path / "copy"
    shutil.copytree(study, copy)
    for name in ("summary.json", "network.npz"):
        (copy / "out" / "round-01" / name).unlink()
    games = copy / "data" / "round-01"
    for cache in games.glob("*.decisions.npz"):
        cache.unlink()
    (games / "student.jsonl").unlink()
    teacher = (games / "teacher.jsonl").read_text().splitlines()
    (games / "teacher.jsonl").write_text(
        "".join(line + "\n" for line in teacher if json.loads(line)["level"] == 4)
    )
    assert run_distill(copy, TINY) == 0
    for kind in ("teacher", "student"):
        resumed = {_game_key(g) for g in read_games_file(games / f"{kind}.jsonl").games}
        original = read_games_file(study / "data" / "round-01" / f"{kind}.jsonl").games
        assert resumed == {_game_key(g) for g in original}
    mine = load_policy_network(copy / "out" / "round-01" / "network.npz")
    theirs = load_policy_network(study / "out" / "round-01" / "network.npz")
    for (w1, b1), (w2, b2) in zip(mine.layers, theirs.layers, strict=True):
        assert np.array_equal(w1, w2) and np.array_equal(b1, b2)


def test_a_run_continued_without_its_games_plays_the_earlier_rounds_again(study, tmp_path):
    """Round 1's fit reads round 0's games too: continued without the games folder, the run
    plays round 0's games again (the same games) before fitting round 1, never fits without
    them."""
    copy = tmp_path / "copy"
    shutil.copytree(study, copy)
    for name in ("summary.json", "network.npz"):
        (copy / "out" / "round-01" / name).unlink()
    shutil.rmtree(copy / "data")
    assert run_distill(copy, TINY) == 0
    for kind in ("teacher", "student"):
        replayed = read_games_file(copy / "data" / "round-00" / f"{kind}.jsonl").games
        original = read_games_file(study / "data" / "round-00" / f"{kind}.jsonl").games
        assert {_game_key(g) for g in replayed} == {_game_key(g) for g in original}
    mine = load_policy_network(copy / "out" / "round-01" / "network.npz")
    theirs = load_policy_network(study / "out" / "round-01" / "network.npz")
    for (w1, b1), (w2, b2) in zip(mine.layers, theirs.layers, strict=True):
        assert np.array_equal(w1, w2) and np.array_equal(b1, b2)


def _game_key(game: dict) -> str:
    """A game without its CPU seconds (which no two runs share) and its players' specs (which
    name the run's folder)."""
    kept = {k: v for k, v in game.items() if k not in ("seconds", "teacher", "student")}
    return json.dumps(kept | {"student": game["student"] is not None}, sort_keys=True)


def test_a_run_continued_with_other_settings_is_refused_in_one_line(study, tmp_path, capsys):
    copy = tmp_path / "copy"
    shutil.copytree(study / "out", copy / "out")
    assert run_distill(copy, TINY | {"sims": 8}) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert "started with other settings (sims" in line
    assert run_distill(copy, TINY | {"rounds": 1}) == 0  # the budget may change


def test_a_run_continues_with_another_name_of_its_first_prior_file(tmp_path):
    """net-scale amendment 10: the study's run started with ``first_prior: net`` before that
    role changed meaning continues with ``net-v1``, the same file: another name of the same
    bytes is the same setting (here a copy named by its path). Another network is refused."""
    path, out = tmp_path / "config.json", tmp_path / "out"
    path.write_text(json.dumps(TINY | {"first_prior": "net-v1"}))
    config = load_config(path)
    out.mkdir()
    copy = tmp_path / "then.npz"
    shutil.copyfile(NET_V1, copy)
    stored = json.loads(json.dumps(config.to_json()))  # as run_rounds writes it
    (out / "config.json").write_text(json.dumps(stored | {"first_prior": str(copy)}))
    check_resume(config, out)
    for other in ("guided-prior", "no-such-role"):
        (out / "config.json").write_text(json.dumps(stored | {"first_prior": other}))
        with pytest.raises(RunFolderError, match=r"other settings \(first_prior"):
            check_resume(config, out)


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--value", "nowhere.json"], "value file nowhere.json does not exist"),
        (["--value", "guided-prior"], "bad value of value/first_prior"),
        (["--top", "0"], "bad value of top"),
        (["--device", "tpu"], "invalid choice: 'tpu'"),
    ],
)
def test_bad_labelling_settings_are_refused_in_one_line_before_any_game(
    tmp_path, capsys, flags, message
):
    with pytest.raises(SystemExit) if "--device" in flags else contextlib.nullcontext():
        assert run_distill(tmp_path, TINY, *flags) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()[-1:]
    assert message in line, line
    assert not (tmp_path / "out").exists() and not (tmp_path / "data").exists()


def test_rounds_past_the_training_deals_are_refused(tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(TINY | {"first_index": 880_000}))
    with pytest.raises(ExitConfigError, match=r"first_index \(2 rounds from 880,000 reach deal"):
        load_config(path)
    path.write_text(json.dumps(TINY | {"first_index": 700_000}))
    config = load_config(path)
    assert config.round_first_index(1) == 720_000
    assert "value=search-value" in with_overrides(config, path, value="search-value").teacher_spec(
        "p"
    )


def test_device_cuda_without_a_gpu_is_refused_in_one_line(tmp_path, capsys):
    torch = pytest.importorskip("torch")
    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU")
    assert run_distill(tmp_path, TINY, "--device", "cuda") == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert "torch sees no CUDA GPU" in line
    assert not (tmp_path / "out").exists()


def test_the_fit_on_cuda_gives_a_network_that_plays(study):
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("no CUDA GPU")
    decisions = read_decisions(sorted((study / "data").rglob("*.jsonl")))
    network, info = fit_network(decisions, (8,), 1, 2.0, 0, device="cuda")
    assert info["fit_device"] == "cuda"
    dense = decisions.batch(np.arange(len(decisions)))
    assert np.isfinite(network.logits(dense.obs)).all()


# ------------------------------------------------------------------ the level-4 diagnosis


def test_diagnosis_accounts_for_every_game_and_refuses_evaluation_deals(tmp_path):
    diagnose = study_module("expert-iteration", "diagnose")
    common = ["--agents", "heuristic", "--levels", "1,4", "--games", "4", "--save-games"]
    common += ["--workers", "1", "--no-progress"]
    assert main(["eval", *common, "--deals", "validation", "--out", str(tmp_path / "v")]) == 0
    assert diagnose.main([str(tmp_path / "v"), "--out", str(tmp_path / "d.json")]) == 0
    rows = json.loads((tmp_path / "d.json").read_text())["by_agent"]
    assert [(r["agent"], r["level"]) for r in rows] == [("heuristic", 1), ("heuristic", 4)]
    for row in rows:
        assert row["games"] == 4
        assert row["wins"] + sum(row["lost_at"].values()) == 4
        assert row["wins"] <= row["reached_pirates"]
        lost_at_pirates = row["lost_at"]["pirate 1"] + row["lost_at"]["pirate 2"]
        assert row["reached_pirates"] == row["wins"] + lost_at_pirates
    assert main(["eval", *common, "--out", str(tmp_path / "e")]) == 0
    with pytest.raises(SystemExit):
        diagnose.main([str(tmp_path / "e"), "--out", str(tmp_path / "e.json")])
    assert not (tmp_path / "e.json").exists()


@pytest.mark.parametrize("argv", [["exit"], ["exit", "--rounds", "2", "--out", "x"]])
def test_friday_exit_stops_naming_friday_distill(argv, capsys):
    """The old name of the command stops before anything runs, with one line naming the new."""
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "friday distill" in err and "friday exit" in err
