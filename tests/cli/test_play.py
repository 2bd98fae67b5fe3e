"""``friday play`` driven by a scripted stdin, and ``friday replay`` of what it saved."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from friday_agents.cli import main
from friday_agents.cli.replay import load_record, step_through
from friday_agents.players.heuristic.agent import heuristic_action
from friday_agents.players.human import HumanAgent, QuitGame, play
from friday_env import Game, GameRecord, RecordError, replay

REPO = Path(__file__).resolve().parents[2]


def friday(args: list[str], stdin: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "friday_agents.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )


def test_play_with_scripted_stdin_saves_a_replayable_record(tmp_path):
    """Always choosing the first option plays a whole game; the record replays to it."""
    path = tmp_path / "game.json"
    done = friday(["play", "--level", "2", "--seed", "5", "--save", str(path)], "1\n" * 3000)
    assert done.returncode == 0, done.stderr
    assert "Friday, level 2, deal 5" in done.stdout
    assert "choose 1-2" in done.stdout and "fight" in done.stdout
    assert "Score" in done.stdout and f"saved the game record to {path}" in done.stdout
    game = replay(GameRecord.load(path))
    assert game.done and game.level == 2


def test_human_menu_follows_the_typed_numbers():
    """Type what the heuristic would choose, by menu number: the game is the heuristic's."""
    reference = Game.new(1, 17)
    typed: list[str] = []
    while not reference.done:
        legal = reference.legal_actions()
        action = heuristic_action(reference)
        if len(legal) > 1:
            typed.append(str(legal.index(action) + 1))
        reference.apply(action)
    lines = iter(typed)
    output = io.StringIO()
    agent = HumanAgent(read=lambda _prompt: next(lines), write=lambda t: output.write(t + "\n"))
    game = Game.new(1, 17)
    assert play(game, agent) == 0
    assert game.history == reference.history
    assert "(only choice)" in output.getvalue()


def test_bad_input_is_explained_and_asked_again():
    lines = iter(["", "abc", "0", "3", "2"])
    output = io.StringIO()
    agent = HumanAgent(read=lambda _prompt: next(lines), write=lambda t: output.write(t + "\n"))
    game = Game.new(1, 3)  # a hazard choice between two offers
    assert agent.act(game) == game.legal_actions()[1]
    assert output.getvalue().count("please type a number from 1 to 2") == 4


@pytest.mark.parametrize("stdin", ["2\n1\nq\n", "2\n1\n"], ids=["q", "end of input"])
def test_quit_and_end_of_input_stop_the_game_with_status_0(tmp_path, stdin):
    """Quitting is a normal way to leave (status 0); the record of the unfinished game is kept."""
    agent = HumanAgent(read=lambda _prompt: "q", write=lambda _t: None)
    with pytest.raises(QuitGame):
        agent.act(Game.new(1, 3))
    path = tmp_path / "partial.json"
    done = friday(["play", "--seed", "9", "--save", str(path)], stdin)
    assert done.returncode == 0, done.stderr
    assert "stopped after" in done.stdout
    partial = replay(GameRecord.load(path))  # an unfinished game is still a valid record
    assert not partial.done and len(partial.history) >= 2


def test_play_rejects_an_unknown_level():
    done = friday(["play", "--level", "9"], "")
    assert done.returncode == 2
    assert "unknown level 9" in done.stderr


def test_play_help_explains_hint_and_how_to_quit():
    done = friday(["play", "--help"], "")
    assert done.returncode == 0
    text = " ".join(done.stdout.split())
    assert "--hint" in text and "the number the heuristic agent would choose" in text
    assert "Ctrl-D" in text and "exit status 0" in text


def test_play_hint_names_the_heuristic_choice():
    done = friday(["play", "--seed", "4", "--hint"], "q\n")
    assert "hint: the heuristic would choose" in done.stdout


def test_replay_all_prints_every_action(tmp_path, capsys):
    game = Game.new(3, 8)
    while not game.done:
        game.apply(heuristic_action(game))
    path = tmp_path / "g.json"
    GameRecord.of(game).save(path)
    assert main(["replay", str(path), "--all"]) == 0
    out = capsys.readouterr().out
    assert out.count(">>> action ") == len(game.history)
    assert f"game over: {'won' if game.won else 'lost'}, score {game.score()}" in out


def test_replay_steps_with_enter_and_stops_on_q():
    game = Game.new(1, 2)
    for _ in range(10):
        game.apply(heuristic_action(game))
    answers = iter(["", "", "q"])
    shown: list[str] = []
    step_through(Game.new(1, 2), game.history, lambda _p: next(answers), shown.append)
    assert sum(1 for s in shown if s.startswith(">>> action")) == 3


def test_replay_picks_a_game_from_eval_output(tmp_path):
    out = tmp_path / "eval"
    options = ["--agents", "random,heuristic", "--levels", "1", "--games", "2", "--workers", "1"]
    assert main(["eval", *options, "--out", str(out), "--save-games", "--no-progress"]) == 0
    record, where = load_record(out / "games.jsonl", 3)
    assert "game 3 of 4" in where and "heuristic" in where
    assert replay(record).done
    with pytest.raises(RecordError, match=r"--game must be in 0\.\.3"):
        load_record(out / "games.jsonl", 4)


def test_replay_refuses_a_tampered_record(tmp_path, capsys):
    game = Game.new(1, 2)
    while not game.done:
        game.apply(heuristic_action(game))
    data = json.loads(GameRecord.of(game).to_json())
    data["result"]["score"] += 1
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    assert main(["replay", str(path), "--all"]) == 2
    assert "does not replay to its result" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "missing.json")]) == 2
