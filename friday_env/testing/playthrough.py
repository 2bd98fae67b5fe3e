"""Golden playthroughs: complete seeded games written out as readable transcripts.

In the spirit of OpenSpiel's playthrough files: at each decision the transcript shows the
situation (step, life and reserve, the hazard and its value, the table with values and
flags, what is known of the Robinson stack), every legal action with its id and
``describe`` name, and the action chosen; at the end, the result and the score (R25).

The files in ``tests/rules/playthroughs/`` are regression tests that double as documentation of
the rules at work: ``tests/rules/test_playthroughs.py`` regenerates each transcript in memory and
diffs it against its file. After an intended rule change, rewrite them with::

    python -m friday_env.testing.playthrough --regenerate tests/rules/playthroughs

and read the diff before committing it. ``python -m friday_env.testing.playthrough --level 2
--seed 7`` prints the transcript of any seeded game.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from friday_env.actions import PHASE_NAMES
from friday_env.core import Game
from friday_env.scenario import scenario
from friday_env.testing.games import make_game
from friday_env.testing.policies import POLICIES, Policy
from friday_env.text import legal_lines, situation

REGENERATE = "python -m friday_env.testing.playthrough --regenerate tests/rules/playthroughs"


# ---------------------------------------------------------------- the transcript


def transcript(game: Game, policy: Policy, title: str) -> str:
    """Play ``game`` to the end with ``policy`` and return the transcript."""
    lines = [f"# {title}", f"# regenerate: {REGENERATE}", f"# origin: {game.origin}", ""]
    decision = 0
    while not game.done:
        decision += 1
        lines.append(f"--- decision {decision}: {PHASE_NAMES[game.phase]} ({game.phase.name})")
        lines += situation(game)
        lines.append("legal:")
        lines += legal_lines(game, game.legal_actions())
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
    setup: Callable[[str | None], tuple[Game, Policy]]

    def text(self, core: str | None = None) -> str:
        """The transcript, played on ``core`` (None: the default core; both give the same)."""
        game, policy = self.setup(core)
        return transcript(game, policy, self.title)


def _seeded(level: int, policy: str, seed: int) -> Callable[[str | None], tuple[Game, Policy]]:
    return lambda core: make_game("new", policy, level, seed, core=core)


def _to_the_pirates(core: str | None = None) -> tuple[Game, Policy]:
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
        core=core,
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


def regenerate(directory: Path) -> list[Path]:
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
        allow_abbrev=False,
        prog="python -m friday_env.testing.playthrough",
        description="Print the transcript of a seeded game, or write the golden "
        "playthroughs (tests/rules/playthroughs/ in the repository).",
    )
    parser.add_argument(
        "--regenerate",
        type=Path,
        metavar="DIR",
        help="write every golden file into DIR, e.g. tests/rules/playthroughs (read the diff "
        "before committing)",
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
        for path in regenerate(args.regenerate):
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
