"""A cheating search: the ceiling of the search agent, planning on the true hidden state.

[`OracleSearchAgent`][friday_agents.players.search.oracle.OracleSearchAgent] is
[`SearchAgent`][friday_agents.players.search.agent.SearchAgent] with one change: its worlds are
clones of the real game — the real order of the Robinson, hazard and aging stacks and which aging
cards were shuffled in unseen — instead of determinized samples. Only the future shuffles (of the
discard pile into a new stack) are left to chance: each world gets a fresh seed for them, so the
oracle knows the hidden present but not the future.

It breaks the rule every fair agent follows (R26: read only public information) on purpose.
Its win rate measures how much of the fair search's gap to a perfect game is hidden
information and how much is play; it is registered as ``oracle``, listed in
`friday_agents.players.registry.CHEATING_AGENTS` and never ranked against the fair agents.
"""

from __future__ import annotations

from friday_agents.players.search.agent import SearchAgent
from friday_env import Game
from friday_env.core import core_of, python_copy, to_core
from friday_env.engine import seed_from


class OracleSearchAgent(SearchAgent):
    """The search agent planning on the true hidden state (cheats; see the module docstring).

    ## Arguments

    The same as [`SearchAgent`][friday_agents.players.search.agent.SearchAgent] (``sims``,
    ``value``).
    """

    name = "oracle"
    #: Reads hidden information: excluded from fair rankings.
    cheats = True
    #: The compiled search samples the true state too.
    c_world = "true"

    def world(self, game: Game, seed: int) -> Game:
        """The real game, hidden order included, with a fresh seed for future shuffles.
        (On the compiled core the search builds these worlds in C; a compiled game's fields
        are read-only, so this method re-seeds a reference copy and compiles it back.)"""
        compiled = core_of(game) == "c"
        world = python_copy(game)
        world.seed = seed_from(seed)
        world.shuffles = 0
        return to_core(world, "c") if compiled else world
