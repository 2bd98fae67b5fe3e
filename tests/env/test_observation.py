"""Observation encoders: layout, bounds, open information only (R26), cache correctness, and
what the pieces say about hand-built positions."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_env_random import random_scenario

from friday_env import Game, determinized, public_view, scenario
from friday_env import actions as act
from friday_env.actions import NUM_ACTIONS, Phase
from friday_env.cards import CARD_TYPES, FIGHTING_TYPES, KEY, Kind
from friday_env.observation import (
    CARD_FEATURES,
    CODE_OF_TYPE,
    DICT_KEYS,
    DICT_PILES,
    FLAT_KNOWN_TOP,
    FLAT_LAYOUT,
    FLAT_SCALARS,
    FLAT_SIZE,
    FLAT_TABLE_SLOTS,
    TABLE_FEATURES,
    DictEncoder,
    FlatEncoder,
    FlatMaskEncoder,
    make_encoder,
)


def random_states(count: int, seed: int) -> list[Game]:
    """Snapshots of random masked play, half from new games and half from random mid-game
    positions (which reach sorting, unseen aging cards and the pirates)."""
    rng = np.random.default_rng(seed)
    states: list[Game] = []
    episode = 0
    while len(states) < count:
        level = 1 + episode % 4
        if episode % 2:
            spec = random_scenario(rng, level)
            if episode % 4 == 1:  # some order of the stack's top known (as after a sort)
                spec["known_top"] = int(rng.integers(0, len(spec["robinson_stack"]) + 1))
            game = scenario(**spec)
        else:
            game = Game.new(level, int(rng.integers(2**32)))
        episode += 1
        while not game.done and len(states) < count:
            if rng.random() < 0.3:
                states.append(game.clone())
            legal = game.legal_actions()
            game.apply(legal[rng.integers(len(legal))])
        states.append(game.clone())
    return states[:count]


@pytest.fixture(scope="module")
def states() -> list[Game]:
    return random_states(1500, seed=0)


def same(a, b) -> bool:
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)
    return np.array_equal(a, b)


# ---------------------------------------------------------------------- layout


def test_flat_layout_pieces_tile_the_vector():
    offsets = FLAT_LAYOUT.offsets
    at = 0
    for piece in FLAT_LAYOUT.pieces:
        assert offsets[piece.name] == at
        assert piece.size > 0 and piece.low <= piece.high and piece.meaning
        at += piece.size
    assert at == FLAT_SIZE
    assert len({p.name for p in FLAT_LAYOUT.pieces}) == len(FLAT_LAYOUT.pieces)
    names = FLAT_LAYOUT.names()
    assert len(names) == FLAT_SIZE == len(set(names))
    assert names[offsets["table"] + TABLE_FEATURES + 1] == "table[1].value"
    low, high = FLAT_LAYOUT.bounds()
    space = FlatEncoder().space
    assert space.shape == (FLAT_SIZE,) and space.dtype == np.float32
    assert np.array_equal(space.low, low) and np.array_equal(space.high, high)
    assert np.isfinite(low).all() and np.isfinite(high).all()
    with pytest.raises(KeyError, match="no piece 'nope'"):
        FLAT_LAYOUT["nope"]


def test_counts_are_over_the_fighting_types_and_codes_over_every_non_step_type():
    assert FLAT_LAYOUT["discard"].size == len(FIGHTING_TYPES)
    non_step = [i for i, t in enumerate(CARD_TYPES) if t.kind != Kind.STEP]
    assert sorted(CODE_OF_TYPE) == non_step
    assert sorted(CODE_OF_TYPE.values()) == list(range(1, len(non_step) + 1))
    space = DictEncoder().space
    assert set(space.spaces) == set(DICT_KEYS)
    for key in DICT_PILES:
        assert space[key].shape == (len(FIGHTING_TYPES),)


def test_make_encoder_names_and_rejects_unknown_ones():
    assert isinstance(make_encoder("flat"), FlatEncoder)
    assert isinstance(make_encoder("dict"), DictEncoder)
    assert isinstance(make_encoder("flat_mask"), FlatMaskEncoder)
    with pytest.raises(ValueError, match="unknown observation encoder 'image'"):
        make_encoder("image")


# -------------------------------------------------------------- every state


def test_every_encoding_is_inside_its_space(states):
    encoders = [FlatEncoder(), DictEncoder(), FlatMaskEncoder()]
    for game in states:
        for encoder in encoders:
            obs = encoder.encode(game)
            assert encoder.space.contains(obs), (encoder.name, game)


def test_r26_states_differing_only_in_hidden_information_encode_identically(states):
    """``determinized`` resamples the stack order below the known top, which aging cards
    are the unseen ones, and the aging and hazard stacks' order; no encoder may notice."""
    encoders = [FlatEncoder(), DictEncoder(), FlatMaskEncoder()]
    hidden_differs = Counter()
    for index, game in enumerate(states):
        originals = [encoder.encode(game) for encoder in encoders]
        for k in range(2):
            other = determinized(game, index * 2 + k)
            hidden_differs["stack"] += other.stack != game.stack
            hidden_differs["unseen"] += other.unseen != game.unseen
            hidden_differs["hazard_stack"] += other.hazard_stack != game.hazard_stack
            hidden_differs["aging"] += other.aging != game.aging
            hidden_differs["seed"] += other.seed != game.seed
            for encoder, original in zip(encoders, originals, strict=True):
                assert same(encoder.encode(other), original), (encoder.name, game)
    # the pairs really differ in everything hidden, many times over
    assert min(hidden_differs.values()) > 100, hidden_differs


def test_r26_known_top_cards_are_kept_and_encoded(states):
    with_known_top = [g for g in states if g.known_top and not g.done]
    assert len(with_known_top) > 50
    assert any(g.known_top > FLAT_KNOWN_TOP for g in with_known_top)
    encoder = DictEncoder()
    for game in with_known_top:
        codes = encoder.encode(game)["known_top"]
        expected = [CODE_OF_TYPE[CARD_TYPES.index(_type(c))] for c in game.stack[::-1]]
        assert codes[: game.known_top].tolist() == expected[: game.known_top]
        assert not codes[game.known_top :].any()


def _type(card: int):
    from friday_env.cards import CARD_TYPE

    return CARD_TYPES[CARD_TYPE[card]]


def _public(game: Game) -> str:
    """The public view with pile orders that carry no information sorted, and derived
    fields dropped: what an encoder must distinguish."""
    view = public_view(game)
    for key in ("robinson_discard", "hazard_discard", "destroyed", "beaten_pirates"):
        view[key] = sorted(view[key])
    for key in ("legal_actions", "score", "won"):
        del view[key]
    view["fights"] = game.fights
    if game.phase == Phase.TARGET:
        view["resolving"] = (int(game.resolving), game.source, game.exchanges_left)
    view["sort_placed"] = game.sort_placed
    return json.dumps(view, sort_keys=True)


@pytest.mark.parametrize("encoder", [FlatEncoder(), DictEncoder()], ids=["flat", "dict"])
def test_different_public_situations_encode_differently(states, encoder):
    seen: dict[bytes, str] = {}
    for game in states:
        if len(game.table) > FLAT_TABLE_SLOTS or game.known_top > FLAT_KNOWN_TOP:
            continue  # the flat vector summarises these (tested elsewhere)
        obs = encoder.encode(game)
        if isinstance(obs, dict):
            key = b"".join(np.asarray(obs[k]).tobytes() for k in sorted(obs))
        else:
            key = obs.tobytes()
        public = _public(game)
        assert seen.setdefault(key, public) == public
    assert len(seen) > 1000


def test_flat_mask_is_the_flat_vector_and_the_legal_actions(states):
    flat, both = FlatEncoder(), FlatMaskEncoder()
    for game in states[:300]:
        obs = both.encode(game)
        assert np.array_equal(obs["observation"], flat.encode(game))
        assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].shape == (NUM_ACTIONS,)
        assert np.flatnonzero(obs["action_mask"]).tolist() == game.legal_actions()


def test_dict_counts_and_codes_agree_with_the_public_view(states):
    encoder = DictEncoder()
    position = {CARD_TYPES[t].key: i for i, t in enumerate(FIGHTING_TYPES)}
    view_keys = {
        "stack_known": "robinson_stack_known",
        "discard": "robinson_discard",
        "destroyed": "destroyed",
        "hazard_discard": "hazard_discard",
        "hazard_stack": "hazard_stack_cards",
        "unknown_aging": "unknown_aging_pool",
    }
    for game in states[:400]:
        obs, view = encoder.encode(game), public_view(game)
        for key, view_key in view_keys.items():
            expected = np.zeros(len(FIGHTING_TYPES), np.int64)
            for card_key in view[view_key]:
                expected[position[card_key]] += 1
            assert np.array_equal(obs[key], expected), key
        table = [entry["card"] for entry in view["table"]]
        codes = obs["table_card"][: len(table)]
        assert [CARD_TYPES[_type_of_code(c)].key for c in codes] == table
        assert obs["phase"] == game.phase and obs["level"] == game.level - 1


def _type_of_code(code: int) -> int:
    return next(t for t, c in CODE_OF_TYPE.items() if c == code)


# ---------------------------------------------------------------- the cache


def test_a_reused_encoder_matches_a_fresh_one_in_order_and_out_of_order(states):
    """The flat encoder rewrites the table and piles only when they change; whatever order
    states come in, it must give what a fresh encoder gives."""
    reused = FlatEncoder()
    order = np.random.default_rng(1).permutation(len(states))
    for index in [*range(len(states)), *order[:500]]:
        game = states[index]
        assert np.array_equal(reused.encode(game), FlatEncoder().encode(game)), index


def test_encodings_are_fresh_arrays_and_encode_into_fills_a_row():
    game = Game.new(2, 5)
    encoder = FlatEncoder()
    first, second = encoder.encode(game), encoder.encode(game)
    assert first is not second and not np.shares_memory(first, second)
    batch = np.full((3, FLAT_SIZE), 7.0, np.float32)
    encoder.encode_into(game, batch[1])
    assert np.array_equal(batch[1], first)
    assert (batch[0] == 7).all() and (batch[2] == 7).all()
    dict_encoder = DictEncoder()
    a, b = dict_encoder.encode(game), dict_encoder.encode(game)
    assert all(not np.shares_memory(a[k], b[k]) for k in a)


@settings(max_examples=60, deadline=None)
@given(level=st.integers(1, 4), seed=st.integers(0, 2**40), moves=st.integers(0, 60))
def test_encoders_work_on_engine_states_without_an_env(level, seed, moves):
    game = Game.new(level, seed)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        if game.done:
            break
        legal = game.legal_actions()
        game.apply(legal[rng.integers(len(legal))])
    for encoder in (FlatEncoder(), DictEncoder(), FlatMaskEncoder()):
        assert encoder.space.contains(encoder.encode(game))


# ------------------------------------------------------ pieces, by hand


def piece(obs: np.ndarray, name: str) -> np.ndarray:
    return obs[FLAT_LAYOUT.slice(name)]


def scalar(obs: np.ndarray, name: str) -> float:
    divisor = next(s.divisor for s in FLAT_SCALARS if s.name == name)
    return float(piece(obs, name)[0]) * divisor


def test_flat_pieces_of_a_fight_say_what_the_table_shows():
    game = scenario(
        level=2,
        step="yellow",
        robinson_stack=["genius", "further/repeat", "stupid", "weak"],
        hazard_stack=["exploring/food", "cannibals/weapon", "raft/books", "raft/food"],
        life=15,
    )
    obs = FlatEncoder().encode(game)
    assert piece(obs, "phase").tolist() == [float(p == Phase.CHOOSE_HAZARD) for p in Phase]
    assert piece(obs, "step").tolist() == [0, 1, 0, 0]
    assert piece(obs, "level").tolist() == [0, 1, 0, 0]
    assert scalar(obs, "life") == pytest.approx(15)
    offer = piece(obs, "offer_values")  # exploring/food: 2 free, 3 in yellow
    assert offer[:2] * 5 == pytest.approx([2, 3])
    game.apply(act.CHOOSE_HAZARD_0)  # fight exploring/food
    for _ in range(2):
        game.apply(act.DRAW_FREE)  # genius, further/repeat
    game.apply(act.USE_0 + 1)  # repeat: 1x double
    obs = FlatEncoder().encode(game)
    assert piece(obs, "resolving").tolist() == [0, 1, 0, 0, 0, 0]  # DOUBLE
    table = piece(obs, "table").reshape(FLAT_TABLE_SLOTS, TABLE_FEATURES)
    assert table[1, TABLE_FEATURES - 1] == 1  # slot 1 is resolving its ability
    game.apply(act.TARGET_0 + 0)  # double the genius
    obs = FlatEncoder().encode(game)
    table = piece(obs, "table").reshape(FLAT_TABLE_SLOTS, TABLE_FEATURES)
    names = FLAT_LAYOUT.names()[FLAT_LAYOUT.offsets["table"] :][:TABLE_FEATURES]
    row = dict(zip([n.split(".", 1)[1] for n in names], table[0], strict=True))
    assert row["present"] == 1 and row["kind=starting"] == 1
    assert row["value"] * 5 == pytest.approx(2) and row["value_now"] * 5 == pytest.approx(4)
    assert row["left"] == 1 and row["doubled"] == 1 and row["used"] == 0 and row["source"] == 0
    assert table[1, names.index("table[0].used")] == 1
    assert not table[2:].any()
    assert scalar(obs, "fight_total") == pytest.approx(6)  # 2 doubled + 2
    assert scalar(obs, "fight_value") == pytest.approx(3)
    assert scalar(obs, "free_left") == pytest.approx(0)
    hazard = piece(obs, "fight_hazard")
    assert hazard.sum() == 1
    assert piece(obs, "resolving").sum() == 0


def test_flat_pieces_hide_unseen_aging_cards_and_show_their_pool():
    game = scenario(
        level=2,
        robinson_stack=["weak", "moronic", "genius"],
        aging_stack=["stupid", "hungry"],
        hazard_stack=["raft/food", "raft/books"],
    )
    assert [KEY[c] for c in game.unseen] == ["moronic"]
    obs = FlatEncoder().encode(game)
    types = [CARD_TYPES[t].key for t in FIGHTING_TYPES]
    stack = dict(zip(types, piece(obs, "stack_known"), strict=True))
    assert stack["weak"] == pytest.approx(1 / 8) and stack["genius"] == 1
    assert stack["moronic"] == 0  # R26: unseen
    aging_types = [CARD_TYPES[t].key for t in FIGHTING_TYPES if CARD_TYPES[t].kind == Kind.AGING]
    pool = dict(zip(aging_types, piece(obs, "unknown_aging"), strict=True))
    assert pool["moronic"] == 1 and pool["hungry"] == 1 and pool["stupid"] == pytest.approx(1 / 2)
    assert scalar(obs, "stack_unseen") == pytest.approx(1)
    assert scalar(obs, "stack_count") == pytest.approx(3)


def test_known_top_after_sorting_is_in_both_encodings():
    game = scenario(
        robinson_stack=["genius", "further/vision", "weak", "focused", "stupid", "eating"],
        hazard_stack=["raft/food", "raft/books"],
        known_top=0,
    )
    game.apply(act.CHOOSE_HAZARD_0)
    game.apply(act.DRAW_FREE)  # genius
    game.apply(act.DRAW_PAID)  # further/vision
    game.apply(act.USE_0 + 1)  # sort 3: takes weak
    game.apply(act.SORT_TAKE)  # focused
    game.apply(act.SORT_TAKE)  # stupid
    assert game.phase == Phase.SORT_DISCARD
    obs = FlatEncoder().encode(game)
    hand = piece(obs, "sort_hand").reshape(3, CARD_FEATURES)
    assert hand[:, 0].tolist() == [1, 1, 1]
    assert hand[:, 1] * 5 == pytest.approx([0, 1, -2])
    game.apply(act.SORT_DISCARD_0 + 2)  # discard stupid
    game.apply(act.SORT_PLACE_0 + 1)  # focused on top, then weak
    assert game.known_top == 2
    obs = FlatEncoder().encode(game)
    top = piece(obs, "known_top").reshape(FLAT_KNOWN_TOP, CARD_FEATURES)
    assert top[:, 0].tolist() == [1, 1, 0]
    assert top[:2, 1] * 5 == pytest.approx([1, 0])  # focused, then weak
    codes = DictEncoder().encode(game)["known_top"]
    assert [KEY_OF_CODE[c] for c in codes[:2]] == ["focused", "weak"]


KEY_OF_CODE = {code: CARD_TYPES[t].key for t, code in CODE_OF_TYPE.items()}
