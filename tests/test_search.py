"""The search agent: one default simulation budget everywhere; its value network (fitted on
search games, played in numpy, reading public information only)."""

from __future__ import annotations

import inspect
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from friday_agents.base import play_game
from friday_agents.evaluation.evaluate import DEFAULT_SEARCH_SIMS
from friday_agents.heuristic.agent import HeuristicAgent, heuristic_action
from friday_agents.search import value_net_fit
from friday_agents.search.agent import DEFAULT_SIMS, SearchAgent
from friday_agents.search.value_net import NETWORK_FILE, load_value_network, network_inputs
from friday_agents.seeds import evaluation_seed, training_seed
from friday_env import Game, determinized

README = Path(__file__).resolve().parents[1] / "README.md"


def test_one_default_simulation_budget():
    """``friday eval``, ``SearchAgent`` and the README's results table use one setting."""
    assert inspect.signature(SearchAgent).parameters["sims"].default == DEFAULT_SIMS
    assert SearchAgent().sims == DEFAULT_SEARCH_SIMS == DEFAULT_SIMS
    command = re.search(r"Reproduce with `(friday eval [^`]*)`", README.read_text())
    assert command, "the README's results section names no friday eval command"
    assert f"--search-sims {DEFAULT_SIMS} " in command.group(1) + " "


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
    assert value_net_fit.main([*args, "--hidden", "8", "--epochs", "2", "--holdout", "3"]) == 0
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


def test_value_network_fit_refuses_evaluation_deals(tmp_path):
    data = tmp_path / "games.jsonl"
    seed = evaluation_seed(1, 0)
    data.write_text(json.dumps({"level": 1, "seed": seed, "actions": [], "won": 0, "score": 0}))
    with pytest.raises(ValueError, match="evaluation deal"):
        value_net_fit.main(["--data", str(data), "--out", str(tmp_path / "n.npz")])


def test_shipped_value_network_runs_without_torch():
    """The committed network is package data evaluated in numpy: torch is never imported."""
    code = (
        "import sys; sys.modules['torch'] = None\n"
        "from friday_agents.base import play_game\n"
        "from friday_agents.registry import make_agent\n"
        "game = play_game(make_agent('search:sims=2:value=net'), 1, 1000001)\n"
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
