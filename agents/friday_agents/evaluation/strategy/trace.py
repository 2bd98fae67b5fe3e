"""One game replayed into the events a strategy analysis counts.

`trace_game` replays ``(level, seed, actions)`` through the engine and notes, decision
by decision, what the player chose. Every event is read off the engine's own state just
before the action that makes it (the offer, the legal actions, ``fight_total`` /
``fight_value``, the table, what a target ability is resolving), so nothing here restates a
rule:

- a **hazard choice**: of the two hazards offered, the one fought and the one discarded; at
  the end of a step, whether the single last hazard was fought or skipped;
- a **fight** against a hazard: how it ended (see `OUTCOMES`), with the life Robinson
  had when he ended it, how many points he was short and which cards the loss destroyed;
- a **destroyed card**: what it was and how it went (paid for with a lost fight, or a
  "destroy" ability), in which step;
- the **arrival at the pirates**: life, the knowledge cards still among Robinson's cards and
  the deck's make-up.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from friday_env import Game, Phase
from friday_env import actions as act
from friday_env.cards import DESTROY_COST, HAZARD_IDS, KEY, KIND, Ability, Kind
from friday_env.engine import PIRATES

#: How a fight against a hazard ended. "lost on purpose" is the first two losses: the player
#: ended the fight behind while a free card (``quit``) or a card for one life (``declined``)
#: could still have been drawn.
WON, QUIT, DECLINED, NO_DRAW, DIED = "won", "quit", "declined", "no draw", "died"
OUTCOMES = (WON, QUIT, DECLINED, NO_DRAW, DIED)
ON_PURPOSE = (QUIT, DECLINED)
#: Routes to the destroyed pile: life paid for a lost fight, or a "destroy" ability.
LOST_FIGHT, ABILITY = "lost fight", "ability"
GROUP_NAMES = {Kind.STARTING: "starting", Kind.AGING: "aging", Kind.HAZARD: "knowledge"}


def hazard_kind(key: str) -> str:
    """The hazard side of a hazard card's key, by its prefix: ``raft``, ``exploring``,
    ``further``, ``animals`` or ``cannibals``."""
    return key.partition("/")[0]


#: The five hazard sides, easiest first (the order of the card ids).
HAZARD_KINDS = tuple(dict.fromkeys(hazard_kind(KEY[c]) for c in HAZARD_IDS))


def card_name(card: int) -> str:
    """A fighting card's key, with aging cards marked (``aging/stupid``) so the starting
    and aging "distracted" stay apart."""
    key = KEY[card]
    return key if KIND[card] != Kind.AGING or "/" in key else f"aging/{key}"


@dataclass
class Fight:
    """A fight against a hazard: its step (0-2), hazard key and how it ended."""

    step: int
    hazard: str
    outcome: str
    life: int  # Robinson's life when he ended the fight (before paying for it)
    shortfall: int  # hazard value minus fighting points when ended behind, else 0
    destroyed: list[str] = field(default_factory=list)  # paid for by this loss
    spent: int = 0  # life points of the shortfall those destroys used

    @property
    def unused(self) -> int:
        """Points of the shortfall not spent on destroying (they are simply lost)."""
        return self.shortfall - self.spent

    @property
    def on_purpose(self) -> bool:
        return self.outcome in ON_PURPOSE


@dataclass
class Arrival:
    """Robinson as the pirates come: life and the make-up of his fighting cards."""

    life: int
    knowledge: list[str]
    starting: int
    aging: int


@dataclass
class Trace:
    """The events of one game (see the module docstring)."""

    level: int
    seed: int
    won: bool = False
    score: int = 0
    choices: list[tuple[int, str, str]] = field(default_factory=list)  # step, fought, skipped
    last_hazards: list[tuple[int, str, bool]] = field(default_factory=list)  # step, key, fought
    fights: list[Fight] = field(default_factory=list)
    # step, card, group, route
    destroyed: list[tuple[int, str, str, str]] = field(default_factory=list)
    acquired: list[str] = field(default_factory=list)
    pirates: Arrival | None = None


def trace_game(level: int, seed: int, actions: Sequence[int]) -> Trace:
    """Replay the game ``(level, seed, actions)`` and collect its events; raises
    [`IllegalActionError`][friday_env.errors.IllegalActionError] on an illegal action and
    ``ValueError`` if the actions stop before the game is over."""
    return trace_actions(Game.new(level, seed), actions)


def trace_actions(game: Game, actions: Sequence[int], to_the_end: bool = True) -> Trace:
    """Play ``actions`` on ``game`` (a new game, or a scenario) and collect their events.
    ``to_the_end``: the actions must end the game (``ValueError`` otherwise)."""
    trace = Trace(game.level, game.seed)
    for action in actions:
        if action not in game.legal_actions():
            game.apply(action)  # raises IllegalActionError, naming the legal actions
        if game.step == PIRATES and trace.pirates is None:
            trace.pirates = _arrival(game)
        ends_fight = game.phase == Phase.FIGHT and action == act.END_FIGHT
        ends_fight = ends_fight and game.step < PIRATES
        hazard = game.hazard
        _note(game, action, trace)
        game.apply(action)
        if ends_fight:
            _settle(trace, game, hazard)
    if to_the_end and not game.done:
        raise ValueError(
            f"game {game.level}/{game.seed} is not over after its {len(actions)} actions"
        )
    trace.won, trace.score = game.won, game.score()
    return trace


def _note(game: Game, action: int, trace: Trace) -> None:
    """Record what ``action`` is about to do in ``game`` (called before it is applied)."""
    phase = game.phase
    if phase == Phase.CHOOSE_HAZARD:
        chosen = action - act.CHOOSE_HAZARD_0
        trace.choices.append((game.step, KEY[game.offer[chosen]], KEY[game.offer[1 - chosen]]))
    elif phase == Phase.LAST_HAZARD:
        fought = action == act.FIGHT_LAST_HAZARD
        trace.last_hazards.append((game.step, KEY[game.offer[0]], fought))
    elif phase == Phase.FIGHT and action == act.END_FIGHT and game.step < PIRATES:
        trace.fights.append(_fight_end(game))
    elif phase == Phase.LOSS_DESTROY and action != act.FINISH_DESTROYING:
        card = game.table[action - act.DESTROY_0]
        trace.fights[-1].destroyed.append(card_name(card))
        trace.fights[-1].spent += DESTROY_COST[card]
        _destroyed(game, card, LOST_FIGHT, trace)
    elif phase == Phase.TARGET and game.resolving == Ability.DESTROY:
        _destroyed(game, game.table[action - act.TARGET_0], ABILITY, trace)


def _fight_end(game: Game) -> Fight:
    """The fight ``END_FIGHT`` is about to end, as the player leaves it (whether ending it
    cost the game is known once it is applied: `_settle`)."""
    total, value = game.fight_total(), game.fight_value()
    legal = game.legal_actions()
    if total >= value:
        outcome = WON
    elif act.DRAW_FREE in legal:
        outcome = QUIT
    elif act.DRAW_PAID in legal:
        outcome = DECLINED
    else:
        outcome = NO_DRAW
    shortfall = max(0, value - total)
    return Fight(game.step, KEY[game.hazard], outcome, game.life, shortfall)


def _settle(trace: Trace, game: Game, hazard: int) -> None:
    """After a fight ended: ``died`` if paying for it ended the game, else a won hazard
    joins the acquired knowledge cards."""
    fight = trace.fights[-1]
    if game.done and not game.won:
        fight.outcome = DIED
    elif fight.outcome == WON:
        trace.acquired.append(KEY[hazard])


def _destroyed(game: Game, card: int, route: str, trace: Trace) -> None:
    trace.destroyed.append((game.step, card_name(card), GROUP_NAMES[KIND[card]], route))


def _arrival(game: Game) -> Arrival:
    cards = game.robinson_cards()
    return Arrival(
        life=game.life,
        knowledge=sorted(KEY[c] for c in cards if KIND[c] == Kind.HAZARD),
        starting=sum(1 for c in cards if KIND[c] == Kind.STARTING),
        aging=sum(1 for c in cards if KIND[c] == Kind.AGING),
    )
