"""States made by hand: both cores accept only states the rules can reach, and what they accept
is closed under play (every state legal play reaches from it is accepted too, and a live game
always has a legal action).

The compiled core checks a state when it is made from another (``CompiledGame.from_python``,
unpickling, ``set_game``); the reference core's twin of that check is
``friday_env.engine.soundness.unsound`` (the Python vector env's ``set_game`` uses it). The cases
by name are the ones a review found: a state the check accepted that play took to one it
refused (reserve 1000 -> 1002, shuffles past 2**62, a card spent twice), a Python vector env
that took an unsound game and then raised ``IndexError``, and a state one move away from a live
game with no legal action.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from friday_env import Game, Phase, available_cores
from friday_env.actions import codec as act
from friday_env.errors import EnvOptionError, StateError
from friday_env.scenario import scenario
from friday_env.testing import tamper

CORES = available_cores()
needs_c = pytest.mark.skipif("c" not in CORES, reason="compiled core not built")
USED = 2


def _reference_at(ready: Callable[[Game], bool], seed: int = 3) -> Game:
    """A reference game reached by random play, at the first state where ``ready`` holds."""
    for attempt in range(300):
        game, rng = Game.new(2, seed + attempt, core="python"), random.Random(seed + attempt)
        while not game.done:
            if ready(game):
                return game
            game.apply(rng.choice(game.legal_actions()))
    raise AssertionError("no game reached the state asked for")


def _fighting(game: Game) -> bool:
    return game.phase == Phase.FIGHT and game.life >= 3


def _reserve_1000(game: Game) -> None:
    game.reserve = 1000


def _shuffles_at_2_62(game: Game) -> None:
    game.shuffles = 2**62
    game.discard += game.stack  # the next draw reshuffles
    game.stack, game.known_top = [], 0
    game.unseen = []


def _spent_card_unturned(game: Game) -> None:
    slot = next(s for s, f in enumerate(game.flags) if f & USED)
    game.flags[slot] &= ~USED  # spent names it, but it is offered for use again


def _used_a_card(game: Game) -> bool:
    return game.phase == Phase.FIGHT and any(f & USED for f in game.flags)


#: name: (where play stops, the edit)
CLOSURE_CASES: dict[str, tuple[Callable[[Game], bool], Callable[[Game], None]]] = {
    "reserve 1000": (_fighting, _reserve_1000),
    "shuffles 2**62": (_fighting, _shuffles_at_2_62),
    "a spent card not turned": (_used_a_card, _spent_card_unturned),
}


def _accepts(game: Any, core: str) -> str | None:
    """Why ``core``'s check refuses ``game`` (None: it accepts it). The compiled core's
    verdict is what a pickle round trip (from_python, then to_python and back) says."""
    if core == "python":
        from friday_env.engine.soundness import unsound

        return unsound(game)
    try:
        pickle.loads(pickle.dumps(game))
    except StateError as err:
        return str(err)
    return None


def _on(core: str, game: Game) -> Any:
    if core == "python":
        return game
    from friday_env.core import CompiledGame

    return CompiledGame.from_python(game)


def _eager(legal: list[int], rng: random.Random) -> int:
    """Pay, draw and use abilities first: what moves the counters the cases tamper with."""
    for preferred in (act.DRAW_PAID, act.DRAW_FREE):
        if preferred in legal:
            return preferred
    uses = [a for a in legal if a >= act.USE_0]
    return rng.choice(uses or legal)


def _play_checked(game: Any, core: str, rng: random.Random, pick: Callable = _eager) -> None:
    """Play to the end, checking each state: accepted, and a legal action while live."""
    for _ in range(tamper.MAX_ACTIONS):
        if game.done:
            return
        legal = game.legal_actions()
        assert legal, f"a live game with no legal action in {Phase(game.phase).name}"
        game.apply(pick(legal, rng))
        problem = _accepts(game, core)
        assert problem is None, f"play reached a state the check refuses: {problem}"
    raise AssertionError("no end")


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("name", sorted(CLOSURE_CASES))
def test_a_tampered_state_is_refused_or_stays_accepted_through_play(core: str, name: str):
    ready, edit = CLOSURE_CASES[name]
    for seed in range(4):
        game = _reference_at(ready, seed=seed)
        edit(game)
        if core == "c":
            try:
                game = _on(core, game)
            except StateError:
                continue  # refused up front: nothing to play
        elif _accepts(game, core) is not None:
            continue
        _play_checked(game, core, random.Random(seed))


def test_a_shuffle_count_of_2_62_is_accepted_and_play_goes_on():
    """The counter only chooses the stream of future shuffles: any count up to 2**62 is
    accepted, and play past it stays accepted (a game shuffles at most 4 times per action)."""
    game = _reference_at(_fighting)
    _shuffles_at_2_62(game)
    for core in CORES:
        assert _accepts(_on(core, game.clone()), core) is None


# ------------------------------------------------------------------ one move from no action


def _one_move_from_the_pirates() -> Game:
    """The last hazard of the red step, with the pirates out of the game: skipping it reaches
    the pirates' step with none to choose."""
    game = scenario(level=1, step="red", hazard_stack=["raft/food"], core="python")
    assert game.phase == Phase.LAST_HAZARD
    game.box += game.pirates
    game.pirates = []
    return game


def _pirates_beaten_before_their_step() -> Game:
    """Both pirates beaten at the red step: skipping its last hazard reaches the pirates'
    step with none to choose (pirates and beaten still hold two between them)."""
    game = _one_move_from_the_pirates()
    game.beaten = sorted(game.box[-2:])
    game.box = game.box[:-2]
    return game


def _drawing_more_with_an_empty_table() -> Game:
    """A "+2 cards" draw pending with no card on the table (its own card gone), no free draw
    left and no life to pay: stopping leaves a fight with no legal action."""
    game = Game.new(1, 5, core="python")
    game.apply(act.CHOOSE_HAZARD_0)
    assert game.phase == Phase.FIGHT and not game.table and game.free_total > 0
    game.phase, game.free_used = Phase.DRAW_MORE, game.free_total
    game.life, game.reserve = 0, game.life + game.reserve
    return game


def _exchanging_with_no_exchange_left() -> Game:
    """An "exchange 2" resolving with no exchange left: one exchange takes the counter to -1,
    a state both checks refuse."""
    game = _reference_at(lambda g: g.phase == Phase.FIGHT and len(g.table) >= 2)
    game.phase, game.source, game.resolving = Phase.TARGET, 0, 11  # exchange 2
    game.exchanges_left = 0
    return game


#: name: (the state, the field its refusal names)
ONE_MOVE_CASES: dict[str, tuple[Callable[[], Game], str]] = {
    "pirates out of the game": (_one_move_from_the_pirates, "pirates"),
    "pirates beaten before their step": (_pirates_beaten_before_their_step, "beaten"),
    "drawing more with an empty table": (_drawing_more_with_an_empty_table, "table"),
    "exchanging with no exchange left": (_exchanging_with_no_exchange_left, "exchanges_left"),
}


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("name", sorted(ONE_MOVE_CASES))
def test_a_state_whose_next_move_leaves_the_check_is_refused(core: str, name: str):
    """Each case, unchecked, is one move from a state the check refuses (a live game with no
    legal action, or a counter out of range); the check refuses it up front, by field."""
    build, field_name = ONE_MOVE_CASES[name]
    game = build()
    assert any(_accepts(_after(game, a), "python") for a in game.legal_actions())
    prefix = f"unsound game state: {field_name}"
    if core == "c":
        with pytest.raises(StateError, match=prefix):
            _on(core, game)
    else:
        assert (_accepts(game, core) or "").startswith(prefix)


def _after(game: Game, action: int) -> Game:
    after = game.clone()
    after.apply(action)
    return after


@pytest.mark.parametrize("core", CORES)
def test_every_move_from_an_accepted_tampered_state_is_accepted(core: str):
    """The check's closure, one move at a time: from accepted tampered states (pirates
    beaten, phases and small counters set at random too), every legal action reaches a state
    the check accepts, live ones with a legal action."""
    rng, checked = random.Random(45), 0
    while checked < 150:
        game = tamper.python_copy(tamper.real_state(rng))
        for _ in range(rng.choice((1, 2, 3, 4))):
            rng.choice((*tamper.EDITS, _small_field, _beat_a_pirate))(game, rng)
        if _accepts(game, "python") is not None or game.done:
            continue
        if core == "c":
            try:
                _on(core, game)
            except StateError as err:
                raise AssertionError(f"the cores disagree: {err}") from None
        checked += 1
        for action in game.legal_actions():
            assert _accepts(_after(game, action), "python") is None


def _small_field(game: Game, rng: random.Random) -> str:
    name = rng.choice(("step", "phase", "free_used", "exchanges_left", "life", "resolving"))
    value = rng.randrange(11) if name in ("phase", "resolving") else rng.randint(0, 3)
    setattr(game, name, Phase(value) if name == "phase" else value)
    return f"{name} {value}"


def _beat_a_pirate(game: Game, rng: random.Random) -> str:
    if game.pirates:
        game.beaten.append(game.pirates.pop())
    return "a pirate beaten"


# ------------------------------------------------------------------ the vector env


def _unsound_games() -> dict[str, Game]:
    one_move = _one_move_from_the_pirates()
    table = _reference_at(lambda g: g.phase == Phase.FIGHT and len(g.table) >= 1)
    table.box += table.table[1:]
    del table.table[1:], table.flags[1:]
    table.phase, table.source, table.resolving = Phase.TARGET, 0, 5  # destroy, nothing to target
    broken = _reference_at(_fighting)
    broken.hazard_discard.append(broken.hazard)
    broken.hazard = -1  # a fight without a hazard: the next step read card -1
    return {"one move from no action": one_move, "no target": table, "no hazard": broken}


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("name", sorted(_unsound_games()))
def test_the_vector_env_refuses_an_unsound_game_on_both_cores(core: str, name: str):
    from friday_env.vector import FridayVectorEnv

    game = _unsound_games()[name]
    env = FridayVectorEnv(2, level=game.level, core=core)
    try:
        env.reset(seed=1)
        obs, masks = env._out.obs.copy(), env._out.masks.copy()
        with pytest.raises(EnvOptionError, match="set_game: unsound game state: "):
            env.set_game(0, game)
        assert np.array_equal(env._out.obs, obs) and np.array_equal(env._out.masks, masks)
        env.step(np.array([np.flatnonzero(m)[0] for m in masks]))  # still plays
    finally:
        env.close()


# ------------------------------------------------------------------ the property


def _tampered_accepted(rng: random.Random, core: str) -> Any | None:
    """A real state with random edits (``tamper``'s and the counters' extremes), on ``core``
    if its check accepts it, else None."""
    game = tamper.python_copy(tamper.real_state(rng))
    for _ in range(rng.choice((1, 1, 2))):
        rng.choice((*tamper.EDITS, _counter_edge, _unturn))(game, rng)
    try:
        game = _on(core, game)
    except StateError:
        return None
    return game if core == "c" or _accepts(game, core) is None else None


def _counter_edge(game: Game, rng: random.Random) -> str:
    """A counter at the edge of what the check takes."""
    name = rng.choice(("life", "reserve", "fights", "step_down", "free_used", "shuffles"))
    value = 2**62 if name == "shuffles" else rng.choice((1000, 999, 100_000, 22, 0))
    setattr(game, name, value)
    return f"{name} {value}"


def _unturn(game: Game, rng: random.Random) -> str:
    if game.table:
        slot = rng.randrange(len(game.table))
        if rng.random() < 0.5:
            game.spent.append(game.table[slot])
        else:
            game.flags[slot] &= ~USED
    return "spent or turned changed"


@pytest.mark.parametrize("core", CORES)
def test_random_play_from_accepted_tampered_states_stays_accepted_with_a_legal_action(core: str):
    rng, played = random.Random(33), 0
    while played < 120:
        game = _tampered_accepted(rng, core)
        if game is None:
            continue
        played += 1
        _play_checked(game, core, rng, pick=lambda legal, r: r.choice(legal))


@pytest.mark.parametrize("core", CORES)
def test_the_vector_env_never_shows_an_empty_mask_in_a_live_game(core: str):
    """From accepted tampered states set into the vector env, random legal play: every row
    of the mask has a legal action, before and after each step (autoreset included)."""
    from friday_env.vector import FridayVectorEnv

    rng, played = random.Random(7), 0
    env = FridayVectorEnv(1, level=1, core=core)
    try:
        env.reset(seed=0)
        while played < 40:
            game = _tampered_accepted(rng, core)
            if game is None or game.done or game.level != 1:
                continue
            played += 1
            _, mask = env.set_game(0, game)
            for _ in range(tamper.MAX_ACTIONS):
                assert mask.any(), "an all-zero mask in a live game"
                _, _, terminated, _, info = env.step(np.array([rng.choice(np.flatnonzero(mask))]))
                mask = info["action_mask"][0]
                if terminated[0]:
                    break
    finally:
        env.close()
