"""``agent_test(spec)``: check that an agent keeps the contract every Friday player owes, in
the spirit of pgx's ``api_test`` for every game and OpenSpiel's basic tests.

For the agent a spec names (``"guided:sims=4"``) it checks:

- **its name**: ``name`` is its registry name, and it follows the
  [`Agent`][friday_agents.players.base.Agent] protocol;
- **legal play**: over whole games on each level asked (1 and 4) and each core (the reference
  ``"python"`` core and the compiled ``"c"`` one, where built), every action is legal and
  ``act`` leaves the game as it found it;
- **same seed, same game**: reset with the deal's seed, the agent plays the deal again the
  same; so does a new agent made from the same spec; and the core does not change the game
  (the cores are bit-identical, so the play on them must be too);
- **pickles**: the agent pickled in the middle of a game and restored plays the rest the same
  (``friday eval`` sends agents to worker processes);
- **open information only** (R26), for every fair agent (the `CHEATING_AGENTS` are exempt):
  in *twins*, two games equal in public view whose hidden order differs, the agent reset
  with the same seed chooses the same action.

A failure raises ``AssertionError`` naming the spec, the check and where it broke. Run it on
a new agent once its line is in the registry: ``agent_test("myagent")``.
"""

from __future__ import annotations

import pickle
import random
from dataclasses import dataclass
from typing import NoReturn

from friday_agents.harness.deals import training_seed
from friday_agents.players.base import Agent
from friday_agents.players.registry import CHEATING_AGENTS, make_agent, parse_spec
from friday_env import Game, available_cores, determinized, public_view
from friday_env.record import state_digest
from friday_env.scenario import from_spec
from friday_env.testing.games import DEFAULT_MAX_ACTIONS, random_deal
from friday_env.testing.policies import greedy_policy

#: The levels whose whole games the contract plays by default: the easiest and the hardest.
CONTRACT_LEVELS = (1, 4)


@dataclass(frozen=True)
class ContractReport:
    """What `agent_test` checked: whole games played, decisions checked in them, twin pairs
    compared (0 for a cheating agent)."""

    games: int
    decisions: int
    twins: int


def agent_test(
    spec: str,
    levels: tuple[int, ...] = CONTRACT_LEVELS,
    cores: tuple[str, ...] | None = None,
    deal: int = 0,
    twins: int = 8,
) -> ContractReport:
    """Check the agent ``spec`` names against the agents' contract (see the module docstring).

    ``levels``: the levels of the whole games; ``cores``: the cores they are played on
    (default: every built core); ``deal``: the index of the training deal each level plays;
    ``twins``: the twin pairs compared per core (half dealt at random, half from the middle of
    games). Keep the agent's own budget small in the spec (``search:sims=4``): the contract
    checks behaviour, not strength."""
    core_list = cores if cores is not None else tuple(available_cores())
    if not core_list:
        raise ValueError("agent_test needs at least one core to play on")
    contract = _Contract(spec)
    games = decisions = 0
    for level in levels:
        seed = training_seed(level, deal)
        played = [contract.whole_game(level, seed, core) for core in core_list]
        contract.check(
            all(history == played[0] for history in played),
            f"level {level}, seed {seed}",
            f"the cores {core_list} gave different games",
        )
        games += len(played)
        decisions += sum(len(history) for history in played)
    compared = 0
    if contract.name not in CHEATING_AGENTS:
        for core in core_list:
            compared += contract.twins_alike(public_twins(twins, core=core), core)
    return ContractReport(games=games, decisions=decisions, twins=compared)


class _Contract:
    """The checks of one spec; every failure names the spec, the check and where."""

    def __init__(self, spec: str) -> None:
        self.spec = spec
        self.name = parse_spec(spec)[0]
        self.agent = make_agent(spec)
        self.check(isinstance(self.agent, Agent), "the protocol", "no name, reset or act")
        self.check(
            self.agent.name == self.name,
            "its name",
            f"name is {self.agent.name!r}, its registry name {self.name!r}",
        )
        cheats = bool(getattr(self.agent, "cheats", False))
        self.check(
            cheats <= (self.name in CHEATING_AGENTS),
            "its name",
            "it says it cheats, but the registry's CHEATING_AGENTS does not list it",
        )

    def check(self, holds: bool, where: str, what: str) -> None:
        if not holds:
            self.fail(where, what)

    def fail(self, where: str, what: str) -> NoReturn:
        raise AssertionError(f"agent_test({self.spec!r}): {where}: {what}")

    def whole_game(self, level: int, seed: int, core: str) -> list[int]:
        """Play the deal with legality checks, then again from the same seed (the same agent,
        and a new one), and a pickled copy from its middle; the actions, checked equal."""
        where = f"level {level}, core {core!r}, seed {seed}"
        prepare = getattr(self.agent, "prepare", None)
        if callable(prepare):
            prepare(level)
        history = self._play(self.agent, Game.new(level, seed, core=core), seed, where)
        middle = len(history) // 2
        replay = Game.new(level, seed, core=core)
        again = self._play(self.agent, replay, seed, where, stop=middle)
        snapshot = self._pickled(where)
        again += self._play(self.agent, replay, None, where)
        self.check(again == history, where, "reset with the same seed, it played another game")
        fresh = self._play(make_agent(self.spec), Game.new(level, seed, core=core), seed, where)
        self.check(fresh == history, where, "a new agent of the same spec played another game")
        restored = Game.new(level, seed, core=core)
        for action in history[:middle]:
            restored.apply(action)
        rest = self._play(snapshot, restored, None, where)
        self.check(
            rest == history[middle:],
            where,
            f"pickled at decision {middle} and restored, it played the rest differently",
        )
        return history

    def _pickled(self, where: str) -> Agent:
        """A copy of the agent through a pickle round trip."""
        try:
            copy: Agent = pickle.loads(pickle.dumps(self.agent))
        except Exception as err:  # whatever pickle raises, the contract names it
            self.fail(where, f"it does not pickle: {type(err).__name__}: {err}")
        return copy

    def _play(
        self, agent: Agent, game: Game, seed: int | None, where: str, stop: int | None = None
    ) -> list[int]:
        """Let ``agent`` play ``game`` (reset with ``seed`` first unless None) until it ends
        or ``stop`` actions were taken; return the actions it took."""
        if seed is not None:
            agent.reset(seed)
        start = len(game.history)
        while not game.done and (stop is None or len(game.history) < stop):
            self.check(
                len(game.history) < DEFAULT_MAX_ACTIONS,
                where,
                f"the game did not end in {DEFAULT_MAX_ACTIONS} actions",
            )
            game.apply(self.act(agent, game, f"{where}, decision {len(game.history)}"))
        return list(game.history[start:])

    def act(self, agent: Agent, game: Game, where: str) -> int:
        """``agent``'s action, checked legal and leaving ``game`` as it was."""
        legal = list(game.legal_actions())
        before = state_digest(game)
        action = agent.act(game)
        self.check(state_digest(game) == before, where, "act changed the game")
        self.check(action in legal, where, f"chose {action!r}, not among the legal {legal}")
        return action

    def twins_alike(self, pairs: list[tuple[Game, Game]], core: str) -> int:
        """R26: reset with the same seed, the agent chooses alike in both games of each pair."""
        for index, (first, second) in enumerate(pairs):
            where = f"twin pair {index} (level {first.level}, core {core!r})"
            choices = []
            for game in (first, second):
                self.agent.reset(index)
                choices.append(self.act(self.agent, game, where))
            self.check(
                choices[0] == choices[1],
                where,
                f"R26: the hidden order changed its choice ({choices[0]} vs {choices[1]})",
            )
        return len(pairs)


def public_twins(count: int, seed: int = 0, core: str | None = None) -> list[tuple[Game, Game]]:
    """``count`` pairs of games at a decision with two or more legal actions, equal in public
    view ([`friday_env.public_view`][friday_env.information.public_view]) and differing in the
    hidden order of the Robinson stack:
    half are random deals laid out twice with the stack in two orders (none of it known),
    half are games from the middle of greedy play and a
    [`friday_env.determinized`][friday_env.information.determinized] copy."""
    rng = random.Random(seed)
    pairs: list[tuple[Game, Game]] = []
    while len(pairs) < count:
        level = rng.randint(1, 4)
        make = _dealt_twins if len(pairs) % 2 == 0 else _midgame_twins
        pair = make(level, rng, core)
        if pair is None:
            continue
        if public_view(pair[0]) != public_view(pair[1]):
            raise RuntimeError("public_twins built two games whose public views differ")
        pairs.append(pair)
    return pairs


def _dealt_twins(level: int, rng: random.Random, core: str | None) -> tuple[Game, Game] | None:
    """A random deal and its copy with the Robinson stack reordered, or None when the deal has
    a single legal action or a stack that no reordering changes."""
    deal = random_deal(level, rng, core=core)
    layout = dict(deal.origin["scenario"], known_top=0)
    order = list(layout["robinson_stack"])
    if len(deal.legal_actions()) < 2 or len(set(order)) < 2:
        return None
    other = order[:]
    while other == order:
        rng.shuffle(other)
    first = from_spec(dict(layout, robinson_stack=order), core=core)
    second = from_spec(dict(layout, robinson_stack=other), core=core)
    return (first, second) if first.stack != second.stack else None


def _midgame_twins(level: int, rng: random.Random, core: str | None) -> tuple[Game, Game] | None:
    """A training deal after some greedy moves and a determinized copy, or None when the game
    ended, has a single legal action or its copy drew the same order."""
    game = Game.new(level, training_seed(level, rng.randrange(10_000)), core=core)
    policy = greedy_policy(rng)
    for _ in range(rng.randint(5, 150)):
        if game.done:
            return None
        game.apply(policy(game))
    if game.done or len(game.legal_actions()) < 2:
        return None
    copy = determinized(game, rng.randrange(1000))
    return (game, copy) if copy.stack != game.stack else None
