"""Card data of *Friday*: every one of the 72 cards, as plain tables.

The card list, in words, is ``docs/cards.md``. Each *distinct* card has a stable string key
(listed there); each *physical* card has an integer id (0..68) used by the engine, so a pile
is a list of ints and copying a game is cheap. The three step cards carry no rules of their
own (the engine keeps the step as a number) but are listed so the data holds all 72 cards.

Ids are laid out by kind, in the order of `CARD_TYPES`:
starting cards 0..17, aging cards 18..28, hazard/knowledge cards 29..58, pirates 59..68.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum


class Kind(IntEnum):
    STEP = 0
    STARTING = 1
    AGING = 2
    HAZARD = 3  # a hazard card; its knowledge side is what Robinson fights with
    PIRATE = 4


class Ability(IntEnum):
    """Abilities of fighting cards. Aging abilities (the last four) act on their own."""

    NONE = 0
    LIFE_1 = 1  # +1 life
    LIFE_2 = 2  # +2 life
    CARDS_1 = 3  # +1 card
    CARDS_2 = 4  # +2 cards
    DESTROY = 5  # 1x destroy
    DOUBLE = 6  # 1x double
    COPY = 7  # 1x copy
    STEP_DOWN = 8  # step -1
    SORT_3 = 9  # sort 3 cards
    EXCHANGE_1 = 10  # 1x exchange
    EXCHANGE_2 = 11  # 2x exchange
    BELOW = 12  # 1x below the pile
    # aging abilities: never chosen, applied by the rules
    HIGHEST_ZERO = 13  # highest card = 0
    LOSE_LIFE_1 = 14  # -1 life
    LOSE_LIFE_2 = 15  # -2 life
    STOP = 16  # stop


ABILITY_NAMES = {
    Ability.NONE: "-",
    Ability.LIFE_1: "+1 life",
    Ability.LIFE_2: "+2 life",
    Ability.CARDS_1: "+1 card",
    Ability.CARDS_2: "+2 cards",
    Ability.DESTROY: "1x destroy",
    Ability.DOUBLE: "1x double",
    Ability.COPY: "1x copy",
    Ability.STEP_DOWN: "step -1",
    Ability.SORT_3: "sort 3 cards",
    Ability.EXCHANGE_1: "1x exchange",
    Ability.EXCHANGE_2: "2x exchange",
    Ability.BELOW: "1x below the pile",
    Ability.HIGHEST_ZERO: "highest card = 0",
    Ability.LOSE_LIFE_1: "-1 life",
    Ability.LOSE_LIFE_2: "-2 life",
    Ability.STOP: "stop",
}

#: Abilities a player uses by choice (and so may copy, R14). Copy itself is excluded from
#: what copy may copy: a copy copying a copy could chain forever (docs/rulings.md, D03).
PLAYER_ABILITIES = frozenset(range(Ability.LIFE_1, Ability.BELOW + 1))
COPYABLE_ABILITIES = PLAYER_ABILITIES - {Ability.COPY}


class PirateSpecial(IntEnum):
    NONE = 0
    TWO_LIFE_PER_CARD = 1  # each additional fighting card costs 2 life points
    HALF_COUNT = 2  # only half of the fighting cards count
    PLUS_ONE_PER_CARD = 3  # each drawn fighting card counts +1
    PLUS_TWO_PER_AGING = 4  # +2 hazard points per aging card added
    ALL_HAZARDS = 5  # fight against all remaining hazard cards


@dataclass(frozen=True)
class CardType:
    """One distinct card. ``value`` and ``ability`` are the fighting side (knowledge side
    for hazard cards); ``free`` and ``hazard_values`` are the hazard or pirate side."""

    key: str
    kind: Kind
    title: str
    count: int
    value: int = 0
    ability: Ability = Ability.NONE
    difficult: bool = False  # aging cards: in the difficult part of the aging stack
    free: int = 0
    hazard_values: tuple[int, ...] = ()  # green/yellow/red for hazards, (value,) for pirates
    hazard_title: str = ""
    special: PirateSpecial = PirateSpecial.NONE

    @property
    def destroy_cost(self) -> int:
        """Life points to destroy this card after a lost fight (R20)."""
        return 2 if self.kind == Kind.AGING else 1

    @property
    def score_value(self) -> int:
        """What the card is worth at scoring (R25): aging cards count -5."""
        return -5 if self.kind == Kind.AGING else self.value


def _starting(key: str, value: int, count: int, ability: Ability = Ability.NONE) -> CardType:
    return CardType(key, Kind.STARTING, key, count, value, ability)


def _aging(
    key: str, title: str, value: int, ability: Ability = Ability.NONE, difficult: bool = False
) -> CardType:
    count = 2 if title in ("stupid", "scared") else 1
    return CardType(key, Kind.AGING, title, count, value, ability, difficult)


_HAZARD_SIDES = {
    # prefix: (hazard title, free cards, green/yellow/red values)
    "raft": ("With the raft to the wreck", 1, (0, 1, 3)),
    "exploring": ("Exploring the island", 2, (1, 3, 6)),
    "further": ("Further exploring the island", 3, (2, 5, 8)),
    "animals": ("Wild animals", 4, (4, 7, 11)),
    "cannibals": ("Cannibals", 5, (5, 9, 14)),
}


def _hazard(prefix: str, title: str, value: int, ability: Ability, count: int) -> CardType:
    hazard_title, free, values = _HAZARD_SIDES[prefix]
    return CardType(
        f"{prefix}/{title}",
        Kind.HAZARD,
        title,
        count,
        value,
        ability,
        free=free,
        hazard_values=values,
        hazard_title=hazard_title,
    )


def _pirate(key: str, free: int, value: int, special: PirateSpecial, title: str) -> CardType:
    return CardType(
        f"pirate/{key}",
        Kind.PIRATE,
        title,
        1,
        free=free,
        hazard_values=(value,),
        hazard_title=title,
        special=special,
    )


A = Ability
P = PirateSpecial

#: Every distinct card, in id order. Counts add up to 72.
CARD_TYPES: tuple[CardType, ...] = (
    CardType("step/green", Kind.STEP, "green step", 1),
    CardType("step/yellow", Kind.STEP, "yellow step", 1),
    CardType("step/red", Kind.STEP, "red step", 1),
    # starting cards (18); destroying one costs 1 life
    _starting("genius", 2, 1),
    _starting("focused", 1, 3),
    _starting("weak", 0, 8),
    _starting("eating", 0, 1, A.LIFE_2),
    _starting("distracted", -1, 5),
    # aging cards (11); destroying one costs 2 life
    _aging("aging/distracted", "distracted", -1),
    _aging("stupid", "stupid", -2),
    _aging("very stupid", "very stupid", -3),
    _aging("scared", "scared", 0, A.HIGHEST_ZERO),
    _aging("hungry", "hungry", 0, A.LOSE_LIFE_1),
    _aging("very tired", "very tired", 0, A.STOP),
    _aging("moronic", "moronic", -4, difficult=True),
    _aging("suicidal", "suicidal", -5, difficult=True),
    _aging("very hungry", "very hungry", 0, A.LOSE_LIFE_2, difficult=True),
    # hazard/knowledge cards (30)
    _hazard("raft", "food", 0, A.LIFE_1, 2),
    _hazard("raft", "equipment", 0, A.CARDS_2, 2),
    _hazard("raft", "strategy", 0, A.EXCHANGE_2, 2),
    _hazard("raft", "realization", 0, A.DESTROY, 1),
    _hazard("raft", "deception", 0, A.BELOW, 1),
    _hazard("raft", "mimicry", 0, A.COPY, 1),
    _hazard("raft", "books", 0, A.STEP_DOWN, 1),
    _hazard("exploring", "food", 1, A.LIFE_1, 2),
    _hazard("exploring", "weapon", 2, A.NONE, 2),
    _hazard("exploring", "realization", 1, A.DESTROY, 1),
    _hazard("exploring", "deception", 1, A.BELOW, 1),
    _hazard("exploring", "mimicry", 1, A.COPY, 1),
    _hazard("exploring", "repeat", 1, A.DOUBLE, 1),
    _hazard("further", "food", 2, A.LIFE_1, 1),
    _hazard("further", "realization", 2, A.DESTROY, 1),
    _hazard("further", "strategy", 2, A.EXCHANGE_1, 1),
    _hazard("further", "experience", 2, A.CARDS_1, 1),
    _hazard("further", "repeat", 2, A.DOUBLE, 1),
    _hazard("further", "vision", 2, A.SORT_3, 1),
    _hazard("animals", "realization", 3, A.DESTROY, 1),
    _hazard("animals", "vision", 3, A.SORT_3, 1),
    _hazard("animals", "experience", 3, A.CARDS_1, 1),
    _hazard("animals", "strategy", 3, A.EXCHANGE_1, 1),
    _hazard("cannibals", "weapon", 4, A.NONE, 2),
    # pirates (10)
    _pirate("20", 6, 20, P.NONE, "pirate (6 free, 20)"),
    _pirate("25", 7, 25, P.NONE, "pirate (7 free, 25)"),
    _pirate("30", 8, 30, P.NONE, "pirate (8 free, 30)"),
    _pirate("35", 9, 35, P.NONE, "pirate (9 free, 35)"),
    _pirate("40", 10, 40, P.NONE, "pirate (10 free, 40)"),
    _pirate("two-life", 7, 16, P.TWO_LIFE_PER_CARD, "each additional card costs 2 life"),
    _pirate("half", 9, 22, P.HALF_COUNT, "only half of the fighting cards count"),
    _pirate("plus-one", 10, 52, P.PLUS_ONE_PER_CARD, "each fighting card counts +1"),
    _pirate("aging", 5, 0, P.PLUS_TWO_PER_AGING, "+2 per aging card added"),
    _pirate("all-hazards", 0, 0, P.ALL_HAZARDS, "fight all remaining hazards"),
)

TYPE_BY_KEY: dict[str, int] = {t.key: i for i, t in enumerate(CARD_TYPES)}
NUM_TYPES = len(CARD_TYPES)
#: Distinct fighting-card types (starting, aging, knowledge): the index space of the
#: card-count vectors in observations.
FIGHTING_TYPES: tuple[int, ...] = tuple(
    i for i, t in enumerate(CARD_TYPES) if t.kind in (Kind.STARTING, Kind.AGING, Kind.HAZARD)
)
PIRATE_TYPES: tuple[int, ...] = tuple(i for i, t in enumerate(CARD_TYPES) if t.kind == Kind.PIRATE)


def _physical_cards() -> list[int]:
    """Type index of every physical card, step cards excluded."""
    return [i for i, t in enumerate(CARD_TYPES) if t.kind != Kind.STEP for _ in range(t.count)]


#: ``CARD_TYPE[card_id]`` is the type index of a physical card.
CARD_TYPE: tuple[int, ...] = tuple(_physical_cards())
NUM_CARDS = len(CARD_TYPE)  # 69 physical cards the engine moves around

# Flat per-card lookup tables: the engine's hot paths index these by card id.
KIND: tuple[Kind, ...] = tuple(CARD_TYPES[t].kind for t in CARD_TYPE)
VALUE: tuple[int, ...] = tuple(CARD_TYPES[t].value for t in CARD_TYPE)
ABILITY: tuple[Ability, ...] = tuple(CARD_TYPES[t].ability for t in CARD_TYPE)
DESTROY_COST: tuple[int, ...] = tuple(CARD_TYPES[t].destroy_cost for t in CARD_TYPE)
SCORE_VALUE: tuple[int, ...] = tuple(CARD_TYPES[t].score_value for t in CARD_TYPE)
FREE: tuple[int, ...] = tuple(CARD_TYPES[t].free for t in CARD_TYPE)
HAZARD_VALUES: tuple[tuple[int, ...], ...] = tuple(CARD_TYPES[t].hazard_values for t in CARD_TYPE)
SPECIAL: tuple[PirateSpecial, ...] = tuple(CARD_TYPES[t].special for t in CARD_TYPE)
IS_AGING: tuple[bool, ...] = tuple(k == Kind.AGING for k in KIND)
#: Aging cards of the difficult part of the aging stack (below the normal ones, R24).
DIFFICULT: tuple[bool, ...] = tuple(CARD_TYPES[t].difficult for t in CARD_TYPE)
KEY: tuple[str, ...] = tuple(CARD_TYPES[t].key for t in CARD_TYPE)


def ids_of_kind(kind: Kind) -> list[int]:
    return [c for c in range(NUM_CARDS) if KIND[c] == kind]


STARTING_IDS = ids_of_kind(Kind.STARTING)
AGING_IDS = ids_of_kind(Kind.AGING)
HAZARD_IDS = ids_of_kind(Kind.HAZARD)
PIRATE_IDS = ids_of_kind(Kind.PIRATE)
VERY_STUPID_ID = next(c for c in AGING_IDS if KEY[c] == "very stupid")

#: Most fighting cards that can ever be on the table at once: every one of them.
MAX_TABLE_CARDS = len(STARTING_IDS) + len(AGING_IDS) + len(HAZARD_IDS)


def type_index(key: str) -> int:
    """Type index of a card key; raises ``KeyError`` with the known keys listed."""
    try:
        return TYPE_BY_KEY[key]
    except KeyError:
        known = ", ".join(t.key for t in CARD_TYPES if t.kind != Kind.STEP)
        raise KeyError(f"unknown card key {key!r}; known keys: {known}") from None


def card_label(card: int) -> str:
    """Short readable label: key, value and ability, e.g. ``further/vision (2, sort 3 cards)``."""
    ability = ABILITY[card]
    if KIND[card] == Kind.PIRATE:
        return KEY[card]
    extra = "" if ability == Ability.NONE else f", {ABILITY_NAMES[ability]}"
    return f"{KEY[card]} ({VALUE[card]}{extra})"
