"""The PettingZoo AEC environment and the single-player Gymnasium env FridayThe13th-v0."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import friday_env  # noqa: F401  # registers FridayThe13th-v0
from friday_env.thirteen import Game13, IllegalMoveError, OptionError
from friday_env.thirteen.encode import OBSERVATION_SIZE, SLICES, encode
from friday_env.thirteen.env import FridayThe13thEnv

pettingzoo_test = pytest.importorskip("pettingzoo.test")
aec = pytest.importorskip("friday_env.thirteen.aec")


# PettingZoo's api_test warns about every Dict observation space (its classic games' too)
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_pettingzoo_api_test_passes(players):
    pettingzoo_test.api_test(aec.env(num_players=players), num_cycles=300)


def test_pettingzoo_seed_test_passes():
    pettingzoo_test.seed_test(lambda: aec.env(num_players=4), num_cycles=100)


def _play_aec(env, seed):
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    trace = []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        returns[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        assert obs["observation"].shape == (OBSERVATION_SIZE,)
        legal = np.flatnonzero(obs["action_mask"])
        action = int(legal[rng.integers(legal.size)])
        trace.append(action)
        env.step(action)
    return returns, trace


def test_aec_returns_are_minus_the_bad_luck_and_the_same_seed_replays():
    env = aec.env(num_players=4)
    returns, trace = _play_aec(env, 3)
    game = env.unwrapped.game
    assert game.done
    assert [returns[a] for a in env.possible_agents] == [-s for s in game.scores]
    again, trace_again = _play_aec(env, 3)
    assert trace_again == trace and again == returns


def test_aec_win_reward_pays_the_win_shares():
    env = aec.env(num_players=5, reward="win")
    returns, _ = _play_aec(env, 0)
    shares = env.unwrapped.game.win_shares()
    assert [returns[a] for a in env.possible_agents] == shares


def test_aec_only_the_player_to_move_has_a_mask_and_the_deal_seed_option_plays_that_deal():
    env = aec.raw_env(num_players=4)
    env.reset(options={"deal_seed": 12})
    assert env.unwrapped.game.hands == Game13.new(4, 12).hands
    mover = env.agent_selection
    for agent in env.possible_agents:
        assert env.observe(agent)["action_mask"].any() == (agent == mover)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"num_players": 7}, "3 to 6 players"),
        ({"reward": "score"}, "unknown reward"),
        ({"render_mode": "rgb_array"}, "render_mode"),
    ],
)
def test_aec_bad_options_are_refused_in_one_line(kwargs, message):
    with pytest.raises(ValueError, match=message) as err:
        aec.raw_env(**kwargs)
    assert "\n" not in str(err.value)


def test_aec_illegal_action_is_refused_and_the_game_is_unchanged():
    env = aec.raw_env(num_players=4)
    env.reset(seed=0)
    mask = env.observe(env.agent_selection)["action_mask"]
    before = env.unwrapped.game.clone()
    with pytest.raises(IllegalMoveError):
        env.step(int(np.flatnonzero(mask == 0)[0]))
    assert env.unwrapped.game.hands == before.hands and env.unwrapped.game.played == []


def test_the_observation_holds_hand_piles_taken_memory_round_and_scores():
    game = Game13.new(4, 1)
    rng = np.random.default_rng(0)
    while len(game.round_scores) < 1 or not any(game.taken):
        legal = game.legal_actions()
        game.apply(legal[int(rng.integers(len(legal)))])
    player = game.current_player
    obs = encode(game, player)
    assert obs.dtype == np.float32 and obs.min() >= 0 and obs.max() <= 1
    assert np.flatnonzero(obs[SLICES["hand"]]).tolist() == game.hands[player]
    assert np.flatnonzero(obs[SLICES["played"]]).tolist() == sorted(game.played)
    assert obs[SLICES["round"]].tolist() == [0, 1, 0, 0]
    assert obs[SLICES["players"]].tolist() == [0, 1, 0, 0]
    assert obs[SLICES["scores"]][0] == pytest.approx(min(1, game.scores[player] / 100))
    assert obs[SLICES["seated"]].tolist() == [1, 1, 1, 1, 0, 0]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_gymnasium_check_env_passes(players):
    env = gym.make("FridayThe13th-v0", num_players=players, render_mode="ansi")
    check_env(env.unwrapped, skip_render_check=False)


class FirstLegal:
    """A stand-in agent: the lowest legal action."""

    name = "first"

    def reset(self, seed: int) -> None:
        pass

    def act(self, game: Game13) -> int:
        return game.legal_actions()[0]


def test_gym_env_plays_the_chosen_opponents_and_pays_minus_bad_luck():
    env = gym.make("FridayThe13th-v0", num_players=4, opponents=FirstLegal(), seat=2)
    _, info = env.reset(seed=5)
    total = 0.0
    while True:
        game = env.unwrapped.game
        assert game.current_player == 2
        legal = np.flatnonzero(info["action_mask"])
        _obs, reward, terminated, _truncated, info = env.step(int(legal[-1]))
        total += reward
        if terminated:
            break
    assert total == -info["bad_luck"] == -env.unwrapped.game.scores[2]
    assert info["win_share"] == env.unwrapped.game.win_shares()[2]


def test_gym_env_same_seed_same_episode_and_relative_reward():
    def episode(seed):
        env = FridayThe13thEnv(num_players=5, reward="relative")
        _, info = env.reset(seed=seed)
        out, done = [], False
        while not done:
            action = int(np.flatnonzero(info["action_mask"])[0])
            _obs, reward, done, _, info = env.step(action)
            out.append((action, reward))
        scores = env.game.scores
        seat = env.seat
        expected = -(scores[seat] - (sum(scores) - scores[seat]) / 4)
        assert sum(r for _, r in out) == pytest.approx(expected)
        return out

    assert episode(9) == episode(9)


def test_gym_env_illegal_action_ends_as_a_loss_or_raises():
    env = FridayThe13thEnv(num_players=4, seat=0)
    _, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and info["illegal_action"] and reward < 0
    assert not env.action_masks().any()
    strict = FridayThe13thEnv(num_players=4, seat=0, illegal_action="raise")
    strict.reset(seed=0)
    before = strict.game.clone()
    with pytest.raises(IllegalMoveError):
        strict.step(illegal)
    assert strict.game.hands == before.hands
    with pytest.raises(IllegalMoveError, match="integer"):
        strict.step(150)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"num_players": 2}, "3 to 6 players"),
        ({"seat": 4}, "seat must be 0-3"),
        ({"reward": "score"}, "unknown reward"),
        ({"opponents": "heuristic"}, "neither 'random'"),
        ({"opponents": ["random"]}, "3 agents"),
        ({"illegal_action": "ignore"}, "illegal_action"),
    ],
)
def test_gym_env_bad_options_are_refused_in_one_line(kwargs, message):
    with pytest.raises(OptionError, match=message) as err:
        FridayThe13thEnv(**kwargs)
    assert "\n" not in str(err.value)


def test_gym_env_bad_reset_option_is_refused():
    env = FridayThe13thEnv()
    with pytest.raises(OptionError, match="deal_seed"):
        env.reset(options={"level": 2})


def test_sb3_maskable_ppo_trains_on_friday_the_13th_a_few_steps():
    sb3_contrib = pytest.importorskip("sb3_contrib")
    env = gym.make("FridayThe13th-v0", num_players=4)
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, seed=0)
    model.learn(total_timesteps=64)
    obs, info = env.reset(seed=1)
    action, _ = model.predict(obs, action_masks=info["action_mask"], deterministic=True)
    assert info["action_mask"][int(action)]
