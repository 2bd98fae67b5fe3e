"""Bad input stops every ``friday`` command before it writes anything: exit status 2, one
line on stderr naming what was wrong, no traceback, and no file or folder created."""

from __future__ import annotations

from pathlib import Path
from subprocess import CompletedProcess

import numpy as np
import pytest
from friday_cli import REPO, friday, friday_batch

from friday_env import Game, GameRecord

#: A path no one can create: /proc takes no new entries.
IMPOSSIBLE = "/proc/friday-no-such/out"

EVAL = ("eval", "--levels", "1", "--games", "1", "--no-progress")
PLAIN_EVAL = (*EVAL, "--agents", "random")

#: (arguments, extra environment, text the error names)
CASES = {
    "unknown core": ((*PLAIN_EVAL, "--out", "new"), {"FRIDAY_CORE": "garbage"}, "FRIDAY_CORE"),
    "out is a file": ((*PLAIN_EVAL, "--out", "a-file"), {}, "is a file, not a folder"),
    "out under a file": ((*PLAIN_EVAL, "--out", "a-file/run"), {}, "a-file is a file"),
    "out impossible": ((*PLAIN_EVAL, "--out", IMPOSSIBLE), {}, "cannot be written"),
    "empty agents": ((*EVAL, "--agents", "", "--out", "new"), {}, "--agents is empty"),
    "option not for specs": (
        (*EVAL, "--agents", "heuristic:params=x", "--out", "new"),
        {},
        "takes no option 'params'; its options: none",
    ),
    "unknown option": (
        (*EVAL, "--agents", "search:speed=1", "--out", "new"),
        {},
        "its options: sims, value, horizon, prior, top, rollout, finish",
    ),
    "not a boolean": (
        (*EVAL, "--agents", "ppo:deterministic=maybe", "--out", "new"),
        {},
        "'deterministic' is true or false",
    ),
    "missing npz": (
        (*EVAL, "--agents", "net:model=missing.npz", "--out", "new"),
        {},
        "missing.npz does not exist",
    ),
    "truncated npz": (
        (*EVAL, "--agents", "net:model=truncated.npz", "--out", "new"),
        {},
        "truncated.npz is truncated",
    ),
    "npz without the arrays": (
        (*EVAL, "--agents", "net:model=other.npz", "--out", "new"),
        {},
        "not a model file this version wrote",
    ),
    "garbage npz": (
        (*EVAL, "--agents", "net:model=garbage.npz", "--out", "new"),
        {},
        "not an .npz archive of plain arrays",
    ),
    "search prior garbage npz": (
        (*EVAL, "--agents", "search:prior=garbage.npz", "--out", "new"),
        {},
        "prior= file garbage.npz is not an .npz archive of plain arrays",
    ),
    "search prior missing npz": (
        (*EVAL, "--agents", "search:prior=missing.npz", "--out", "new"),
        {},
        "prior= file missing.npz does not exist",
    ),
    "guided value garbage npz": (
        (*EVAL, "--agents", "guided:value=garbage.npz", "--out", "new"),
        {},
        "value file garbage.npz is not an .npz archive of plain arrays",
    ),
    "guided value missing json": (
        (*EVAL, "--agents", "guided:value=missing.json", "--out", "new"),
        {},
        "value file missing.json does not exist",
    ),
    "rl init truncated": (
        ("rl", "--init", "truncated.npz", "--out", "new", "--no-progress"),
        {},
        "truncated.npz is truncated",
    ),
    "rl init without the arrays": (
        ("rl", "--init", "other.npz", "--out", "new", "--no-progress"),
        {},
        "not a model file this version wrote",
    ),
    "rl out is a file": (("rl", "--out", "a-file", "--no-progress"), {}, "is a file"),
    "train out is a file": (("train", "--out", "a-file", "--no-progress"), {}, "is a file"),
    "distill out is a file": (("distill", "--out", "a-file", "--no-progress"), {}, "is a file"),
    "view out is a folder": (
        ("view", "record.json", "--out", "a-folder"),
        {},
        "is a folder, not a file",
    ),
    "imitate out is a folder": (
        ("imitate", "collect", "--teacher", "random", "--games", "1", "--out", "a-folder"),
        {},
        "is a folder, not a file",
    ),
    "play save impossible": (("play", "--save", IMPOSSIBLE), {}, "--save"),
}


def _fixtures(root: Path) -> None:
    (root / "a-file").write_text("not a folder\n")
    (root / "a-folder").mkdir()
    (root / "garbage.npz").write_text("garbage\n")
    net = (REPO / "agents/friday_agents/models/net.npz").read_bytes()
    (root / "truncated.npz").write_bytes(net[: len(net) // 2])
    np.savez(root / "other.npz", weights=np.zeros(3))
    GameRecord.of(Game.new(1, 3)).save(root / "record.json")


def _tree(root: Path) -> set[Path]:
    return set(root.rglob("*"))


@pytest.fixture(scope="module")
def refusals(tmp_path_factory) -> dict[str, tuple[CompletedProcess, bool]]:
    """Each case run in a folder of its own (all in one interpreter: ``friday_batch``): what
    it printed, and whether the folder is unchanged."""
    root = tmp_path_factory.mktemp("bad-input")
    folders = {case: root / f"case-{i}" for i, case in enumerate(CASES)}
    for folder in folders.values():
        folder.mkdir()
        _fixtures(folder)
    before = {case: _tree(folder) for case, folder in folders.items()}
    jobs = [
        {"args": args, "cwd": folders[case], "env": env, "stdin": "q\n"}
        for case, (args, env, _) in CASES.items()
    ]
    return {
        case: (done, _tree(folders[case]) == before[case])
        for case, done in zip(CASES, friday_batch(jobs), strict=True)
    }


@pytest.mark.parametrize("case", CASES)
def test_bad_input_exits_2_in_one_line_and_creates_nothing(refusals, case):
    args, _, text = CASES[case]
    done, unchanged = refusals[case]
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    command = " ".join(args[:2]) if args[0] == "imitate" else args[0]  # its step too
    assert done.stderr.startswith(f"friday {command}: error: ")
    assert text in done.stderr
    assert "allow_pickle" not in done.stderr  # numpy's advice to load it anyway
    assert unchanged


def test_a_friday_process_exits_2_on_bad_input(tmp_path):
    """One case as its own ``friday`` process: the exit status the shell sees."""
    args, env, text = CASES["unknown core"]
    done = friday(*args, cwd=tmp_path, env=env)
    assert done.returncode == 2 and text in done.stderr, done.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("text", "value"), [("false", False), ("no", False), ("0", False)])
def test_boolean_spec_options_mean_what_they_say(text, value):
    pytest.importorskip("sb3_contrib")
    from friday_agents.players.registry import make_agent

    assert make_agent(f"ppo:deterministic={text}").deterministic is value
    assert make_agent("ppo:deterministic=true").deterministic is True


def test_the_viewer_calls_a_quit_game_not_finished_not_lost():
    from friday_env.viewer.page import ViewerGame

    game = Game.new(1, 3)
    for _ in range(6):
        game.apply(game.legal_actions()[0])
    meta = ViewerGame(GameRecord.of(game, agent="human")).meta(6)
    assert meta["result"] == "not finished"
    assert "not finished" in meta["title"] and "lost" not in meta["title"]
