"""Open information (R26): what the player may know, and resampling what they may not.

This module is the one definition of open information: the observation encoders, the text
formatter, the invariants, the agents and [`determinized`][friday_env.information.determinized] read
the game through it.

The rulebook says Friday "is not a memory game": both discard piles, destroyed cards, the
counts of every stack and both pirates are open; so is the multiset of the Robinson stack,
except the identity of aging cards shuffled in unseen, and any order learned by sorting.
[`public_view`][friday_env.information.public_view] reports exactly that.
[`determinized`][friday_env.information.determinized] gives search agents a copy of the game in
which everything hidden has been resampled consistently with the public view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from friday_env.actions import Phase
from friday_env.cards import DIFFICULT, KEY
from friday_env.core import Game, check_seed, core_of
from friday_env.engine import STEP_NAMES, level_aging_cards, seed_from

if TYPE_CHECKING:
    import numpy as np


def unseen_aging_count(game: Game) -> int:
    """How many aging cards were shuffled into the Robinson stack unseen (their identity is
    hidden; they are somewhere in
    [`unknown_aging_pool`][friday_env.information.unknown_aging_pool])."""
    return len(game.unseen)


def known_top_cards(game: Game) -> list[int]:
    """The cards at the top of the Robinson stack whose order the player knows, top first."""
    stack = game.stack
    return stack[len(stack) - game.known_top :][::-1]


def stack_known_cards(game: Game, sort: bool = True) -> list[int]:
    """The Robinson stack's cards that the player can name (all but unseen aging cards),
    sorted so no order leaks. ``sort=False`` skips the sort for callers that only count
    them (the encoders); the list may then be the game's own: do not modify it."""
    unseen = game.unseen
    cards = [c for c in game.stack if c not in unseen] if unseen else game.stack
    return sorted(cards) if sort else cards


def unknown_aging_pool(game: Game, sort: bool = True) -> list[int]:
    """Aging cards whose whereabouts are hidden: the aging stack plus the unseen aging cards
    in the Robinson stack. The player knows this multiset, sorted, not which is where
    (``sort=False``: in no meaningful order, for counting)."""
    pool = game.aging + game.unseen
    return sorted(pool) if sort else pool


def hazard_stack_cards(game: Game) -> list[int]:
    """The hazard stack's multiset, sorted (derivable from the open piles)."""
    return sorted(game.hazard_stack)


def public_view(game: Game) -> dict[str, Any]:
    """Everything the player may know, as a JSON-friendly dict of card keys and numbers.
    The observation encoders read nothing else: two states with equal public views encode
    to equal observations."""

    def keys(cards: list[int]) -> list[str]:
        return [KEY[c] for c in cards]

    targeting = game.phase == Phase.TARGET

    return {
        "level": game.level,
        "step": STEP_NAMES[game.step],
        "phase": game.phase.name,
        "life": game.life,
        "reserve": game.reserve,
        "robinson_discard": keys(game.discard),
        "hazard_discard": keys(game.hazard_discard),
        "destroyed": keys(game.destroyed),
        "robinson_stack_count": len(game.stack),
        "robinson_stack_known": keys(stack_known_cards(game)),
        "robinson_stack_unseen_aging": unseen_aging_count(game),
        "robinson_stack_known_top": keys(known_top_cards(game)),
        "hazard_stack_count": len(game.hazard_stack),
        "hazard_stack_cards": keys(hazard_stack_cards(game)),
        "aging_stack_count": len(game.aging),
        "unknown_aging_pool": keys(unknown_aging_pool(game)),
        "pirates": keys(game.pirates),
        "beaten_pirates": keys(game.beaten),
        "offer": keys(game.offer),
        "hazard": KEY[game.hazard] if game.hazard >= 0 else None,
        "table": [
            {"card": KEY[c], "flags": f} for c, f in zip(game.table, game.flags, strict=True)
        ],
        "free_total": game.free_total,
        "free_used": game.free_used,
        "step_down": game.step_down,
        "fight_total": game.fight_total() if game.hazard >= 0 else None,
        "fight_value": game.fight_value() if game.hazard >= 0 else None,
        "sort_taken": keys(game.sort_taken),
        "sort_placed": game.sort_placed,
        "resolving": game.resolving.name if targeting else None,
        "source": game.source if targeting else None,
        "exchanges_left": game.exchanges_left if targeting else None,
        "fights": game.fights,
        "budget": game.budget,
        "legal_actions": list(game.legal_actions()),
        "score": game.score(),
        "won": game.won,
    }


def determinized(game: Game, seed: int | np.random.Generator) -> Game:
    """A clone in which all hidden information is resampled: the order of the Robinson stack
    below its known top, which aging cards are the unseen ones, the aging stack's order
    (normal cards still above difficult ones) and the hazard stack's order. The clone gets
    ``seed`` for its future shuffles. Nothing hidden in ``game`` influences the result.
    A compiled game is resampled by the compiled core, identically."""
    if core_of(game) == "c":
        return game._determinized(check_seed(seed_from(seed), "c"))  # type: ignore[attr-defined]
    sample = game.clone()
    sample.seed = seed_from(seed)
    sample.shuffles = 0
    _resample_aging(sample)
    _resample_stack(sample)
    sample.hazard_stack.sort()  # from a canonical order: the true order must not show through
    sample.shuffle(sample.hazard_stack)
    return sample


def _resample_aging(game: Game) -> None:
    """Redeal the unknown aging pool between the unseen slots and the aging stack, keeping
    what the player knows: how many cards have left the aging stack (normal ones first)."""
    in_game = level_aging_cards(game.level)
    normal_total = sum(1 for c in in_game if not DIFFICULT[c])
    gone = game.aging_total - len(game.aging)
    seen_gone = [c for c in in_game if c not in game.aging and c not in game.unseen]
    expected_normal = min(gone, normal_total) - sum(1 for c in seen_gone if not DIFFICULT[c])
    pool = unknown_aging_pool(game)
    normal = game.shuffled([c for c in pool if not DIFFICULT[c]])
    difficult = game.shuffled([c for c in pool if DIFFICULT[c]])
    # A scenario may stack the aging cards in any order: keep the counts feasible then.
    unseen = len(game.unseen)
    unseen_normal = max(unseen - len(difficult), min(expected_normal, unseen, len(normal)))
    unseen_difficult = unseen - unseen_normal
    new_unseen = normal[:unseen_normal] + difficult[:unseen_difficult]
    game.aging = difficult[unseen_difficult:] + normal[unseen_normal:]
    replacement = iter(game.shuffled(new_unseen))
    game.stack = [next(replacement) if c in game.unseen else c for c in game.stack]
    game.unseen = new_unseen


def _resample_stack(game: Game) -> None:
    """Shuffle the part of the Robinson stack below the known top cards."""
    hidden_count = len(game.stack) - game.known_top
    hidden = sorted(game.stack[:hidden_count])  # a shuffle of the true order would leak it
    game.shuffle(hidden)
    game.stack[:hidden_count] = hidden
