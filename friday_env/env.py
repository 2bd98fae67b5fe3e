"""The Gymnasium environment ``Friday-v0``: a thin adapter over
[`Game`][friday_env.engine.game.Game].

The engine's action ids are the env's actions and its legal actions are the mask; the env
only adds seeding, observation encoding ([`friday_env.observation`][friday_env.observation]),
rendering ([`friday_env.render`][friday_env.render]) and the rules of an episode (rewards, illegal
actions, seeds and the option checks), which [`friday_env.episode`][friday_env.episode]
defines for both envs.
"""

from __future__ import annotations

import copy
import warnings
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.error import ResetNeeded

from friday_env.actions import ACTION_NAMES, NUM_ACTIONS, action_id_of, action_mask
from friday_env.core import COMPILED_CLASSES, Game, check_core, new_game
from friday_env.episode import (
    ILLEGAL_ACTION_MODES,
    MASK_DTYPE,
    REWARD_MODES,
    SCORE_SCALE,
    check_choice,
    check_illegal_action_mode,
    check_progress_coef,
    check_reward_mode,
    draw_game_seed,
    final_stats,
    illegal_action_ends_game,
    progress,
    step_reward,
)
from friday_env.errors import EnvOptionError, IllegalActionError, check_level
from friday_env.observation import encoder_names, make_encoder
from friday_env.scenario import scenario
from friday_env.text import render_text

__all__ = [
    "ILLEGAL_ACTION_MODES",  # the episode rules' names, importable from here as before
    "MASK_DTYPE",
    "RENDER_MODES",
    "RESET_OPTIONS",
    "REWARD_MODES",
    "SCORE_SCALE",
    "EnvOptionError",
    "FridayEnv",
]

RENDER_MODES = ("ansi", "human", "rgb_array")
RESET_OPTIONS = ("scenario", "deal")


def _no_actions() -> np.ndarray:
    """The mask once an episode is over: all zero, a new array each time (infos of
    consecutive steps share no object, as Gymnasium's checker asks)."""
    return np.zeros(NUM_ACTIONS, MASK_DTYPE)


def _scalar_action(action: Any) -> Any:
    """A 0-d integer array as the integer it holds: ``Discrete.contains`` accepts one, and
    stable-baselines3's ``model.predict`` on one observation returns one."""
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        return action.item()
    return action


def _is_integer(value: object) -> bool:
    """An int or numpy integer, bools not."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _checked_reset_options(options: dict[str, Any] | None) -> dict[str, Any]:
    """``reset``'s options, refused with an [`EnvOptionError`][friday_env.errors.EnvOptionError]
    before anything changes when a key is unknown or a value has the wrong kind."""
    if not options:  # most resets (every autoreset of a vector env): nothing to check
        return {}
    unknown = sorted(set(options) - set(RESET_OPTIONS))
    if unknown:
        raise EnvOptionError(f"unknown reset options {unknown}; known: {', '.join(RESET_OPTIONS)}")
    if "deal" in options and "scenario" in options:
        raise EnvOptionError(
            "options 'deal' and 'scenario' exclude each other: give a scenario its own 'seed'"
        )
    deal = options.get("deal", 0)
    if not _is_integer(deal) or deal < 0:
        raise EnvOptionError(
            f"options['deal'] must be a non-negative integer game seed, got {deal!r}"
        )
    if not isinstance(options.get("scenario", {}), dict):
        raise EnvOptionError(
            f"options['scenario'] must be a dict of friday_env.scenario arguments, "
            f"got {type(options['scenario']).__name__}"
        )
    return options


class FridayEnv(gym.Env[Any, np.int64]):
    """Friedemann Friese's solo deck-building game *Friday*, one decision per step.

    ## Description

    Robinson is stranded; you (Friday) build his deck by fighting hazards through a green,
    yellow and red step, then beat two pirates. A fight: draw free cards (more for life),
    use abilities, end the fight; a won hazard joins the deck as knowledge, a lost fight
    costs life and lets you destroy weak cards. Every decision of the rulebook is an action
    of the engine ([`friday_env.Game`][friday_env.Game]), which this env exposes unchanged. Rulings
    R01-R26 of ``docs/rulings.md`` apply; observations hold only open information (R26).

    ## Action Space

    ``Discrete(199)``, the same at every level: the engine's flat action codec
    ([`friday_env.actions`][friday_env.actions]; table in ``docs/environment.md``): hazard and
    pirate choices, free and paid draws, ending the fight, the "+2 cards" and "sort 3 cards"
    sub-decisions, and per table slot (59 slots, every fighting card of the game) "use the
    ability",
    "target this card" and "destroy this card". Only some are legal at each step: the mask
    is ``env.action_masks()`` (sb3-contrib's contract) and ``info["action_mask"]``, both
    exactly ``game.legal_actions()`` as 0/1 ``int8`` (Gymnasium's mask dtype, so
    ``env.action_space.sample(mask=info["action_mask"])`` draws a legal action), never all
    zero before the episode ends and all zero after it. Each is a new writable array that
    no other mask handed out shares: changing it changes nothing in the env, and torch reads
    it without its warning about non-writable arrays. In a vector env with Gymnasium's default
    next-step autoreset, the step after an episode ends only resets that env and ignores its
    action.
    ``action_names()`` names every id; ``describe_action(a)`` names it in context.

    ## Observation Space

    Chosen with ``observation=``:

    - ``"flat"`` (default): ``Box(float32, (991,))`` of named pieces
      (`friday_env.observation.FLAT_LAYOUT`, table in ``docs/environment.md``), for
      ``MlpPolicy``;
    - ``"dict"``: a ``Dict`` of integer arrays: scalars, counts per card type for every pile,
      the table as slot arrays (card, side, used, face down, doubled, value), the hazard or
      pirate, the pending decision and its context, the known top of the stack;
    - ``"flat_mask"``: ``Dict(observation=flat, action_mask=int8 mask)`` (PettingZoo style);
    - any encoder registered with
      [`friday_env.observation.register_encoder`][friday_env.observation.register_encoder].

    The encoders work without an env: ``FlatEncoder().encode(game)``.

    ## Starting State

    A new game of the chosen level set up by the rulebook (R24), its shuffles seeded from
    ``self.np_random``; or ``reset(options={"deal": n})``, the game ``Game.new(level, n)``
    (the deal seeds of ``friday eval``, ``agents.seeds``, replay evaluation games in the
    env); or ``reset(options={"scenario": {...}})``, the keyword arguments of
    [`friday_env.scenario`][friday_env.scenario] (``level`` defaults to the env's level, ``seed`` to
    one drawn from ``self.np_random``).

    ## Rewards

    ``reward="win_loss"`` (default): 0 on every step but the last, then +1 for beating both
    pirates, -1 for any loss. ``reward="score"``: 0 until the last step, then the final score
    (R25, for wins and losses alike) divided by 100. ``reward="progress"``: ``progress_coef``
    (default 0.1) for each hazard and each pirate beaten, in the step that beats it and never
    taken back, plus +1/-1 at the end as in ``"win_loss"``; a game's rewards sum to +/-1 plus
    ``progress_coef * (hazards_beaten + pirates_beaten)`` of its last ``info``.
    ``docs/scoring.md`` compares them.

    ## Episode End

    Terminates when the game is over: both pirates beaten, or Robinson cannot pay what he
    owes, or a pirate fight cannot be won (R22). There is no truncation; wrap with
    ``TimeLimit`` if you want one. The last ``info`` also holds ``final_score``, ``won``,
    ``level``, ``fights`` (fights finished), ``steps`` (decisions taken), ``hazards_beaten``
    (hazard cards beaten in the game, destroyed ones included), ``pirates_beaten`` and
    ``end_step`` (the step the game ended in: 0 green, 1 yellow, 2 red, 3 pirates; a won game
    ends in 3), in every reward mode.

    ## Arguments

    ```python
    gymnasium.make("Friday-v0", level=1, observation="flat", reward="win_loss",
                   progress_coef=None, illegal_action=None, render_mode=None, core=None)
    ```

    - ``level``: 1-4 (R24).
    - ``observation``: ``"flat"``, ``"dict"``, ``"flat_mask"`` or another registered encoder
      ([`friday_env.observation.encoder_names()`][friday_env.observation.encoder_names]).
    - ``reward``: ``"win_loss"``, ``"score"`` or ``"progress"``.
    - ``progress_coef``: the reward for each hazard or pirate beaten with
      ``reward="progress"``, a finite number >= 0 (None: 0.1); refused with any other reward
      mode, which pays nothing for progress.
    - ``illegal_action``: ``"loss"`` ends the episode as a lost game on an action the mask
      forbids: reward -1 (or the current score / 100 in score mode), ``terminated=True``,
      ``info["illegal_action"]`` True. The default (None) is ``"loss"`` with a warning the
      first time in each env. Tools that know nothing of masks (Gymnasium's and SB3's ``check_env``,
      ``action_space.sample()``) then run, and masked agents never meet it. ``"raise"``
      raises the engine's ``IllegalActionError`` and leaves the game untouched: for
      debugging an agent that must stay inside the mask. An action outside
      ``Discrete(199)`` always raises.
    - ``render_mode``: ``"ansi"`` (text), ``"human"`` (prints the text) or ``"rgb_array"``
      (the table drawn as an image).
    - ``core``: the engine that plays, ``"c"`` (compiled) or ``"python"`` (the reference);
      None is the default core ([`friday_env.core`][friday_env.core]: the compiled one where it
      is built, unless ``FRIDAY_CORE=python``). Both play the same games.

    Unknown values raise [`EnvOptionError`][friday_env.errors.EnvOptionError] (or
    ``InvalidLevelError``) at ``make``.

    ## Version History

    - v0: initial version.
    """

    # an instance attribute in gymnasium.Env, so not a ClassVar here
    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 2}  # noqa: RUF012

    def __init__(
        self,
        level: int = 1,
        observation: str = "flat",
        reward: str = "win_loss",
        illegal_action: str | None = None,
        render_mode: str | None = None,
        core: str | None = None,
        progress_coef: float | None = None,
    ) -> None:
        self.level = check_level(level)
        self.core = check_core(core)
        self.observation_name = check_choice("observation encoder", observation, encoder_names())
        self.reward_mode = check_reward_mode(reward)
        self.progress_coef = check_progress_coef(self.reward_mode, progress_coef)
        self.illegal_action, self._warn_illegal = check_illegal_action_mode(illegal_action)
        if render_mode is not None:
            check_choice("render mode", render_mode, RENDER_MODES)
        self.render_mode = render_mode
        self.encoder = make_encoder(self.observation_name)
        self.observation_space = self.encoder.space
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.game: Game | None = None
        self._over = True
        self._steps = 0
        self._progress = 0  # hazards and pirates beaten before this step (progress mode)
        # the last action in words, or (on the compiled core) the game it was played in and
        # the action, named only when a picture asks (see _naming)
        self._last_action: str | tuple[Any, int] = ""
        # the mask of the state after the last step: built once, given to info and to
        # action_masks() (sb3-contrib asks for it again after every step)
        self._mask = _no_actions()
        self._mask_state: tuple[Game | None, int] = (None, -1)

    # ------------------------------------------------------------------ API

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        options = _checked_reset_options(options)
        super().reset(seed=seed)
        game_seed = draw_game_seed(self.np_random)
        self.game = self._new_game(game_seed, options)
        self._over = self.game.done
        self._steps = 0
        self._progress = progress(self.game) if self.progress_coef else 0
        self._last_action = ""
        info = self._info()
        if self.render_mode == "human":
            self.render()
        return self.encoder.encode(self.game), info

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        game = self.game
        if game is None or self._over:
            raise ResetNeeded("the episode is over (or never began): call reset() first")
        action = _scalar_action(action)
        try:
            naming = "" if self.render_mode is None else self._naming(game, action)
            game.apply(action)
        except IllegalActionError:
            if not illegal_action_ends_game(action, self.illegal_action):
                raise
            return self._illegal_loss(action)
        self._steps += 1
        self._last_action = naming
        terminated = game.done
        self._over = terminated
        reward = step_reward(game, self.reward_mode, self.progress_coef, self._progress_made())
        info = self._info()
        if terminated:
            info |= final_stats(game, self._steps)
        if self.render_mode == "human":
            self.render()
        return self.encoder.encode(game), reward, terminated, False, info

    def action_masks(self) -> np.ndarray:
        """The legal actions as a 0/1 ``int8`` array (sb3-contrib's ``MaskablePPO`` contract,
        Gymnasium's mask dtype); all zero once the episode is over. A new writable array on
        every call (on the Python core a copy of the env's own, built once per step)."""
        game = self.game
        if self._over or game is None:
            return _no_actions()
        if isinstance(game, COMPILED_CLASSES):
            # written in C into a new array at each call (cheaper than copying a mask kept
            # here), and always the game's current one
            return action_mask(game, MASK_DTYPE)
        # keyed on the game and its move count: a game changed outside step() gets a new mask
        state = (game, len(game.history))
        if state != self._mask_state:
            self._mask = action_mask(game, MASK_DTYPE)
            self._mask_state = state
        return self._mask.copy()

    def __copy__(self) -> FridayEnv:
        """An independent env, as ``copy.deepcopy`` gives: a shallow copy would share the
        game, so stepping one env would move the other."""
        return copy.deepcopy(self)

    @staticmethod
    def action_names() -> tuple[str, ...]:
        """A context-free name for every action id."""
        return ACTION_NAMES

    def describe_action(self, action: int) -> str:
        """The name of ``action`` in the current situation, e.g. "use weak (slot 2): ..."."""
        return self._require_game().describe(action)

    def render(self) -> Any:
        if self.render_mode is None:
            gym.logger.warn("render() called without a render_mode; pass one to make()")
            return None
        game = self._require_game()
        legal = [] if self._over else game.legal_actions()
        if self.render_mode == "rgb_array":
            from friday_env.render import render_rgb  # Pillow, loaded only for pictures

            return render_rgb(game, legal, self._last_action_text())
        text = render_text(game, legal, self._last_action_text())
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # -------------------------------------------------------------- helpers

    def _new_game(self, game_seed: int, options: dict[str, Any]) -> Game:
        if "deal" in options:
            return new_game(self.level, int(options["deal"]), core=self.core)
        if "scenario" not in options:
            return new_game(self.level, game_seed, core=self.core)
        spec = {"level": self.level, "seed": game_seed, "core": self.core, **options["scenario"]}
        try:
            return scenario(**spec)
        except TypeError as err:
            raise EnvOptionError(f"bad options['scenario']: {err}") from None

    def _naming(self, game: Game, action: int) -> str | tuple[Any, int]:
        """What names ``action`` in a later picture: on the Python core its description now;
        on the compiled core the game before it and the action, since cloning there costs
        an eighth of describing (every env made by ``make_vec_env`` has a render mode, so
        this runs on every training step)."""
        if self.core == "c":
            return game.clone(), action  # named only if apply() takes it: a legal id
        # only a legal id has a meaning now
        return game.describe(action) if action_id_of(action) is not None else ""

    def _last_action_text(self) -> str:
        text = self._last_action
        if isinstance(text, tuple):  # named now, once
            before, action = text
            text = self._last_action = before.describe(action)
        return text

    def _require_game(self) -> Game:
        if self.game is None:
            raise ResetNeeded("no game yet: call reset() first")
        return self.game

    def _progress_made(self) -> int:
        """Hazards and pirates beaten in the step just played (progress mode only: 0 else)."""
        if not self.progress_coef:
            return 0
        before, self._progress = self._progress, progress(self._require_game())
        return self._progress - before

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks()}

    def _illegal_loss(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """``illegal_action="loss"``: the episode ends as a lost game at this point."""
        game = self._require_game()
        if self._warn_illegal:
            self._warn_illegal = False
            warnings.warn(
                f"Friday-v0: illegal action {int(action)} ({game.describe(int(action))}) in "
                f"phase {game.phase.name} ends the episode as a loss "
                f"(illegal_action='loss', the default); sample from info['action_mask'] to "
                "stay legal, or pass illegal_action='raise' to get an error. Later illegal "
                "actions of this env are not reported.",
                UserWarning,
                stacklevel=3,
            )
        self._over = True
        self._last_action = f"illegal action {action!r}: game lost"
        reward = step_reward(game, self.reward_mode, self.progress_coef, 0, illegal=True)
        info = self._info() | final_stats(game, self._steps, illegal=True)
        return self.encoder.encode(game), reward, True, False, info
