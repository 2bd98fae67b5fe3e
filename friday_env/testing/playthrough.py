"""Golden playthroughs: complete seeded games written out as readable transcripts.

In the spirit of OpenSpiel's playthrough files: at each decision the transcript shows the
situation (step, life and reserve, the hazard and its value, the table with values and
flags, what is known of the Robinson stack), every legal action with its id and
``describe`` name, and the action chosen; at the end, the result and the score (R25).

The files in ``tests/playthroughs/`` are regression tests that double as documentation of
the rules at work: ``tests/test_playthroughs.py`` regenerates each transcript in memory and
diffs it against its file. After an intended rule change, rewrite them with::

    python -m friday_env.playthrough --regenerate

and read the diff before committing it. ``python -m friday_env.playthrough --level 2
--seed 7`` prints the transcript of any seeded game.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from friday_env.actions import PHASE_NAMES, Phase
from friday_env.cards import HAZARD_VALUES, KEY, SPECIAL, card_label
from friday_env.engine import DOUBLED, DOWN, LEFT, PIRATES, STEP_NAMES, USED, Game
from friday_env.information import known_top_cards
from friday_env.scenario import scenario
from friday_env.soak import POLICIES, Policy, make_game

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "tests" / "playthroughs"
REGENERATE = "python -m friday_env.playthrough --regenerate"


# ---------------------------------------------------------------- the transcript


def _flag_text(flags: int) -> str:
    words = ["left" if flags & LEFT else "right"]
    words += [word for bit, word in ((USED, "used"), (DOUBLED, "doubled"), (DOWN, "face down"))
              if flags & bit]  # fmt: skip
    return ", ".join(words)


def _hazard_line(game: Game) -> str:
    card = game.hazard
    free = f"{game.free_total} free ({game.free_used} used)"
    if game.step == PIRATES:
        special = SPECIAL[card].name.lower().replace("_", " ")
        return f"pirate {KEY[card]} ({special}): value {game.fight_value()}, {free}"
    lowered = f", step -1 x{game.step_down}" if game.step_down else ""
    printed = "/".join(str(v) for v in HAZARD_VALUES[card])
    return f"hazard {KEY[card]} (values {printed}{lowered}): value {game.fight_value()}, {free}"


def _table_lines(game: Game) -> list[str]:
    if not game.table:
        return ["table: empty"]
    values = game.card_values()
    lines = ["table:"]
    for slot, card in enumerate(game.table):
        label = card_label(card)
        lines.append(
            f"  {slot:>2}  {label:<46} {_flag_text(game.flags[slot]):<24} counts {values[slot]}"
        )
    lines.append(f"  total {game.fight_total()} against {game.fight_value()}")
    return lines


def _piles_lines(game: Game) -> list[str]:
    known = ", ".join(KEY[c] for c in known_top_cards(game)) or "-"
    unseen = f", {len(game.unseen)} unseen aging" if game.unseen else ""
    lines = [
        f"robinson stack {len(game.stack)} (known top: {known}{unseen}) | "
        f"discard {len(game.discard)} | aging stack {len(game.aging)} | "
        f"destroyed {len(game.destroyed)}",
        f"hazard stack {len(game.hazard_stack)} | hazard discard {len(game.hazard_discard)} | "
        f"pirates {', '.join(KEY[c] for c in game.pirates) or '-'}"
        + (f" | beaten {', '.join(KEY[c] for c in game.beaten)}" if game.beaten else ""),
    ]
    return lines


def _decision_lines(game: Game) -> list[str]:
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
        lines.append(_hazard_line(game))
        lines += _table_lines(game)
    lines += _decision_lines(game)
    lines += _piles_lines(game)
    return lines


def transcript(game: Game, policy: Policy, title: str) -> str:
    """Play ``game`` to the end with ``policy`` and return the transcript."""
    lines = [f"# {title}", f"# regenerate: {REGENERATE}", f"# origin: {game.origin}", ""]
    decision = 0
    while not game.done:
        decision += 1
        lines.append(f"--- decision {decision}: {PHASE_NAMES[game.phase]} ({game.phase.name})")
        lines += situation(game)
        lines.append("legal:")
        lines += [f"  {a:>3}  {game.describe(a)}" for a in game.legal_actions()]
        action = policy(game)
        lines.append(f"chosen: {action}  {game.describe(action)}")
        lines.append("")
        game.apply(action)
    result = "won" if game.won else "lost"
    lines.append(f"=== game over after {decision} decisions: {result}")
    lines += situation(game)
    lines.append(f"score {game.score()} (R25)")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- the golden games


@dataclass(frozen=True)
class Golden:
    """One golden playthrough: its file name, title and how to set it up."""

    name: str
    title: str
    setup: Callable[[], tuple[Game, Policy]]

    def text(self) -> str:
        game, policy = self.setup()
        return transcript(game, policy, self.title)


def _seeded(level: int, policy: str, seed: int) -> Callable[[], tuple[Game, Policy]]:
    return lambda: make_game("new", policy, level, seed)


def _to_the_pirates() -> tuple[Game, Policy]:
    """Red step, a strong deck and two hazards left: the greedy player meets the pirates."""
    game = scenario(
        3,
        "red",
        robinson_stack=[
            "cannibals/weapon", "animals/experience", "genius", "further/repeat",
            "exploring/weapon", "animals/realization", "focused", "further/vision",
            "cannibals/weapon", "eating", "exploring/weapon", "animals/strategy",
            "stupid", "further/food", "focused", "raft/equipment",
        ],
        robinson_discard=["weak", "distracted", "hungry"],
        hazard_stack=["exploring/food", "raft/food"],
        hazard_discard=["further/experience", "raft/mimicry"],
        aging_stack=["scared", "very tired", "moronic"],
        pirates=["pirate/half", "pirate/aging"],
        life=16,
        seed=20,
    )  # fmt: skip
    return game, POLICIES["greedy"](random.Random(20))


RANDOM_PLAY = "uniformly random legal play"

GOLDEN: tuple[Golden, ...] = (
    Golden("level1-random", f"level 1, seed 175, {RANDOM_PLAY}", _seeded(1, "random", 175)),
    Golden("level2-greedy", "level 2, seed 209, the greedy player", _seeded(2, "greedy", 209)),
    Golden("level4-random", f"level 4, seed 208, {RANDOM_PLAY}", _seeded(4, "random", 208)),
    Golden(
        "scenario-pirates",
        "level 3 scenario from the red step to the pirates, the greedy player",
        _to_the_pirates,
    ),
)


def regenerate(directory: Path = GOLDEN_DIR) -> list[Path]:
    """Write every golden transcript to ``directory``; return the paths written."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for golden in GOLDEN:
        path = directory / f"{golden.name}.txt"
        path.write_text(golden.text())
        paths.append(path)
    return paths


# ---------------------------------------------------------------- the command


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m friday_env.playthrough",
        description="Print the transcript of a seeded game, or rewrite the golden "
        "playthroughs in tests/playthroughs/.",
    )
    parser.add_argument(
        "--regenerate",
        action="store_true",
        help="rewrite every golden file (read the diff before committing)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=GOLDEN_DIR,
        help="directory for --regenerate (tests/playthroughs)",
    )
    parser.add_argument("--list", action="store_true", help="list the golden playthroughs")
    parser.add_argument("--golden", metavar="NAME", help="print one golden playthrough")
    parser.add_argument(
        "--level", type=int, choices=[1, 2, 3, 4], default=1, help="level of a seeded game (1)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the game and policy (0)")
    parser.add_argument(
        "--policy",
        choices=sorted(POLICIES),
        default="random",
        help="who plays the seeded game (random)",
    )
    return parser  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    by_name = {g.name: g for g in GOLDEN}
    if args.regenerate:
        for path in regenerate(args.out):
            print(f"wrote {path}")
        return 0
    if args.list:
        for golden in GOLDEN:
            print(f"{golden.name:<20} {golden.title}")
        return 0
    if args.golden:
        if args.golden not in by_name:
            print(f"unknown golden playthrough {args.golden!r}; known: {', '.join(by_name)}",
                  file=sys.stderr)  # fmt: skip
            return 2
        sys.stdout.write(by_name[args.golden].text())
        return 0
    game, policy = make_game("new", args.policy, args.level, args.seed)
    title = f"level {args.level}, seed {args.seed}, {args.policy} policy"
    sys.stdout.write(transcript(game, policy, title))
    return 0


if __name__ == "__main__":
    sys.exit(main())
