"""The search agent's policy prior: a numpy policy network over the public observation that
prunes the candidates (``search:prior=guided-prior:top=K``), and the command that fits it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from friday_agents.cli import main as friday
from friday_agents.cli import parse_args
from friday_agents.harness.deals import evaluation_seed, training_seed
from friday_agents.learning.fitting.policy_net_fit import PolicyNetFit
from friday_agents.learning.imitation.data import collect
from friday_agents.players.heuristic.agent import heuristic_action
from friday_agents.players.networks.policy_net import (
    POLICY_FILE,
    PolicyNetwork,
    PolicyPrior,
    load_policy_network,
    save_policy_network,
)
from friday_agents.players.registry import AgentSpecError, make_agent
from friday_agents.players.search.agent import SearchAgent
from friday_env import NUM_ACTIONS, Game, determinized
from friday_env.observation import make_encoder


def _ranking_network(path: Path) -> Path:
    """A network that ignores its input and rates actions by id, lowest first."""
    size = make_encoder("flat").space.shape[0]
    weights = np.zeros((size, NUM_ACTIONS), np.float32)
    bias = -np.arange(NUM_ACTIONS, dtype=np.float32)
    save_policy_network(PolicyNetwork("flat", ((weights, bias),)), path)
    return path


def _choice_states(count: int, least_legal: int) -> list[Game]:
    """Mid-game states of heuristic play with at least ``least_legal`` legal actions."""
    states, index = [], 0
    while len(states) < count:
        level = 1 + index % 4
        game = Game.new(level, training_seed(level, 700 + index))
        while not game.done:
            if len(game.legal_actions()) >= least_legal:
                states.append(game.clone())
                break
            game.apply(heuristic_action(game))
        index += 1
    return states


def test_prior_keeps_its_top_actions_and_the_heuristics_choice(tmp_path):
    prior = PolicyPrior(load_policy_network(_ranking_network(tmp_path / "rank.npz")))
    for game in _choice_states(4, least_legal=4):
        legal = list(game.legal_actions())
        probabilities = prior.probabilities(game, legal)
        assert probabilities.sum() == pytest.approx(1.0) and (np.diff(probabilities) < 0).all()
        default = legal[-1]
        assert prior.candidates(game, legal, 2, default) == [legal[0], legal[1], default]
        assert prior.candidates(game, legal, 2, legal[1]) == legal[:2]
        assert prior.candidates(game, legal, len(legal), default) == legal


def test_search_with_a_prior_tries_only_the_kept_candidates(tmp_path):
    path = _ranking_network(tmp_path / "rank.npz")
    agent = make_agent(f"search:sims=6:prior={path}:top=1")
    for game in _choice_states(3, least_legal=3):
        legal = list(game.legal_actions())
        default = heuristic_action(game)
        agent.reset(1)
        action = agent.act(game)
        if default == legal[0]:  # one candidate left: no search, the heuristic's choice
            assert action == default and agent.last_values is None
        else:
            assert [a for a, _ in agent.last_values] == sorted({legal[0], default})
            assert action in (legal[0], default)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("search:prior=model.json", "must be an .npz"),
        ("search:prior=missing.npz", "missing"),
        ("search:prior=guided-prior:top=0", "top must be a positive integer"),
        ("search:top=2", "top needs a prior"),
    ],
)
def test_bad_prior_options_are_named(spec, message):
    with pytest.raises((AgentSpecError, FileNotFoundError), match=message):
        make_agent(spec)


def test_a_network_of_another_shape_is_refused(tmp_path):
    path = tmp_path / "small.npz"
    layer = (np.zeros((10, NUM_ACTIONS), np.float32), np.zeros(NUM_ACTIONS, np.float32))
    save_policy_network(PolicyNetwork("flat", (layer,)), path)
    with pytest.raises(ValueError, match="refit it"):
        load_policy_network(path)


def test_r26_shipped_prior_reads_only_the_public_view():
    prior = PolicyPrior(load_policy_network(POLICY_FILE))
    for game in _choice_states(6, least_legal=3):
        legal = list(game.legal_actions())
        for seed in range(2):
            twin = determinized(game, seed)
            assert (prior.probabilities(twin, legal) == prior.probabilities(game, legal)).all()


def test_shipped_prior_runs_without_torch():
    code = (
        "import sys; sys.modules['torch'] = None\n"
        "from friday_agents.players.base import play_game\n"
        "from friday_agents.players.registry import make_agent\n"
        "game = play_game(make_agent('search:sims=2:prior=guided-prior:top=2'), 1, 1000001)\n"
        "assert game.done\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def _search_games(path: Path, per_level: int) -> Path:
    """Search games with their action values, as ``friday imitate collect`` records them."""
    collect("search:sims=4", (1, 4), range(per_level), path, workers=1)
    return path


def test_fit_writes_a_prior_the_search_plays_with(tmp_path):
    pytest.importorskip("torch")
    data, out, report = _search_games(tmp_path / "g.jsonl", 2), tmp_path / "p.npz", tmp_path / "r"
    args = ["--data", str(data), "--out", str(out), "--report", str(report), "--holdout", "1-1"]
    assert friday(["fit", "policy-net", *args, "--hidden", "8", "--epochs", "1"]) == 0
    fitted = json.loads(report.read_text())
    assert fitted["source"] == "fitted" and fitted["layers"][0][1] == 8
    assert fitted["train_decisions"] > 0 and set(fitted["held_out"]) >= {"all", "1", "4"}
    held = fitted["held_out"]["all"]
    assert held["decisions"] > 0 and 0 <= held["top2"]["search_choice_kept"] <= 1
    agent = SearchAgent(sims=4, prior=str(out), top=2)
    for game in _choice_states(3, least_legal=2):
        assert agent.act(game) in game.legal_actions()


def test_fit_refuses_evaluation_deals_and_a_one_sided_holdout(tmp_path, capsys):
    data = tmp_path / "games.jsonl"
    data.write_text(json.dumps({"level": 1, "seed": evaluation_seed(1, 0), "actions": []}))
    out = tmp_path / "n.npz"
    assert friday(["fit", "policy-net", "--data", str(data), "--out", str(out)]) == 2
    assert "evaluation deal" in capsys.readouterr().err
    games = _search_games(tmp_path / "g.jsonl", 1)
    holdout = ["--holdout", "500-600"]
    assert friday(["fit", "policy-net", "--data", str(games), "--out", str(out), *holdout]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert (
        line == "friday fit policy-net: error: --holdout 500-600 must leave decisions on both sides"
    )
    assert not out.exists()


def test_the_fit_report_names_the_friday_command_that_makes_it():
    """A fit's report stores its command; read back by ``friday fit``, it is the same fit."""
    settings = PolicyNetFit(
        data=(Path("a.jsonl"), Path("b.jsonl.gz")), out=Path("p.npz"), report=Path("r.json"),
        hidden=(8,), tau=1.5, holdout=(1, 3),
    )  # fmt: skip
    command = settings.command_line()
    assert command.startswith("friday fit policy-net --data a.jsonl b.jsonl.gz --out p.npz")
    args = parse_args(command.split()[1:])
    assert (args.data, args.out, args.report) == (
        list(settings.data),
        settings.out,
        settings.report,
    )
    assert (args.hidden, args.tau, args.holdout) == ((8,), 1.5, (1, 3))
    assert PolicyNetFit(data=(Path("a"),), out=Path("p")).command_line() == (
        "friday fit policy-net --data a --out p"
    )
