"""The strategy analysis (friday_agents.evaluation.strategy): events and counts of two tiny
games worked out by hand, consistency with the engine on whole games, the command's bad
input (exit 2), and the results the study's section is rendered from."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from rendered import provider

from friday_agents.cli import main as friday
from friday_agents.evaluation.strategy.measures import paired, summarise
from friday_agents.evaluation.strategy.strategy import heuristic_trace, load_results
from friday_agents.evaluation.strategy.trace import Arrival, Fight, trace_actions, trace_game
from friday_agents.players.base import play_game
from friday_agents.players.heuristic.agent import HeuristicAgent
from friday_env import IllegalActionError
from friday_env import actions as act
from friday_env.cards import KIND, Kind
from friday_env.engine import DOWN
from friday_env.scenario import scenario

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "experiments" / "data" / "search32-train-1364.jsonl.gz"
#: The games the committed results (and the README section) are computed from: the best fair
#: agent's.
BEST_GAMES = ROOT / "experiments" / "data" / "guided-best-train-400.jsonl.gz"
RESULTS = ROOT / "experiments" / "strategy" / "results" / "strategy.json"
PIRATES = ["pirate/20", "pirate/25"]


def game_a():
    """Red step: fight Exploring (6, 2 free) over the raft, give up after one free card
    (genius, 2: 4 short), destroy genius with 1 of the 4 points; at the pirates with 6 life
    and 9 starting cards, lose there."""
    game = scenario(
        level=1,
        step="red",
        robinson_stack=["genius", "focused", "distracted"] + ["weak"] * 7,
        hazard_stack=["exploring/weapon", "raft/food"],
        pirates=PIRATES,
        life=10,
        seed=1,
    )
    actions = [act.CHOOSE_HAZARD_0, act.DRAW_FREE, act.END_FIGHT, act.DESTROY_0]
    actions += [act.CHOOSE_PIRATE_0] + [act.DRAW_FREE] * 6 + [act.DRAW_PAID] * 3
    return trace_actions(game, actions)


def game_b():
    """Red step: beat the raft (3) with genius and a focused bought for a life; fight the
    last hazard (further, 8), destroy the aging "stupid" with exploring/realization's
    ability, end 8 short with no free card left although a card could be bought, destroy
    a distracted and leave 7 points unused; at the pirates with 3 life, lose there."""
    stack = ["genius", "focused", "distracted", "exploring/realization", "stupid"]
    game = scenario(
        level=1,
        step="red",
        robinson_stack=stack + ["weak"] * 8 + ["distracted"] * 2,
        hazard_stack=["raft/realization", "animals/vision", "further/food"],
        pirates=PIRATES,
        life=12,
        seed=2,
    )
    actions = [act.CHOOSE_HAZARD_0, act.DRAW_FREE, act.DRAW_PAID, act.END_FIGHT]
    actions += [act.FIGHT_LAST_HAZARD] + [act.DRAW_FREE] * 3
    actions += [act.USE_0 + 1, act.TARGET_0 + 2, act.END_FIGHT]
    actions += [act.DESTROY_0, act.FINISH_DESTROYING, act.CHOOSE_PIRATE_0]
    actions += [act.DRAW_FREE] * 6 + [act.DRAW_PAID] * 3
    return trace_actions(game, actions)


def test_tiny_games_give_the_events_worked_out_by_hand():
    a, b = game_a(), game_b()
    assert a.choices == [(2, "exploring/weapon", "raft/food")]
    assert a.fights == [Fight(2, "exploring/weapon", "quit", 10, 4, ["genius"], 1)]
    assert a.fights[0].unused == 3 and a.fights[0].on_purpose
    assert a.destroyed == [(2, "genius", "starting", "lost fight")]
    assert a.pirates == Arrival(life=6, knowledge=[], starting=9, aging=0)
    assert not a.won and a.acquired == []

    assert b.choices == [(2, "raft/realization", "animals/vision")]
    assert b.last_hazards == [(2, "further/food", True)]
    assert b.fights == [
        Fight(2, "raft/realization", "won", 11, 0),
        Fight(2, "further/food", "declined", 11, 8, ["distracted"], 1),
    ]
    assert b.fights[1].unused == 7
    assert b.destroyed == [
        (2, "aging/stupid", "aging", "ability"),
        (2, "distracted", "starting", "lost fight"),
    ]
    assert b.acquired == ["raft/realization"]
    assert b.pirates == Arrival(3, ["exploring/realization", "raft/realization"], 12, 0)


def test_tiny_games_give_the_counts_worked_out_by_hand():
    s = summarise([game_a(), game_b()])
    red = s["hazards"]["red"]
    assert (red["choices"], red["harder"], red["easier"], red["equal"]) == (2, 1, 1, 0)
    assert red["kinds"] == {
        "animals": {"offered": 1, "taken": 0},
        "exploring": {"offered": 1, "taken": 1},
        "raft": {"offered": 2, "taken": 1},
    }
    assert (red["last_offered"], red["last_fought"]) == (1, 1)
    fights = s["fights"]["red"]
    assert fights["fights"] == 3 and fights["on_purpose"] == 2
    assert fights["outcomes"] == {"won": 1, "quit": 1, "declined": 1, "no draw": 0, "died": 0}
    assert fights["on_purpose_life"] == 10.5 and fights["on_purpose_shortfall"] == 6.0
    assert fights["on_purpose_destroyed"] == 1.0 and fights["on_purpose_unused"] == 5.0
    assert s["fights"]["green"]["fights"] == 0 and s["fights"]["green"]["on_purpose_life"] is None
    assert s["destroyed"]["by_group"] == {"starting": 2, "aging": 1}
    assert s["destroyed"]["by_route"] == {"starting, lost fight": 2, "aging, ability": 1}
    assert s["knowledge"]["acquired"] == {"raft/realization": 1}
    assert s["knowledge"]["at_pirates"] == {"exploring/realization": 1, "raft/realization": 1}
    pirates = s["pirates"]
    assert (pirates["reached"], pirates["wins"], pirates["life_mean"]) == (2, 0, 4.5)
    assert pirates["life_bins"]["0-5"] == {"games": 1, "wins": 0}
    assert pirates["life_bins"]["6-10"] == {"games": 1, "wins": 0}
    assert pirates["starting_mean"] == 10.5 and pirates["knowledge_mean"] == 1.0


def test_paired_measures_on_the_same_deals():
    traces = [game_a(), game_b()]
    same = paired(traces, traces)
    assert same["aging_destroyed"] == [0.5, 0.5, 0.0, 0.0, 0.0, 0.0]
    assert same["quit"][:2] == [0.5, 0.5] and same["on_purpose"][:2] == [1.0, 1.0]
    assert same["fights_won"][:2] == [0.5, 0.5] and same["reached_pirates"][:2] == [1.0, 1.0]
    with pytest.raises(ValueError, match="same deals"):
        paired(traces, traces[::-1])


@pytest.mark.parametrize("level", [1, 4])
def test_a_whole_game_traces_consistently_with_the_engine(level):
    seed = level * 1_000_000 + 7
    game = play_game(HeuristicAgent(), level, seed)
    trace = trace_game(level, seed, game.history)
    assert (trace.won, trace.score) == (game.won, game.score())
    # a fight that cost the game is not finished: the engine counts the others
    died = sum(fight.outcome == "died" for fight in trace.fights)
    assert died == (trace.pirates is None)
    assert len(trace.fights) - died + len(game.beaten) == game.fights
    # a game lost mid-fight leaves its face-down cards on the table
    face_down = [c for c, f in zip(game.table, game.flags, strict=True) if f & DOWN]
    destroyed = game.destroyed + face_down
    assert len(trace.destroyed) == len(destroyed)
    knowledge = [c for c in game.robinson_cards() + destroyed if KIND[c] == Kind.HAZARD]
    assert len(trace.acquired) == len(knowledge)
    assert heuristic_trace(level, seed) == trace


def test_a_game_that_stops_early_or_breaks_the_rules_is_refused():
    game = play_game(HeuristicAgent(), 1, 1_000_001)
    with pytest.raises(ValueError, match="not over"):
        trace_game(1, 1_000_001, game.history[:-1])
    with pytest.raises(IllegalActionError):
        trace_game(1, 1_000_001, [act.END_FIGHT])


def _write_games(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n")
    return path


def _first_game() -> dict:
    with gzip.open(GAMES, "rt") as handle:
        return json.loads(handle.readline())


@pytest.mark.parametrize(
    "content, message",
    [
        (None, "does not exist"),
        (["not json"], "is not a JSON line"),
        (['{"level": 5, "seed": 1, "actions": []}'], "'level' must be 1, 2, 3 or 4"),
        (['{"level": 1, "seed": -1, "actions": []}'], "'seed' must be a non-negative"),
        (['{"level": 1, "seed": 1, "actions": "x"}'], "'actions' must be a list"),
        (['{"level": 1, "seed": 1, "actions": [999]}'], "does not replay"),
        ([], "holds no games"),
    ],
)
def test_bad_games_files_exit_2_with_a_message(tmp_path, capsys, content, message):
    path = tmp_path / "games.jsonl"
    if content is not None:
        _write_games(path, content)
    assert friday(["strategy", "--games", str(path), "--out", str(tmp_path / "out.json")]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "out.json").exists()


def test_a_game_whose_recorded_result_differs_is_refused(tmp_path, capsys):
    line = _first_game() | {"score": -999}
    path = _write_games(tmp_path / "games.jsonl", [json.dumps(line)])
    assert friday(["strategy", "--games", str(path), "--out", str(tmp_path / "out.json")]) == 2
    assert "the file says -999" in capsys.readouterr().err


def test_the_readme_flag_is_gone_with_one_line_naming_the_renderer(tmp_path, capsys):
    args = ["--games", str(GAMES), "--out", str(tmp_path / "o.json"), "--readme", "R.md"]
    with pytest.raises(SystemExit) as stop:
        friday(["strategy", *args, "--per-level", "1"])
    assert stop.value.code == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert "--readme is gone" in line and "python tools/docs_sections.py" in line
    assert not (tmp_path / "o.json").exists()


def test_the_command_writes_results_and_the_section_renders_them(tmp_path, capsys):
    """The command writes the results file and prints the outcomes, no Markdown; the
    renderer's section is built from that file (the study's command and every level)."""
    out = tmp_path / "strategy.json"
    args = ["--games", str(GAMES), "--out", str(out), "--per-level", "2"]
    assert friday(["strategy", *args, "--no-progress"]) == 0
    results = load_results(out)
    assert list(results["levels"]) == ["1", "2", "3", "4"]
    assert all(level["search"]["games"] == 2 for level in results["levels"].values())
    assert results["all_levels"]["heuristic"]["games"] == 8
    assert "--per-level 2" in results["command"]
    printed = capsys.readouterr().out
    assert "reached the pirates" in printed and "|" not in printed
    assert list(tmp_path.iterdir()) == [out]
    section = provider("strategy").markdown(results)
    assert results["command"] in section
    assert all(f"| {level} | heuristic | 2 |" in section for level in range(1, 5))


@pytest.mark.slow
def test_the_committed_results_come_from_the_committed_games(tmp_path):
    out = tmp_path / "strategy.json"
    args = ["--games", str(BEST_GAMES), "--name", "guided", "--out", str(out), "--no-progress"]
    assert friday(["strategy", *args]) == 0
    fresh, committed = load_results(out), load_results(RESULTS)
    assert fresh["levels"] == committed["levels"]
    assert fresh["all_levels"] == committed["all_levels"]
