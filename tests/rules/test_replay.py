"""Determinism and replay: same setup + same actions = same game; records replay exactly and
refuse to replay when tampered with."""

from __future__ import annotations

import json
import random
from enum import IntEnum
from pathlib import Path

import numpy as np
import pytest

from friday_env import Game, GameRecord, RecordError, replay
from friday_env import actions as act
from friday_env.core import python_copy
from friday_env.engine import Game as ReferenceGame
from friday_env.record import state_digest
from friday_env.scenario import scenario
from friday_env.testing.games import game_seed, make_game
from friday_env.testing.policies import random_policy

ROOT = Path(__file__).resolve().parents[2]

LEVELS = [1, 2, 3, 4]


def _played(level: int, seed: int, start: str = "new", policy: str = "random") -> Game:
    game, chooser = make_game(start, policy, level, seed)
    while not game.done:
        game.apply(chooser(game))
    return game


def _partly_played(level: int, seed: int, actions: int) -> Game:
    game = Game.new(level, seed)
    choose = random_policy(random.Random(seed))
    for _ in range(actions):
        game.apply(choose(game))
    return game


def _record_json(game: Game) -> dict:
    return json.loads(GameRecord.of(game).to_json())


# ---------------------------------------------------------------- determinism


@pytest.mark.parametrize("level", LEVELS)
def test_same_level_seed_and_actions_give_the_same_state_at_every_step(level):
    for index in range(20):
        original = _played(level, game_seed(7, level, index))
        again = Game.new(level, original.seed)
        digests = [state_digest(again)]
        for action in original.history:
            again.apply(action)
            digests.append(state_digest(again))
        assert digests[-1] == state_digest(original)
        assert again.score() == original.score() and again.won == original.won
        # the same actions on a third copy pass through exactly the same states
        third = Game.new(level, original.seed)
        for action, digest in zip(original.history, digests[1:], strict=True):
            third.apply(action)
            assert state_digest(third) == digest


@pytest.mark.parametrize("level", LEVELS)
def test_new_game_from_a_numpy_generator_is_reproducible(level):
    first = Game.new(level, np.random.default_rng(1234))
    second = Game.new(level, np.random.default_rng(1234))
    assert state_digest(first) == state_digest(second)
    assert first.stack == second.stack and first.hazard_stack == second.hazard_stack
    rng = np.random.default_rng(1234)
    a, b = Game.new(level, rng), Game.new(level, rng)  # the generator advances
    assert state_digest(a) == state_digest(first)
    assert state_digest(b) != state_digest(a)
    assert a.origin["seed"] == first.seed  # the record keeps an int seed


def test_the_seed_decides_the_deal():
    digests = {state_digest(Game.new(1, seed)) for seed in range(50)}
    assert len(digests) == 50


@pytest.mark.parametrize("level", LEVELS)
def test_different_seeds_shuffle_independently(level):
    """Each pile of a new game is shuffled anew for every seed. (A generator seeded with the
    integer ``seed << 32 | k`` made seed 0's k-th shuffle equal seed k-1's: Mersenne
    Twister's key schedule adds the word index to each key word. Seeds 0 and 1 had the same
    starting stack, seeds 0 and 2 the same hazard stack.)"""
    games = [Game.new(level, seed) for seed in range(200)]
    assert len({tuple(g.stack) for g in games}) == len(games)
    assert len({tuple(g.hazard_stack + g.offer) for g in games}) == len(games)


def test_kth_shuffle_differs_between_seeds():
    def kth_shuffle(seed: int, k: int) -> list[int]:
        game = ReferenceGame()
        game.seed, game.shuffles = seed, k
        return game.shuffled(list(range(30)))

    for k in range(2, 12):  # seed k-1 differs from seed 0
        assert kth_shuffle(0, k) != kth_shuffle(k - 1, k)
        assert kth_shuffle(3, k) != kth_shuffle(4, k)


def test_no_global_random_state_is_used():
    """Games do not depend on (nor disturb) the global ``random`` or numpy state."""
    random.seed(1)
    np.random.seed(1)  # the point is to perturb the global state
    first = _played(2, 99)
    random.seed(2)
    np.random.seed(2)
    random.random()
    second = _played(2, 99)
    assert state_digest(first) == state_digest(second)


# ---------------------------------------------------------------- records replay


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("start", ["new", "deal"])
def test_record_saved_as_json_replays_to_the_same_final_state(level, start, tmp_path):
    for index in range(25):
        game = _played(level, game_seed(3, level, index), start=start)
        path = tmp_path / f"game-{index}.json"
        GameRecord.of(game).save(path)
        replayed = replay(GameRecord.load(path))
        assert state_digest(replayed) == state_digest(game)
        assert replayed.score() == game.score() and replayed.won == game.won
        assert replayed.history == game.history


def test_record_of_an_unfinished_game_replays_to_the_same_state():
    game = _partly_played(3, 41, 17)
    assert not game.done
    replayed = replay(GameRecord.from_json(GameRecord.of(game).to_json()))
    assert state_digest(replayed) == state_digest(game)
    assert replayed.legal_actions() == game.legal_actions()


def test_record_of_a_scripted_scenario_replays():
    game = scenario(
        2,
        "yellow",
        robinson_stack=["genius", "raft/strategy", "stupid", "weak", "focused"],
        hazard_stack=["further/food", "animals/vision", "raft/food"],
        pirates=["pirate/30", "pirate/half"],
        life=9,
        known_top=2,
        seed=5,
    )
    choose = random_policy(random.Random(5))
    while not game.done:
        game.apply(choose(game))
    record = GameRecord.from_json(GameRecord.of(game).to_json())
    assert "scenario" in record.origin
    assert state_digest(replay(record)) == state_digest(game)


# ---------------------------------------------------------------- tampered records


def _finished_record() -> dict:
    """A finished level 1 game long enough to tamper with."""
    game = _played(1, 2024)
    assert len(game.history) > 20 and game.shuffles > 4
    return _record_json(game)


def _replay_text(data: dict) -> Game:
    return replay(GameRecord.from_json(json.dumps(data)))


def test_untampered_record_replays():
    assert _replay_text(_finished_record()).done


def test_changed_action_is_refused():
    data = _finished_record()
    start = Game.new(1, data["origin"]["seed"])
    first = data["actions"][0]
    other = next(a for a in start.legal_actions() if a != first)
    data["actions"][0] = other
    with pytest.raises(RecordError, match=r"action \d+ of \d+ .* is illegal|does not replay"):
        _replay_text(data)


def test_illegal_action_is_refused_with_its_number_counted_from_1():
    """The sixth action (index 5) is "action 6 of N", as friday replay and the viewer count."""
    data = _finished_record()
    data["actions"][5] = 999
    total = len(data["actions"])
    with pytest.raises(RecordError, match=rf"action 6 of {total} \(999\) is illegal"):
        _replay_text(data)


def test_friday_replay_and_the_viewer_count_actions_from_1(tmp_path, capsys):
    from friday_agents.cli import main

    data = _finished_record()
    total = len(data["actions"])
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    assert main(["replay", str(path), "--all"]) == 0
    shown = capsys.readouterr().out
    assert shown.count(">>> action 1 of ") == 1 and f">>> action {total} of {total}: " in shown
    data["actions"][5] = 999
    path.write_text(json.dumps(data))
    assert main(["replay", str(path)]) == 2
    assert f"action 6 of {total} (999) is illegal" in capsys.readouterr().err
    script = (ROOT / "friday_env" / "viewer" / "assets" / "viewer.js").read_text()
    assert "`decision ${view.index + 1} of ${last}`" in script


def test_changed_score_is_refused():
    data = _finished_record()
    data["result"]["score"] += 1
    with pytest.raises(RecordError, match="does not replay to its result"):
        _replay_text(data)


def test_changed_digest_or_outcome_is_refused():
    for key, value in (("digest", "0" * 16), ("won", True), ("life", 7), ("phase", "FIGHT")):
        data = _finished_record()
        data["result"][key] = value
        with pytest.raises(RecordError, match="does not replay to its result"):
            _replay_text(data)


def test_changed_seed_is_refused():
    data = _finished_record()
    data["origin"]["seed"] += 1
    with pytest.raises(RecordError, match=r"is illegal|does not replay to its result"):
        _replay_text(data)


def test_truncated_actions_are_refused():
    data = _finished_record()
    data["actions"] = data["actions"][:-1]
    with pytest.raises(RecordError, match="does not replay to its result"):
        _replay_text(data)


def test_extra_action_after_the_end_is_refused():
    data = _finished_record()
    data["actions"].append(0)
    with pytest.raises(RecordError, match="is illegal"):
        _replay_text(data)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "not valid JSON"),
        ("", "not valid JSON"),
        ("[1, 2]", "not a game record"),
        ('{"format": "chess", "version": 1}', "not a game record"),
    ],
)
def test_bad_json_or_format_is_refused(text, message):
    with pytest.raises(RecordError, match=message):
        GameRecord.from_json(text)


@pytest.mark.parametrize("version", [0, 2, "1", None])
def test_wrong_version_is_refused(version):
    data = _finished_record()
    data["version"] = version
    with pytest.raises(RecordError, match="unsupported game record version"):
        GameRecord.from_json(json.dumps(data))


@pytest.mark.parametrize("bad", ["3", 3.0, True, None, [3]])
def test_non_integer_actions_are_refused(bad):
    data = _finished_record()
    data["actions"][2] = bad
    with pytest.raises(RecordError, match="actions must be integers"):
        GameRecord.from_json(json.dumps(data))


@pytest.mark.parametrize("field", ["origin", "actions", "result"])
def test_missing_or_mistyped_fields_are_refused(field):
    data = _finished_record()
    data[field] = "oops"
    with pytest.raises(RecordError, match=f"field '{field}' must be"):
        GameRecord.from_json(json.dumps(data))
    del data[field]
    with pytest.raises(RecordError, match=f"field '{field}' must be"):
        GameRecord.from_json(json.dumps(data))


@pytest.mark.parametrize("level", [0, 5, "x", 1.0, True, None])
def test_unknown_level_in_origin_is_refused(level):
    data = _finished_record()
    data["origin"]["level"] = level
    with pytest.raises(RecordError, match=r"origin .* is invalid: unknown level"):
        _replay_text(data)


@pytest.mark.parametrize(
    "origin",
    [{"level": 1}, {"seed": 3}, {"level": 1, "seed": 3, "extra": 0}, {}],
)
def test_incomplete_origin_is_refused(origin):
    data = _finished_record()
    data["origin"] = origin
    with pytest.raises(RecordError, match="origin needs 'level' and 'seed'"):
        _replay_text(data)


@pytest.mark.parametrize("seed", [-1, "7", 1.5])
def test_bad_seed_in_origin_is_refused(seed):
    data = _finished_record()
    data["origin"]["seed"] = seed
    with pytest.raises(RecordError, match=r"origin .* is invalid"):
        _replay_text(data)


def test_malformed_scenario_origin_is_refused():
    game = scenario(1, robinson_stack=["genius"], hazard_stack=["raft/food", "raft/food"])
    data = _record_json(game)
    data["origin"]["scenario"]["robinson_stack"] = ["genius", "not a card"]
    with pytest.raises(RecordError, match="unknown card key 'not a card'"):
        _replay_text(data)
    data["origin"]["scenario"] = {"level": 1, "colour": "blue"}
    with pytest.raises(RecordError, match="colour"):
        _replay_text(data)


# ---------------------------------------------------------------- found by these tests


def test_record_of_a_scenario_with_drawn_pirates_replays():
    """A scenario whose pirates are drawn with its seed used one shuffle for them; its record
    must rebuild that, not name the pirates (which skipped the shuffle and shifted every
    later shuffle, so an honest record failed to replay)."""
    game = scenario(
        1,
        robinson_stack=["weak", "genius", "focused"],
        hazard_stack=["raft/food", "exploring/food", "further/food", "animals/vision"],
        seed=3,
    )
    choose = random_policy(random.Random(1))
    while not game.done:
        game.apply(choose(game))
    assert game.shuffles > 1  # reshuffles happened after the pirates were drawn
    replayed = replay(GameRecord.from_json(GameRecord.of(game).to_json()))
    assert state_digest(replayed) == state_digest(game)
    assert replayed.pirates == game.pirates


def _copying(target_slot: int) -> Game:
    """Mimicry copies either the (used) destroy or the (used) double: the two states
    differ only in the ability being resolved."""
    game = scenario(
        1,
        robinson_stack=[
            "raft/mimicry", "exploring/realization", "exploring/repeat", "weak", "focused",
        ],
        hazard_stack=["cannibals/weapon", "raft/food"],
    )  # fmt: skip
    game.apply(act.CHOOSE_HAZARD_0)
    for _ in range(5):
        game.apply(act.DRAW_FREE)
    game.apply(act.USE_0 + 1)  # destroy ...
    game.apply(act.TARGET_0 + 3)  # ... the weak card
    game.apply(act.USE_0 + 2)  # double ...
    game.apply(act.TARGET_0 + 4)  # ... the focused card
    game.apply(act.USE_0 + 0)  # copy ...
    game.apply(act.TARGET_0 + target_slot)
    return game


def test_digest_tells_apart_states_that_differ_only_in_the_ability_resolving():
    copies_destroy, copies_double = _copying(1), _copying(2)
    assert copies_destroy.legal_actions() != copies_double.legal_actions()
    assert state_digest(copies_destroy) != state_digest(copies_double)


def test_record_with_a_changed_copy_target_is_refused():
    honest = GameRecord.of(_copying(1))
    tampered = GameRecord(honest.origin, _copying(2).history, honest.result)
    with pytest.raises(RecordError, match="does not replay to its result"):
        replay(tampered)


def _changed(value: object) -> object:
    if isinstance(value, list):
        return [*value, 0]
    if isinstance(value, bool):
        return not value
    if isinstance(value, IntEnum):
        return next(member for member in type(value) if member != value)
    if isinstance(value, int):
        return value + 1
    raise TypeError(f"no way to change {value!r}: teach this test the new kind of field")


def test_digest_covers_every_field_of_the_state():
    """Changing any one field of a game changes its digest (history, the legal-action cache
    and the setup description aside): equal digests mean equal games."""
    game = python_copy(_copying(1))  # vars() and setattr: the reference engine's fields
    reference = state_digest(game)
    for name, value in vars(game).items():
        if name in ("history", "_legal", "origin"):
            continue
        changed = game.clone()
        setattr(changed, name, _changed(value))
        assert state_digest(changed) != reference, f"the digest ignores {name}"
