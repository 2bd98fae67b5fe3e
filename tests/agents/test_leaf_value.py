"""The learned leaf value's pipeline on tiny budgets: labelled positions in chunks that resume,
the same data with any number of workers, replayable records, the fit, and the search playing
the fitted network. No learning threshold: a fit of a few dozen positions learns nothing."""

from __future__ import annotations

import gzip
import json

import numpy as np
import pytest
from leaf_nets import random_leaf_network_file

from friday_agents.cli import main
from friday_agents.learning.leaf_value import chunks
from friday_agents.learning.leaf_value.chunks import DataSettings, ValueDataError
from friday_agents.learning.leaf_value.fit import fit_leaf_network
from friday_agents.learning.leaf_value.positions import DealJob, deal_positions
from friday_agents.models import GUIDED_VALUE_CARDS
from friday_agents.players.networks.leaf_net import LeafNetwork, load_leaf_network
from friday_agents.players.networks.linear_value import TURN_START_PHASES, ValueModel, card_features
from friday_agents.players.registry import make_agent
from friday_agents.players.search.compiled import compiled_model
from friday_agents.players.search.value_levels import load_leaf_value
from friday_env import Game

SETTINGS = DataSettings("guided:sims=4", 4, "training", 300_000, 3, 1, 2)


def _arrays(folder):
    data = chunks.read_positions(folder)
    return {name: data[name] for name in chunks.ARRAYS}


def test_chunks_are_written_whole_and_the_same_with_any_workers(tmp_path):
    one, two = tmp_path / "one", tmp_path / "two"
    for folder, workers in ((one, 1), (two, 2)):
        chunks.check_settings(folder, SETTINGS)
        assert sorted(chunks.play_chunks(folder, SETTINGS, workers)) == [300_000, 300_002]
    assert not list(tmp_path.glob("*/*.tmp"))
    first, second = _arrays(one), _arrays(two)
    for name in chunks.ARRAYS:
        assert np.array_equal(first[name], second[name]), name
    assert set(first["deals"].tolist()) == {300_000, 300_001, 300_002}
    assert set(first["sources"].tolist()) == {0, 1}  # base games and one continuation each


def test_a_run_resumes_with_the_missing_chunks_only(tmp_path):
    chunks.check_settings(tmp_path, SETTINGS)
    list(chunks.play_chunks(tmp_path, SETTINGS, 1))
    whole = _arrays(tmp_path)
    (tmp_path / "chunk-300002.npz").unlink()  # as if stopped before the last chunk was written
    assert chunks.missing_chunks(tmp_path, SETTINGS) == [300_002]
    assert list(chunks.play_chunks(tmp_path, SETTINGS, 1)) == [300_002]
    assert list(chunks.play_chunks(tmp_path, SETTINGS, 1)) == []
    again = _arrays(tmp_path)
    assert all(np.array_equal(whole[name], again[name]) for name in chunks.ARRAYS)


def test_a_broken_chunk_is_named_in_one_line(tmp_path):
    chunks.check_settings(tmp_path, SETTINGS)
    list(chunks.play_chunks(tmp_path, SETTINGS, 1))
    broken = tmp_path / "chunk-300002.npz"
    broken.write_bytes(broken.read_bytes()[:100])
    with pytest.raises(ValueDataError, match=r"chunk-300002\.npz"):
        chunks.read_positions(tmp_path)


def test_a_run_extended_by_more_deals_plays_its_cut_last_chunk_again_whole(tmp_path):
    short = DataSettings(**{**vars(SETTINGS), "deals": 3})  # chunks 300000 (2 deals), 300002 (1)
    longer = DataSettings(**{**vars(SETTINGS), "deals": 4})  # 300002 now holds 2
    chunks.check_settings(tmp_path, short)
    list(chunks.play_chunks(tmp_path, short, 1))
    assert chunks.missing_chunks(tmp_path, longer) == [300_002]
    chunks.check_settings(tmp_path, longer)
    assert list(chunks.play_chunks(tmp_path, longer, 1)) == [300_002]
    deals = chunks.read_positions(tmp_path)["deals"].tolist()
    assert sorted(set(deals)) == [300_000, 300_001, 300_002, 300_003]
    assert deals == sorted(deals)  # each deal once, in order


def test_a_folder_refuses_other_settings_but_may_grow(tmp_path):
    chunks.check_settings(tmp_path, SETTINGS)
    grown = DataSettings(**{**vars(SETTINGS), "deals": 10})
    chunks.check_settings(tmp_path, grown)
    other = DataSettings(**{**vars(SETTINGS), "continuations": 3})
    with pytest.raises(ValueDataError, match="continuations"):
        chunks.check_settings(tmp_path, other)


def test_every_position_is_a_turn_start_of_a_replayable_game_labelled_by_its_result():
    job = DealJob("guided:sims=4", 4, "training", 300_005, 2)
    result = deal_positions(job)
    record = result["record"]
    games = [(record["actions"], record["won"], 0)]
    games += [
        (record["actions"][: c["branch"]] + c["actions"], c["won"], c["branch"])
        for c in record["continuations"]
    ]
    assert len(games) == 3
    for source, (actions, won, branch) in enumerate(games):
        game, expected = Game.new(4, record["seed"]), []
        for action in actions:
            if game.phase in TURN_START_PHASES and (source == 0 or len(game.history) > branch):
                expected.append((len(game.history), card_features(game)))
            game.apply(action)
        assert game.done and game.won == won
        mine = result["sources"] == source
        assert result["moments"][mine].tolist() == [moment for moment, _ in expected]
        assert np.array_equal(result["rows"][mine], np.array([r for _, r in expected], np.float32))
        assert set(result["won"][mine].tolist()) <= {int(won)}
    for continuation in record["continuations"]:  # the branch is another action than guided's
        assert continuation["actions"][0] != record["actions"][continuation["branch"]]


def test_the_commands_play_fit_and_the_search_plays_the_fit(tmp_path):
    pytest.importorskip("torch")  # the fit's (the rl extra)
    train, validation, out = tmp_path / "train", tmp_path / "validation", tmp_path / "leaf.npz"
    common = ["--agent", "guided:sims=4", "--continuations", "1", "--no-progress", "--workers", "1"]
    assert main(["value", "data", "--deals", "2", "--out", str(train), *common]) == 0
    assert (
        main(
            [
                "value",
                "data",
                "--deals",
                "1",
                "--deal-set",
                "validation",
                "--out",
                str(validation),
                *common,
            ]
        )
        == 0
    )
    fit = ["value", "fit", "--data", str(train), "--validation", str(validation), "--out", str(out)]
    assert main([*fit, "--hidden", "4", "--max-epochs", "2", "--device", "cpu"]) == 0
    report = json.loads(out.with_suffix(".json").read_text())
    assert report["device"] == "cpu"
    assert report["train_positions"] == len(chunks.read_positions(train)["won"])
    assert 1 <= report["best_epoch"] <= len(report["epochs"]) <= 2
    assert report["held_out"]["positions"] == len(chunks.read_positions(validation)["won"])
    network = load_leaf_network(out)
    assert [b.shape[0] for _, b in network.layers] == [4, 1]
    agent = make_agent(f"guided:sims=4:value={out}")
    game = Game.new(4, 4_000_123)
    agent.reset(1)
    while not game.done:
        action = agent.act(game)
        assert action in game.legal_actions()
        game.apply(action)
    with gzip.open(train / "chunk-300000.jsonl.gz", "rt") as handle:
        assert [json.loads(line)["index"] for line in handle] == [300_000, 300_001]


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        (["data", "--deals", "0", "--out", "X"], "deals must be at least 1"),
        (["data", "--deals", "2", "--first-index", "899999", "--out", "X"], "training indices"),
        (["data", "--deals", "2", "--agent", "nobody", "--out", "X"], "nobody"),
        (["data", "--deals", "2", "--level", "5", "--out", "X"], "level must be 1, 2, 3 or 4"),
        (["fit", "--data", "X", "--validation", "X", "--out", "Y.npz"], "no value data set"),
    ],
)
def test_bad_input_is_refused_in_one_line(tmp_path, capsys, arguments, words):
    arguments = [str(tmp_path / a) if a in ("X", "Y.npz") else a for a in arguments]
    assert main(["value", *arguments]) == 2
    assert words in capsys.readouterr().err
    assert not (tmp_path / "X").exists()


def test_fit_device_cuda_without_cuda_stops_in_one_line_before_any_file(tmp_path, capsys):
    torch = pytest.importorskip("torch")
    if torch.cuda.is_available():
        pytest.skip("this machine has CUDA")
    missing, out = str(tmp_path / "missing"), tmp_path / "leaf.npz"
    fit = ["value", "fit", "--data", missing, "--validation", missing, "--out", str(out)]
    assert main([*fit, "--device", "cuda"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "torch sees no CUDA GPU" in err[0]  # not the missing folders
    assert list(tmp_path.iterdir()) == []


def test_a_fit_on_cuda_matches_the_fit_on_the_cpu():
    """The shuffle's generator stays on the CPU, so both devices see the same batches; only
    float rounding differs."""
    if not pytest.importorskip("torch").cuda.is_available():
        pytest.skip("needs CUDA")
    rng = np.random.default_rng(0)
    x = rng.normal(size=(300, 6))
    y = (x[:, 0] + rng.normal(size=300) > 0).astype(np.float64)
    train, validation = (x[:200], y[:200]), (x[200:], y[200:])
    fits = [fit_leaf_network(train, validation, (8,), 3, 3, 0, device=d) for d in ("cpu", "cuda")]
    (cpu, cpu_record), (cuda, cuda_record) = fits
    assert cpu_record["best_epoch"] == cuda_record["best_epoch"]
    assert np.allclose(cpu.win_probability(x), cuda.win_probability(x), atol=1e-4)


def test_a_per_level_file_may_name_a_leaf_network(tmp_path):
    """guided's linear models on levels 1-3 and a leaf network on level 4: each level's
    searches run in C with its own model."""
    leaf = random_leaf_network_file(tmp_path)
    per_level = tmp_path / "per_level.json"
    linear = str(GUIDED_VALUE_CARDS)
    levels = {"1": linear, "2": linear, "3": linear, "4": leaf.name}
    per_level.write_text(json.dumps({"format": "friday-env/value-per-level", "levels": levels}))
    model = load_leaf_value(per_level)
    assert isinstance(compiled_model(model, 4), LeafNetwork)
    assert isinstance(compiled_model(model, 1), ValueModel)
    agent = make_agent(f"guided:sims=4:value={per_level}")
    for level in (1, 4):
        game = Game.new(level, 4_000_321 + level, core="c")
        assert agent.compiled_search(game).model is compiled_model(model, level)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d.update(w1=d["w1"][:5]), "must chain"),
        (lambda d: d.update(scale=d["scale"] * 0), "non-zero"),
        (lambda d: d.update(input_names=d["input_names"][:-1]), "other inputs"),
    ],
)
def test_a_broken_leaf_network_is_refused_in_one_line(tmp_path, change, words):
    with np.load(random_leaf_network_file(tmp_path)) as data:
        arrays = dict(data)
    change(arrays)
    path = tmp_path / "broken.npz"
    np.savez(path, **arrays)
    with pytest.raises(ValueError, match=words) as error:
        make_agent(f"guided:value={path}")
    assert "\n" not in str(error.value)
