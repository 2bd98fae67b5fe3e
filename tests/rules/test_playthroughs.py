"""Golden playthroughs: each transcript in tests/rules/playthroughs/ must regenerate identically.

A difference means the engine, a description, a policy or the transcript format changed.
If the change is intended, rewrite the files with ``python -m friday_env.testing.playthrough
--regenerate tests/rules/playthroughs`` and review the diff before committing it.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest
from conftest import CORE_PARAMS

from friday_env import GameRecord, replay
from friday_env.testing.games import make_game
from friday_env.testing.playthrough import GOLDEN, REGENERATE, main, transcript

MAX_DIFF_LINES = 80
GOLDEN_DIR = Path(__file__).parent / "playthroughs"


@pytest.mark.parametrize("core", CORE_PARAMS)
@pytest.mark.parametrize("golden", GOLDEN, ids=[g.name for g in GOLDEN])
def test_golden_playthrough_regenerates_identically(golden, core):
    """On each core: both must write the same transcript, word for word."""
    path = GOLDEN_DIR / f"{golden.name}.txt"
    assert path.exists(), f"{path} is missing; create it with `{REGENERATE}`"
    expected = path.read_text()
    actual = golden.text(core)
    if actual != expected:
        diff = list(
            difflib.unified_diff(
                expected.splitlines(),
                actual.splitlines(),
                fromfile=f"{path.name} (golden)",
                tofile=f"{path.name} (regenerated)",
                lineterm="",
            )
        )
        shown = "\n".join(diff[:MAX_DIFF_LINES])
        more = (
            f"\n... {len(diff) - MAX_DIFF_LINES} more diff lines"
            if len(diff) > MAX_DIFF_LINES
            else ""
        )
        pytest.fail(
            f"golden playthrough {golden.name} changed:\n{shown}{more}\n"
            f"If the change is intended, run `{REGENERATE}` and review the diff.",
            pytrace=False,
        )


def test_golden_files_are_exactly_the_golden_games():
    on_disk = {p.stem for p in GOLDEN_DIR.glob("*.txt")}
    assert on_disk == {g.name for g in GOLDEN}, f"stale or missing files; run `{REGENERATE}`"


def test_golden_games_cover_the_levels_the_pirates_and_a_win():
    texts = {g.name: g.text() for g in GOLDEN}
    origins = "".join(t.splitlines()[2] for t in texts.values())
    for level in (1, 2, 4):
        assert f"'level': {level}" in origins
    pirate_game = texts["scenario-pirates"]
    assert "(CHOOSE_PIRATE)" in pirate_game and "step pirates" in pirate_game
    assert ": won\n" in pirate_game
    for name, text in texts.items():
        assert "=== game over after" in text and "score " in text, name


def test_transcript_ends_with_the_engine_score_and_replays():
    game, policy = make_game("new", "random", 3, 12)
    text = transcript(game, policy, "level 3, seed 12")
    assert text.rstrip().endswith(f"score {game.score()} (R25)")
    assert text.count("\nchosen: ") == len(game.history)
    assert replay(GameRecord.of(game)).score() == game.score()


def test_transcript_lists_every_legal_action_with_its_name():
    game, policy = make_game("new", "random", 1, 4)
    first = transcript(game.clone(), policy, "t").split("\n\n")[1]
    for action in game.legal_actions():
        assert f"  {action:>3}  {game.describe(action)}" in first


def test_command_prints_a_seeded_game_and_lists_goldens(capsys):
    assert main(["--level", "2", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# level 2, seed 5, random policy") and "=== game over" in out
    assert main(["--list"]) == 0
    listed = capsys.readouterr().out
    assert all(g.name in listed for g in GOLDEN)
    assert main(["--golden", "nope"]) == 2


def test_regenerate_writes_every_file(tmp_path):
    assert main(["--regenerate", str(tmp_path)]) == 0
    for golden in GOLDEN:
        assert (tmp_path / f"{golden.name}.txt").read_text() == golden.text()


def test_help_says_how_to_regenerate():
    from friday_env.testing.playthrough import build_parser

    text = build_parser().format_help()
    assert "--regenerate" in text and "--level" in text and "--golden" in text
