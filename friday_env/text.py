"""The game as text: one formatter for the situation a player sees (open information, R26),
used by ``render_mode="ansi"``/``"human"``, the golden playthroughs, ``friday play`` and the
labels of the rgb picture. Actions are named by
[`friday_env.actions.describe_action`][friday_env.actions.describe_action].

[`situation`][friday_env.text.situation] is the state in a few lines (step, life, the hazard and its
value, the table with values and flags, the piles and what is known of the Robinson stack);
[`render_text`][friday_env.text.render_text] adds the pending decision and the legal actions.
"""

from __future__ import annotations

from collections.abc import Sequence

from friday_env.actions import PHASE_NAMES, Phase
from friday_env.cards import (
    ABILITY,
    ABILITY_NAMES,
    CARD_TYPE,
    CARD_TYPES,
    FREE,
    HAZARD_VALUES,
    KEY,
    KIND,
    SPECIAL,
    Ability,
    Kind,
    PirateSpecial,
    card_label,
)
from friday_env.core import Game
from friday_env.engine import DOUBLED, DOWN, LEFT, PIRATES, STEP_NAMES, USED
from friday_env.information import known_top_cards, unseen_aging_count


def ability_text(card: int) -> str:
    """The ability printed on a card, or "" for none."""
    return "" if ABILITY[card] == Ability.NONE else ABILITY_NAMES[ABILITY[card]]


def pirate_rule(card: int) -> str:
    """A pirate's special rule as the card and docs/cards.md word it (its title, e.g. "each
    additional card costs 2 life"), or "" for a pirate without one and for other cards."""
    if KIND[card] != Kind.PIRATE or SPECIAL[card] == PirateSpecial.NONE:
        return ""
    return CARD_TYPES[CARD_TYPE[card]].title


def flag_text(flags: int) -> str:
    """A table slot's flags in words: its side, then used, doubled, face down."""
    words = ["left" if flags & LEFT else "right"]
    words += [word for bit, word in ((USED, "used"), (DOUBLED, "doubled"), (DOWN, "face down"))
              if flags & bit]  # fmt: skip
    return ", ".join(words)


def hazard_text(game: Game, card: int) -> str:
    """An offered hazard or a pirate with what beating it takes, e.g.
    ``raft/food: 1 free, value 0``."""
    if KIND[card] == Kind.PIRATE:
        value = game.pirate_value if card == game.hazard else HAZARD_VALUES[card][0]
        rule = pirate_rule(card)
        special = f" ({rule})" if rule else ""
        return f"{KEY[card]}{special}: {FREE[card]} free, value {value}"
    step = min(game.step, 2)
    return f"{KEY[card]}: {FREE[card]} free, value {HAZARD_VALUES[card][step]}"


def hazard_line(game: Game) -> str:
    """The hazard or pirate fought: printed values, the value to reach, free draws."""
    card = game.hazard
    free = f"{game.free_total} free ({game.free_used} used)"
    if game.step == PIRATES:
        rule = pirate_rule(card)
        special = f" ({rule})" if rule else ""
        return f"pirate {KEY[card]}{special}: value {game.fight_value()}, {free}"
    lowered = f", step -1 x{game.step_down}" if game.step_down else ""
    printed = "/".join(str(v) for v in HAZARD_VALUES[card])
    return f"hazard {KEY[card]} (values {printed}{lowered}): value {game.fight_value()}, {free}"


def table_lines(game: Game) -> list[str]:
    """The table, one line a slot (card, flags, current value), then the totals."""
    if not game.table:
        return ["table: empty"]
    values = game.card_values()
    lines = ["table:"]
    for slot, card in enumerate(game.table):
        label = card_label(card)
        lines.append(
            f"  {slot:>2}  {label:<46} {flag_text(game.flags[slot]):<24} counts {values[slot]}"
        )
    lines.append(f"  total {game.fight_total()} against {game.fight_value()}")
    return lines


def piles_lines(game: Game) -> list[str]:
    """The piles in two lines: Robinson's (with the known top), then the hazards'."""
    known = ", ".join(KEY[c] for c in known_top_cards(game)) or "-"
    unseen_count = unseen_aging_count(game)
    unseen = f", {unseen_count} unseen aging" if unseen_count else ""
    return [
        f"robinson stack {len(game.stack)} (known top: {known}{unseen}) | "
        f"discard {len(game.discard)} | aging stack {len(game.aging)} | "
        f"destroyed {len(game.destroyed)}",
        f"hazard stack {len(game.hazard_stack)} | hazard discard {len(game.hazard_discard)} | "
        f"pirates {', '.join(KEY[c] for c in game.pirates) or '-'}"
        + (f" | beaten {', '.join(KEY[c] for c in game.beaten)}" if game.beaten else ""),
    ]


def decision_lines(game: Game) -> list[str]:
    """What the pending decision is about, beyond the table."""
    phase = game.phase
    if phase in (Phase.SORT_TAKE, Phase.SORT_DISCARD, Phase.SORT_ORDER):
        return ["sorting: " + ", ".join(KEY[c] for c in game.sort_taken)]
    if phase == Phase.LOSS_DESTROY:
        return [f"lost: {game.budget} point(s) to destroy cards with (R20)"]
    if phase == Phase.TARGET:
        source = game.table[game.source]
        return [f"resolving {card_label(source)} from slot {game.source}"]
    return []


def situation(game: Game) -> list[str]:
    """The state as the player sees it, a few lines."""
    lines = [
        f"step {STEP_NAMES[game.step]} | life {game.life}, reserve {game.reserve} | "
        f"fights done {game.fights}"
    ]
    if game.hazard >= 0:
        lines.append(hazard_line(game))
        lines += table_lines(game)
    lines += decision_lines(game)
    lines += piles_lines(game)
    return lines


def legal_lines(game: Game, legal: Sequence[int]) -> list[str]:
    """Each legal action with its id and its name in context."""
    return [f"  {a:>3}  {game.describe(a)}" for a in legal]


def result_line(game: Game) -> str:
    """How a finished game ended."""
    return f"game over: {'won' if game.won else 'lost'}, score {game.score()} (R25)"


def render_text(game: Game, legal: Sequence[int] | None = None, last_action: str = "") -> str:
    """The situation, the last action, then the pending decision and its legal actions
    (``render_mode="ansi"``)."""
    legal = game.legal_actions() if legal is None else legal
    lines = [f"Friday level {game.level} | score {game.score()}", *situation(game)]
    if last_action:
        lines.append(f"last: {last_action}")
    if game.done:
        lines.append(result_line(game))
    else:
        lines.append(f"decision: {PHASE_NAMES[game.phase]}")
        if game.phase == Phase.CHOOSE_PIRATE:  # their values: the names alone do not say
            lines += [f"  pirate {k}: {hazard_text(game, c)}" for k, c in enumerate(game.pirates)]
        lines += legal_lines(game, legal)
    return "\n".join(lines) + "\n"
