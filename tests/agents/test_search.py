"""The search agent: one default simulation budget everywhere; its value network (fitted on
search games, played in numpy, reading public information only)."""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
from pathlib import Path

import pytest
from friday_cli import friday as friday_cli
from rendered import provider
from studies import study_module

from friday_agents.cli import main as friday
from friday_agents.evaluation.workflow import EvalSettings, config_of
from friday_agents.harness.deals import evaluation_seed, training_seed
from friday_agents.learning.fitting.game_data import ReplayCount, turn_start_examples
from friday_agents.learning.imitation.data import collect
from friday_agents.players.base import play_game
from friday_agents.players.heuristic.agent import HeuristicAgent, heuristic_action
from friday_agents.players.networks.value_net import (
    NETWORK_FILE,
    load_value_network,
    network_inputs,
)
from friday_agents.players.registry import make_agent
from friday_agents.players.search.agent import DEFAULT_SIMS, ROLLOUT_STOPS, SearchAgent, rollout
from friday_env import Game, determinized

ingredients = study_module("search-strength", "ingredients")
timing = study_module("search-strength", "timing")

#: The committed run the published results table is rendered from.
HEADLINE_RUN = Path(__file__).resolve().parents[2] / "experiments/results/readme_results.json"


def test_one_default_simulation_budget():
    """``friday eval``, ``SearchAgent`` and the committed headline run use one setting."""
    assert inspect.signature(SearchAgent).parameters["sims"].default == DEFAULT_SIMS
    assert SearchAgent().sims == DEFAULT_SIMS
    assert config_of(EvalSettings(agents="random")).search_sims == DEFAULT_SIMS
    assert f"(default {DEFAULT_SIMS})" in " ".join(friday_cli("eval", "--help").stdout.split())
    headline = json.loads(HEADLINE_RUN.read_text())
    assert headline["config"]["search_sims"] == DEFAULT_SIMS
    assert f"--search-sims {DEFAULT_SIMS} " in headline["command"] + " "


# ------------------------------------------------------------ the value network


def _heuristic_games(path: Path, games: int) -> None:
    """Game lines in the search data's format (``value_net_fit --data``), heuristic play."""
    lines = []
    for index in range(games):
        level = 1 + index % 4
        seed = training_seed(level, index)
        game = play_game(HeuristicAgent(), level, seed)
        record = {"level": level, "seed": seed, "actions": [int(a) for a in game.history]}
        lines.append(json.dumps(record | {"won": game.won, "score": game.score()}))
    path.write_text("\n".join(lines) + "\n")


def test_value_network_fit_writes_a_network_the_agent_plays_with(tmp_path):
    pytest.importorskip("torch")
    data, out = tmp_path / "games.jsonl", tmp_path / "net.npz"
    _heuristic_games(data, 12)
    with data.open("a") as handle:  # a game whose replay fails is skipped and counted
        handle.write(json.dumps({"level": 1, "seed": 5, "actions": [999], "won": 0, "score": 0}))
    report = tmp_path / "fit.json"
    args = ["--data", str(data), "--out", str(out), "--report", str(report)]
    fit = ["fit", "value-net", *args, "--hidden", "8", "--epochs", "2", "--holdout", "3"]
    assert friday(fit) == 0
    fitted = json.loads(report.read_text())
    assert fitted["games"] == 12 and fitted["skipped_games"] == 1
    assert set(fitted["held_out"]) == {"1", "2", "3", "4"}
    network = load_value_network(out)
    agent = SearchAgent(sims=4, value=str(out))
    assert agent.model is network
    for game in _heuristic_midgame(4):
        assert game.done or agent.act(game) in game.legal_actions()
    game = play_game(HeuristicAgent(), 2, training_seed(2, 99))
    assert network.value(game) == game.score() + 100.0 * game.won


def test_value_network_fit_refuses_evaluation_deals(tmp_path, capsys):
    data = tmp_path / "games.jsonl"
    seed = evaluation_seed(1, 0)
    data.write_text(json.dumps({"level": 1, "seed": seed, "actions": [], "won": 0, "score": 0}))
    assert friday(["fit", "value-net", "--data", str(data), "--out", str(tmp_path / "n.npz")]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("friday fit value-net: error: ") and "evaluation deal" in line
    assert not (tmp_path / "n.npz").exists()


def test_shipped_value_network_runs_without_torch():
    """The committed network is package data evaluated in numpy: torch is never imported."""
    code = (
        "import sys; sys.modules['torch'] = None\n"
        "from friday_agents.players.base import play_game\n"
        "from friday_agents.players.registry import make_agent\n"
        "game = play_game(make_agent('search:sims=2:value=value-net'), 1, 1000001)\n"
        "assert game.done and 'torch' not in [m for m in sys.modules if sys.modules[m]]\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_r26_value_network_inputs_are_public():
    network = load_value_network(NETWORK_FILE)
    for game in _heuristic_midgame(20):
        for seed in range(2):
            twin = determinized(game, seed)
            assert (network_inputs(twin) == network_inputs(game)).all()
            assert network.value(twin) == network.value(game)


def _heuristic_midgame(count: int) -> list[Game]:
    states = []
    for index in range(count):
        game = Game.new(1 + index % 4, training_seed(1 + index % 4, 300 + index))
        for _ in range(10 + 7 * index):
            if game.done:
                break
            game.apply(heuristic_action(game))
        states.append(game)
    return states


@pytest.mark.parametrize(
    ("value", "message"),
    [("model.txt", "must be a .json"), ("missing.npz", "missing"), (3, "value must be")],
)
def test_bad_value_option_is_named(value, message):
    with pytest.raises((ValueError, FileNotFoundError), match=message):
        SearchAgent(value=value)


# ---------------------------------------------------------------- the horizon


def test_longer_horizon_rollouts_play_through_the_next_fight():
    model = SearchAgent().model
    for game in _heuristic_midgame(6):
        if game.done:
            continue
        one, two = game.clone(), game.clone()
        rollout(one, model)
        rollout(two, model, fights=2)
        assert one.phase in ROLLOUT_STOPS and two.phase in ROLLOUT_STOPS
        assert len(two.history) > len(one.history) or two.done
        assert two.history[: len(one.history)] == one.history  # the same play, continued


def test_bad_horizon_is_named():
    with pytest.raises(ValueError, match="horizon"):
        SearchAgent(horizon=0)


# ------------------------------------------------------- paired comparisons


def _eval_dir(path: Path, rows: list[tuple[str, int, int, bool, int]]) -> Path:
    path.mkdir()
    lines = [
        json.dumps(
            {"agent": a, "level": lv, "index": i, "seed": evaluation_seed(lv, i)}
            | {"won": w, "score": s, "seconds": 2.0}
        )
        for a, lv, i, w, s in rows
    ]
    (path / "games.jsonl").write_text("\n".join(lines) + "\n")
    return path


def test_ingredients_pair_variants_with_the_baseline_across_runs(tmp_path, capsys):
    first = _eval_dir(tmp_path / "a", [("search", 1, i, i % 2 == 0, 10 * i) for i in range(4)])
    second = _eval_dir(
        tmp_path / "b",
        [("oracle", 1, i, True, 10 * i + 5) for i in range(3)]
        + [("search", 1, 0, True, 0)],  # the same game again, from another run
    )
    out = tmp_path / "ingredients.json"
    assert ingredients.main([str(first), str(second), "--out", str(out)]) == 0
    (oracle,) = json.loads(out.read_text())["comparisons"]
    assert (oracle["agent"], oracle["cheats"], oracle["common_deals"]) == ("oracle", True, 3)
    assert oracle["win_rate_difference"][0] == pytest.approx(1 / 3)
    assert oracle["score_difference"][0] == pytest.approx(5.0)
    assert "oracle (cheats)" in capsys.readouterr().out


def test_ingredients_refuse_runs_that_disagree(tmp_path):
    first = _eval_dir(tmp_path / "a", [("search", 1, 0, True, 10)])
    second = _eval_dir(tmp_path / "b", [("search", 1, 0, False, -3)])
    with pytest.raises(ValueError, match="differs"):
        ingredients.pooled_rows([first, second])


# ----------------------------------------------------------- recorded games


def test_recorded_search_games_replay_and_resume(tmp_path):
    """The search games the value fits read (``friday imitate collect --teacher search``)
    replay to their recorded ends, and their action values cover the legal actions."""
    out = tmp_path / "games.jsonl"
    assert collect("search:sims=2", [1], range(1), out, workers=1) == 1
    assert collect("search:sims=2", [1], range(2), out, workers=1) == 1  # only the new deal
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(g["level"], g["index"]) for g in lines] == [(1, 0), (1, 1)]
    count = ReplayCount()
    states = list(turn_start_examples(out, count))
    assert count.replayed == 2 and count.skipped == 0 and states
    for game in lines:
        assert game["q"], "a search game has searched decisions"
        replay = Game.new(game["level"], game["seed"])
        for position, action in enumerate(game["actions"]):
            values = game["q"].get(str(position))
            if values is not None:
                assert sorted(a for a, _ in values) == sorted(replay.legal_actions())
            replay.apply(action)
        assert (replay.won, replay.score()) == (game["won"], game["score"])


def test_ingredients_write_the_pairing_and_the_section_renders_it(tmp_path, capsys):
    first = _eval_dir(tmp_path / "a", [("search", 4, i, False, i) for i in range(3)])
    second = _eval_dir(
        tmp_path / "b", [("search:horizon=2", 4, i, i == 1, 2 * i) for i in range(3)]
    )
    out = tmp_path / "i.json"
    assert ingredients.main([str(first), str(second), "--out", str(out)]) == 0
    assert "search:horizon=2  4      3      0%             33%" in capsys.readouterr().out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a", "b", "i.json"]  # no Markdown
    section = provider("search_strength").ingredients_section
    (tmp_path / "experiments/search-strength/results").mkdir(parents=True)
    out.rename(tmp_path / "experiments/search-strength/results/ingredients.json")
    assert "| search:horizon=2 | 4 | 3 | 0% | 33% |" in section(tmp_path)
    with pytest.raises(SystemExit):
        ingredients.main([str(first), str(second), "--out", str(out), "--readme", "R.md"])


def test_timing_measures_every_spec_on_the_same_states(tmp_path):
    out = tmp_path / "timing.json"
    assert timing.main(["search:sims=2", "search:sims=8", "--states", "3", "--out", str(out)]) == 0
    result = json.loads(out.read_text())
    assert set(result["cpu_seconds_per_decision"]) == {"search:sims=2", "search:sims=8"}
    assert result["ratio_to_first"]["search:sims=2"] == 1.0
    assert all(len(game.legal_actions()) > 1 for game in timing.decision_states(5))


def test_game_timing_plays_the_evaluation_deals_with_every_spec(tmp_path):
    out = tmp_path / "games.json"
    assert timing.main(["heuristic", "random", "--games", "2", "--out", str(out)]) == 0
    result = json.loads(out.read_text())
    assert result["command"].endswith("heuristic random --games 2")
    heuristic_l1 = play_game(make_agent("heuristic"), 1, evaluation_seed(1, 0))
    cells = result["per_game"]
    assert set(cells) == {"heuristic", "random"} and set(cells["random"]) == {"1", "2", "3", "4"}
    # the mean length of the heuristic's two level-1 games includes the one replayed here
    second = play_game(make_agent("heuristic"), 1, evaluation_seed(1, 1))
    assert (
        cells["heuristic"]["1"]["actions_per_game"]
        == (len(heuristic_l1.history) + len(second.history)) / 2
    )
    assert result["ratio_to_first"]["heuristic"] == dict.fromkeys(["1", "2", "3", "4"], 1.0)
