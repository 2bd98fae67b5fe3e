"""The *Friday the 13th* agents, named by a spec (``heuristic``, ``search:worlds=16``,
``net:model=experiments/thirteen/net13.npz``).

An agent has a ``name``, ``reset(seed)`` (start of a game: reseeds its own generator) and
``act(game) -> action`` for ``game.current_player``. Agents read only what that player may
know: their own hand, the piles, the cards played and taken this round, hand sizes and the
scores; the search plans on ``Game13.determinized`` worlds, never on the hidden hands.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

import numpy as np

from friday_agents.harness.errors import BadInputError
from friday_agents.thirteen.heuristic import heuristic_action
from friday_agents.thirteen.network import PolicyNet
from friday_agents.thirteen.search import search_action
from friday_env.thirteen.game import Game13

#: The self-play network ``net`` plays by default, shipped in the package: a byte copy of
#: experiments/thirteen/net13.npz, the file the committed tables played (friday thirteen train;
#: experiments/thirteen/README.md).
DEFAULT_MODEL = Path(__file__).resolve().parent / "net13.npz"


class Agent13(Protocol):
    name: str

    def reset(self, seed: int) -> None: ...

    def act(self, game: Game13) -> int: ...


class RandomAgent13:
    """A uniformly random legal action."""

    name = "random"

    def __init__(self) -> None:
        self.rng = np.random.default_rng(0)

    def reset(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, game: Game13) -> int:
        legal = game.legal_actions()
        return legal[int(self.rng.integers(len(legal)))]


class HeuristicAgent13:
    """The rulebook's strategy tips as a one-move rule (``friday_agents.thirteen.heuristic``);
    deterministic."""

    name = "heuristic"

    def reset(self, seed: int) -> None:
        pass

    def act(self, game: Game13) -> int:
        return heuristic_action(game)


class SearchAgent13:
    """Determinized search (``friday_agents.thirteen.search``): ``worlds`` guesses of the
    hidden hands, each move played out to the round's end in each by ``rollout`` players."""

    name = "search"

    def __init__(self, worlds: int = 4, rollout: str = "heuristic") -> None:
        if worlds < 1:
            raise BadInputError(f"search: worlds must be at least 1, got {worlds}")
        if rollout not in ("heuristic", "safe"):
            raise BadInputError(f"search: rollout must be heuristic or safe, got {rollout!r}")
        self.worlds, self.rollout = worlds, rollout
        self.rng = np.random.default_rng(0)

    def reset(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, game: Game13) -> int:
        return search_action(game, self.rng, self.worlds, self.rollout)


class NetAgent13:
    """The self-play network (``friday_agents.thirteen.network``), numpy only: its most
    probable legal action (``sample=true``: drawn from its policy)."""

    name = "net"

    def __init__(self, model: str = "", sample: bool = False) -> None:
        self.model_path: Path | None = Path(model) if model else DEFAULT_MODEL  # None: in memory
        self.net = PolicyNet.load(self.model_path)
        self.sample = sample
        self.rng = np.random.default_rng(0)

    @classmethod
    def from_net(cls, net: PolicyNet, sample: bool = False) -> NetAgent13:
        """The agent playing a network in memory (the trainer's validation)."""
        agent = cls.__new__(cls)
        agent.net, agent.sample, agent.rng = net, sample, np.random.default_rng(0)
        agent.model_path = None
        return agent

    def reset(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, game: Game13) -> int:
        return self.net.act(game, self.rng if self.sample else None)


AGENTS: dict[str, type] = {
    "random": RandomAgent13,
    "heuristic": HeuristicAgent13,
    "search": SearchAgent13,
    "net": NetAgent13,
}
#: option name -> how its text is read
_OPTION_TYPES: dict[str, Any] = {"worlds": int, "rollout": str, "model": str, "sample": "bool"}


def make_agent(spec: str) -> Agent13:
    """The agent a spec names: ``name`` or ``name:key=value:...``."""
    name, *parts = spec.strip().split(":")
    if name not in AGENTS:
        raise BadInputError(f"unknown agent {name!r}: choose one of {', '.join(AGENTS)}")
    options = dict(_option(name, part) for part in parts)
    try:
        agent = AGENTS[name](**options)
    except TypeError:
        raise BadInputError(f"agent {name!r} takes no option {sorted(options)[0]!r}") from None
    agent.name = spec.strip()
    return agent


def _option(name: str, part: str) -> tuple[str, Any]:
    key, sep, text = part.partition("=")
    kind = _OPTION_TYPES.get(key)
    if not sep or kind is None:
        raise BadInputError(f"agent {name!r}: bad option {part!r} (write key=value)")
    if kind == "bool":
        if text not in ("true", "false"):
            raise BadInputError(f"agent {name!r}: {key} must be true or false, got {text!r}")
        return key, text == "true"
    try:
        return key, kind(text)
    except ValueError:
        raise BadInputError(f"agent {name!r}: {key} must be an integer, got {text!r}") from None
