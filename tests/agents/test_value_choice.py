"""Choosing the search's leaf value: validation deals, per-level value files, the value check."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from rendered import provider
from studies import study_module

from friday_agents.cli import main
from friday_agents.evaluation.runner import EvalConfig, EvaluationError
from friday_agents.evaluation.workflow import command_line
from friday_agents.harness.deals import (
    deal_seed,
    evaluation_seed,
    is_evaluation_seed,
    is_validation_seed,
    training_seed,
    validation_seed,
)
from friday_agents.learning.fitting import value_fit
from friday_agents.learning.fitting.game_data import ReplayCount, turn_start_examples
from friday_agents.models import GUIDED_VALUE_LEAF, GUIDED_VALUE_PER_LEVEL
from friday_agents.players.base import play_game
from friday_agents.players.heuristic.agent import HeuristicAgent
from friday_agents.players.networks.leaf_net import LeafNetwork
from friday_agents.players.networks.linear_value import (
    CARD_FEATURE_NAMES,
    DECK_TYPES,
    FEATURE_NAMES,
    WEIGHTS_FILE,
    ValueModel,
    card_features,
    features,
    known_cards,
    load_value_model,
)
from friday_agents.players.networks.value_net import NETWORK_FILE
from friday_agents.players.search.agent import SearchAgent
from friday_agents.players.search.guided import GuidedSearchAgent
from friday_agents.players.search.value_levels import (
    DEFAULT_VALUE_FILE,
    FORMAT,
    PerLevelValue,
    load_leaf_value,
)
from friday_env import Game
from friday_env.cards import TYPE_BY_KEY

ingredients = study_module("search-strength", "ingredients")
value_check = study_module("search-strength", "value_check")

REPO = Path(__file__).resolve().parents[2]


def run_eval(out: Path, *options: str) -> int:
    return main(["eval", "--out", str(out), "--no-progress", "--workers", "1", *options])


# ------------------------------------------------------------ validation deals


def test_validation_deals_are_training_deals_no_fit_reads():
    assert validation_seed(3, 0) == training_seed(3, 900_000) == 3_900_000
    assert validation_seed(1, 99_999) == 1_999_999
    assert deal_seed("validation", 2, 5) == 2_900_005
    assert deal_seed("evaluation", 2, 5) == evaluation_seed(2, 5)
    for seed in (validation_seed(4, 7), validation_seed(1, 0)):
        assert is_validation_seed(seed) and not is_evaluation_seed(seed)
    assert not is_validation_seed(training_seed(1, 649))
    assert not is_validation_seed(evaluation_seed(1, 950_000))
    with pytest.raises(ValueError, match="validation deal index"):
        validation_seed(1, 100_000)
    with pytest.raises(ValueError, match="unknown deal set 'test'"):
        deal_seed("test", 1, 0)


def test_eval_plays_the_validation_deals_when_asked(tmp_path, capsys):
    out = tmp_path / "run"
    assert run_eval(out, "--agents", "heuristic", "--levels", "2", "--games", "3",
                    "--deals", "validation") == 0  # fmt: skip
    rows = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert sorted(r["seed"] for r in rows) == [2_900_000, 2_900_001, 2_900_002]
    results = json.loads((out / "results.json").read_text())
    assert "--deals validation" in results["command"] and "validation" in results["seeds"]
    for row in rows:  # the same deal as a game started from the validation seed
        game = play_game(HeuristicAgent(), 2, row["seed"])
        assert (game.won, game.score()) == (row["won"], row["score"])
    assert run_eval(out, "--resume", "--deals", "evaluation") == 2
    assert "deals is 'validation'" in capsys.readouterr().err


def test_validation_results_are_never_published(tmp_path):
    """The renderer refuses a committed results file of validation deals (they choose
    variants; the published tables are on the evaluation deals)."""
    out = tmp_path / "experiments/results/readme_results.json"
    assert run_eval(tmp_path / "run", "--agents", "random", "--levels", "1", "--games", "1",
                    "--deals", "validation") == 0  # fmt: skip
    out.parent.mkdir(parents=True)
    out.write_text((tmp_path / "run" / "results.json").read_text())
    with pytest.raises(ValueError, match="not a complete run on the evaluation deals"):
        provider("evaluation").published_results(tmp_path)


def test_deal_set_is_stored_and_old_runs_read_as_evaluation():
    config = EvalConfig(("random",), (1,), {"random": 2}, 4, deals="validation")
    assert EvalConfig.from_json(config.to_json()) == config
    assert "--deals validation" in command_line(config, Path("x"))
    old = config.to_json()
    del old["config"]["deals"]
    assert EvalConfig.from_json(old).deals == "evaluation"
    with pytest.raises(EvaluationError, match="unknown deal set 'train'"):
        EvalConfig(("random",), (1,), {"random": 2}, 4, deals="train")


def _rows_dir(path: Path, agent: str, seeds: list[int], won: bool) -> Path:
    path.mkdir()
    rows = [{"agent": agent, "level": 1, "index": i, "seed": seed} for i, seed in enumerate(seeds)]
    lines = [json.dumps(row | {"won": won, "score": 10 * won, "seconds": 1.0}) for row in rows]
    (path / "games.jsonl").write_text("\n".join(lines) + "\n")
    return path


def test_ingredients_keep_validation_and_evaluation_runs_apart(tmp_path):
    base = _rows_dir(tmp_path / "b", "search", [validation_seed(1, i) for i in range(2)], False)
    other = _rows_dir(tmp_path / "o", "search:sims=8", [validation_seed(1, i) for i in range(2)], 1)
    out = tmp_path / "v.json"
    assert ingredients.main([str(base), str(other), "--out", str(out)]) == 0
    (row,) = json.loads(out.read_text())["comparisons"]
    assert row["deals"] == "validation" and row["win_rate_difference"][0] == 1.0
    assert not out.with_suffix(".md").exists()
    (tmp_path / "experiments/search-strength/results").mkdir(parents=True)
    out.rename(tmp_path / "experiments/search-strength/results/ingredients.json")
    with pytest.raises(ValueError, match="validation-deal runs: not for publishing"):
        provider("search_strength").ingredients_section(tmp_path)
    evaluation = _rows_dir(tmp_path / "e", "search", [evaluation_seed(1, 5)], False)
    with pytest.raises(ValueError, match="mixes evaluation and validation"):
        ingredients.pooled_rows([base, evaluation])


def test_value_fits_refuse_validation_deals(tmp_path):
    data = tmp_path / "games.jsonl"
    line = {"level": 1, "seed": validation_seed(1, 3), "actions": [], "won": 0, "score": 0}
    data.write_text(json.dumps(line) + "\n")
    with pytest.raises(ValueError, match="is a validation deal"):
        list(turn_start_examples(data, ReplayCount()))


# -------------------------------------------------------- per-level values


def _per_level(path: Path, levels: dict, **extra) -> Path:
    path.write_text(json.dumps({"format": FORMAT, "levels": levels} | extra))
    return path


def _heuristic_games(path: Path, games_per_level: int) -> Path:
    lines = []
    for level in (1, 2, 3, 4):
        for index in range(games_per_level):
            seed = training_seed(level, index)
            game = play_game(HeuristicAgent(), level, seed)
            lines.append(
                json.dumps(
                    {"level": level, "seed": seed, "index": index, "won": game.won}
                    | {"score": game.score(), "actions": [int(a) for a in game.history]}
                )
            )
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture(scope="module")
def tiny_data(tmp_path_factory) -> Path:
    return _heuristic_games(tmp_path_factory.mktemp("data") / "games.jsonl", 26)


@pytest.fixture(scope="module")
def tiny_model(tiny_data) -> Path:
    """A linear model fitted on a few heuristic games per level."""
    out = tiny_data.with_name("tiny.json")
    argv = ["--data", str(tiny_data), "--workers", "1", "--min-states", "3", "--out", str(out)]
    assert main(["fit", "linear-value", *argv]) == 0
    return out


def test_per_level_file_values_each_level_with_its_model(tmp_path, tiny_model):
    shutil.copy(WEIGHTS_FILE, tmp_path / "shipped.json")
    shutil.copy(NETWORK_FILE, tmp_path / "net.npz")
    shutil.copy(tiny_model, tmp_path / "tiny.json")
    levels = {"1": "shipped.json", "2": "net.npz", "3": "tiny.json", "4": "shipped.json"}
    path = _per_level(tmp_path / "mix.json", levels, note="a test")
    model = load_leaf_value(path)
    assert isinstance(model, PerLevelValue)
    tiny = load_value_model(tmp_path / "tiny.json")
    shipped = load_value_model(tmp_path / "shipped.json")
    for level in (1, 2, 3, 4):
        game = Game.new(level, training_seed(level, 77))
        expected = {1: shipped, 3: tiny, 4: shipped}.get(level, model.models[2])
        assert model.value(game) == expected.value(game)
    assert tiny.value(Game.new(3, 5)) != shipped.value(Game.new(3, 5))
    agent = SearchAgent(sims=4, value=str(path))
    game = Game.new(3, training_seed(3, 1))
    agent.reset(1)
    assert agent.act(game) in game.legal_actions()


@pytest.mark.parametrize(
    ("levels", "message"),
    [
        ({"1": "a.json", "2": "a.json", "3": "a.json"}, r"missing: \['4'\]"),
        ({str(lv): "a.json" for lv in (1, 2, 3, 4, 5)}, r"unknown: \['5'\]"),
        ({str(lv): "none.json" for lv in (1, 2, 3, 4)}, "does not exist"),
        ({str(lv): "a.txt" for lv in (1, 2, 3, 4)}, "must be a .json"),
        ({str(lv): "self.json" for lv in (1, 2, 3, 4)}, "another per-level file"),
        ({str(lv): "other.json" for lv in (1, 2, 3, 4)}, "neither a linear value model"),
        ("a.json", "needs a 'levels' object"),
    ],
)
def test_bad_per_level_files_are_named(tmp_path, levels, message):
    shutil.copy(WEIGHTS_FILE, tmp_path / "a.json")
    (tmp_path / "other.json").write_text(json.dumps({"something": 1}))
    path = _per_level(tmp_path / "self.json", levels)
    with pytest.raises((ValueError, FileNotFoundError), match=message):
        SearchAgent(value=str(path))


def test_broken_value_files_are_named(tmp_path):
    (tmp_path / "broken.json").write_text("{not json")
    with pytest.raises(ValueError, match=r"broken\.json cannot be read: not valid JSON"):
        load_leaf_value(tmp_path / "broken.json")
    (tmp_path / "list.json").write_text("[1, 2]")
    with pytest.raises(ValueError, match="holds no JSON object"):
        load_leaf_value(tmp_path / "list.json")
    with pytest.raises(ValueError, match="no value model for level 2"):
        PerLevelValue({}).value(Game.new(2, 3))


# ------------------------------------------------------------- the value check


def test_value_check_scores_models_on_held_out_states_and_decisions(
    tmp_path, tiny_data, tiny_model
):
    out = tmp_path / "check.json"
    argv = ["--data", str(tiny_data), "--model", f"shipped={WEIGHTS_FILE}", "--model",
            f"tiny={tiny_model}", "--levels", "2,3", "--holdout-from", "10",
            "--decisions", "3", "--out", str(out)]  # fmt: skip
    assert value_check.main(argv) == 0
    report = json.loads(out.read_text())
    assert report["command"].endswith(str(out))
    for level in ("2", "3"):
        for name in ("shipped", "tiny"):
            states, decisions = report[level]["states"][name], report[level]["decisions"][name]
            assert states["states"] > 0 and states["mse"] >= 0
            assert 0 <= states["concordance"] <= 1
            assert decisions["decisions"] == 3
            assert 0 <= decisions["best_choice_share"] <= 1
            hazards = report[level]["hazards"][name]
            assert hazards["choices"] > 0 and 0 <= hazards["costlier_share"] <= 1
    assert set(report["life_drops"]["tiny"]) == {
        f"{lv}/{st}" for lv in (1, 2, 3, 4) for st in (0, 1, 2)
    }
    assert report["life_drops"]["shipped"] is not None
    value_check.main(argv)
    assert json.loads(out.read_text()) == report  # deterministic


def test_life_drops_name_the_lives_valued_below_one_life_less():
    w = np.zeros(len(FEATURE_NAMES))
    w[FEATURE_NAMES.index("life")], w[FEATURE_NAMES.index("low_life")] = 1.0, 2.5
    drops = value_check.life_drops(ValueModel({(1, 0): w, (1, 3): -w}, 0.0))
    assert drops == {"1/0": [4]}  # life 4 loses the low-life bonus; pirates are no leaf
    assert value_check.life_drops(load_leaf_value(NETWORK_FILE)) is None


def test_value_check_names_bad_arguments(tmp_path, tiny_data):
    base = ["--data", str(tiny_data), "--out", str(tmp_path / "c.json")]
    with pytest.raises(SystemExit):
        value_check.main([*base, "--model", "noequals"])
    with pytest.raises(SystemExit):
        value_check.main([*base, "--model", "x=missing.json"])
    with pytest.raises(ValueError, match="no held-out level-1 states"):
        value_check.main(
            [*base, "--model", f"s={WEIGHTS_FILE}", "--levels", "1", "--holdout-from", "99"]
        )


def test_guided_values_each_level_with_the_per_level_choice():
    """``guided`` values each level with the model its per-level file (``guided-value-leaf``)
    names, ``guided:value=guided-value-per-level`` (its value before the level-4 leaf study)
    with the linear models that file names, while ``search`` keeps the heuristic-fitted model
    its committed runs were played with; the refitted model shipped is the one fitted from the
    committed search games."""
    assert isinstance(SearchAgent().model, ValueModel)
    assert SearchAgent().model is load_value_model(WEIGHTS_FILE)
    assert DEFAULT_VALUE_FILE == GUIDED_VALUE_LEAF
    assert SearchAgent(value="guided-value-leaf").model is GuidedSearchAgent().model
    default = GuidedSearchAgent().model
    assert isinstance(default, PerLevelValue)
    for level, name in json.loads(GUIDED_VALUE_LEAF.read_text())["levels"].items():
        assert default.models[int(level)] is load_leaf_value(GUIDED_VALUE_LEAF.parent / name)
    assert isinstance(default.models[4], LeafNetwork)
    before = GuidedSearchAgent(value="guided-value-per-level").model
    assert SearchAgent(value="guided-value-per-level").model is before is not default
    chosen = json.loads(GUIDED_VALUE_PER_LEVEL.read_text())["levels"]
    assert set(chosen.values()) <= {
        "search_value.json",
        "guided_value_level4.json",
        "guided_value_cards.json",
    }
    for level, name in chosen.items():
        assert before.models[int(level)] is load_value_model(GUIDED_VALUE_PER_LEVEL.parent / name)
    for level in (1, 2, 3):  # the leaf study changed level 4 only
        assert default.models[level] is before.models[level]
    shipped = json.loads((DEFAULT_VALUE_FILE.parent / "guided_value_level4.json").read_text())
    fitted = REPO / "experiments/search-strength/results/value_linear_search2600.json"
    assert shipped == json.loads(fitted.read_text())
    assert shipped["data"] == "experiments/data/search32-train-2600.jsonl.gz"


# -------------------------------------------------------- the "cards" feature set


def test_card_features_count_robinsons_known_cards_and_the_pirates():
    game = Game.new(1, training_seed(1, 3))
    row = card_features(game)
    basic, holds, faces = np.split(row, [len(FEATURE_NAMES), len(FEATURE_NAMES) + len(DECK_TYPES)])
    assert (basic == features(game)).all()
    assert holds.sum() == len(known_cards(game)) == 18  # the starting deck, order unknown
    assert holds[DECK_TYPES.index(TYPE_BY_KEY["distracted"])] == 5
    assert faces.sum() == 2
    assert len(row) == len(CARD_FEATURE_NAMES)


def test_cards_value_model_fits_loads_and_values_with_its_features(tmp_path, tiny_data):
    out = tmp_path / "cards.json"
    argv = ["--data", str(tiny_data), "--workers", "1", "--min-states", "3", "--out", str(out)]
    assert main(["fit", "linear-value", *argv, "--features", "cards"]) == 0
    assert json.loads(out.read_text())["features"] == list(CARD_FEATURE_NAMES)
    model = load_value_model(out)
    assert model.feature_set == "cards"
    game = Game.new(2, training_seed(2, 7))
    assert model.value(game) == pytest.approx(card_features(game) @ model.models[(2, 0)])
    assert load_value_model(WEIGHTS_FILE).feature_set == "basic"
    agent = GuidedSearchAgent(sims=4, value=str(out))
    agent.reset(1)
    assert agent.act(game) in game.legal_actions()


@pytest.mark.slow  # refits all four levels; the default suite refits level 1 (below)
def test_shipped_cards_model_is_the_fit_of_the_committed_games(tmp_path):
    """guided_value_cards.json (guided's value on levels 1-3) comes out of its recorded
    command, byte for byte, from the training games committed under experiments/data."""
    shipped = DEFAULT_VALUE_FILE.parent / "guided_value_cards.json"
    data = json.loads(shipped.read_text())["data"]
    out = tmp_path / "cards.json"
    argv = ["--data", *(str(REPO / name) for name in data), "--features", "cards"]
    assert main(["fit", "linear-value", *argv, "--workers", "1", "--out", str(out)]) == 0
    refit = json.loads(out.read_text())
    assert refit.pop("data") == [str(REPO / name) for name in data]
    assert refit == {
        key: value for key, value in json.loads(shipped.read_text()).items() if key != "data"
    }


def test_shipped_cards_model_of_level_1_is_the_fit_of_the_committed_games():
    """Level 1 of guided_value_cards.json comes out of the committed training games to the
    last digit (the test above, marked slow, refits every level through the command)."""
    shipped = json.loads((DEFAULT_VALUE_FILE.parent / "guided_value_cards.json").read_text())
    data = [REPO / name for name in shipped["data"]]
    weights, _ = value_fit.fit_level(
        1, 0, shipped["ridge"], shipped["win_bonus"], data, feature_set="cards"
    )
    assert weights == shipped["weights"]["1"]


def test_fewest_states_default_to_twice_the_features_of_the_set_fitted():
    """100 games of level 1 reach the pirates often enough for the 20 basic features, not for
    the 68 of the cards set: the default threshold follows the set."""
    games = [REPO / "experiments" / "data" / "guided-best-train-400.jsonl.gz"]
    weights, _ = value_fit.fit_level(1, 0, 1e-3, 100.0, games, feature_set="basic")
    assert len(weights["3"]) == len(FEATURE_NAMES)
    with pytest.raises(RuntimeError, match="level 1: too few pirates states to fit"):
        value_fit.fit_level(1, 0, 1e-3, 100.0, games, feature_set="cards")
