"""The tampered-state fuzzer of the compiled core: random edits of real states.

Each trial plays a random game (level 1-4, random seed) a random number of actions, copies
its state to the reference engine, edits it at random (a pile shuffled, cut or emptied, cards
moved between piles or duplicated, the phase, step or hazard changed, a counter set to an
odd or extreme value, table flags changed, the table filled far past its 59 slots...) and
hands it to the compiled core (``CompiledGame.from_python``). Then:

- a refused state must raise [`StateError`][friday_env.errors.StateError] whose message names a
  state field, the message the reference's check
  ([`friday_env.engine.soundness.unsound`][friday_env.engine.soundness.unsound]) gives (a seed or
  shuffle count too wide for 64 bits, which the reference takes, apart);
- an accepted state must be one the reference's check accepts;
- an accepted state is resampled (``determinized``, a random seed) on both cores, which must
  give the same world, one the compiled core accepts; then it is played to its end on both
  cores with the same random legal actions, which must agree action by action: the whole
  state, the legal actions, the legal mask and the flat observation; an exception on either
  side is a disagreement too.

``python -m friday_env.testing.tamper --states N [--seed S]`` runs N trials and prints the
figures (tried, accepted, refused by field, disagreements); it exits 1 on any disagreement.
Run it against a sanitized build (``docs/compiled-core.md``) to look for memory errors too.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from friday_env.actions import Phase
from friday_env.actions.mask import action_mask
from friday_env.core import COMPILED_FILE, STATE_FIELDS, CompiledGame, Game, python_copy
from friday_env.engine.soundness import unsound
from friday_env.errors import StateError
from friday_env.information import determinized
from friday_env.observation.flat import FlatEncoder

#: The piles whose cards lie in them alone, and the two that name cards lying elsewhere.
PLACED_PILES = (
    "stack", "discard", "hazard_stack", "hazard_discard", "aging", "destroyed", "box",
    "pirates", "beaten", "offer", "table", "sort_taken",
)  # fmt: skip
NAMED_PILES = ("spent", "unseen")
#: Counters and what values a tamperer tries: small shifts and the edges of their types.
COUNTERS = (
    "life", "reserve", "aging_total", "won", "fights", "pirate_value", "free_total",
    "free_used", "step_down", "source", "resolving", "exchanges_left", "sort_placed",
    "budget", "known_top", "shuffles", "seed", "level",
)  # fmt: skip
EXTREMES = (-1, 0, 1, 2, 3, 59, 60, 2**31 - 1, 2**31, 2**62, 2**62 + 1, 2**63, 2**64 - 1, 2**64)
#: Actions played per accepted state at most (a game ends long before).
MAX_ACTIONS = 5000
#: A refusal names a field: "unsound game state: <field>..." or "<field>: ...".
_FIELD_PATTERN = re.compile(
    r"\b(" + "|".join(sorted((*STATE_FIELDS, "flags"), key=len, reverse=True)) + r")\b"
)


@dataclass
class TamperReport:
    """What a run found."""

    tried: int = 0
    accepted: int = 0
    refused: int = 0
    actions_compared: int = 0
    refused_by_field: Counter = field(default_factory=Counter)
    disagreements: list[str] = field(default_factory=list)

    def summary(self) -> str:
        """The figures, one per line (what the command prints)."""
        fields = ", ".join(f"{name} {count}" for name, count in self.refused_by_field.most_common())
        return "\n".join([
            f"states tried: {self.tried}",
            f"accepted: {self.accepted} (resampled and played to the end on both cores, "
            f"{self.actions_compared} actions compared)",
            f"refused: {self.refused} (by field: {fields or 'none'})",
            f"disagreements: {len(self.disagreements)}",
            *(f"  {text}" for text in self.disagreements[:20]),
        ])  # fmt: skip


# ---------------------------------------------------------------- edits


def _move_card(game: Game, rng: random.Random) -> str:
    """A card from one pile to another (its table flag follows it)."""
    sources = [name for name in PLACED_PILES if getattr(game, name)]
    if not sources:
        return "nothing to move"
    source, target = rng.choice(sources), rng.choice(PLACED_PILES + NAMED_PILES)
    pile = getattr(game, source)
    index = rng.randrange(len(pile))
    card = pile.pop(index)
    if source == "table":
        game.flags.pop(index)
    getattr(game, target).insert(rng.randint(0, len(getattr(game, target))), card)
    if target == "table":
        game.flags.insert(game.table.index(card), rng.choice((0, 0, 1, 2, 4, 8)))
    return f"move card {card} from {source} to {target}"


def _duplicate_card(game: Game, rng: random.Random) -> str:
    """A card that lies somewhere added to another pile too."""
    cards = [c for name in PLACED_PILES for c in getattr(game, name)]
    if not cards:
        return "nothing to duplicate"
    card, target = rng.choice(cards), rng.choice(PLACED_PILES + NAMED_PILES)
    getattr(game, target).append(card)
    if target == "table":
        game.flags.append(0)
    return f"duplicate card {card} into {target}"


def _reshape_pile(game: Game, rng: random.Random) -> str:
    """A pile shuffled, cut to a prefix, or emptied (flags follow the table)."""
    name = rng.choice(PLACED_PILES + NAMED_PILES)
    pile = getattr(game, name)
    how = rng.choice(("shuffle", "cut", "empty"))
    order = list(range(len(pile)))
    if how == "shuffle":
        rng.shuffle(order)
    elif how == "cut":
        order = order[: rng.randint(0, len(order))]
    else:
        order = []
    setattr(game, name, [pile[i] for i in order])
    if name == "table":
        game.flags = [game.flags[i] for i in order]
    return f"{how} {name}"


def _fill_table(game: Game, rng: random.Random) -> str:
    """Cards of other piles onto the table, possibly past its 59 action slots."""
    moved = 0
    for name in rng.sample(PLACED_PILES, len(PLACED_PILES)):
        if name == "table":
            continue
        pile = getattr(game, name)
        while pile and rng.random() < 0.9:
            game.table.append(pile.pop())
            game.flags.append(0)
            moved += 1
    return f"fill table with {moved} cards ({len(game.table)} on it)"


def _set_phase(game: Game, rng: random.Random) -> str:
    game.phase = Phase(rng.randrange(len(Phase)))
    return f"phase {int(game.phase)}"


def _set_step(game: Game, rng: random.Random) -> str:
    game.step = rng.randrange(4)
    return f"step {game.step}"


def _set_hazard(game: Game, rng: random.Random) -> str:
    game.hazard = rng.choice(
        (-1, rng.randrange(69), *game.pirates, *game.offer, *game.hazard_stack[-2:])
    )
    return f"hazard {game.hazard}"


def _set_counter(game: Game, rng: random.Random) -> str:
    name = rng.choice(COUNTERS)
    value = getattr(game, name)
    setattr(
        game, name, rng.choice((value - 1, value + 1, rng.randint(-3, 8), rng.choice(EXTREMES)))
    )
    return f"{name} {getattr(game, name)}"


def _set_flag(game: Game, rng: random.Random) -> str:
    if not game.flags or rng.random() < 0.2:
        game.flags.append(rng.randrange(16))
        return "an extra flag"
    slot = rng.randrange(len(game.flags))
    game.flags[slot] = rng.choice(
        (rng.randrange(16), 16, -1, game.flags[slot] ^ (1 << rng.randrange(4)))
    )
    return f"flag {slot} = {game.flags[slot]}"


EDITS: tuple[Callable[[Game, random.Random], str], ...] = (
    _move_card, _move_card, _duplicate_card, _reshape_pile, _reshape_pile, _fill_table,
    _set_phase, _set_phase, _set_step, _set_hazard, _set_counter, _set_counter, _set_flag,
)  # fmt: skip


# ---------------------------------------------------------------- one trial


def real_state(rng: random.Random) -> Game:
    """A reference game at a random point of a random game (actions chosen at random), the
    end included once in a while."""
    game = Game.new(rng.randint(1, 4), rng.randrange(2**63), core="python")
    chosen, seen = game.clone(), 1
    while not game.done:  # one game; each of its states is the one kept with equal odds
        game.apply(rng.choice(game.legal_actions()))
        seen += 1
        if rng.randrange(seen) == 0:
            chosen = game.clone()
    return chosen


def full_state(game: Any) -> dict[str, Any]:
    """Every field (plain ints and lists of ints) and the legal actions."""
    state: dict[str, Any] = {}
    for name in STATE_FIELDS:
        value = getattr(game, name)
        state[name] = [int(v) for v in value] if isinstance(value, list) else int(value)
    state["legal"] = list(game.legal_actions())
    return state


def _compare(python: Game, compiled: Any, encoder: FlatEncoder) -> str | None:
    # one encoder follows the reference game (it keeps caches between its states); the
    # compiled game is encoded by the C encoder whatever encoder is called
    """The first difference between the two cores' views of one state, or None."""
    mine, theirs = full_state(compiled), full_state(python)
    if mine != theirs:
        wrong = [name for name in theirs if mine[name] != theirs[name]]
        return f"fields differ: {', '.join(wrong)}"
    if not np.array_equal(action_mask(compiled), action_mask(python)):
        return "the legal mask differs from the legal actions"
    if not np.array_equal(encoder.encode(compiled), encoder.encode(python)):
        return "the flat observation differs"
    return None


def _compare_determinized(python: Game, compiled: Any, seed: int) -> str | None:
    """Both cores resample the hidden cards alike, into a state the compiled core accepts."""
    worlds: list[Any] = []
    for game in (python, compiled):
        try:
            worlds.append(determinized(game, seed))
        except Exception as err:
            worlds.append(f"{type(err).__name__}: {err}")
    if isinstance(worlds[0], str) or isinstance(worlds[1], str):
        return None if worlds[0] == worlds[1] else f"determinized: {worlds[0]!r} / {worlds[1]!r}"
    if full_state(worlds[0]) != full_state(worlds[1]):
        return "determinized worlds differ"
    problem = worlds[1]._check()
    return None if problem is None else f"determinized into an unsound state: {problem}"


def play_both(python: Game, compiled: Any, rng: random.Random) -> tuple[int, str | None]:
    """Play both games to their end with the same random legal actions; the number of
    actions compared and the first disagreement (None if they agreed throughout)."""
    encoder = FlatEncoder()
    for played in range(MAX_ACTIONS + 1):
        try:
            difference = _compare(python, compiled, encoder)
            if difference is not None or python.done:
                return played, difference
            action = rng.choice(python.legal_actions())
            python.apply(action)
            compiled.apply(action)
        except Exception as err:  # an exception on either core is a disagreement
            return played, f"{type(err).__name__}: {err}"
    return MAX_ACTIONS, f"no end after {MAX_ACTIONS} actions"


def tamper_once(rng: random.Random, report: TamperReport) -> None:
    """One trial: a real state, 1 to 3 random edits, then the compiled core's verdict."""
    game = python_copy(real_state(rng))
    edits = [rng.choice(EDITS)(game, rng) for _ in range(rng.choice((1, 1, 2, 3)))]
    report.tried += 1
    before = full_state(game) if _readable(game) else None
    reference_verdict = unsound(game)
    try:
        compiled = CompiledGame.from_python(game)
    except StateError as err:
        report.refused += 1
        if reference_verdict != str(err) and not _too_wide(str(err)):
            report.disagreements.append(
                f"refused as {err}, the reference: {reference_verdict} (edits: {edits})"
            )
        named = _FIELD_PATTERN.search(str(err))
        if named is None:
            report.disagreements.append(f"refusal names no field: {err} (edits: {edits})")
        else:
            report.refused_by_field[named.group(1)] += 1
        return
    except Exception as err:  # refusals must be StateError
        report.disagreements.append(f"refused with {type(err).__name__}: {err} (edits: {edits})")
        return
    report.accepted += 1
    if reference_verdict is not None:
        report.disagreements.append(f"accepted, the reference: {reference_verdict} ({edits})")
        return
    if before is None:
        report.disagreements.append(f"accepted a state the reference cannot read (edits: {edits})")
        return
    difference = _compare_determinized(game, compiled, rng.randrange(2**64))
    if difference is not None:
        report.disagreements.append(f"{difference} (edits: {edits})")
        return
    played, difference = play_both(game, compiled, rng)
    report.actions_compared += played
    if difference is not None:
        report.disagreements.append(f"after {played} actions: {difference} (edits: {edits})")


def _too_wide(refusal: str) -> bool:
    """A refusal for what 64 bits cannot hold, which the reference takes: the compiled core
    reads the seed and shuffle count before it checks the state, so the reference's verdict
    may name a problem found later, or none."""
    return "seeds 0 <= seed < 2**64" in refusal or "0..2**63-1 on the compiled core" in refusal


def _readable(game: Game) -> bool:
    """Whether the reference can list the state's legal actions at all."""
    try:
        game.legal_actions()
    except Exception:
        return False
    return True


def run(states: int, seed: int = 0) -> TamperReport:
    """``states`` trials from ``seed``."""
    rng, report = random.Random(seed), TamperReport()
    for _ in range(states):
        tamper_once(rng, report)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        allow_abbrev=False,
        prog="python -m friday_env.testing.tamper",
        description=__doc__.split("\n")[0],
    )
    parser.add_argument("--states", type=int, default=1000, help="trials to run (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="the run's seed (default 0)")
    args = parser.parse_args(argv)
    if args.states < 1:
        parser.error("--states must be at least 1")
    report = run(args.states, args.seed)
    print(f"tampered states, seed {args.seed}, compiled core {COMPILED_FILE}")
    print(report.summary())
    return 1 if report.disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
