"""``friday play`` and ``friday replay`` as a person uses them: Ctrl-C keeps what was played,
the hazard menu says what a win would give, a replay can go back and jump, and piping a replay
into ``head`` ends quietly."""

from __future__ import annotations

import fcntl
import os
import re
import signal
import subprocess
import threading
import time
from pathlib import Path

import numpy as np
from friday_cli import friday, popen_friday

from friday_env import Game, GameRecord, replay
from friday_env.cards import ABILITY_NAMES, CARD_TYPE, CARD_TYPES, Ability

#: A prompt of ``friday play``, i.e. the game waits for input.
PROMPT = "choose 1-"


def _read_until(process: subprocess.Popen, text: str, count: int, limit: float = 60) -> str:
    """Read the process's output until ``text`` has appeared ``count`` times."""
    seen, deadline = "", time.monotonic() + limit
    while seen.count(text) < count:
        assert time.monotonic() < deadline, f"no {text!r} x{count} in time:\n{seen[-2000:]}"
        char = process.stdout.read(1)
        assert char, f"output ended before {text!r} x{count}:\n{seen[-2000:]}"
        seen += char
    return seen


def test_ctrl_c_saves_the_game_and_exits_quietly(tmp_path):
    path = tmp_path / "game.json"
    process = popen_friday(
        "play", "--level", "1", "--seed", "4", "--save", str(path),
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0,
        env={"PYTHONUNBUFFERED": "1", **_environ()},
        # a shell's background job ignores SIGINT and a child inherits that: give the game
        # the default handling a user's terminal gives it
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    _read_until(process, PROMPT, 1)
    process.stdin.write("1\n")
    process.stdin.flush()
    _read_until(process, PROMPT, 1)  # the second decision is on screen: one choice typed
    _wait_until_reading_input(process)
    process.send_signal(signal.SIGINT)
    out, err = _output_to_the_end(process)
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert process.returncode == 130
    assert f"saved the game record to {path}" in out
    record = GameRecord.load(path)
    assert len(record.actions) >= 1
    game = replay(record)  # the record replays: an unfinished game, as far as it went
    assert not game.done and game.history == record.actions


def _wait_until_reading_input(process: subprocess.Popen, limit: float = 300) -> None:
    """Return once the child sleeps in its read of stdin (Linux's ``/proc/PID/wchan``; at
    once where that says nothing). The prompt is written just before that read: a Ctrl-C
    landing between the two is seen only at the next bytecode, which a blocked read never
    reaches, so on a loaded machine the game waited for input for ever."""
    proc = Path(f"/proc/{process.pid}")
    deadline = time.monotonic() + limit
    while (proc / "wchan").exists():
        state = (proc / "stat").read_text().rsplit(")", 1)[1].split()[0]
        where = (proc / "wchan").read_text()
        if state == "S" and ("read" in where or where in ("", "0")):  # "0": the kernel hides it
            return
        assert time.monotonic() < deadline, f"the game never waited for input ({where})"
        time.sleep(0.01)


def _output_to_the_end(process: subprocess.Popen, limit: float = 300) -> tuple[str, str]:
    """The child's stdout and stderr until it exits, its stdin held open meanwhile:
    ``communicate()`` closed stdin at once, and a child still waiting at its prompt when the
    signal was sent (a loaded machine) read the end of input before it saw the Ctrl-C."""
    watchdog = threading.Timer(limit, process.kill)
    watchdog.start()
    try:
        out, err = process.stdout.read(), process.stderr.read()
        process.wait()
    finally:
        watchdog.cancel()
        process.stdin.close()
    assert process.returncode != -signal.SIGKILL, f"no end within {limit} s after Ctrl-C"
    return out, err


def _environ() -> dict[str, str]:
    return dict(os.environ)


def test_the_hazard_menu_says_what_beating_each_hazard_gives():
    seed = 5
    game = Game.new(1, seed)
    done = friday("play", "--level", "1", "--seed", str(seed), stdin="q\n")
    assert done.returncode == 0, done.stderr
    menu = done.stdout.split(PROMPT)[0]
    options = [line for line in menu.splitlines() if re.match(r"\s+\d+\. fight ", line)]
    assert len(options) == len(game.offer) == 2
    for line, card in zip(options, game.offer, strict=True):
        knowledge = CARD_TYPES[CARD_TYPE[card]]
        gives = line.split("gives", 1)
        assert len(gives) == 2, f"no 'gives' in {line!r}"
        assert knowledge.title in gives[1] and f"value {knowledge.value}" in gives[1], line
        if knowledge.ability != Ability.NONE:
            assert ABILITY_NAMES[knowledge.ability] in gives[1], line


def _saved_game(tmp_path, actions: int = 400) -> tuple[GameRecord, str]:
    game = Game.new(2, 9)
    rng = np.random.default_rng(9)
    while not game.done and len(game.history) < actions:
        legal = game.legal_actions()
        game.apply(legal[int(rng.integers(len(legal)))])
    path = tmp_path / "game.json"
    GameRecord.of(game).save(path)
    return GameRecord.load(path), str(path)


def test_replay_goes_back_and_jumps_to_a_decision(tmp_path):
    record, path = _saved_game(tmp_path)
    done = friday("replay", path, stdin="\nb\n7\nb\n\nq\n")
    assert done.returncode == 0, done.stderr
    shown = [int(n) for n in re.findall(r">>> action (\d+) of ", done.stdout)]
    assert shown == [1, 2, 1, 7, 6, 7]
    game = Game.new(2, 9)
    for action in record.actions[:6]:
        game.apply(action)
    seventh = re.findall(r">>> action 7 of \d+: (.*)", done.stdout)
    assert seventh == [game.describe(record.actions[6])] * 2


def test_replay_refuses_a_jump_outside_the_game_and_asks_again(tmp_path):
    _, path = _saved_game(tmp_path, actions=30)
    done = friday("replay", path, stdin="999\n0\nq\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("no action 999") == 1 and done.stdout.count("no action 0") == 1
    assert re.findall(r">>> action (\d+) of ", done.stdout) == ["1"]


def test_replay_into_a_closed_pipe_ends_quietly(tmp_path):
    """``friday replay FILE --all | head -n 3``: the reader goes away while the replay still
    writes. The pipe is made one page small, so the replay (tens of KB) is sure to write into
    a closed pipe, whatever the timing."""
    _, path = _saved_game(tmp_path)
    read_end, write_end = os.pipe()
    fcntl.fcntl(write_end, fcntl.F_SETPIPE_SZ, 4096)
    process = popen_friday("replay", path, "--all", stdout=write_end, stderr=subprocess.PIPE)
    os.close(write_end)
    with os.fdopen(read_end) as reader:
        head = [reader.readline() for _ in range(3)]
    _, err = process.communicate(timeout=120)
    assert head[0].startswith("Replaying")
    assert "BrokenPipeError" not in err and "Traceback" not in err, err
    assert err == ""
