"""*Friday the 13th* as a PettingZoo AEC environment (turn by turn, hidden hands).

    from friday_env.thirteen import aec
    env = aec.env(num_players=4)
    env.reset(seed=42)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else choose(obs["observation"], obs["action_mask"])
        env.step(action)

Agents are ``"player_0"`` ... ``"player_{n-1}"`` (``player_0`` starts round 1). Each
observation is a dict: ``"observation"``, the acting player's view
(``friday_env.thirteen.encode``), and ``"action_mask"``, an int8 mask over the 150 action ids
(all zeros for a player whose turn it is not). Rewards: ``"bad_luck"`` (default) gives every
player minus their bad luck points at the end of each round (so a game's return is minus its
total); ``"win"`` gives each player their share of the win (ties split) when the game ends.
An action that is not legal raises ``IllegalMoveError`` and leaves the game as it was.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from friday_env.thirteen.cards import NUM_ACTIONS
from friday_env.thirteen.encode import OBSERVATION_SIZE, encode
from friday_env.thirteen.errors import OptionError
from friday_env.thirteen.game import Game13, check_players
from friday_env.thirteen.text import describe

REWARDS = ("bad_luck", "win")


def check_reward(reward: object) -> str:
    if reward not in REWARDS:
        raise OptionError(f"unknown reward {reward!r}: choose one of {', '.join(REWARDS)}")
    return str(reward)


def check_render_mode(render_mode: object, modes: list[str]) -> Any:
    if render_mode is not None and render_mode not in modes:
        raise OptionError(f"unknown render_mode {render_mode!r}: choose one of {', '.join(modes)}")
    return render_mode


def round_rewards(game: Game13, rounds_before: int, reward: str) -> list[float] | None:
    """What each player earns from the move just made: None when no round ended with it."""
    if len(game.round_scores) == rounds_before:
        return None
    if reward == "bad_luck":
        return [-float(points) for points in game.round_scores[-1]]
    return [float(s) for s in game.win_shares()] if game.done else [0.0] * game.players


class FridayThe13thAEC(AECEnv):
    """The AEC environment (see the module docstring); ``game`` is the ``Game13`` in play."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "friday_the_13th_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self, num_players: int = 4, reward: str = "bad_luck", render_mode: str | None = None
    ) -> None:
        super().__init__()
        self.num_players = check_players(num_players)
        self.reward_kind = check_reward(reward)
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self.possible_agents = [f"player_{p}" for p in range(self.num_players)]
        self.agents = self.possible_agents.copy()
        self._index = {agent: p for p, agent in enumerate(self.possible_agents)}
        observation = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            }
        )
        self.observation_spaces = {agent: observation for agent in self.possible_agents}
        self.action_spaces: dict[str, spaces.Space] = {
            agent: spaces.Discrete(NUM_ACTIONS) for agent in self.possible_agents
        }
        self._rng = np.random.default_rng()
        self.game: Game13 | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game: its deals from ``seed`` (or from the env's generator, which the last
        seed given fixes). ``options`` takes ``{"deal_seed": n}`` to play the deals of
        ``Game13.new(players, n)`` exactly (a bad one is refused in one line)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        # other keys are ignored, as PettingZoo's api_test expects (it passes one of its own)
        deal_seed = (options or {}).get("deal_seed")
        if deal_seed is None:
            deal_seed = int(self._rng.integers(2**31))
        self.game = Game13.new(self.num_players, deal_seed)
        self.agents = self.possible_agents.copy()
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.game.current_player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.game is not None, "call reset() first"
        player = self._index[agent]
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        if not self.game.done and player == self.game.current_player:
            mask[self.game.legal_actions()] = 1
        return {"observation": encode(self.game, player), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        assert game is not None, "call reset() first"
        rounds_before = len(game.round_scores)
        game.apply(action)  # type: ignore[arg-type]  # None is refused there, in one line
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        earned = round_rewards(game, rounds_before, self.reward_kind)
        if earned is not None:
            for player, value in enumerate(earned):
                self.rewards[self.possible_agents[player]] = value
        if game.done:
            self.terminations = {name: True for name in self.agents}
            for player, name in enumerate(self.possible_agents):
                self.infos[name] = {"bad_luck": game.scores[player]}
        else:
            self.agent_selection = self.possible_agents[game.current_player]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.game is None:
            return None
        text = describe(self.game)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def raw_env(**kwargs: Any) -> FridayThe13thAEC:
    """The environment without PettingZoo's wrappers."""
    return FridayThe13thAEC(**kwargs)


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's order check (the classic games' convention; the
    rules themselves refuse illegal actions, in one line)."""
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(FridayThe13thAEC(**kwargs))
