"""Random masked play through Friday-v0: 1,000 whole episodes per level with the flat
encoder, checking the observation space and the mask at every step (and fewer episodes with
the other encoders). The mask is sampled with a seeded Generator, so a failure replays."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from friday_env.actions import Phase
from friday_env.cards import CARD_TYPES, KEY, Kind
from friday_env.engine import level_aging_cards
from friday_env.env import FridayEnv

EPISODES_PER_LEVEL = 1000


def run_episodes(env: FridayEnv, episodes: int, seed: int, scenarios: bool = False) -> Counter:
    """Play ``episodes`` random masked games (from random scenarios if ``scenarios``); check
    every step; count phases and outcomes."""
    rng = np.random.default_rng(seed)
    space = env.observation_space
    seen: Counter = Counter()
    for episode in range(episodes):
        options = {"scenario": random_scenario(rng, env.level)} if scenarios else None
        obs, info = env.reset(seed=seed if episode == 0 else None, options=options)
        terminated = False
        while not terminated:
            game = env.game
            mask = info["action_mask"]
            legal = np.flatnonzero(mask)
            assert legal.tolist() == game.legal_actions(), (episode, game)
            assert len(legal) > 0, (episode, game)
            assert space.contains(obs), (episode, game)
            seen[game.phase] += 1
            obs, reward, terminated, truncated, info = env.step(
                int(legal[rng.integers(len(legal))])
            )
            assert not truncated
            if not terminated:
                assert reward == 0.0
        assert space.contains(obs)
        assert not info["action_mask"].any()
        assert reward == (1.0 if info["won"] else -1.0)
        seen["won" if info["won"] else "lost"] += 1
        seen[f"step {env.game.step}"] += 1
    return seen


def _keys(kind: Kind) -> list[str]:
    return [t.key for t in CARD_TYPES if t.kind == kind for _ in range(t.count)]


def random_scenario(rng: np.random.Generator, level: int) -> dict:
    """A random mid-game position: any step, some hazards won (knowledge in the deck), some
    lost or skipped, some aging cards dealt, cards destroyed, any life. Random play from the
    start dies in the green step; these positions reach the later steps and the pirates."""
    step = ("green", "yellow", "red", "pirates")[rng.integers(4)]
    hazards = [str(k) for k in rng.permutation(_keys(Kind.HAZARD))]
    aging = [str(k) for k in rng.permutation([KEY[c] for c in level_aging_cards(level)])]
    starting = [str(k) for k in rng.permutation(_keys(Kind.STARTING))]
    won = int(rng.integers(0, 16))
    lost = int(rng.integers(0, 31 - won))
    dealt = int(rng.integers(0, len(aging) + 1))
    deck = starting[int(rng.integers(0, 6)) :] + hazards[:won] + aging[:dealt]
    deck = [str(k) for k in rng.permutation(deck)]
    cut = int(rng.integers(0, len(deck) + 1))
    pirates = [t.key for t in CARD_TYPES if t.kind == Kind.PIRATE]
    return {
        "level": level,
        "step": step,
        "robinson_stack": deck[:cut],
        "robinson_discard": deck[cut:],
        "hazard_discard": hazards[won : won + lost],
        "hazard_stack": [] if step == "pirates" else hazards[won + lost :],
        "aging_stack": aging[dealt:],
        "pirates": [pirates[i] for i in rng.choice(len(pirates), 2, replace=False)],
        "life": int(rng.integers(1, 21)),
    }


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_thousand_random_masked_episodes_per_level(level):
    env = FridayEnv(level=level)
    seen = run_episodes(env, EPISODES_PER_LEVEL, seed=level)
    assert seen["won"] + seen["lost"] == EPISODES_PER_LEVEL
    # random play from the start dies in the green step (ability phases are rare there;
    # the mid-game test below reaches every decision)
    for phase in (Phase.CHOOSE_HAZARD, Phase.FIGHT, Phase.TARGET, Phase.LOSS_DESTROY):
        assert seen[phase] > 0, phase


@pytest.mark.parametrize("observation", ["dict", "flat_mask"])
@pytest.mark.parametrize("level", [1, 4])
def test_random_masked_episodes_with_the_other_encoders(observation, level):
    env = FridayEnv(level=level, observation=observation)
    seen = run_episodes(env, 100, seed=10 + level)
    assert seen["won"] + seen["lost"] == 100


@pytest.mark.parametrize("observation", ["flat", "dict", "flat_mask"])
def test_random_masked_episodes_from_random_mid_game_positions(observation):
    """Every decision, the later steps and the pirates, under every encoder's space."""
    seen: Counter = Counter()
    for level in (1, 2, 3, 4):
        env = FridayEnv(level=level, observation=observation)
        seen += run_episodes(env, 100, seed=20 + level, scenarios=True)
    for phase in Phase:
        if phase != Phase.GAME_OVER:
            assert seen[phase] > 0, phase
    assert seen["step 3"] > 0
