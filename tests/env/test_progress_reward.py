"""``reward="progress"``: +1/-1 at the end plus ``progress_coef`` for each hazard and pirate
beaten, kept; the count it pays for (`friday_env.engine.scoring.hazards_beaten`) and the
progress statistics every ended game reports (``hazards_beaten``, ``pirates_beaten``,
``end_step``), the same on both cores and in both envs."""

from __future__ import annotations

import math
import random

import gymnasium as gym
import numpy as np
import pytest
from conftest import CORE_PARAMS

from friday_env import EnvOptionError, FridayEnv, Game
from friday_env.cards import HAZARD_IDS
from friday_env.core import available_cores
from friday_env.engine.state import PIRATES
from friday_env.episode import DEFAULT_PROGRESS_COEF, END_STEPS, STATS
from friday_env.vector import FridayVectorEnv

LEVELS = (1, 2, 3, 4)


def hazards_outside_robinsons_cards(game: Game) -> int:
    """Hazard cards still to beat: in the hazard piles, the offer or the fight."""
    fought = [game.hazard] if game.hazard >= 0 and game.step < PIRATES else []
    return len(game.hazard_stack + game.hazard_discard + game.offer + fought)


@pytest.mark.parametrize("core", CORE_PARAMS)
def test_hazards_beaten_never_falls_and_accounts_for_every_hazard_card(core):
    """On every level the 30 hazard cards are either beaten or still to beat, and a beaten
    one stays counted (destroyed ones included)."""
    destroyed_hazards = 0
    for seed in range(60):
        game = Game.new(LEVELS[seed % 4], seed, core=core)
        rng = random.Random(seed)
        before = game.hazards_beaten()
        assert before == 0 and game.pirates_beaten() == 0
        while not game.done:
            game.apply(rng.choice(game.legal_actions()))
            now = game.hazards_beaten()
            assert now >= before
            assert now + hazards_outside_robinsons_cards(game) == len(HAZARD_IDS)
            assert game.pirates_beaten() == len(game.beaten)
            before = now
        destroyed_hazards += sum(card in HAZARD_IDS for card in game.destroyed)
    assert destroyed_hazards > 0  # the "destroyed ones still count" case was met


def heuristic_games(level: int, seeds: range) -> list[int]:
    """Deals of ``level`` among ``seeds`` that the heuristic agent wins (for won episodes)."""
    from friday_agents.players.heuristic.agent import heuristic_action

    won = []
    for seed in seeds:
        game = Game.new(level, seed)
        while not game.done:
            game.apply(heuristic_action(game))
        if game.won:
            won.append(seed)
    return won


def play_env(env: gym.Env, reset: dict, choose) -> tuple[list[float], dict]:
    _, info = env.reset(**reset)
    rewards, over = [], False
    while not over:
        _, reward, over, truncated, info = env.step(choose(env))
        assert not truncated
        rewards.append(reward)
    return rewards, info


def assert_progress_sum(rewards: list[float], info: dict, coef: float) -> None:
    """A game's rewards: +/-1 plus the coefficient for each hazard and pirate beaten."""
    beaten = info["hazards_beaten"] + info["pirates_beaten"]
    outcome = 1.0 if info["won"] else -1.0
    assert math.fsum(rewards) == pytest.approx(outcome + coef * beaten, abs=1e-9)
    assert all(reward >= 0 for reward in rewards[:-1])  # kept: nothing is taken back


@pytest.mark.parametrize("core", CORE_PARAMS)
@pytest.mark.parametrize("coef", [None, 0.25, 0.0])
def test_a_games_rewards_sum_to_its_outcome_plus_its_progress(core, coef):
    env = FridayEnv(level=2, reward="progress", progress_coef=coef, core=core)
    expected_coef = DEFAULT_PROGRESS_COEF if coef is None else coef
    assert env.progress_coef == expected_coef
    rng = random.Random(3)
    progress_seen = 0
    for seed in range(12):
        rewards, info = play_env(
            env, {"seed": seed}, lambda e: rng.choice(e.unwrapped.game.legal_actions())
        )
        assert_progress_sum(rewards, info, expected_coef)
        progress_seen += info["hazards_beaten"]
    assert progress_seen > 0


@pytest.mark.parametrize("core", CORE_PARAMS)
def test_a_won_game_pays_its_pirates_and_plus_one(core):
    from friday_agents.players.heuristic.agent import heuristic_action

    deal = heuristic_games(1, range(40))[0]
    env = FridayEnv(level=1, reward="progress", core=core)
    rewards, info = play_env(
        env, {"options": {"deal": deal}}, lambda e: heuristic_action(e.unwrapped.game)
    )
    assert info["won"] and info["pirates_beaten"] == 2
    assert info["end_step"] == END_STEPS.index("pirates")
    assert_progress_sum(rewards, info, DEFAULT_PROGRESS_COEF)
    assert rewards[-1] == pytest.approx(1.0 + DEFAULT_PROGRESS_COEF)  # the second pirate


@pytest.mark.parametrize("core", CORE_PARAMS)
def test_an_illegal_action_ends_the_game_with_minus_one_and_its_progress_kept(core):
    env = FridayEnv(level=1, reward="progress", illegal_action="loss", core=core)
    _, info = env.reset(seed=5)
    rewards = []
    rng = random.Random(5)
    while env.unwrapped.game.hazards_beaten() == 0:
        _, reward, over, _, info = env.step(rng.choice(env.unwrapped.game.legal_actions()))
        assert not over
        rewards.append(reward)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, over, _, info = env.step(illegal)
    assert over and info["illegal_action"] and reward == -1.0
    assert_progress_sum([*rewards, reward], info, DEFAULT_PROGRESS_COEF)


@pytest.mark.parametrize("reward", ["win_loss", "score", "progress"])
def test_every_reward_mode_reports_the_progress_of_an_ended_game(reward):
    env = FridayEnv(level=3, reward=reward)
    rng = random.Random(1)
    for seed in range(5):
        _, info = play_env(
            env, {"seed": seed}, lambda e: rng.choice(e.unwrapped.game.legal_actions())
        )
        game = env.unwrapped.game
        assert info["hazards_beaten"] == game.hazards_beaten()
        assert info["pirates_beaten"] == len(game.beaten)
        assert info["end_step"] == game.step and 0 <= info["end_step"] < len(END_STEPS)
    assert set(STATS) - {"illegal_action"} <= set(info)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            {"reward": "progress", "progress_coef": -0.1},
            "progress_coef must be a finite number >= 0",
        ),
        ({"reward": "progress", "progress_coef": float("nan")}, "finite number >= 0"),
        ({"reward": "progress", "progress_coef": float("inf")}, "finite number >= 0"),
        ({"reward": "progress", "progress_coef": "0.1"}, "progress_coef must be a number"),
        ({"reward": "progress", "progress_coef": True}, "progress_coef must be a number"),
        ({"reward": "win_loss", "progress_coef": 0.1}, "only for reward='progress'"),
        ({"progress_coef": 0.1}, "only for reward='progress', not 'win_loss'"),
        ({"reward": "score", "progress_coef": 0.0}, "only for reward='progress'"),
    ],
)
def test_bad_progress_options_are_refused_in_one_line(options, message):
    for make in (
        lambda: gym.make("Friday-v0", **options),
        lambda: FridayVectorEnv(num_envs=2, core="python", **options),
        lambda: gym.make_vec(
            "Friday-v0", num_envs=2, vectorization_mode="vector_entry_point", **options
        ),
    ):
        with pytest.raises(EnvOptionError, match=message) as err:
            make()
        assert "\n" not in str(err.value)


def test_a_refused_option_leaves_a_running_env_as_it_was():
    env = FridayEnv(reward="progress", progress_coef=0.3)
    env.reset(seed=2)
    with pytest.raises(EnvOptionError):
        FridayEnv(reward="progress", progress_coef=-1)
    assert env.progress_coef == 0.3 and env.reward_mode == "progress"


# ------------------------------------------------------------------ the vector env


def play_vector(envs: FridayVectorEnv, steps: int, seed: int) -> tuple[list, list]:
    """Random legal actions; each step's rewards and the final_info of the games that ended."""
    rng = np.random.default_rng(seed)
    _, info = envs.reset(seed=seed)
    rewards, finals = [], []
    for _ in range(steps):
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in info["action_mask"]])
        _, reward, terminated, _, info = envs.step(actions)
        rewards.append(reward)
        if terminated.any():
            final = info["final_info"]
            finals.append({key: final[key][terminated].tolist() for key in STATS[:-1]})
    return rewards, finals


@pytest.mark.skipif("c" not in available_cores(), reason="compiled core not built")
def test_both_cores_give_the_vector_env_the_same_rewards_and_final_stats():
    outputs = [
        play_vector(FridayVectorEnv(num_envs=4, level=1, reward="progress", core=core), 600, 9)
        for core in ("c", "python")
    ]
    (c_rewards, c_finals), (py_rewards, py_finals) = outputs
    assert len(c_finals) >= 3
    assert c_finals == py_finals
    assert all(np.array_equal(a, b) for a, b in zip(c_rewards, py_rewards, strict=True))


@pytest.mark.parametrize("core", CORE_PARAMS)
def test_the_vector_envs_rewards_per_game_sum_to_outcome_plus_progress(core):
    envs = FridayVectorEnv(num_envs=3, level=1, reward="progress", progress_coef=0.2, core=core)
    rng = np.random.default_rng(4)
    _, info = envs.reset(seed=4)
    running = np.zeros(3)
    checked = 0
    for _ in range(500):
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in info["action_mask"]])
        _, reward, terminated, _, info = envs.step(actions)
        running += reward
        for i in np.flatnonzero(terminated):
            final = info["final_info"]
            stats = {key: final[key][i] for key in ("won", "hazards_beaten", "pirates_beaten")}
            outcome = 1.0 if stats["won"] else -1.0
            beaten = stats["hazards_beaten"] + stats["pirates_beaten"]
            assert running[i] == pytest.approx(outcome + 0.2 * beaten)
            running[i] = 0.0
            checked += 1
    assert checked >= 3


# ------------------------------------------------------------------ set_progress_coef


def play_vector_annealed(core: str, schedule: dict[int, float], steps: int = 400):
    """Random legal actions (seeded) on a progress-reward vector env starting at 0.1 whose
    coefficient changes at the steps ``schedule`` names: each step's rewards, each step's end
    part (+1/-1 for an env whose game ended there, else 0) and the ended games' final_info."""
    envs = FridayVectorEnv(num_envs=4, level=1, reward="progress", progress_coef=0.1, core=core)
    rng = np.random.default_rng(11)
    _, info = envs.reset(seed=11)
    rewards, ends, finals = [], [], []
    for t in range(steps):
        if t in schedule:
            envs.set_progress_coef(schedule[t])
            assert envs.progress_coef == schedule[t]
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in info["action_mask"]])
        _, reward, terminated, _, info = envs.step(actions)
        rewards.append(reward)
        end = np.zeros(4)
        if terminated.any():
            final = info["final_info"]
            end[terminated] = np.where(final["won"][terminated], 1.0, -1.0)
            finals.append({key: final[key][terminated].tolist() for key in STATS[:-1]})
        ends.append(end)
    return np.array(rewards), np.array(ends), finals


@pytest.mark.parametrize("core", CORE_PARAMS)
def test_set_progress_coef_pays_the_new_coefficient_from_the_next_step(core):
    """A step's progress part is the coefficient in force times what the step beat: after a
    change to 0 nothing is paid for progress, and after a change back from 0 (the count was
    kept meanwhile) a hazard pays the new coefficient, not the ones beaten while it was 0."""
    plain, ends, _ = play_vector_annealed(core, {})
    annealed, annealed_ends, _ = play_vector_annealed(core, {100: 0.0, 200: 0.3})
    assert np.array_equal(ends, annealed_ends)  # the same games: the reward steers nothing
    beaten = np.round((plain - ends) / 0.1)  # hazards and pirates beaten in each step
    coef = np.where(
        np.arange(len(plain)) < 100, 0.1, np.where(np.arange(len(plain)) < 200, 0.0, 0.3)
    )
    assert annealed == pytest.approx(ends + coef[:, None] * beaten, abs=1e-9)
    assert beaten[:100].sum() > 0 and beaten[200:].sum() > 0 and (ends != 0).any()


@pytest.mark.skipif("c" not in available_cores(), reason="compiled core not built")
def test_both_cores_agree_on_an_annealed_coefficient():
    schedule = {0: 0.2, 50: 0.0, 120: 0.05, 300: 0.0}
    c_rewards, _, c_finals = play_vector_annealed("c", schedule)
    py_rewards, _, py_finals = play_vector_annealed("python", schedule)
    assert len(c_finals) >= 2 and c_finals == py_finals
    assert np.array_equal(c_rewards, py_rewards)


@pytest.mark.parametrize("core", CORE_PARAMS)
@pytest.mark.parametrize(
    ("reward", "coef", "message"),
    [
        ("progress", -0.1, "progress_coef must be a finite number >= 0, got -0.1"),
        ("progress", float("nan"), "progress_coef must be a finite number >= 0"),
        ("progress", "0.1", "progress_coef must be a number >= 0, got '0.1'"),
        ("progress", True, "progress_coef must be a number >= 0, got True"),
        ("win_loss", 0.1, "set_progress_coef: the env's reward is 'win_loss'"),
    ],
)
def test_set_progress_coef_refuses_bad_values_in_one_line_and_changes_nothing(
    core, reward, coef, message
):
    options = {"progress_coef": 0.1} if reward == "progress" else {}
    envs = FridayVectorEnv(num_envs=2, level=1, reward=reward, core=core, **options)
    before = envs.progress_coef
    with pytest.raises(EnvOptionError, match=message.replace("(", r"\(")) as refused:
        envs.set_progress_coef(coef)
    assert "\n" not in str(refused.value)
    assert envs.progress_coef == before
