"""Property tests (hypothesis): clones, records, open information (R26), the action codec and
illegal actions, over game states drawn from seeded new games and random deals."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from friday_env import Game, GameRecord, IllegalActionError, determinized, public_view, replay
from friday_env import actions as act
from friday_env.cards import CARD_TYPE, CARD_TYPES, NUM_CARDS
from friday_env.core import core_of, python_copy, to_core
from friday_env.information import known_top_cards
from friday_env.record import state_digest
from friday_env.testing.games import make_game
from friday_env.testing.invariants import check_state
from friday_env.testing.policies import random_policy

_DIFFICULT = [CARD_TYPES[CARD_TYPE[c]].difficult for c in range(NUM_CARDS)]
PROPERTY_SETTINGS = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@st.composite
def game_states(draw) -> Game:
    """A game after a random number of random legal actions, from a new game or a deal."""
    level = draw(st.integers(1, 4))
    start = draw(st.sampled_from(["new", "deal"]))
    seed = draw(st.integers(0, 2**40))
    steps = draw(st.integers(0, 150))
    game, _ = make_game(start, "random", level, seed)
    choose = random_policy(random.Random(seed + 1))
    for _ in range(steps):
        if game.done:
            break
        game.apply(choose(game))
    return game


def _play_out(game: Game, seed: int) -> None:
    choose = random_policy(random.Random(seed))
    while not game.done:
        game.apply(choose(game))


# ---------------------------------------------------------------- clones


@PROPERTY_SETTINGS
@given(game=game_states(), seed=st.integers(0, 2**32))
def test_playing_on_a_clone_never_changes_the_original(game, seed):
    digest, legal, history = state_digest(game), list(game.legal_actions()), list(game.history)
    view = public_view(game)
    clone = game.clone()
    assert state_digest(clone) == digest
    _play_out(clone, seed)
    assert state_digest(game) == digest
    assert game.legal_actions() == legal and game.history == history
    assert public_view(game) == view


@PROPERTY_SETTINGS
@given(game=game_states(), seed=st.integers(0, 2**32))
def test_playing_on_the_original_never_changes_a_clone(game, seed):
    clone = game.clone()
    digest = state_digest(clone)
    _play_out(game, seed)
    assert state_digest(clone) == digest


@PROPERTY_SETTINGS
@given(game=game_states(), seed=st.integers(0, 2**32))
def test_a_clone_plays_the_same_future_as_the_original(game, seed):
    clone = game.clone()
    _play_out(game, seed)
    _play_out(clone, seed)
    assert state_digest(clone) == state_digest(game)


# ---------------------------------------------------------------- records


@PROPERTY_SETTINGS
@given(game=game_states())
def test_replaying_a_saved_record_gives_the_same_state(game):
    record = GameRecord.from_json(GameRecord.of(game).to_json())
    replayed = replay(record)
    assert state_digest(replayed) == state_digest(game)
    assert replayed.legal_actions() == game.legal_actions()
    assert replayed.score() == game.score()


# ---------------------------------------------------------------- R26 open information


@PROPERTY_SETTINGS
@given(game=game_states(), seed=st.integers(0, 2**63 - 1))
def test_r26_determinized_keeps_every_public_field(game, seed):
    sample = determinized(game, seed)
    assert public_view(sample) == public_view(game)
    check_state(sample)  # a resampled world is still a legal world
    assert state_digest(game) == state_digest(game.clone())  # game itself untouched


def _hidden_order_changed(game: Game, rng: random.Random) -> Game:
    """The same public situation with every hidden thing changed: the stack's order below
    its known top, the hazard stack's order, the aging stack's order (normal cards above
    difficult ones), and which aging card is the unseen one (swapped with one of the same
    part of the aging stack)."""
    other = python_copy(game)  # its lists are edited in place: a reference-engine copy
    if other.unseen and other.aging:
        unseen = rng.choice(other.unseen)
        same_part = [c for c in other.aging if _DIFFICULT[c] == _DIFFICULT[unseen]]
        if same_part:
            waiting = rng.choice(same_part)
            other.stack[other.stack.index(unseen)] = waiting
            other.aging[other.aging.index(waiting)] = unseen
            other.unseen[other.unseen.index(unseen)] = waiting
    hidden = len(other.stack) - other.known_top
    below = other.stack[:hidden]
    rng.shuffle(below)
    other.stack[:hidden] = below
    rng.shuffle(other.hazard_stack)
    difficult = [c for c in other.aging if _DIFFICULT[c]]
    normal = [c for c in other.aging if not _DIFFICULT[c]]
    rng.shuffle(difficult)
    rng.shuffle(normal)
    other.aging = difficult + normal
    return to_core(other, core_of(game))  # back on the core that plays ``game``


@PROPERTY_SETTINGS
@given(game=game_states(), shuffle_seed=st.integers(0, 2**32), seed=st.integers(0, 2**32))
def test_r26_games_differing_only_in_hidden_order_look_the_same(game, shuffle_seed, seed):
    other = _hidden_order_changed(game, random.Random(shuffle_seed))
    assert public_view(other) == public_view(game)
    assert known_top_cards(other) == known_top_cards(game)
    # and the hidden order does not show through a determinization either
    assert state_digest(determinized(other, seed)) == state_digest(determinized(game, seed))


# ---------------------------------------------------------------- the action codec


def test_action_names_are_unique_for_every_id():
    names = [act.action_name(a) for a in range(act.NUM_ACTIONS)]
    assert len(set(names)) == act.NUM_ACTIONS
    assert tuple(names) == act.ACTION_NAMES


@given(action=st.integers(0, act.NUM_ACTIONS - 1))
def test_action_name_is_a_nonempty_string(action):
    name = act.action_name(action)
    assert isinstance(name, str) and name.strip() == name and name


@given(action=st.one_of(st.integers(max_value=-1), st.integers(min_value=act.NUM_ACTIONS)))
def test_action_name_refuses_ids_outside_the_layout(action):
    with pytest.raises(ValueError, match="outside"):
        act.action_name(action)


# ---------------------------------------------------------------- illegal actions


ANY_ACTION = st.one_of(
    st.integers(-3, act.NUM_ACTIONS + 3),
    st.integers(),
    st.booleans(),
    st.none(),
    st.text(max_size=3),
    st.floats(allow_nan=True),
)


@PROPERTY_SETTINGS
@given(game=game_states(), action=ANY_ACTION)
def test_an_illegal_action_raises_and_changes_nothing(game, action):
    legal = list(game.legal_actions())
    if isinstance(action, int) and not isinstance(action, bool) and action in legal:
        return  # legal actions are exercised everywhere else
    digest, history = state_digest(game), list(game.history)
    with pytest.raises(IllegalActionError) as caught:
        game.apply(action)
    message = str(caught.value)
    assert f"illegal action {action!r}" in message  # names the action
    assert f"in phase {game.phase.name}" in message  # and the pending decision
    assert state_digest(game) == digest
    assert game.history == history and game.legal_actions() == legal
