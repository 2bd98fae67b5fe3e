"""``friday rl --method reverse --archive-from``: the reverse curriculum's archive seeded from a
games file of found wins, on tiny budgets. The wins are the first of the committed stage-A1
exploration (experiments/from-nothing/results/l1/games.jsonl): real won level-1 games on
training deals, found from the rules alone."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from friday_agents.cli import main as friday_main  # noqa: E402
from friday_agents.harness.deals import (  # noqa: E402
    draw_training_deals,
    evaluation_seed,
    validation_seed,
)
from friday_agents.learning.rl.config import RLConfig  # noqa: E402
from friday_agents.learning.rl.curriculum import (  # noqa: E402
    ReverseCurriculum,
    won_games_of_file,
)
from friday_agents.learning.rl.trainer import Trainer  # noqa: E402
from friday_env import Game  # noqa: E402
from friday_env.observation import FlatEncoder  # noqa: E402
from friday_env.vector import FridayVectorEnv  # noqa: E402

FOUND = (
    Path(__file__).parents[2] / "experiments" / "from-nothing" / "results" / "l1" / "games.jsonl"
)


def found_games(count: int = 3) -> list[dict]:
    return [json.loads(line) for line in FOUND.read_text().splitlines()[:count]]


def games_file(path: Path, games: list[dict]) -> Path:
    path.write_text("".join(json.dumps(game) + "\n" for game in games))
    return path


@pytest.fixture
def seeded(tiny_rl):
    """``seeded(out, games, **changes)``: a tiny reverse-curriculum run whose archive is
    seeded from the games file ``games``."""

    def make(out: Path, games: Path, **changes) -> RLConfig:
        return tiny_rl(
            out, archive_from=str(games), **{"method": "reverse", "reward": "win_loss", **changes}
        )

    return make


def curve(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "curve.jsonl").read_text().splitlines()]


def test_seeded_archive_holds_the_files_wins(tmp_path, seeded):
    games = found_games()
    trainer = Trainer(seeded(tmp_path / "run", games_file(tmp_path / "won.jsonl", games)))
    archive = sorted(trainer.games.curriculum.archive, key=lambda g: g.order)
    assert [(g.won, g.seed, list(g.actions)) for g in archive] == [
        (True, game["seed"], game["actions"]) for game in games
    ]
    assert [g.score for g in archive] == [game["score"] for game in games]
    assert trainer.games.curriculum.longest_win() == max(len(game["actions"]) for game in games)
    row = trainer.run()  # the curve tells how far k is from the archived wins' starts
    assert row["reverse_archive_wins"] >= 3 and row["reverse_longest_win"] >= 250


def test_an_episode_from_the_archive_starts_k_decisions_before_a_found_win(
    tmp_path, monkeypatch, seeded
):
    """Every start put into an env is the exact state (history, and the env's observation of
    it) ``k`` decisions before the end of an archived win; the first ones are the file's own
    (the random policy has won nothing yet), and episodes not started from the archive start
    from fresh training deals."""
    k = 7
    games = found_games()
    put: list[tuple[int, list[int], np.ndarray]] = []
    set_game = FridayVectorEnv.set_game

    def spy_set_game(self, env, game):
        obs, mask = set_game(self, env, game)
        put.append((int(game.seed), list(game.history), obs.copy()))
        return obs, mask

    wins: list[tuple[int, tuple[int, ...]]] = []  # every won game offered to the archive
    add_game = ReverseCurriculum.add_game

    def spy_add_game(self, seed, actions, won, score):
        if won:
            wins.append((int(seed), tuple(actions)))
        return add_game(self, seed, actions, won, score)

    monkeypatch.setattr(FridayVectorEnv, "set_game", spy_set_game)
    monkeypatch.setattr(ReverseCurriculum, "add_game", spy_add_game)
    config = seeded(
        tmp_path / "run",
        games_file(tmp_path / "won.jsonl", games),
        reverse_share=1.0,
        reverse_start=k,
        reverse_window=10_000,  # k stays put
        frames=4 * 4 * 32,
    )
    trainer = Trainer(config)
    # the envs' first games are fresh training deals (the seeded archive is used from the
    # first game's end on), drawn as an unseeded run draws them
    first = draw_training_deals(1, 4, np.random.default_rng(config.seed))
    assert trainer.games.episodes.seeds == [int(s) for s in first]
    assert trainer.games.episodes.starts == [None] * 4
    trainer.run()
    assert put, "no episode started from the archive"
    prefixes = {(seed, actions[: len(actions) - k]) for seed, actions in wins}
    assert all((seed, tuple(history)) in prefixes for seed, history, _ in put)
    from_file = {(game["seed"], tuple(game["actions"][:-k])) for game in games}
    seed, history, obs = put[0]
    assert (seed, tuple(history)) in from_file
    again = Game.new(1, seed, core="python")  # from the deal's start
    for action in history:
        again.apply(action)
    np.testing.assert_array_equal(obs, FlatEncoder().encode(again))


def test_resume_of_a_seeded_run_continues_exactly(tmp_path, seeded):
    """Cut after 2 of 4 updates and resumed, with the games file gone (the archive lives in
    the checkpoint): the same networks and curve as the uninterrupted run."""
    games = games_file(tmp_path / "won.jsonl", found_games())
    extra = {"reverse_window": 4, "reverse_start": 2, "frames": 512}
    Trainer(seeded(tmp_path / "whole", games, **extra)).run()
    Trainer(seeded(tmp_path / "split", games, **{**extra, "frames": 256})).run()
    games.unlink()
    resumed = RLConfig.from_dict(json.loads((tmp_path / "split" / "config.json").read_text()))
    resumed.frames = 512
    trainer = Trainer(resumed, resume=True)
    assert trainer.games.curriculum.longest_win() is not None
    trainer.run()
    whole, split = (np.load(tmp_path / name / "policy.npz") for name in ("whole", "split"))
    for key in whole.files:
        np.testing.assert_array_equal(whole[key], split[key])

    def comparable(rows: list[dict]) -> list[dict]:
        # a chunk's last update adds a held-out evaluation the whole run does not have
        held = ("heldout_win_rate", "heldout_mean_score", "heldout_deals")
        return [
            {
                key: value
                for key, value in row.items()
                if not key.endswith("seconds") and (key not in held or row["updates"] % 2 == 0)
            }
            for row in rows
        ]

    assert comparable(curve(tmp_path / "split")) == comparable(curve(tmp_path / "whole"))


def _bad_files(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    game = found_games(1)[0]
    cut = {**game, "actions": game["actions"][:-5]}
    longer = {**game, "actions": [*game["actions"], 0]}
    (tmp_path / "not-json.jsonl").write_text("this is not a games file\n")
    (tmp_path / "empty.jsonl").write_text("")
    return {
        "not JSON": (tmp_path / "not-json.jsonl", "is not a JSON line"),
        "empty": (tmp_path / "empty.jsonl", "holds no games"),
        "missing": (tmp_path / "missing.jsonl", "does not exist"),
        "no actions": (
            games_file(tmp_path / "a.jsonl", [{"level": 1, "seed": 1, "won": True}]),
            "'actions' must be a list",
        ),
        "lost": (games_file(tmp_path / "b.jsonl", [{**game, "won": False}]), "not a won game"),
        "level": (games_file(tmp_path / "c.jsonl", [{**game, "level": 4}]), "level-4 game"),
        "validation": (
            games_file(tmp_path / "d.jsonl", [{**game, "seed": validation_seed(1, 3)}]),
            "a validation deal",
        ),
        "evaluation": (
            games_file(tmp_path / "e.jsonl", [{**game, "seed": evaluation_seed(1, 3)}]),
            "an evaluation deal",
        ),
        "no win": (games_file(tmp_path / "f.jsonl", [cut]), "does not replay to a win"),
        "too long": (games_file(tmp_path / "g.jsonl", [game, longer]), "g.jsonl:2 does not replay"),
    }


@pytest.mark.parametrize(
    "case",
    [
        "not JSON",
        "empty",
        "missing",
        "no actions",
        "lost",
        "level",
        "validation",
        "evaluation",
        "no win",
        "too long",
    ],
)
def test_a_bad_games_file_is_refused_in_one_line(case, tmp_path, capsys):
    path, message = _bad_files(tmp_path)[case]
    out = tmp_path / "run"
    argv = ["rl", "--out", str(out), "--method", "reverse", "--archive-from", str(path)]
    assert friday_main([*argv, "--level", "1", "--frames", "64", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert message in err and err.startswith("friday rl: error: --archive-from")
    assert err.strip().count("\n") == 0
    assert not out.exists()


def test_archive_from_needs_the_reverse_method(tmp_path, capsys):
    out = tmp_path / "run"
    argv = ["rl", "--out", str(out), "--archive-from", str(FOUND), "--no-progress"]
    assert friday_main(argv) == 2
    assert "archive_from needs --method reverse" in capsys.readouterr().err
    assert not out.exists()


def test_the_found_wins_are_checked_on_both_cores():
    compiled = won_games_of_file(str(FOUND), 1)
    reference = won_games_of_file(str(FOUND), 1, core="python")
    assert compiled == reference and len(compiled) == len(FOUND.read_text().splitlines())
