"""The compiled core's Python API: choosing a core, bad input, corrupt states, conversions.

``test_core_differential`` compares the two cores' play; this file checks everything around
it: ``core=`` everywhere, ``FRIDAY_CORE``, the seed limit, that an illegal or malformed action
gives the same error and message on both cores and leaves the game untouched, that a corrupt
state is refused with a message naming what is wrong, and that the package imports and plays
without the extension.
"""

from __future__ import annotations

import copy
import pickle
import random
import subprocess
import sys
import textwrap

import gymnasium as gym
import numpy as np
import pytest

import friday_env
from friday_env import Game, GameRecord, IllegalActionError, Phase, replay, scenario
from friday_env import core as cores
from friday_env.cards import Ability
from friday_env.core import STATE_FIELDS, CoreError, available_cores
from friday_env.engine import Game as ReferenceGame
from friday_env.errors import InvalidLevelError, ScenarioError
from friday_env.record import state_digest
from friday_env.vector import FridayVectorEnv

pytestmark = pytest.mark.skipif("c" not in available_cores(), reason="compiled core not built")


def _state(game: Game) -> dict[str, object]:
    return {name: getattr(game, name) for name in STATE_FIELDS} | {"legal": game.legal_actions()}


def _mid_fight_pair(seed: int = 3) -> tuple[Game, Game]:
    """The same mid-fight state on both cores."""
    reference, compiled = Game.new(2, seed, core="python"), Game.new(2, seed, core="c")
    rng = random.Random(seed)
    while reference.phase != Phase.FIGHT or not reference.table:
        action = rng.choice(reference.legal_actions())
        reference.apply(action)
        compiled.apply(action)
    return reference, compiled


# ---------------------------------------------------------------- choosing a core


def test_available_cores_and_the_default():
    assert friday_env.available_cores() == ["c", "python"]
    assert cores.default_core() == "c" or cores.os.environ.get("FRIDAY_CORE") == "python"


def test_core_argument_chooses_the_engine():
    assert type(Game.new(1, 0, core="c")) is cores.CompiledGame
    assert type(Game.new(1, 0, core="python")) is ReferenceGame
    assert cores.core_of(Game.new(1, 0, core="c")) == "c"
    assert cores.is_game(Game.new(1, 0, core="c")) and cores.is_game(Game.new(1, 0))
    assert not cores.is_game(object())


@pytest.mark.parametrize(
    "start",
    [
        lambda core: Game.new(1, 0, core=core),
        lambda core: scenario(core=core),
        lambda core: replay(GameRecord.of(Game.new(1, 0)), core=core),
        lambda core: gym.make("Friday-v0", core=core),
        lambda core: FridayVectorEnv(2, core=core),
    ],
    ids=["Game.new", "scenario", "replay", "gym.make", "FridayVectorEnv"],
)
@pytest.mark.parametrize("core", ["cython", 3, "C"])
def test_an_unknown_core_is_one_error_with_one_message_everywhere(start, core):
    with pytest.raises(CoreError) as caught:
        start(core)
    assert type(caught.value) is CoreError
    assert str(caught.value) == f"unknown core {core!r}: choose one of 'c', 'python'"


def test_friday_core_variable_chooses_the_default(monkeypatch):
    monkeypatch.setenv("FRIDAY_CORE", "python")
    assert cores.default_core() == "python" and type(Game.new(1, 0)) is ReferenceGame
    monkeypatch.setenv("FRIDAY_CORE", "c")
    assert type(Game.new(1, 0)) is cores.CompiledGame
    monkeypatch.setenv("FRIDAY_CORE", "java")
    with pytest.raises(CoreError, match=r"unknown core 'java' \(from \$FRIDAY_CORE\)"):
        Game.new(1, 0)


def test_compiled_core_asked_for_where_it_is_not_built(monkeypatch):
    monkeypatch.setattr(cores, "_compiled", None)
    assert cores.available_cores() == ["python"]
    assert cores.default_core() == "python"
    with pytest.raises(CoreError, match="compiled core is not built"):
        Game.new(1, 0, core="c")
    monkeypatch.setenv("FRIDAY_CORE", "c")
    with pytest.raises(CoreError, match="compiled core is not built"):
        Game.new(1, 0)


def test_package_imports_and_plays_without_the_extension():
    """A machine without a C compiler: the extension cannot be imported at all."""
    code = textwrap.dedent(
        """
        import sys
        class Block:
            def find_spec(self, name, path=None, target=None):
                if name == "friday_env._core.compiled":
                    raise ImportError("no compiled core here")
        sys.meta_path.insert(0, Block())
        import friday_env
        from friday_env import Game
        from friday_env.engine import Game as ReferenceGame
        assert friday_env.available_cores() == ["python"]
        game = Game.new(1, 0)
        assert type(game) is ReferenceGame and isinstance(game, Game)
        game.apply(game.legal_actions()[0])
        try:
            Game.new(1, 0, core="c")
        except friday_env.core.CoreError as err:
            print("refused:", err)
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert "refused: the compiled core is not built" in out


def test_a_subclass_of_the_reference_engine_plays_on_it():
    class Mine(ReferenceGame):
        pass

    game = Mine.new(1, 0)
    assert type(game) is Mine and isinstance(game, Game) and cores.core_of(game) == "python"
    with pytest.raises(TypeError, match=r"Mine cannot extend friday_env\.Game"):
        type("Mine", (Game,), {})
    with pytest.raises(TypeError, match=r"start one with Game\.new"):
        Game()


def test_env_core_option():
    for core, kind in (("c", cores.CompiledGame), ("python", ReferenceGame)):
        env = gym.make("Friday-v0", core=core)
        env.reset(seed=1)
        assert type(env.unwrapped.game) is kind


def test_env_plays_the_same_episode_on_both_cores():
    observations = {}
    for core in ("c", "python"):
        env = gym.make("Friday-v0", core=core, observation="flat")
        obs, info = env.reset(seed=11)
        seen, rng, done = [obs], random.Random(0), False
        while not done:
            action = rng.choice(np.flatnonzero(info["action_mask"]).tolist())
            obs, reward, done, _, info = env.step(action)
            seen.append((obs, reward))
        observations[core] = seen
    c, python = observations["c"], observations["python"]
    assert len(c) == len(python) > 1
    assert np.array_equal(c[0], python[0])
    for (obs_c, reward_c), (obs_p, reward_p) in zip(c[1:], python[1:], strict=True):
        assert np.array_equal(obs_c, obs_p) and reward_c == reward_p


def test_version_names_the_core_in_use():
    out = subprocess.run(
        [sys.executable, "-m", "friday_agents.cli", "--version"],
        capture_output=True,
        text=True,
        check=True,
        env={**cores.os.environ, "FRIDAY_CORE": "python"},
    ).stdout
    assert "core: python" in out and "available: c, python" in out


# ---------------------------------------------------------------- seeds


def test_seed_limit_of_the_compiled_core():
    assert Game.new(1, 2**64 - 1, core="c").seed == 2**64 - 1
    with pytest.raises(
        ValueError, match=r"too large for the compiled core \(0 <= seed < 2\*\*64\)"
    ):
        Game.new(1, 2**64, core="c")
    assert Game.new(1, 2**64, core="python").seed == 2**64  # the reference takes any int


def test_seed_and_level_errors_match_the_reference():
    for bad_level in (0, 5, True, 1.0, "1"):
        with pytest.raises(InvalidLevelError) as c_err:
            Game.new(bad_level, 0, core="c")
        with pytest.raises(InvalidLevelError) as p_err:
            Game.new(bad_level, 0, core="python")
        assert str(c_err.value) == str(p_err.value)
    for bad_seed in (-1, 1.5, "7", None):
        with pytest.raises((TypeError, ValueError)) as c_err:
            Game.new(1, bad_seed, core="c")
        with pytest.raises((TypeError, ValueError)) as p_err:
            Game.new(1, bad_seed, core="python")
        assert type(c_err.value) is type(p_err.value) and str(c_err.value) == str(p_err.value)


def test_a_numpy_generator_seeds_both_cores_alike():
    c = Game.new(3, np.random.default_rng(5), core="c")
    python = Game.new(3, np.random.default_rng(5), core="python")
    assert _state(c) == _state(python) and c.origin == python.origin


# ---------------------------------------------------------------- bad input


BAD_ACTIONS = [
    -1, 199, 10**30, -(10**30), True, False, 1.0, 8.0, "8", None, [8], np.float64(8),
    np.int64(199), np.int64(-1), np.uint8(200), np.bool_(True),
]  # fmt: skip


@pytest.mark.parametrize("action", BAD_ACTIONS, ids=repr)
def test_bad_action_same_error_on_both_cores_and_state_untouched(action):
    reference, compiled = _mid_fight_pair()
    before = _state(compiled)
    with pytest.raises(IllegalActionError) as p_err:
        reference.apply(action)
    with pytest.raises(IllegalActionError) as c_err:
        compiled.apply(action)
    assert str(c_err.value) == str(p_err.value)
    assert "legal actions:" in str(c_err.value)
    assert _state(compiled) == before == _state(reference)


def test_illegal_ids_of_every_kind_same_error_on_both_cores():
    reference, compiled = _mid_fight_pair(8)
    legal = set(reference.legal_actions())
    for action in sorted(set(range(199)) - legal):
        for given in (action, np.int16(action)):  # numpy ids name the same action
            with pytest.raises(IllegalActionError) as p_err:
                reference.apply(given)
            with pytest.raises(IllegalActionError) as c_err:
                compiled.apply(given)
            assert str(c_err.value) == str(p_err.value)
    assert _state(compiled) == _state(reference)


def test_numpy_integers_and_int_subclasses_are_actions():
    reference, compiled = _mid_fight_pair()
    action = reference.legal_actions()[0]
    reference.apply(action)
    compiled.apply(np.uint8(action))
    assert _state(compiled) == _state(reference)


def test_a_finished_game_refuses_every_action():
    reference, compiled = Game.new(1, 4, core="python"), Game.new(1, 4, core="c")
    rng = random.Random(4)
    while not reference.done:
        action = rng.choice(reference.legal_actions())
        reference.apply(action)
        compiled.apply(action)
    assert compiled.legal_actions() == [] and compiled.done
    with pytest.raises(IllegalActionError, match="none, the game is over") as c_err:
        compiled.apply(0)
    with pytest.raises(IllegalActionError) as p_err:
        reference.apply(0)
    assert str(c_err.value) == str(p_err.value)


def test_apply_takes_exactly_one_argument():
    game = Game.new(1, 0, core="c")
    with pytest.raises(TypeError):
        game.apply()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        game.apply(0, 1)  # type: ignore[call-arg]


# ---------------------------------------------------------------- the object


def test_fields_have_the_reference_types():
    reference, compiled = _mid_fight_pair()
    for name in STATE_FIELDS:
        assert type(getattr(compiled, name)) is type(getattr(reference, name)), name
    assert isinstance(compiled.phase, Phase) and isinstance(compiled.resolving, Ability)
    assert compiled.won is False and type(compiled.seed) is int


def test_fields_are_read_only_and_piles_are_new_lists():
    game = Game.new(2, 1, core="c")
    with pytest.raises(AttributeError):
        game.life = 3  # type: ignore[misc]
    stack = game.stack
    stack.pop()
    assert game.stack != stack and game.stack is not game.stack


def test_a_new_seed_plays_the_same_future_on_both_cores():
    """seed and shuffles are writable (the oracle agent reseeds a clone of the real game)."""
    reference, compiled = _mid_fight_pair()
    for game in (reference, compiled):
        game.seed, game.shuffles = 2**64 - 5, 0
    rng = random.Random(2)
    while not reference.done:
        action = rng.choice(reference.legal_actions())
        reference.apply(action)
        compiled.apply(action)
        assert _state(compiled) == _state(reference)
    with pytest.raises(ValueError, match="seeds 0 <= seed < 2"):
        compiled.seed = 2**64
    with pytest.raises(ValueError, match="shuffles must be an int"):
        compiled.shuffles = -1


def test_legal_actions_is_cached_until_the_next_action():
    game = Game.new(1, 0, core="c")
    first = game.legal_actions()
    assert game.legal_actions() is first
    game.apply(first[0])
    assert game.legal_actions() is not first


def test_clone_copy_pickle_and_repr():
    reference, compiled = _mid_fight_pair()
    for other in (compiled.clone(), copy.copy(compiled), copy.deepcopy(compiled)):
        assert type(other) is cores.CompiledGame and _state(other) == _state(compiled)
        other.apply(other.legal_actions()[0])
        assert _state(compiled) == _state(reference)  # the original did not move
    restored = pickle.loads(pickle.dumps(compiled))
    assert _state(restored) == _state(compiled) and restored.origin == compiled.origin
    assert repr(compiled) == repr(reference)


def test_subclass_of_the_compiled_game_keeps_its_type_and_attributes():
    class Tagged(cores.CompiledGame):
        pass

    game = Tagged.new(1, 2)
    game.tag = "mine"
    clone = game.clone()
    assert type(clone) is Tagged and clone.tag == "mine"
    assert type(friday_env.determinized(game, 1)) is Tagged


def test_describe_matches_the_reference_for_every_action():
    reference, compiled = _mid_fight_pair()
    for action in range(199):
        assert compiled.describe(action) == reference.describe(action)


def test_fight_total_of_given_values_as_the_reference():
    reference, compiled = _mid_fight_pair()
    values = [5] * len(reference.table)
    assert compiled.fight_total(values) == reference.fight_total(values)
    assert compiled.fight_total(None) == reference.fight_total()


# ---------------------------------------------------------------- conversions and records


def test_records_replay_on_either_core():
    for maker in ("c", "python"):
        game = Game.new(4, 21, core=maker)
        rng = random.Random(1)
        while not game.done:
            game.apply(rng.choice(game.legal_actions()))
        record = GameRecord.from_json(GameRecord.of(game).to_json())
        for core in ("c", "python"):
            again = replay(record, core=core)
            assert cores.core_of(again) == core
            assert state_digest(again) == state_digest(game)


def test_a_record_with_a_huge_seed_replays_on_the_reference_by_default():
    game = Game.new(1, 2**70, core="python")
    game.apply(game.legal_actions()[0])
    assert cores.core_of(replay(GameRecord.of(game))) == "python"


def test_scenario_on_both_cores():
    spec = dict(level=1, robinson_stack=["genius", "weak"], hazard_stack=["raft/food"] * 2)
    c, python = scenario(**spec, core="c"), scenario(**spec, core="python")
    assert type(c) is cores.CompiledGame and _state(c) == _state(python)
    assert c.origin == python.origin


def _corrupt(change) -> Game:
    game = Game.new(2, 9, core="python")
    for action in (0, 6):
        game.apply(action)
    change(game)
    return game


CORRUPT_STATES = {
    "duplicate card": (lambda g: g.discard.append(g.stack[0]), "in more than one place"),
    "card id out of range": (lambda g: g.discard.append(69), r"discard\[0\] is not an int"),
    "negative card id": (lambda g: g.box.append(-1), "box"),
    "flags out of step": (lambda g: g.flags.append(0), "2 flags for 1 table cards"),
    "known top beyond the stack": (lambda g: setattr(g, "known_top", 30), "known_top"),
    "unseen card not in the stack": (
        lambda g: g.unseen.append(g.aging[0]),
        "an unseen card is not in the stack",
    ),
    "unseen starting card": (
        lambda g: g.unseen.append(g.stack[0]),
        "an unseen card is not an aging card",
    ),
    "phase out of range": (lambda g: setattr(g, "phase", 11), "phase out of range"),
    "step out of range": (lambda g: setattr(g, "step", 4), "step out of range"),
    "level out of range": (lambda g: setattr(g, "level", 5), "level out of range"),
    "hazard out of range": (lambda g: setattr(g, "hazard", 99), "hazard out of range"),
    "hazard also in a pile": (
        lambda g: setattr(g, "hazard", g.hazard_stack[0]),
        "the hazard fought also lies in a pile",
    ),
    "unknown action in history": (lambda g: g.history.append(199), r"history\[2\]"),
    "seed too large": (lambda g: setattr(g, "seed", 2**64), r"0 <= seed < 2\*\*64"),
    "life not an int": (lambda g: setattr(g, "life", "20"), "life must be an int"),
    "pile not a list": (lambda g: setattr(g, "stack", 5), "stack must be a list"),
    "flag out of range": (lambda g: g.flags.__setitem__(0, 99), r"flags\[0\]"),
    "three pirates": (lambda g: g.pirates.append(g.box.pop()), "more than two pirates"),
}


@pytest.mark.parametrize("name", sorted(CORRUPT_STATES))
def test_corrupt_states_are_refused_with_what_is_wrong(name):
    change, message = CORRUPT_STATES[name]
    game = _corrupt(change)
    with pytest.raises(ValueError, match=message):
        cores.CompiledGame.from_python(game)


def test_sound_states_are_accepted_and_checked_sound():
    game = _corrupt(lambda g: None)
    compiled = cores.CompiledGame.from_python(game)
    assert compiled._check() is None and _state(compiled) == _state(game)


def test_scenario_errors_stay_scenario_errors_on_the_compiled_core():
    with pytest.raises(ScenarioError, match="too many"):
        scenario(robinson_stack=["genius"] * 5, core="c")
