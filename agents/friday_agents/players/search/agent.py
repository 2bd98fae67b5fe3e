"""A planning agent: determinized Monte-Carlo search over engine clones.

For each decision with more than one legal action, the agent samples ``worlds``
determinizations of the game ([`friday_env.determinized`][friday_env.information.determinized]:
every hidden order and unseen card resampled consistently with what the player knows, R26). In each
world it tries every candidate action on a clone, lets the heuristic play on to the end of the
current fight — through both pirate fights to the end of the game once the pirates are reached — and
scores the result with a value model (the expected final score, plus a bonus for a win; a finished
game counts its real score and result): by default the linear model fitted on heuristic games
(``search_value.json``). The action with the best mean wins; ties go to the heuristic's own
choice. All candidates are tried in the same worlds (common random numbers), so their
comparison is paired and far less noisy than independent samples. With a policy prior
(``prior=``, `friday_agents.players.networks.policy_net`) only the actions it rates
highest and the heuristic's choice are candidates, each tried in more worlds.
[`friday_agents.players.search.guided`][friday_agents.players.search.guided] is this search with the
learned ingredients that measured best.

It never looks at hidden information: the real game is only cloned through
``determinized``, whose result does not depend on anything hidden, and the prior reads the
public observation. A forced move (one legal action) costs no simulation.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Protocol

import numpy as np

from friday_agents.models import model_file
from friday_agents.players.networks.linear_value import TURN_START_PHASES, WEIGHTS_FILE
from friday_agents.players.networks.policy_net import PolicyNetwork, PolicyPrior, policy_prior
from friday_agents.players.search.compiled import CompiledSearch, compiled_search
from friday_agents.players.search.value_levels import load_leaf_value
from friday_env import Game, Phase, determinized
from friday_env.engine import PIRATES
from friday_env.levels import LEVELS

#: Where rollouts stop and are valued: a hazard fight is over and the next turn waits, or the
#: game is over. At the pirates' turn start they play on, through both pirate fights.
ROLLOUT_STOPS = (TURN_START_PHASES - {Phase.CHOOSE_PIRATE}) | {Phase.GAME_OVER}
#: The simulation budget per decision unless asked otherwise: the search agents' default,
#: ``friday eval --search-sims``' default and the headline results table's setting.
DEFAULT_SIMS = 32
#: The pirates' step (the engine's): from here on rollouts play to the end of the game.
PIRATE_STEP = PIRATES
#: A rollout longer than this many actions per fight is cut and scored where it stands (a
#: safety net: fights are a few dozen actions at most).
MAX_ROLLOUT_ACTIONS = 400
#: More fights than a whole game holds (some 35: half of the hazard cards in each of the
#: three steps, and two pirates): the fights a rollout may play on to the end of the game.
MAX_FIGHTS_LEFT = 40
#: With a policy prior: how many of its best-rated actions are tried besides the heuristic's
#: choice (1 measured best: ``experiments/search-strength/results/ingredients.json``).
DEFAULT_TOP = 1
#: What the search falls back to (a candidate always, and the winner of ties): the
#: heuristic's choice, or the prior's best action (a search with no heuristic in its choices).
ANCHORS = ("heuristic", "prior")


class LeafValue(Protocol):
    """What values a rollout's end: a turn's start or a finished game."""

    def value(self, game: Game) -> float: ...


def leaf_value_model(value: str) -> LeafValue:
    """The value model ``value`` names (see
    [`SearchAgent`][friday_agents.players.search.agent.SearchAgent]'s ``value`` argument)."""
    if not isinstance(value, str):
        raise ValueError(f"value must be '', a model role or a file path, got {value!r}")
    return load_leaf_value(WEIGHTS_FILE if value == "" else model_file(value, "value"))


@cache
def _heuristic() -> Callable[[Game], int]:
    """The heuristic with its default parameters, imported on first use: a search whose
    choices and rollouts are a network's (``anchor=prior``, ``rollout=``) never imports it."""
    from friday_agents.players.heuristic.agent import heuristic_action as act
    from friday_agents.players.heuristic.rules import DEFAULT_PARAMS

    return lambda game: act(game, DEFAULT_PARAMS)


def heuristic_action(game: Game) -> int:
    """The heuristic's action (its default parameters)."""
    return _heuristic()(game)


def heuristic_policy(game: Game) -> int:
    """The heuristic's action: the rollouts' default policy."""
    return heuristic_action(game)


def rollout_policy(name: str) -> Callable[[Game], int]:
    """What plays the rollouts: the heuristic for ``""``, else the policy network ``name``
    names (a role or an ``.npz``, as for ``prior``), playing its best-rated action."""
    prior = policy_prior(name, "rollout")
    return heuristic_policy if prior is None else prior.best


def rollout(
    game: Game,
    model: LeafValue,
    fights: int = 1,
    policy: Callable[[Game], int] = heuristic_policy,
    finish_step: int = PIRATE_STEP,
) -> float:
    """Play ``policy`` (the heuristic by default) on ``game`` (a clone, modified) to the end
    of the current fight — or of ``fights`` fights, counting the current one; from step
    ``finish_step`` on, to the end of the game — and return the value of where it ends."""
    reached = 0
    for _ in range(MAX_ROLLOUT_ACTIONS * (fights + MAX_FIGHTS_LEFT)):
        if game.phase in ROLLOUT_STOPS:
            if game.done:
                break
            if game.step < finish_step:
                reached += 1
                if reached >= fights:
                    break
        legal = game.legal_actions()
        game.apply(legal[0] if len(legal) == 1 else policy(game))
    return model.value(game)


class SearchAgent:
    """Determinized Monte-Carlo planning with heuristic rollouts (see the module docstring).

    ## Description

    A strong reference that improves on the heuristic by trying each action in sampled
    worlds. It reads only public information: planning happens on determinized clones.

    ## Arguments

    - ``sims`` — simulation budget per decision: ``max(1, sims // candidates)`` worlds, each
      playing every candidate action once (default `DEFAULT_SIMS`, the setting of the
      headline results and of ``friday eval``).
    - ``value`` — what scores a rollout's end, a model named by its role
      ([`friday_agents.models`][friday_agents.models]): ``""`` (default) or ``search-value``, the
      linear model fitted on heuristic games; ``guided-value-per-level`` one linear model per level,
      chosen on the validation deals (``guided-value-cards`` on levels 1-3, ``guided-value-level4``
      on level 4; see the search study, ``experiments/search-strength/REPORT.md``);
      ``value-net`` the value network; or a file of one's own: a ``.json`` from
      ``friday fit linear-value``, an ``.npz`` from
      ``friday fit value-net``, a leaf network of the
      probability of winning from ``friday value fit``
      (`friday_agents.players.networks.leaf_net`, valued inside the compiled search), or a
      per-level ``.json`` (`friday_agents.players.search.value_levels`).
    - ``horizon`` — how many fights a rollout plays before it is valued: 1 (default) ends
      at the end of the current fight; 2 plays the next fight too (about twice the time).
    - ``prior`` — a policy network that prunes the candidates
      (`friday_agents.players.networks.policy_net`): ``""`` (default) none, every legal
      action is tried; ``guided-prior`` the network fitted on the search's own action values
      (guided's before the level-4 leaf study); ``net-v1`` guided's (the ``net`` agent's
      network before the net-scale study); ``net`` the ``net`` agent's network; or an
      ``.npz`` of one's own from
      ``friday fit policy-net``. With a prior, only the
      ``top`` actions it rates highest and the heuristic's choice are tried, so each gets
      more worlds.
    - ``top`` — how many of the prior's best actions are tried, the same on every level
      (default `DEFAULT_TOP`, 1: the search then only referees between the network's choice
      and the heuristic's, and does not search where they agree; only with ``prior``). Left
      out, each level takes its own from `default_tops` (a subclass may set other ones:
      ``guided`` does).
    - ``rollout`` — what plays the rollouts: ``""`` (default) the heuristic; a policy
      network named as for ``prior`` (``guided-prior``, ``net-v1``, ``net`` or an ``.npz``),
      playing its best-rated action (it did not play better than the heuristic, see the search
      study, ``experiments/search-strength/REPORT.md``). A network on the flat observation
      plays in the compiled search's C (``policy_net.c``), any other on the Python path.
    - ``anchor`` — the action that is always a candidate and wins ties: ``heuristic``
      (default) the heuristic's choice; ``prior`` the prior's best action (needs ``prior``
      and ``top`` of at least 2: the prior's ``top`` best actions are then the candidates).
      With ``anchor=prior``, ``rollout=`` a network and a leaf ``value`` fitted without the
      heuristic, no decision of the search reads the heuristic.
    - ``finish`` — from which step on rollouts play to the end of the game instead of the end
      of the fight: 3 (default, `PIRATE_STEP`) the pirates; 2 the red step too. Earlier
      is not better: ``finish=0`` (every rollout to the game's end) won 0 of 20 level-1
      validation deals, where the heuristic won 2 and the default search 13 (``friday eval
      --agents heuristic,search,search:finish=0 --levels 1 --games 20 --deals validation``).
    - ``margin`` — how much another candidate's mean leaf value must exceed the anchor's
      before the search departs from the anchor (default 0: the best mean wins, ties go to
      the anchor), in the value's own units: a win probability for a leaf network, points
      for a linear model. A search whose anchor is a strong prior and whose rollout values
      are noisy departs from it only on strong evidence.

    ## Speed

    Roughly ``sims`` short rollouts per non-forced decision; see ``friday eval`` for games/s.
    """

    name = "search"
    #: The world the compiled search samples for `world`, one of
    #: `friday_agents.players.search.compiled.WORLDS` (None: no C version, the Python loop
    #: plays). A subclass that overrides `world` names its own, or gets None.
    c_world: str | None = "determinized"
    #: ``top`` per level when the spec leaves it out: `DEFAULT_TOP` on every level.
    default_tops: dict[int, int] = dict.fromkeys(LEVELS, DEFAULT_TOP)

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if "world" in vars(cls) and "c_world" not in vars(cls):
            cls.c_world = None  # a new world has no C sampler until the subclass names one

    def __init__(
        self,
        sims: int = DEFAULT_SIMS,
        value: str = "",
        horizon: int = 1,
        prior: str = "",
        top: int | None = None,
        rollout: str = "",
        finish: int = PIRATE_STEP,
        anchor: str = "heuristic",
        margin: float = 0.0,
    ) -> None:
        checked = (
            ("sims", sims),
            ("horizon", horizon),
            ("top", DEFAULT_TOP if top is None else top),
        )
        for name, number in checked:
            if not isinstance(number, int) or number < 1:
                raise ValueError(f"{name} must be a positive integer, got {number!r}")
        if isinstance(margin, bool) or not isinstance(margin, int | float) or not margin >= 0:
            raise ValueError(f"margin must be a number >= 0, got {margin!r}")
        if finish not in range(PIRATE_STEP + 1) or isinstance(finish, bool):
            raise ValueError(f"finish must be a step from 0 to {PIRATE_STEP}, got {finish!r}")
        self.horizon = horizon
        self.sims = sims
        self.model = leaf_value_model(value)
        self.prior = policy_prior(prior)
        if top is not None and self.prior is None:
            raise ValueError(
                "top needs a prior (e.g. prior=guided-prior): without one every action is tried"
            )
        #: How many of the prior's best actions are tried, per level.
        self.tops = dict(self.default_tops) if top is None else dict.fromkeys(LEVELS, top)
        self.rollout_policy = rollout_policy(rollout)
        self.finish = finish
        self.anchor = self._checked_anchor(anchor)
        #: How far another candidate's mean leaf value must exceed the anchor's to be chosen.
        self.margin = float(margin)
        self.rng = np.random.default_rng(0)
        #: The last searched decision's ``(action, mean rollout value)`` pairs (None after a
        #: forced move), the anchor's credited with ``margin`` (the values the choice
        #: compared): what recorded games keep as policy and value targets
        #: (``friday imitate collect`` and ``friday distill`` record them).
        self.last_values: list[tuple[int, float]] | None = None

    def _checked_anchor(self, anchor: str) -> str:
        if anchor not in ANCHORS:
            raise ValueError(f"anchor must be one of {', '.join(ANCHORS)}, got {anchor!r}")
        if anchor == "prior" and self.prior is None:
            raise ValueError("anchor=prior needs a prior (prior=a policy network): its best action")
        if anchor == "prior" and min(self.tops.values()) < 2:
            raise ValueError(
                "anchor=prior needs top of at least 2: the prior's best action is always a "
                "candidate, so with top=1 nothing would be searched"
            )
        return anchor

    def anchor_action(self, game: Game) -> int:
        """The action that is always a candidate and wins ties (``anchor``)."""
        if self.anchor == "prior" and self.prior is not None:
            return self.prior.best(game)
        return heuristic_action(game)

    def reset(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, game: Game) -> int:
        legal = list(game.legal_actions())
        self.last_values = None
        if len(legal) == 1:
            return legal[0]
        default = self.anchor_action(game)
        if self.prior is not None:
            legal = self.prior.candidates(game, legal, self.tops[game.level], default)
            if len(legal) == 1:
                return default
        worlds = max(1, self.sims // len(legal))
        seeds = [int(seed) for seed in self.rng.integers(0, 2**62, size=worlds)]
        totals = self.rollout_totals(game, legal, seeds)
        means = totals / worlds
        means[legal.index(default)] += self.margin  # the values the choice below compares
        self.last_values = [(a, float(m)) for a, m in zip(legal, means, strict=True)]
        best = float(totals.max())
        if totals[legal.index(default)] >= best - 1e-9 - self.margin * worlds:
            return default
        return legal[int(totals.argmax())]

    def rollout_totals(self, game: Game, actions: list[int], seeds: list[int]) -> np.ndarray:
        """Each action's summed rollout values over the worlds ``seeds`` (common to all
        actions). On the compiled core, in one C call where every ingredient has a C version
        (`friday_agents.players.search.compiled`: the same floats as the Python loop below)."""
        compiled = self.compiled_search(game)
        if compiled is not None:
            return compiled.totals(game, actions, seeds)
        totals = np.zeros(len(actions))
        for seed in seeds:
            world = self.world(game, seed)
            for i, action in enumerate(actions):
                trial = world.clone()
                trial.apply(action)
                totals[i] += rollout(
                    trial, self.model, self.horizon, self.rollout_policy, self.finish
                )
        return totals

    def compiled_search(self, game: Game) -> CompiledSearch | None:
        """This decision's simulations in one C call, or None where one of this agent's
        ingredients has no C version (`friday_agents.players.search.compiled`)."""
        return compiled_search(
            game,
            world=self.c_world,
            leaf_value=self.model,
            horizon=self.horizon,
            finish=self.finish,
            heuristic_rollouts=self.rollout_policy is heuristic_policy,
            limits=(MAX_ROLLOUT_ACTIONS, MAX_FIGHTS_LEFT),
            rollout_network=self.rollout_network(),
        )

    def rollout_network(self) -> PolicyNetwork | None:
        """The policy network whose best action plays the rollouts (``rollout=``), or None
        where they are the heuristic's or another policy's (set by a subclass or a test)."""
        prior = getattr(self.rollout_policy, "__self__", None)
        is_best = getattr(self.rollout_policy, "__func__", None) is PolicyPrior.best
        return prior.network if isinstance(prior, PolicyPrior) and is_best else None

    def world(self, game: Game, seed: int) -> Game:
        """One world to plan in: ``game`` with every hidden order resampled (the fair search
        sees only what the player may know)."""
        return determinized(game, seed)
