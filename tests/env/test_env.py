"""Friday-v0: registration, options, seeding, masks, rewards, bad input, check_env."""

from __future__ import annotations

import random
import re
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.error import ResetNeeded
from gymnasium.utils.env_checker import check_env
from optional import require_modules

import friday_env
from friday_env import Game
from friday_env import actions as act
from friday_env.cards import KEY
from friday_env.engine import level_aging_cards
from friday_env.env import SCORE_SCALE, EnvOptionError, FridayEnv
from friday_env.errors import IllegalActionError, InvalidLevelError, ScenarioError
from friday_env.information import public_view
from friday_env.observation import ENCODERS, FLAT_SIZE, FlatEncoder

LEVELS = (1, 2, 3, 4)

#: Both pirates easy to beat (R23): "+2 per aging card" is worth 0 while no aging card has
#: left the aging stack (a genius drawn for free beats it), and "all remaining hazards" is
#: worth 0 with free 0 when the hazard discard pile is empty (ended without drawing, D10).
WINNABLE = {
    "step": "pirates",
    "robinson_stack": ["genius", "weak"],
    "aging_stack": [KEY[card] for card in level_aging_cards(1)],
    "pirates": ["pirate/aging", "pirate/all-hazards"],
}


def masked_choice(mask: np.ndarray, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


def play_to_end(env: gym.Env, seed: int, rng: np.random.Generator):
    _, info = env.reset(seed=seed)
    while True:
        _, reward, terminated, truncated, info = env.step(masked_choice(info["action_mask"], rng))
        if terminated or truncated:
            return reward, info


# ---------------------------------------------------------------- registration


@pytest.mark.parametrize("level", LEVELS)
def test_make_registers_friday_v0_for_every_level(level):
    env = gym.make("Friday-v0", level=level)
    assert isinstance(env.unwrapped, friday_env.FridayEnv)
    assert env.spec.id == "Friday-v0"
    assert env.unwrapped.level == level
    obs, _ = env.reset(seed=level)
    assert env.unwrapped.game.level == level
    assert obs.shape == (FLAT_SIZE,)
    assert env.action_space == gym.spaces.Discrete(act.NUM_ACTIONS)


def test_reimport_does_not_register_twice():
    import importlib

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        friday_env._register_envs()
        importlib.reload(friday_env)
    assert "Friday-v0" in gym.registry


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_make_vec_steps_with_the_mask_from_info(mode):
    envs = gym.make_vec("Friday-v0", num_envs=2, vectorization_mode=mode, level=2)
    obs, info = envs.reset(seed=5)
    assert obs.shape == (2, FLAT_SIZE)
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(200):
        # a copy that just finished resets on its next step and ignores the action
        actions = [masked_choice(m, rng) if m.any() else 0 for m in info["action_mask"]]
        obs, _, terminated, _, info = envs.step(np.array(actions))
        assert obs.shape == (2, FLAT_SIZE)
        assert envs.single_observation_space.contains(obs[0])
        episodes += int(terminated.sum())
    assert episodes >= 2
    envs.close()


def test_action_space_is_the_same_discrete_on_every_level():
    for level in LEVELS:
        assert gym.make("Friday-v0", level=level).action_space == gym.spaces.Discrete(199)
    assert act.NUM_ACTIONS == 199


# --------------------------------------------------------------------- options


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"level": 0}, InvalidLevelError, "unknown level 0"),
        ({"level": 5}, InvalidLevelError, "unknown level 5"),
        ({"level": "1"}, InvalidLevelError, "unknown level '1'"),
        ({"observation": "pixels"}, EnvOptionError, "unknown observation encoder 'pixels'"),
        ({"reward": "dense"}, EnvOptionError, "unknown reward mode 'dense'"),
        ({"illegal_action": "ignore"}, EnvOptionError, "unknown illegal_action mode 'ignore'"),
        ({"render_mode": "video"}, EnvOptionError, "unknown render mode 'video'"),
    ],
)
@pytest.mark.filterwarnings("ignore:.*not in the possible render_modes")
def test_unknown_options_fail_at_make_with_a_clear_message(kwargs, error, message):
    with pytest.raises(error, match=re.escape(message)):
        gym.make("Friday-v0", **kwargs)
    assert issubclass(error, ValueError)


def test_unknown_keyword_fails_at_make():
    with pytest.raises(TypeError, match="levle"):
        gym.make("Friday-v0", levle=2)


def test_docstring_has_gymnasium_sections_and_documents_every_argument():
    doc = FridayEnv.__doc__
    sections = [
        "Description",
        "Action Space",
        "Observation Space",
        "Starting State",
        "Rewards",
        "Episode End",
        "Arguments",
        "Version History",
    ]
    positions = [doc.index(f"## {name}") for name in sections]
    assert positions == sorted(positions)
    import inspect

    arguments = doc[doc.index("## Arguments") : doc.index("## Version History")]
    for name in inspect.signature(FridayEnv.__init__).parameters:
        if name != "self":
            assert f"``{name}``" in arguments, name
    for value in ("flat", "dict", "flat_mask", "win_loss", "score", "raise", "loss", "ansi"):
        assert f'"{value}"' in doc, value
    # numbers quoted in the docstring are the code's
    assert f"Discrete({act.NUM_ACTIONS})" in doc
    assert f"({FLAT_SIZE},)" in doc
    assert f"{act.MAX_SLOTS} slots" in doc
    assert f"/ {SCORE_SCALE:g}" in doc or f"by {SCORE_SCALE:g}" in doc


# ------------------------------------------------------------------- seeding


def test_reset_derives_the_game_seed_from_np_random():
    env = FridayEnv()
    env.reset(seed=42)
    expected = int(np.random.default_rng(42).integers(0, 2**63 - 1))
    assert env.game.seed == expected
    first = env.game.seed
    env.reset()  # continues the generator: a new game
    assert env.game.seed != first
    env.reset(seed=42)
    assert env.game.seed == first


def test_no_global_rng_is_touched():
    np_state = np.random.get_state()
    py_state = random.getstate()
    env = FridayEnv(level=3)
    rng = np.random.default_rng(1)
    for seed in range(5):
        play_to_end(env, seed, rng)
    after = np.random.get_state()
    assert all(np.array_equal(a, b) for a, b in zip(np_state, after, strict=True))
    assert random.getstate() == py_state


@pytest.mark.parametrize("observation", sorted(ENCODERS))
def test_same_seed_gives_identical_rollouts_step_by_step(observation):
    from gymnasium.utils.env_checker import data_equivalence

    first = gym.make("Friday-v0", level=4, observation=observation)
    second = gym.make("Friday-v0", level=4, observation=observation)
    rng_a, rng_b = np.random.default_rng(9), np.random.default_rng(9)
    for episode in range(5):
        seed = 100 + episode if episode % 2 == 0 else None  # seeded and continued resets
        obs_a, info_a = first.reset(seed=seed)
        obs_b, info_b = second.reset(seed=seed)
        assert data_equivalence(obs_a, obs_b, exact=True)
        done = False
        while not done:
            action_a = masked_choice(info_a["action_mask"], rng_a)
            action_b = masked_choice(info_b["action_mask"], rng_b)
            assert action_a == action_b
            obs_a, rew_a, done, _, info_a = first.step(action_a)
            obs_b, rew_b, done_b, _, info_b = second.step(action_b)
            assert data_equivalence((obs_a, rew_a, done, info_a), (obs_b, rew_b, done_b, info_b))
        assert first.unwrapped.game.history == second.unwrapped.game.history


def test_different_seeds_give_different_games():
    env = FridayEnv()
    stacks = set()
    for seed in range(10):
        env.reset(seed=seed)
        stacks.add(tuple(env.game.stack))
    assert len(stacks) == 10


# ------------------------------------------------------------- check_env


@pytest.mark.parametrize("observation", sorted(ENCODERS))
@pytest.mark.parametrize("level", LEVELS)
def test_check_env_passes_for_every_encoder_and_level(observation, level):
    """check_env steps with ``action_space.sample()``, mostly illegal actions, so it runs in
    the mode where any action id is valid input: ``illegal_action="loss"``."""
    env = gym.make("Friday-v0", level=level, observation=observation, illegal_action="loss")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)


def test_check_env_passes_for_the_score_reward():
    env = gym.make("Friday-v0", reward="score", illegal_action="loss")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)


# ------------------------------------------------------------------- masks


@pytest.mark.parametrize("level", LEVELS)
def test_mask_equals_the_legal_actions_after_reset_and_every_step(level):
    env = FridayEnv(level=level)
    rng = np.random.default_rng(level)
    for seed in range(20):
        _, info = env.reset(seed=seed)
        terminated = False
        while not terminated:
            legal = env.game.legal_actions()
            assert np.flatnonzero(info["action_mask"]).tolist() == legal
            assert np.array_equal(env.action_masks(), info["action_mask"])
            assert info["action_mask"].dtype == np.int8
            assert info["action_mask"].any()
            _, _, terminated, _, info = env.step(masked_choice(env.action_masks(), rng))
        assert not info["action_mask"].any()
        assert not env.action_masks().any()


def test_mask_is_a_bijection_with_the_actions_the_engine_accepts():
    """Over many random states (mid-game positions included): every id the mask allows is
    accepted by the engine, every id it forbids is refused with the state untouched."""
    from test_observation import random_states

    from friday_env.observation import action_mask  # what the env's mask is made with

    accepted = refused = 0
    for game in random_states(250, seed=3):
        if game.done:
            continue
        mask = action_mask(game)
        for action in range(act.NUM_ACTIONS):
            trial = game.clone()
            try:
                trial.apply(action)
            except IllegalActionError:
                assert not mask[action], (action, game)
                assert trial.history == game.history
                refused += 1
            else:
                assert mask[action], (action, game)
                accepted += 1
    assert accepted > 500 and refused > 10_000


def test_the_mask_cannot_be_changed_through_what_the_env_hands_out():
    env = FridayEnv()
    _, info = env.reset(seed=0)
    for mask in (env.action_masks(), info["action_mask"]):
        mask[:] = True
    assert np.flatnonzero(env.action_masks()).tolist() == env.game.legal_actions()
    assert np.flatnonzero(info["action_mask"]).tolist() != env.game.legal_actions()


@pytest.mark.parametrize("core", friday_env.available_cores())
def test_every_handed_out_mask_is_a_new_writable_int8_array_on_both_cores(core):
    """The compiled core writes a new mask at every call, the Python core copies the one it
    keeps: either way no two masks handed out (by action_masks() or in an info) share memory."""
    env = FridayEnv(core=core, render_mode="rgb_array")
    _, info = env.reset(seed=4)
    masks = [info["action_mask"]]
    terminated = False
    while not terminated:
        masks += [env.action_masks(), env.action_masks()]
        assert np.flatnonzero(masks[-1]).tolist() == env.game.legal_actions()
        _, _, terminated, _, info = env.step(int(np.flatnonzero(masks[-1])[-1]))
        masks.append(info["action_mask"])
    masks.append(env.action_masks())
    assert len(masks) > 20
    for mask in masks:
        assert mask.dtype == np.int8 and mask.shape == (act.NUM_ACTIONS,)
        assert mask.flags.writeable and mask.flags.c_contiguous
    assert not any(np.shares_memory(a, b) for i, a in enumerate(masks) for b in masks[:i])


def test_torch_reads_the_handed_out_masks_without_a_warning():
    """sb3-contrib turns the mask into a tensor; torch warns about a non-writable array (it
    did while the env handed out its read-only cached mask)."""
    require_modules("torch", install='pip install -e ".[rl]"')
    import torch

    env = FridayEnv()
    _, info = env.reset(seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for mask in (env.action_masks(), info["action_mask"]):
            assert torch.as_tensor(mask).sum().item() == len(env.game.legal_actions())


def test_the_mask_follows_a_game_changed_outside_step():
    env = FridayEnv()
    env.reset(seed=0)
    before = env.action_masks()
    env.game.apply(env.game.legal_actions()[0])
    assert np.flatnonzero(env.action_masks()).tolist() == env.game.legal_actions()
    assert not np.array_equal(before, env.action_masks())


def test_action_names_cover_every_action_id_and_describe_action_names_in_context():
    names = FridayEnv.action_names()
    assert len(names) == act.NUM_ACTIONS
    assert len(set(names)) == act.NUM_ACTIONS
    env = FridayEnv()
    env.reset(seed=3)
    offer = env.game.offer
    text = env.describe_action(act.CHOOSE_HAZARD_0)
    assert text.startswith(f"fight {KEY[offer[0]]}")
    assert names[act.CHOOSE_HAZARD_0] == "choose hazard 0"


# ----------------------------------------------------------------- rewards


def _easy_win_action(mask: np.ndarray) -> int:
    """In :data:`WINNABLE`: choose the first pirate, draw a free card if needed, end."""
    for action in (act.END_FIGHT, act.CHOOSE_PIRATE_0, act.DRAW_FREE):
        if mask[action]:
            return action
    raise AssertionError(f"unexpected legal actions {np.flatnonzero(mask)}")


def test_win_loss_reward_and_final_info_on_a_won_game():
    env = FridayEnv(level=1)
    _, info = env.reset(seed=0, options={"scenario": WINNABLE})
    assert env.game.phase == act.Phase.CHOOSE_PIRATE
    rewards, steps = [], 0
    terminated = False
    while not terminated:
        assert "won" not in info
        _, reward, terminated, _, info = env.step(_easy_win_action(info["action_mask"]))
        rewards.append(reward)
        steps += 1
    assert rewards == [0.0] * (steps - 1) + [1.0]
    assert info["won"] is True
    assert info["final_score"] == env.game.score()
    assert info["level"] == 1
    assert info["fights"] == 2
    assert info["steps"] == steps


def test_score_reward_is_the_final_score_scaled():
    env = FridayEnv(level=1, reward="score")
    env.reset(seed=0, options={"scenario": WINNABLE})
    terminated = False
    while not terminated:
        _, reward, terminated, _, info = env.step(_easy_win_action(env.action_masks()))
    assert info["won"]
    assert reward == pytest.approx(info["final_score"] / SCORE_SCALE)
    assert reward == pytest.approx((2 * 15 + 2 + 5 * env.game.life) / SCORE_SCALE)


@pytest.mark.parametrize("reward_mode", ["win_loss", "score"])
def test_rewards_of_random_games_follow_the_outcome(reward_mode):
    env = FridayEnv(level=2, reward=reward_mode)
    rng = np.random.default_rng(7)
    for seed in range(30):
        reward, info = play_to_end(env, seed, rng)
        assert set(info) >= {"final_score", "won", "level", "fights", "steps", "action_mask"}
        if reward_mode == "win_loss":
            assert reward == (1.0 if info["won"] else -1.0)
        else:
            assert reward == pytest.approx(info["final_score"] / SCORE_SCALE)
        assert isinstance(reward, float)


def test_step_after_the_end_needs_a_reset():
    env = FridayEnv()
    play_to_end(env, 0, np.random.default_rng(0))
    with pytest.raises(ResetNeeded):
        env.step(act.CHOOSE_HAZARD_0)
    with pytest.raises(ResetNeeded):
        FridayEnv().step(0)


# --------------------------------------------------------------- bad input


def test_illegal_action_raises_and_leaves_the_game_untouched():
    env = FridayEnv(illegal_action="raise")
    env.reset(seed=1)
    before = public_view(env.game)
    with pytest.raises(IllegalActionError, match="illegal action 8"):
        env.step(act.END_FIGHT)
    assert public_view(env.game) == before
    env.step(act.CHOOSE_HAZARD_1)  # still playable


@pytest.mark.parametrize("reward_mode", ["win_loss", "score"])
def test_illegal_action_loss_mode_ends_the_episode_as_a_loss(reward_mode):
    env = FridayEnv(illegal_action="loss", reward=reward_mode)
    env.reset(seed=1)
    score = env.game.score()
    obs, reward, terminated, truncated, info = env.step(act.END_FIGHT)
    assert terminated and not truncated
    expected = -1.0 if reward_mode == "win_loss" else score / SCORE_SCALE
    assert reward == pytest.approx(expected)
    assert info["illegal_action"] is True
    assert info["won"] is False
    assert not info["action_mask"].any()
    assert env.observation_space.contains(obs)
    with pytest.raises(ResetNeeded):
        env.step(act.CHOOSE_HAZARD_0)


@pytest.mark.parametrize("action", [-1, act.NUM_ACTIONS, 2.0, "0", True, np.bool_(True)])
def test_actions_outside_the_action_space_raise_even_in_loss_mode(action):
    env = FridayEnv(illegal_action="loss")
    env.reset(seed=0)
    with pytest.raises(IllegalActionError):
        env.step(action)


def test_numpy_integer_actions_are_accepted():
    env = FridayEnv()
    env.reset(seed=0)
    env.step(np.int64(act.CHOOSE_HAZARD_0))
    assert env.game.phase == act.Phase.FIGHT


# --------------------------------------------------------------- scenarios


def test_reset_with_a_scenario_starts_there_with_the_env_level_and_a_drawn_seed():
    env = FridayEnv(level=3)
    env.reset(seed=4, options={"scenario": WINNABLE})
    assert env.game.level == 3
    assert env.game.step == 3
    assert [KEY[c] for c in env.game.stack[::-1]] == ["genius", "weak"]
    assert env.game.seed == int(np.random.default_rng(4).integers(0, 2**63 - 1))
    env.reset(seed=4, options={"scenario": {**WINNABLE, "level": 1, "seed": 11}})
    assert (env.game.level, env.game.seed) == (1, 11)


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"scenari": {}}, EnvOptionError, "unknown reset options ['scenari']"),
        ({"scenario": ["raft/food"]}, EnvOptionError, "must be a dict"),
        ({"scenario": {"robinson_stak": []}}, EnvOptionError, "robinson_stak"),
        ({"scenario": {"robinson_stack": ["nonsense"]}}, ScenarioError, "unknown card key"),
        ({"deal": -1}, EnvOptionError, "non-negative integer game seed, got -1"),
        ({"deal": 2.0}, EnvOptionError, "non-negative integer game seed, got 2.0"),
        ({"deal": True}, EnvOptionError, "non-negative integer game seed, got True"),
        ({"deal": 1, "scenario": {}}, EnvOptionError, "exclude each other"),
    ],
)
def test_bad_reset_options_raise_clear_errors(options, error, message):
    env = FridayEnv()
    with pytest.raises(error, match=re.escape(message)):
        env.reset(seed=0, options=options)


def test_malformed_reset_options_change_nothing():
    env = FridayEnv()
    env.reset(seed=0)
    game, draws = env.game, env.np_random.bit_generator.state
    with pytest.raises(EnvOptionError):
        env.reset(options={"deal": "seven"})
    assert env.game is game and env.np_random.bit_generator.state == draws


def test_reset_with_a_deal_plays_that_game_of_the_env_level():
    env = FridayEnv(level=2)
    for deal in (0, 12_000_345, np.int64(7)):
        observation, info = env.reset(seed=99, options={"deal": deal})
        expected = Game.new(2, int(deal))
        assert env.game.seed == int(deal) and env.game.stack == expected.stack
        assert env.game.hazard_stack == expected.hazard_stack
        assert (observation == FlatEncoder().encode(expected)).all()
        assert np.flatnonzero(info["action_mask"]).tolist() == expected.legal_actions()


# ------------------------------------------------------ the worst-case table


def _all_hazards_scenario() -> dict:
    """A pirate fight against "all remaining hazards" with 15 hazards discarded (50 free
    cards, value 138) and the other 44 fighting cards in the stack: drawing them all puts 44
    cards on the table."""
    from friday_env.cards import CARD_TYPES, Kind

    discard = ["cannibals/weapon"] * 2 + [
        "animals/realization",
        "animals/vision",
        "animals/experience",
        "animals/strategy",
        "further/food",
        "further/realization",
        "further/strategy",
        "further/experience",
        "further/repeat",
        "further/vision",
        "exploring/food",
        "exploring/food",
        "exploring/weapon",
    ]

    def keys(kind: Kind, prefix: str = "") -> list[str]:
        return [
            t.key
            for t in CARD_TYPES
            if t.kind == kind and t.key.startswith(prefix)
            for _ in range(t.count)
        ]

    aging = keys(Kind.AGING)
    aging.remove("very tired")  # last, so no "stop" card cuts the free draws short (R07)
    exploring = ["exploring/weapon", "exploring/deception", "exploring/mimicry", "exploring/repeat"]
    stack = keys(Kind.STARTING) + keys(Kind.HAZARD, "raft/") + exploring + aging
    stack += ["exploring/realization", "very tired"]
    return {
        "level": 3,
        "step": "pirates",
        "robinson_stack": stack,
        "hazard_discard": discard,
        "pirates": ["pirate/20", "pirate/all-hazards"],
        "life": 16,
    }


def test_worst_case_pirate_all_hazards_table_slots_are_all_expressible():
    env = FridayEnv(level=3, observation="dict")
    obs, info = env.reset(seed=0, options={"scenario": _all_hazards_scenario()})
    game = env.game
    obs, *_, info = env.step(act.CHOOSE_PIRATE_1)
    assert KEY[game.hazard] == "pirate/all-hazards"
    assert (game.free_total, game.fight_value()) == (50, 138)
    while info["action_mask"][act.DRAW_FREE]:
        obs, *_, info = env.step(act.DRAW_FREE)
    assert len(game.table) == 44
    assert [KEY[c] for c in game.table[42:]] == ["exploring/realization", "very tired"]
    assert info["action_mask"][act.USE_0 + 42]
    obs, *_, info = env.step(act.USE_0 + 42)
    assert game.phase == act.Phase.TARGET
    targets = np.flatnonzero(info["action_mask"]) - act.TARGET_0
    assert targets.tolist() == [slot for slot in range(44) if slot != 42]
    obs, *_, info = env.step(act.TARGET_0 + 43)  # destroy the "stop" card in the last slot
    assert obs["table_down"][43] == 1
    assert obs["table_used"][42] == 1
    assert obs["table_card"][: len(game.table)].all()
    assert not obs["table_card"][len(game.table) :].any()
    assert env.observation_space.contains(obs)
    # every slot a game could ever fill has its three actions inside Discrete(NUM_ACTIONS)
    from friday_env.cards import MAX_TABLE_CARDS

    assert act.MAX_SLOTS == MAX_TABLE_CARDS
    assert act.DESTROY_0 + act.MAX_SLOTS - 1 == act.NUM_ACTIONS - 1


def test_worst_case_table_in_the_flat_encoding_overflows_into_summaries():
    from friday_env.observation import FLAT_LAYOUT, FLAT_TABLE_SLOTS, FlatEncoder

    env = FridayEnv(level=3)
    env.reset(seed=0, options={"scenario": _all_hazards_scenario()})
    env.step(act.CHOOSE_PIRATE_1)
    while env.action_masks()[act.DRAW_FREE]:
        obs, *_ = env.step(act.DRAW_FREE)
    assert env.observation_space.contains(obs)
    values = env.game.card_values()
    at = FLAT_LAYOUT.offsets
    assert obs[at["overflow_count"]] == pytest.approx((44 - FLAT_TABLE_SLOTS) / 20)
    assert obs[at["overflow_value"]] == pytest.approx(sum(values[FLAT_TABLE_SLOTS:]) / 20)
    assert obs[at["table_count"]] == pytest.approx(44 / 20)
    np.testing.assert_array_equal(obs, FlatEncoder().encode(env.game))


def test_a_0d_integer_array_is_the_action_it_holds():
    """``model.predict(obs)`` of stable-baselines3 returns a 0-d array; gymnasium's
    ``Discrete.contains`` accepts it, so the env must play it like the int it holds
    (it was refused as "not an action id"), while other arrays stay refused."""
    plain, arrayed = gym.make("Friday-v0"), gym.make("Friday-v0")
    _, info = plain.reset(seed=5)
    arrayed.reset(seed=5)
    action = int(np.flatnonzero(info["action_mask"])[0])
    assert plain.action_space.contains(np.array(action))
    expected = plain.step(action)
    got = arrayed.step(np.array(action))
    np.testing.assert_array_equal(got[0], expected[0])
    assert got[1:4] == expected[1:4]
    refused = gym.make("Friday-v0", illegal_action="raise")
    refused.reset(seed=5)
    with pytest.raises(friday_env.IllegalActionError):
        refused.step(np.array([action]))
