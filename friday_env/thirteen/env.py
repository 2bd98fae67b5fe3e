"""``FridayThe13th-v0``: *Friday the 13th* as a single-player Gymnasium environment.

The learner holds one seat; the other seats are played by ``opponents``: ``"random"`` (a
uniformly random legal card, from the env's own generator) or agent objects with
``reset(seed)`` and ``act(game) -> action`` (``friday_agents.thirteen``'s agents), one for
every other seat or one shared by all. So SB3 and every Gymnasium library train on it as on
``Friday-v0``:

    import gymnasium as gym
    import friday_env  # registers FridayThe13th-v0
    env = gym.make("FridayThe13th-v0", num_players=4)
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(int(info["action_mask"].nonzero()[0][0]))

Observations are ``friday_env.thirteen.encode``'s 309 values; ``info["action_mask"]`` and
``action_masks()`` (MaskablePPO) give the legal actions. Rewards: ``"bad_luck"`` (default)
minus the learner's bad luck at each round's end, ``"relative"`` minus (their bad luck minus
the other players' mean) at each round's end, ``"win"`` the learner's share of the win at
the end. ``illegal_action``: ``"loss"`` (default) ends the episode on an action the mask
forbids, with reward ``ILLEGAL_REWARD`` (0 with ``reward="win"``) and ``info["illegal_action"]``
True, so mask-blind tools (``check_env``, ``action_space.sample()``) run; ``"raise"`` raises
``IllegalMoveError`` and leaves the game unchanged. An action outside ``Discrete(150)``
always raises.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from friday_env.thirteen.cards import NUM_ACTIONS
from friday_env.thirteen.encode import OBSERVATION_SIZE, encode
from friday_env.thirteen.errors import IllegalMoveError, OptionError, SetupError
from friday_env.thirteen.game import Game13, check_players
from friday_env.thirteen.text import describe

REWARDS = ("bad_luck", "relative", "win")
ILLEGAL_MODES = ("loss", "raise")
#: The reward of an illegal action with ``illegal_action="loss"`` (bad_luck and relative
#: rewards): worse than nearly every round a player can have.
ILLEGAL_REWARD = -20.0


def learner_reward(game: Game13, seat: int, rounds_before: int, kind: str) -> float:
    """What the learner at ``seat`` earns from the moves since ``rounds_before`` rounds."""
    reward = 0.0
    for row in game.round_scores[rounds_before:]:
        others = [points for p, points in enumerate(row) if p != seat]
        if kind == "bad_luck":
            reward -= row[seat]
        elif kind == "relative":
            reward -= row[seat] - sum(others) / len(others)
    if kind == "win" and game.done:
        reward += game.win_shares()[seat]
    return float(reward)


class RandomOpponent:
    """Plays a uniformly random legal action, from the generator it is given."""

    name = "random"

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def reset(self, seed: int) -> None:
        pass  # it draws from the env's generator, which reset(seed) seeds

    def act(self, game: Game13) -> int:
        legal = game.legal_actions()
        return legal[int(self.rng.integers(len(legal)))]


class FridayThe13thEnv(gym.Env):
    """See the module docstring. Options: ``num_players`` (3-6), ``opponents``, ``seat`` (the
    learner's seat, or ``"random"`` for a new one each game, default), ``reward``,
    ``render_mode`` (``"ansi"``)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012  # gym.Env's own

    def __init__(
        self,
        num_players: int = 4,
        opponents: Any = "random",
        seat: int | str = "random",
        reward: str = "bad_luck",
        illegal_action: str = "loss",
        render_mode: str | None = None,
    ) -> None:
        try:
            self.num_players = check_players(num_players)
        except SetupError as err:
            raise OptionError(f"num_players: {err}") from None
        if reward not in REWARDS:
            raise OptionError(f"unknown reward {reward!r}: choose one of {', '.join(REWARDS)}")
        if illegal_action not in ILLEGAL_MODES:
            raise OptionError(f"unknown illegal_action {illegal_action!r}: 'loss' or 'raise'")
        self.illegal_action = illegal_action
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise OptionError(f"unknown render_mode {render_mode!r}: the one is 'ansi'")
        self.seat_option = _check_seat(seat, self.num_players)
        self.reward_kind, self.render_mode = reward, render_mode
        self.observation_space = spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,), np.float32)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self._rng = np.random.default_rng()
        self.opponents = self._opponents(opponents)
        self.game: Game13 | None = None
        self.seat = 0
        self._over = False

    def _opponents(self, opponents: Any) -> list[Any]:
        """One agent per other seat, in seat order after the learner."""
        count = self.num_players - 1
        chosen = (
            list(opponents)
            if isinstance(opponents, Sequence) and not isinstance(opponents, str)
            else [opponents] * count
        )
        if len(chosen) != count:
            raise OptionError(
                f"opponents: {count} agents for {self.num_players} players, got {len(chosen)}"
            )
        made = []
        for agent in chosen:
            if agent == "random":
                made.append(RandomOpponent(self._rng))
            elif callable(getattr(agent, "act", None)):
                made.append(agent)
            else:
                raise OptionError(
                    f"opponents: {agent!r} is neither 'random' nor an agent with act(game)"
                )
        return made

    def reset(
        self, *, seed: int | None = None, options: dict | None = None
    ) -> tuple[np.ndarray, dict]:
        """A new game, its deals drawn from ``seed``; ``options={"deal_seed": n}`` plays the
        deals of ``Game13.new(num_players, n)``."""
        super().reset(seed=seed)
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            for opponent in self.opponents:
                if isinstance(opponent, RandomOpponent):
                    opponent.rng = self._rng
        options = dict(options or {})
        deal_seed = options.pop("deal_seed", None)
        if options:
            raise OptionError(f"unknown reset option {sorted(options)[0]!r}: the one is deal_seed")
        if deal_seed is None:
            deal_seed = int(self._rng.integers(2**31))
        self.game = Game13.new(self.num_players, deal_seed)
        random_seat = int(self._rng.integers(self.num_players))
        self.seat = random_seat if self.seat_option == "random" else int(self.seat_option)
        for k, opponent in enumerate(self.opponents):
            opponent.reset(int(self._rng.integers(2**31)) + k)
        self._play_opponents()
        self._over = False
        return encode(self.game, self.seat), self._info()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict]:
        game = self.game
        if game is None or self._over:
            raise OptionError("the episode is over (or never began): call reset() first")
        if isinstance(action, np.integer | np.ndarray) and np.ndim(action) == 0:
            action = int(action)
        if not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
            raise IllegalMoveError(f"an action is an integer 0-{NUM_ACTIONS - 1}, got {action!r}")
        if self.illegal_action == "loss" and action not in game.legal_actions():
            return self._illegal_loss()
        rounds_before = len(game.round_scores)
        game.apply(action)
        self._play_opponents()
        self._over = game.done
        reward = learner_reward(game, self.seat, rounds_before, self.reward_kind)
        return encode(game, self.seat), reward, game.done, False, self._info()

    def _illegal_loss(self) -> tuple[np.ndarray, float, bool, bool, dict]:
        assert self.game is not None
        self._over = True
        info = self._info() | {"illegal_action": True}
        reward = 0.0 if self.reward_kind == "win" else ILLEGAL_REWARD
        return encode(self.game, self.seat), reward, True, False, info

    def _play_opponents(self) -> None:
        game = self.game
        assert game is not None
        while not game.done and game.current_player != self.seat:
            offset = (game.current_player - self.seat) % self.num_players
            game.apply(self.opponents[offset - 1].act(game))

    def _info(self) -> dict[str, Any]:
        game = self.game
        assert game is not None
        info: dict[str, Any] = {"action_mask": self.action_masks(), "seat": self.seat}
        if game.done:
            info["scores"] = game.scores
            info["bad_luck"] = game.scores[self.seat]
            info["win_share"] = game.win_shares()[self.seat]
        return info

    def action_masks(self) -> np.ndarray:
        """The legal actions of the learner now (all False once the episode is over)."""
        assert self.game is not None, "call reset() first"
        if self._over:
            return np.zeros(NUM_ACTIONS, dtype=bool)
        return self.game.legal_mask()

    def render(self) -> str | None:  # type: ignore[override]  # ansi: text
        if self.render_mode != "ansi" or self.game is None:
            return None
        return describe(self.game, hand_of=self.seat)


def _check_seat(seat: object, players: int) -> int | str:
    if seat == "random":
        return "random"
    if isinstance(seat, bool) or not isinstance(seat, int | np.integer) or not 0 <= seat < players:
        raise OptionError(f"seat must be 0-{players - 1} or 'random', got {seat!r}")
    return int(seat)
