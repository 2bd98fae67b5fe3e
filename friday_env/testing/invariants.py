"""Invariants of the engine: what every reachable state must satisfy, whatever was played.

The tests and the soak run (`friday_env.testing.soak`) call `check_state` after every
action of many random games, and `check_transition` between consecutive states. A
broken invariant raises `InvariantViolation` naming each broken rule and how to
reproduce the game (its origin and action list).

The checks are written from the rules and the card data, not from the engine's helpers:
the score is recomputed from where the cards lie (R25), card costs and kinds come from
``CARD_TYPES``, and the legal actions are checked against what the pending decision allows.
An engine bug then has to be made twice, the same way, to slip through.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from friday_env.actions import FIGHT_PHASES, PHASE_ACTIONS, Phase
from friday_env.actions import codec as act
from friday_env.cards import (
    CARD_TYPE,
    CARD_TYPES,
    NUM_CARDS,
    Ability,
    Kind,
    PirateSpecial,
)
from friday_env.core import Game
from friday_env.engine import DOUBLED, DOWN, LEFT, PIRATES, USED
from friday_env.information import stack_known_cards, unseen_aging_count

# Per physical card, from the card types (independent of the engine's own lookup tables).
_TYPES = [CARD_TYPES[CARD_TYPE[c]] for c in range(NUM_CARDS)]
_KIND = [t.kind for t in _TYPES]
_ABILITY = [t.ability for t in _TYPES]
_DIFFICULT = [t.difficult for t in _TYPES]
_VERY_STUPID = next(c for c in range(NUM_CARDS) if _TYPES[c].key == "very stupid")
_CHOSEN_ABILITIES = {a for a in Ability if Ability.LIFE_1 <= a <= Ability.BELOW}
_ALL_FLAGS = LEFT | USED | DOWN | DOUBLED

#: Decisions whose legal list is always the same two actions.
_FIXED_LEGAL = {
    Phase.CHOOSE_HAZARD: [act.CHOOSE_HAZARD_0, act.CHOOSE_HAZARD_1],
    Phase.LAST_HAZARD: [act.FIGHT_LAST_HAZARD, act.SKIP_LAST_HAZARD],
    Phase.DRAW_MORE: [act.DRAW_ANOTHER, act.STOP_DRAWING],
    Phase.SORT_TAKE: [act.SORT_TAKE, act.SORT_STOP_TAKING],
}


class InvariantViolation(AssertionError):
    """A reachable state broke an invariant: an engine bug, never bad input."""


def token_total(level: int) -> int:
    """``life + reserve`` for the whole game (R01): 22, or 20 on level 4."""
    return 20 if level == 4 else 22


def card_worth(card: int) -> int:
    """A card's worth at scoring (R25): its fighting value, -5 for an aging card, 0 for a
    pirate (not a fighting card)."""
    if _KIND[card] == Kind.PIRATE:
        return 0
    return -5 if _KIND[card] == Kind.AGING else _TYPES[card].value


_WORTH = [card_worth(c) for c in range(NUM_CARDS)]
_ALL_WORTH = sum(_WORTH)


def expected_score(game: Game) -> int:
    """R25 recomputed from where the cards lie: Robinson's cards are every fighting card
    that is neither out of the game, nor destroyed, nor face down, nor still a hazard
    (hazard stack, hazard discard, offer, the hazard fought) nor still an aging card
    waiting in the aging stack."""
    not_robinsons = set(game.box) | set(game.destroyed) | set(game.aging)
    not_robinsons |= set(game.hazard_stack) | set(game.hazard_discard) | set(game.offer)
    if game.hazard >= 0:
        not_robinsons.add(game.hazard)
    not_robinsons |= {c for c, f in zip(game.table, game.flags, strict=False) if f & DOWN}
    points = _ALL_WORTH - sum(_WORTH[c] for c in not_robinsons)
    points += 15 * len(game.beaten) - 3 * len(game.hazard_discard)
    if game.won:
        points += 5 * game.life
    return points


# ---------------------------------------------------------------- state checks


def _card_places(game: Game) -> list[tuple[str, list[int]]]:
    places = [
        ("stack", game.stack),
        ("discard", game.discard),
        ("hazard_stack", game.hazard_stack),
        ("hazard_discard", game.hazard_discard),
        ("aging", game.aging),
        ("destroyed", game.destroyed),
        ("box", game.box),
        ("pirates", game.pirates),
        ("beaten", game.beaten),
        ("offer", game.offer),
        ("table", game.table),
        ("sort_taken", game.sort_taken),
    ]
    if game.hazard >= 0 and game.step < PIRATES:  # a pirate being fought stays in `pirates`
        places.append(("hazard", [game.hazard]))
    return places


def _check_cards(game: Game) -> list[str]:
    """Every physical card lies in exactly one place."""
    places = _card_places(game)
    counts = [0] * NUM_CARDS
    try:
        for _, cards in places:
            for card in cards:
                counts[card] += 1
    except (IndexError, TypeError):
        pass  # a bad id: the detailed pass below names it
    else:
        if counts.count(1) == NUM_CARDS:
            return []
    return _card_place_problems(game, places)


def _card_place_problems(game: Game, places: list[tuple[str, list[int]]]) -> list[str]:
    where: list[list[str]] = [[] for _ in range(NUM_CARDS)]
    problems = []
    for name, cards in places:
        for card in cards:
            if isinstance(card, int) and 0 <= card < NUM_CARDS:
                where[card].append(name)
            else:
                problems.append(f"{name} holds {card!r}, not a card id")
    for card, found in enumerate(where):
        if len(found) != 1:
            problems.append(f"card {card} ({_TYPES[card].key}) is in {found or 'no place'}")
    return problems


def _check_piles(game: Game) -> list[str]:
    """Each pile holds only the kinds of card it can hold."""
    problems = []
    robinson_kinds = (Kind.STARTING, Kind.AGING, Kind.HAZARD)
    for name, cards, kinds in (
        ("stack", game.stack, robinson_kinds),
        ("discard", game.discard, robinson_kinds),
        ("table", game.table, robinson_kinds),
        ("sort_taken", game.sort_taken, robinson_kinds),
        ("destroyed", game.destroyed, robinson_kinds),
        ("hazard_stack", game.hazard_stack, (Kind.HAZARD,)),
        ("hazard_discard", game.hazard_discard, (Kind.HAZARD,)),
        ("offer", game.offer, (Kind.HAZARD,)),
        ("aging", game.aging, (Kind.AGING,)),
        ("pirates", game.pirates, (Kind.PIRATE,)),
        ("beaten", game.beaten, (Kind.PIRATE,)),
    ):
        wrong = [c for c in cards if 0 <= c < NUM_CARDS and _KIND[c] not in kinds]
        if wrong:
            problems.append(f"{name} holds cards of the wrong kind: {wrong}")
    if len(game.pirates) + len(game.beaten) != 2:
        problems.append(f"{len(game.pirates)} pirates + {len(game.beaten)} beaten != 2")
    if game.level <= 2 and _VERY_STUPID not in game.box:
        problems.append(f"'very stupid' is in play at level {game.level} (R24)")
    if "scenario" not in game.origin and _difficult_above_normal(game.aging):
        problems.append(f"a difficult aging card lies above a normal one: {game.aging}")
    return problems


def _difficult_above_normal(aging: list[int]) -> bool:
    seen_normal = False
    for card in aging:  # bottom first
        if not _DIFFICULT[card]:
            seen_normal = True
        elif seen_normal:
            return True
    return False


def _check_counters(game: Game) -> list[str]:
    """Tokens are conserved (R01, D07) and no count is negative."""
    problems = []
    total = token_total(game.level)
    if game.life + game.reserve != total:
        problems.append(f"life {game.life} + reserve {game.reserve} != {total} (R01)")
    for name in (
        "life", "reserve", "budget", "free_used", "free_total", "step_down", "known_top",
        "sort_placed", "exchanges_left", "shuffles", "fights", "pirate_value",
    ):  # fmt: skip
        if getattr(game, name) < 0:
            problems.append(f"{name} is negative: {getattr(game, name)}")
    if not 0 <= game.step <= PIRATES:
        problems.append(f"step {game.step} is not 0..3")
    if game.hazard >= 0 and game.free_used > game.free_total:
        problems.append(f"{game.free_used} free draws used of {game.free_total}")
    if game.hazard >= 0 and game.step < PIRATES and game.step_down > game.step:
        problems.append(f"step -1 used {game.step_down} times in step {game.step}")
    return problems


def _check_table(game: Game) -> list[str]:
    """Table slots carry consistent flags; left-side cards are exactly the free draws used."""
    problems = []
    if len(game.table) != len(game.flags):
        return [f"{len(game.table)} table cards but {len(game.flags)} flags"]
    for slot, (card, flags) in enumerate(zip(game.table, game.flags, strict=True)):
        if flags & ~_ALL_FLAGS:
            problems.append(f"slot {slot} has unknown flags {flags}")
        if flags & USED and _ABILITY[card] not in _CHOSEN_ABILITIES:
            problems.append(f"slot {slot} ({_TYPES[card].key}) is used but has no such ability")
    problems += _check_spent(game)
    if game.hazard >= 0:
        left = sum(1 for f in game.flags if f & LEFT)
        if left != game.free_used:
            problems.append(f"{left} cards on the left but {game.free_used} free draws used")
    elif game.table:
        problems.append(f"cards on the table outside a fight: {game.table}")
    return problems


def _check_spent(game: Game) -> list[str]:
    """D11: a table card is turned (used) exactly when its ability was used in this fight,
    even if it left the table and came back."""
    spent = game.spent
    if game.hazard < 0:
        return []
    problems = []
    if len(set(spent)) != len(spent):
        problems.append(f"an ability is spent twice in one fight: {spent}")
    for slot, (card, flags) in enumerate(zip(game.table, game.flags, strict=True)):
        if bool(flags & USED) != (card in spent):
            problems.append(
                f"slot {slot} ({_TYPES[card].key}) used={bool(flags & USED)} but "
                f"spent={card in spent} (D11)"
            )
    return problems


def _check_phase_state(game: Game) -> list[str]:
    """What lies where must fit the pending decision."""
    problems = []
    phase = game.phase
    offer_size = {Phase.CHOOSE_HAZARD: 2, Phase.LAST_HAZARD: 1}.get(phase, 0)
    if len(game.offer) != offer_size:
        problems.append(f"{len(game.offer)} hazards offered in {phase.name}")
    fighting = phase in FIGHT_PHASES
    if fighting and game.hazard < 0:
        problems.append(f"{phase.name} without a hazard")
    if not fighting and phase != Phase.GAME_OVER and game.hazard >= 0:
        problems.append(f"a hazard ({game.hazard}) is fought in {phase.name}")
    if (phase == Phase.CHOOSE_PIRATE) != (
        game.step == PIRATES and game.hazard < 0 and not game.done
    ):
        problems.append(f"{phase.name} in step {game.step} with hazard {game.hazard}")
    if game.hazard >= 0 and game.step == PIRATES and game.hazard not in game.pirates:
        problems.append(f"the pirate fought ({game.hazard}) is not among the pirates")
    if game.step == PIRATES and (game.hazard_stack or game.offer):
        problems.append("hazards still drawn at the pirates")
    if (phase == Phase.LOSS_DESTROY) != (game.budget > 0):
        problems.append(f"destroy budget {game.budget} in {phase.name}")
    problems += _check_sort_state(game)
    problems += _check_end_state(game)
    if phase == Phase.TARGET:
        problems += _check_target_state(game)
    return problems


def _check_sort_state(game: Game) -> list[str]:
    n = len(game.sort_taken)
    low, high = {
        Phase.SORT_TAKE: (1, 2),
        Phase.SORT_DISCARD: (1, 3),
        Phase.SORT_ORDER: (2, 3),
    }.get(game.phase, (0, 0))
    problems = []
    if not low <= n <= high:
        problems.append(f"{n} cards taken by sort 3 in {game.phase.name}")
    if game.sort_placed and game.phase != Phase.SORT_ORDER:
        problems.append(f"sort_placed {game.sort_placed} outside SORT_ORDER")
    return problems


def _check_target_state(game: Game) -> list[str]:
    if not 0 <= game.source < len(game.table):
        return [f"resolving from slot {game.source} of {len(game.table)}"]
    problems = []
    if not game.flags[game.source] & USED or game.flags[game.source] & DOWN:
        problems.append(f"the resolving slot {game.source} is not a used face-up card")
    if game.resolving not in (
        Ability.DESTROY, Ability.DOUBLE, Ability.COPY, Ability.EXCHANGE_1,
        Ability.EXCHANGE_2, Ability.BELOW,
    ):  # fmt: skip
        problems.append(f"choosing a target for {game.resolving!r}")
    if game.exchanges_left not in (1, 2):
        problems.append(f"{game.exchanges_left} exchanges left while choosing a target")
    return problems


def _check_end_state(game: Game) -> list[str]:
    problems = []
    if game.won and not game.done:
        problems.append("won before the game is over")
    if game.won and (game.pirates or game.hazard >= 0 or len(game.beaten) != 2):
        problems.append(f"won with pirates {game.pirates} left, beaten {game.beaten}")
    if game.done != (game.phase == Phase.GAME_OVER):
        problems.append(f"done is {game.done} in {game.phase.name}")
    return problems


def _check_information(game: Game) -> list[str]:
    """R26, D09: the known top lies within the stack; unseen aging cards lie below it; the
    open view of the stack ([`friday_env.information`][friday_env.information]) accounts for every
    card."""
    problems = []
    if game.known_top > len(game.stack):
        problems.append(f"known_top {game.known_top} > stack size {len(game.stack)}")
    hidden = set(game.stack[: len(game.stack) - game.known_top])
    for card in game.unseen:
        if _KIND[card] != Kind.AGING:
            problems.append(f"unseen card {card} is not an aging card")
        if card not in hidden:
            problems.append(f"unseen aging card {card} is not in the hidden part of the stack")
    if len(set(game.unseen)) != len(game.unseen):
        problems.append(f"unseen lists a card twice: {game.unseen}")
    named = len(stack_known_cards(game)) + unseen_aging_count(game)
    if named != len(game.stack):
        problems.append(f"the open view names {named} of {len(game.stack)} stack cards")
    return problems


def _check_pirate_value(game: Game) -> list[str]:
    """A pirate with a printed value fights with exactly that value (R23)."""
    if game.step != PIRATES or game.hazard < 0:
        return []
    pirate = _TYPES[game.hazard]
    if pirate.special in (PirateSpecial.PLUS_TWO_PER_AGING, PirateSpecial.ALL_HAZARDS):
        return []
    if game.pirate_value != pirate.hazard_values[0]:
        return [f"{pirate.key} fought with value {game.pirate_value}"]
    return []


def _check_score(game: Game) -> list[str]:
    expected, got = expected_score(game), game.score()
    return [] if expected == got else [f"score() is {got}, R25 gives {expected}"]


# ---------------------------------------------------------------- legal actions


def _check_legal(game: Game) -> list[str]:
    """The legal list: sorted, unique, empty exactly at the end, fitting the decision."""
    legal = list(game.legal_actions())
    phase = game.phase
    if legal != sorted(set(legal)):
        return [f"legal actions not sorted and unique: {legal}"]
    if not legal and not game.done:
        return [f"no legal action in {phase.name} before the end"]
    if game.done and legal:
        return [f"legal actions {legal} after the game is over"]
    outside = [a for a in legal if a not in PHASE_ACTIONS[phase]]
    if outside:
        names = [act.action_name(a) for a in outside]
        return [f"actions {outside} offered in {phase.name}: {names}"]
    if phase in _FIXED_LEGAL and legal != _FIXED_LEGAL[phase]:
        return [f"{phase.name} offers {legal}, not {_FIXED_LEGAL[phase]}"]
    check = _LEGAL_CHECKS.get(phase)
    return check(game, legal) if check else []


def _legal_choose_pirate(game: Game, legal: list[int]) -> list[str]:
    expected = [act.CHOOSE_PIRATE_0 + i for i in range(len(game.pirates))]
    return [] if legal == expected else [f"pirate choice {legal} with pirates {game.pirates}"]


def _legal_fight(game: Game, legal: list[int]) -> list[str]:
    problems = []
    can_draw = bool(game.stack or game.discard or game.aging)
    if act.DRAW_FREE in legal and act.DRAW_PAID in legal:
        problems.append("a free and a paid draw offered together (R05)")
    if act.DRAW_FREE in legal and game.free_used >= game.free_total:
        problems.append(f"free draw offered with {game.free_used}/{game.free_total} used")
    if (act.DRAW_FREE in legal or act.DRAW_PAID in legal) and not can_draw:
        problems.append("a draw offered with no card anywhere (R08)")
    if act.DRAW_PAID in legal and game.life < game.paid_draw_cost():
        problems.append(f"paid draw offered with life {game.life} (R05)")
    may_end = bool(game.table) or not can_draw or not game.free_total  # R06, D01, D10
    if game.step < PIRATES and (act.END_FIGHT in legal) != may_end:
        problems.append(f"END_FIGHT legal={act.END_FIGHT in legal} with table {game.table} (R06)")
    pirate_end = game.step == PIRATES and act.END_FIGHT in legal
    if pirate_end and game.fight_total() < game.fight_value():
        problems.append("a pirate fight may end as a loss (R06)")
    for a in legal:
        if a >= act.USE_0:
            problems += _usable_slot(game, a - act.USE_0)
    return problems


def _usable_slot(game: Game, slot: int) -> list[str]:
    if slot >= len(game.table):
        return [f"use of empty slot {slot}"]
    card, flags = game.table[slot], game.flags[slot]
    if flags & (USED | DOWN) or _ABILITY[card] not in _CHOSEN_ABILITIES:
        return [f"use of slot {slot} ({_TYPES[card].key}, flags {flags}) offered (R09)"]
    return []


def _legal_target(game: Game, legal: list[int]) -> list[str]:
    problems = []
    for a in legal:
        if a == act.STOP_EXCHANGING:
            if game.resolving != Ability.EXCHANGE_2 or game.exchanges_left != 1:
                problems.append("stop exchanging offered outside a second exchange")
            continue
        slot = a - act.TARGET_0
        if slot >= len(game.table) or slot == game.source or game.flags[slot] & DOWN:
            problems.append(f"target slot {slot} offered from slot {game.source} (R10)")
    return problems


def _legal_sort(game: Game, legal: list[int]) -> list[str]:
    n = len(game.sort_taken)
    if game.phase == Phase.SORT_DISCARD:
        expected = [act.SORT_KEEP_ALL] + [act.SORT_DISCARD_0 + k for k in range(n)]
    else:
        expected = [act.SORT_PLACE_0 + k for k in range(n)]
    return [] if legal == expected else [f"{game.phase.name} offers {legal} for {n} cards"]


def _legal_loss_destroy(game: Game, legal: list[int]) -> list[str]:
    problems = []
    if act.FINISH_DESTROYING not in legal or len(legal) < 2:
        problems.append(f"destroy choice {legal} without finishing or anything to destroy (D06)")
    for a in legal:
        if a == act.FINISH_DESTROYING:
            continue
        slot = a - act.DESTROY_0
        if slot >= len(game.table) or game.flags[slot] & DOWN:
            problems.append(f"destroy of slot {slot} offered")
            continue
        cost = 2 if _KIND[game.table[slot]] == Kind.AGING else 1
        if cost > game.budget:
            problems.append(f"destroy of slot {slot} for {cost} offered with budget {game.budget}")
    return problems


_LEGAL_CHECKS: dict[Phase, Callable[[Game, list[int]], list[str]]] = {
    Phase.CHOOSE_PIRATE: _legal_choose_pirate,
    Phase.FIGHT: _legal_fight,
    Phase.TARGET: _legal_target,
    Phase.SORT_DISCARD: _legal_sort,
    Phase.SORT_ORDER: _legal_sort,
    Phase.LOSS_DESTROY: _legal_loss_destroy,
}

_STATE_CHECKS = (
    _check_cards,
    _check_piles,
    _check_counters,
    _check_table,
    _check_phase_state,
    _check_information,
    _check_pirate_value,
    _check_score,
    _check_legal,
)


# ---------------------------------------------------------------- public API


def violations(game: Game) -> list[str]:
    """Every invariant ``game`` breaks, as readable messages (empty if none)."""
    problems = []
    for check in _STATE_CHECKS:
        try:
            problems += check(game)
        except Exception as err:  # a state too broken to inspect is itself a violation
            problems.append(f"{check.__name__} could not inspect the state: {err!r}")
    return problems


def reproduction(game: Game) -> str:
    """How to rebuild ``game``: its origin and its actions."""
    return f"origin {game.origin}, actions {game.history}"


def check_state(game: Game) -> None:
    """Raise `InvariantViolation` if ``game`` breaks any invariant."""
    problems = violations(game)
    if problems:
        raise InvariantViolation(_message(game, problems))


@dataclass(frozen=True)
class Snapshot:
    """What `check_transition` compares across one action."""

    step: int
    fights: int
    shuffles: int
    actions: int
    destroyed: tuple[int, ...]
    beaten: tuple[int, ...]
    box: tuple[int, ...]

    @classmethod
    def of(cls, game: Game) -> Snapshot:
        return cls(
            game.step,
            game.fights,
            game.shuffles,
            len(game.history),
            tuple(game.destroyed),
            tuple(game.beaten),
            tuple(game.box),
        )


def transition_violations(before: Snapshot, game: Game, action: int) -> list[str]:
    """What one action may never do: go back a step, bring back a destroyed card or a beaten
    pirate, change what is out of the game, or record anything but the action played."""
    problems = []
    if game.step < before.step:
        problems.append(f"step went back from {before.step} to {game.step}")
    if game.fights < before.fights or game.shuffles < before.shuffles:
        problems.append("fights or shuffles went down")
    if len(game.history) != before.actions + 1 or game.history[-1] != action:
        problems.append(f"history does not end with the one action {action} played")
    if tuple(game.destroyed[: len(before.destroyed)]) != before.destroyed:
        problems.append("a destroyed card came back (R12)")
    if tuple(game.beaten[: len(before.beaten)]) != before.beaten:
        problems.append("a beaten pirate came back")
    if tuple(game.box) != before.box:
        problems.append("the cards out of the game changed")
    return problems


def check_transition(before: Snapshot, game: Game, action: int) -> None:
    """Raise `InvariantViolation` if playing ``action`` broke a transition rule."""
    problems = transition_violations(before, game, action)
    if problems:
        raise InvariantViolation(_message(game, problems))


def _message(game: Game, problems: list[str]) -> str:
    lines = "\n".join(f"  - {p}" for p in problems)
    return (
        f"{len(problems)} invariant(s) broken in phase {game.phase.name}:\n{lines}\n"
        f"  reproduce: {reproduction(game)}"
    )


__all__ = [
    "InvariantViolation",
    "Snapshot",
    "card_worth",
    "check_state",
    "check_transition",
    "expected_score",
    "reproduction",
    "token_total",
    "transition_violations",
    "violations",
]
