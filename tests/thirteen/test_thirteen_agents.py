"""Friday the 13th's agents, evaluation and command: legal play, public information only,
refused specs, paired evaluation and the self-play trainer on a tiny budget."""

from __future__ import annotations

import json

import numpy as np
import pytest
from friday_cli import friday

from friday_agents.harness.errors import BadInputError
from friday_agents.thirteen.evaluation import compare, play_game
from friday_agents.thirteen.network import KEYS, PolicyNet
from friday_agents.thirteen.players import make_agent
from friday_env.thirteen import Game13
from friday_env.thirteen.encode import OBSERVATION_SIZE


@pytest.fixture
def model_file(tmp_path):
    """A network of random weights in the trainer's file format."""
    rng = np.random.default_rng(0)
    shapes = {
        "w1": (OBSERVATION_SIZE, 16), "b1": (16,), "w2": (16, 16), "b2": (16,),
        "wp": (16, 150), "bp": (150,), "wv": (16, 1), "bv": (1,),
    }  # fmt: skip
    path = tmp_path / "net.npz"
    np.savez(path, **{key: rng.normal(size=shapes[key]) for key in KEYS})
    return path


def specs(model_file):
    return [
        "random",
        "heuristic",
        "search:worlds=2:rollout=safe",
        "search:worlds=1",
        f"net:model={model_file}",
        f"net:model={model_file}:sample=true",
    ]


@pytest.mark.parametrize("players", [3, 6])
def test_every_agent_plays_whole_games_legally(players, model_file):
    for spec in specs(model_file):
        agents = [make_agent(spec) for _ in range(players)]
        game = play_game(agents, seed=players)  # Game13.apply refuses anything illegal
        assert game.done and len(game.round_scores) == 4, spec


def _twin_games() -> tuple[Game13, Game13]:
    """Two positions that the player to move cannot tell apart: the other hands differ."""
    game = Game13.new(4, 6)
    for _ in range(9):
        game.apply(game.legal_actions()[-1])
    twin = game.clone()
    others = [p for p in range(4) if p != game.current_player]
    hidden = [c for p in others for c in game.hands[p]]
    np.random.default_rng(1).shuffle(hidden)
    start = 0
    for p in others:
        twin.hands[p] = sorted(hidden[start : start + len(game.hands[p])])
        start += len(game.hands[p])
    assert twin.hands != game.hands and twin.hand_sizes == game.hand_sizes
    return game, twin


def test_agents_decide_on_public_information_and_their_own_hand_only(model_file):
    game, twin = _twin_games()
    for spec in specs(model_file):
        chosen = []
        for position in (game, twin):
            agent = make_agent(spec)
            agent.reset(3)
            chosen.append(agent.act(position))
        assert chosen[0] == chosen[1], spec


def test_an_agent_leaves_the_game_unchanged(model_file):
    game = Game13.new(5, 2)
    before = (game.hands, game.piles, game.taken, game.played, game.current_player)
    before = json.dumps(before)
    for spec in specs(model_file):
        make_agent(spec).act(game)
        assert (
            json.dumps((game.hands, game.piles, game.taken, game.played, game.current_player))
            == before
        )


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("alphazero", "unknown agent"),
        ("search:worlds=0", "at least 1"),
        ("search:worlds=many", "integer"),
        ("search:depth=3", "bad option"),
        ("search:rollout=deep", "rollout"),
        ("heuristic:worlds=3", "takes no option"),
        ("net:model=/no/such/file.npz", "no model file"),
        ("net:sample=maybe", "true or false"),
    ],
)
def test_bad_agent_specs_are_refused_in_one_line(spec, message):
    with pytest.raises(BadInputError, match=message) as err:
        make_agent(spec)
    assert "\n" not in str(err.value)


def test_a_file_that_is_not_a_model_is_refused(tmp_path):
    bad = tmp_path / "bad.npz"
    bad.write_text("not a zip")
    with pytest.raises(BadInputError, match="not a model file"):
        PolicyNet.load(bad)
    np.savez(tmp_path / "partial.npz", w1=np.zeros((OBSERVATION_SIZE, 4)))
    with pytest.raises(BadInputError, match="lacks array 'b1'"):
        PolicyNet.load(tmp_path / "partial.npz")


def test_an_agent_against_itself_is_paired_to_exactly_zero():
    report = compare("heuristic", "heuristic", 4, range(8))
    assert report["paired"]["win_rate_points"] == 0 and report["paired"]["bad_luck"] == 0
    assert report["result"] == report["baseline"]
    assert sum(seat["games"] for seat in report["result"]["by_seat"].values()) == 8


def test_the_evaluation_is_reproducible_and_rotates_the_seat():
    first = compare("random", "heuristic", 3, range(6))
    assert compare("random", "heuristic", 3, range(6)) == first
    assert [seat["games"] for seat in first["result"]["by_seat"].values()] == [2, 2, 2]


def test_friday_thirteen_eval_writes_its_report(tmp_path):
    out = tmp_path / "report.json"
    done = friday(
        "thirteen", "eval", "--candidate", "heuristic", "--opponents", "random",
        "--players", "3", "6", "--deals", "6", "--no-progress", "--out", str(out),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "| 3 |" in done.stdout and "| 6 |" in done.stdout
    reports = json.loads(out.read_text())["reports"]
    assert [r["players"] for r in reports] == [3, 6] and reports[0]["deals"] == 6


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("eval", "--players", "2"), "3 to 6 players"),
        (("eval", "--candidate", "nobody"), "unknown agent"),
        (("eval", "--deals", "0"), "--deals"),
        (("play", "--seat", "5"), "--seat"),
    ],
)
def test_friday_thirteen_refuses_bad_input_in_one_line(args, message):
    done = friday("thirteen", *args)
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and message in done.stderr


def test_train_writes_a_model_and_curve_and_resumes(tmp_path):
    run = tmp_path / "run"
    tiny = ("--eval-every", "1", "--eval-deals", "4", "--games", "4", "--steps-per-update", "200",
            "--imitate-moves", "300", "--imitate-epochs", "1", "--no-progress")  # fmt: skip
    done = friday("thirteen", "train", "--out", str(run), "--cpu-minutes", "0.01", *tiny)
    assert done.returncode == 0, done.stderr
    for name in ("best.npz", "last.npz", "curve.csv", "checkpoint.pt", "config.json"):
        assert (run / name).is_file(), name
    rows = (run / "curve.csv").read_text().splitlines()
    again = friday("thirteen", "train", "--out", str(run), "--cpu-minutes", "0.01", *tiny)
    assert again.returncode == 2 and "--resume" in again.stderr
    more = friday(
        "thirteen", "train", "--out", str(run), "--cpu-minutes", "0.05", "--resume", *tiny
    )
    assert more.returncode == 0, more.stderr
    assert len((run / "curve.csv").read_text().splitlines()) > len(rows)
    make_agent(f"net:model={run / 'best.npz'}").act(Game13.new(4, 0))
