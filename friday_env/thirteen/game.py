"""``Game13``: the rules of Reiner Knizia's *Friday the 13th* for 3-6 players, seeded.

A game is four rounds. Each round the 50 cards are shuffled and dealt (``deal``); players play
one card each in turn onto the pile of its type until every hand is empty; a card that takes
a pile's total past 13 takes the pile's earlier cards into its player's face-down stack and
restarts the pile. The round is scored from the taken stacks (``scoring``).

Rulings where the rulebook is silent (docs/thirteen.md lists them, tests/thirteen test them):

- T1 who starts: player 0 starts round 1, and the start passes clockwise each round (round
  ``r``, counted from 0, is started by player ``r % players``).
- T2 the deal: one card at a time, clockwise from the round's starter, so the starter and the
  players after them get the extra cards (6 players: 9, 9, 8, 8, 8, 8 from the starter; 4
  players: 13, 13, 12, 12; 5 players: 10 each).
- T3 three players: the unused fourth hand is dealt last, after the three players, so the
  starter and the next player hold 13 cards, the third 12 and the unused hand 12.
- T4 a player whose hand is empty is passed over; the round ends when every hand is empty.
- T5 a tie for the fewest total bad luck points after the fourth round: the tied players
  share the win (``win_shares``: ``1/k`` each of ``k`` tied).
- T6 the deals of a game are fixed by its seed alone (round ``r`` shuffles with
  ``numpy.random.default_rng((seed, r))``), not by the play, so one seed is one set of deals
  for every agent: what paired comparisons rest on.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from friday_env.thirteen.cards import (
    LIMIT,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NUM_ACTIONS,
    NUM_CARDS,
    NUM_PILES,
    NUM_ROUNDS,
    VALUE_OF,
    action_name,
    card_name,
    piles_of,
    split_action,
)
from friday_env.thirteen.errors import IllegalMoveError, SetupError
from friday_env.thirteen.scoring import round_points, win_shares


def check_players(players: object) -> int:
    """``players`` if it is an int in 3..6, else raise ``SetupError``."""
    if isinstance(players, bool) or not isinstance(players, int | np.integer):
        raise SetupError(f"players must be an integer 3-6, got {players!r}")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise SetupError(f"Friday the 13th is for 3 to 6 players, got {players}")
    return int(players)


def check_seed(seed: object) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise SetupError(f"seed must be a non-negative integer, got {seed!r}")
    return int(seed)


def starter(round_index: int, players: int) -> int:
    """The player who starts round ``round_index`` (0-3): ruling T1."""
    return round_index % players


def deal(seed: int, round_index: int, players: int) -> tuple[list[list[int]], list[int]]:
    """The hands of round ``round_index`` and the unused hand (3 players; else empty).

    One card at a time from a shuffled deck, clockwise from the round's starter (T2); with 3
    players the unused hand is dealt fourth (T3). Each hand is sorted by card id.
    """
    order = np.random.default_rng((seed, round_index)).permutation(NUM_CARDS).tolist()
    hand_count = 4 if players == 3 else players
    dealt = [sorted(order[k::hand_count]) for k in range(hand_count)]
    first = starter(round_index, players)
    hands: list[list[int]] = [[] for _ in range(players)]
    for k in range(players):
        hands[(first + k) % players] = dealt[k]
    unused = dealt[3] if players == 3 else []
    return hands, unused


class Game13:
    """One game of *Friday the 13th*. Start one with ``Game13.new(players, seed)`` (or
    ``Game13.scenario`` for a position); ``legal_actions()`` lists the ids ``apply`` accepts.

    Public state: ``piles`` (three lists of cards, oldest first) and ``pile_totals``, the
    number of cards in each hand (``hand_sizes``), ``taken`` (each player's stack this round:
    face down, but every card in it was seen on a pile), ``played`` (the cards played this
    round, in order), ``round`` (0-3), ``round_scores`` and ``scores``. Private: ``hands[p]``
    is player ``p``'s hand, and ``unused`` the unused hand of a 3-player round.
    """

    __slots__ = (
        "current_player",
        "done",
        "hands",
        "pile_totals",
        "piles",
        "played",
        "players",
        "round",
        "round_scores",
        "seed",
        "taken",
        "unused",
    )

    def __init__(self) -> None:  # use new() or scenario()
        self.players = 0
        self.seed = 0
        self.round = 0
        self.hands: list[list[int]] = []
        self.unused: list[int] = []
        self.piles: list[list[int]] = [[], [], []]
        self.pile_totals = [0, 0, 0]
        self.taken: list[list[int]] = []
        self.played: list[int] = []
        self.round_scores: list[list[int]] = []
        self.current_player = 0
        self.done = False

    # -- construction -------------------------------------------------------------------

    @classmethod
    def new(cls, players: int, seed: int) -> Game13:
        """A new game of ``players`` (3-6) whose four deals ``seed`` fixes (T6)."""
        game = cls()
        game.players = check_players(players)
        game.seed = check_seed(seed)
        game._start_round(0)
        return game

    @classmethod
    def scenario(
        cls,
        hands: Sequence[Iterable[int]],
        piles: Sequence[Iterable[int]] = ((), (), ()),
        *,
        taken: Sequence[Iterable[int]] | None = None,
        unused: Iterable[int] = (),
        current_player: int = 0,
        round: int = 0,
        round_scores: Sequence[Sequence[int]] = (),
        seed: int = 0,
    ) -> Game13:
        """A game in the middle of round ``round`` (0-3): the given hands, piles (cards oldest
        first), taken stacks, unused hand and earlier rounds' scores; later rounds are dealt
        from ``seed``. Cards named nowhere are out of this round. Raises ``SetupError`` on
        an impossible position (a card twice, an omen card on another pile, a pile over 13)."""
        game = cls()
        game.players = check_players(len(hands))
        game.seed = check_seed(seed)
        game.hands = [sorted(int(c) for c in hand) for hand in hands]
        game.piles = [[int(c) for c in pile] for pile in piles]
        game.taken = [[int(c) for c in stack] for stack in (taken or [[]] * game.players)]
        game.unused = sorted(int(c) for c in unused)
        game.round = round
        game.round_scores = [list(map(int, row)) for row in round_scores]
        game.current_player = current_player
        _check_scenario(game)
        game.pile_totals = [sum(VALUE_OF[c] for c in pile) for pile in game.piles]
        game.played = [c for pile in game.piles for c in pile] + [
            c for stack in game.taken for c in stack
        ]
        if not any(game.hands):
            raise SetupError("every hand is empty: a round needs a card to play")
        if not game.hands[current_player]:
            raise SetupError(f"player {current_player} is to play but holds no card")
        return game

    def clone(self) -> Game13:
        """An independent copy: playing on it leaves this game as it is."""
        other = Game13.__new__(Game13)
        other.players, other.seed, other.round = self.players, self.seed, self.round
        other.hands = [hand.copy() for hand in self.hands]
        other.unused = self.unused.copy()
        other.piles = [pile.copy() for pile in self.piles]
        other.pile_totals = self.pile_totals.copy()
        other.taken = [stack.copy() for stack in self.taken]
        other.played = self.played.copy()
        other.round_scores = [row.copy() for row in self.round_scores]
        other.current_player, other.done = self.current_player, self.done
        return other

    def determinized(self, player: int, rng: np.random.Generator) -> Game13:
        """A clone as ``player`` could imagine it: the cards ``player`` cannot see (the other
        hands and the unused hand) dealt again at random into hands of the same sizes, and
        later rounds dealt from a fresh seed drawn from ``rng``. Planning agents plan on these."""
        world = self.clone()
        others = [p for p in range(self.players) if p != player]
        # sorted first: the guess must not depend on who really holds what
        hidden = sorted([c for p in others for c in world.hands[p]] + world.unused)
        rng.shuffle(hidden)
        start = 0
        for p in others:
            size = len(world.hands[p])
            world.hands[p] = sorted(hidden[start : start + size])
            start += size
        world.unused = sorted(hidden[start:])
        world.seed = int(rng.integers(2**31))
        return world

    # -- reading ------------------------------------------------------------------------

    @property
    def scores(self) -> list[int]:
        """Each player's total bad luck over the rounds scored so far."""
        return [sum(row[p] for row in self.round_scores) for p in range(self.players)]

    @property
    def hand_sizes(self) -> list[int]:
        return [len(hand) for hand in self.hands]

    def win_shares(self) -> list[float]:
        """Each player's share of the win (T5): 1 for a sole winner, 1/k for k tied."""
        if not self.done:
            raise IllegalMoveError("win_shares: the game is not over yet")
        return win_shares(self.scores)

    def legal_actions(self) -> list[int]:
        """The action ids the player to move may play, ascending; empty once the game is over."""
        if self.done:
            return []
        hand = self.hands[self.current_player]
        return [3 * card + pile for card in hand for pile in piles_of(card)]

    def legal_mask(self) -> np.ndarray:
        """``legal_actions()`` as a boolean mask over the 150 action ids."""
        mask = np.zeros(NUM_ACTIONS, dtype=bool)
        mask[self.legal_actions()] = True
        return mask

    # -- playing ------------------------------------------------------------------------

    def apply(self, action: int) -> list[int]:
        """Play ``action`` for the player to move; the cards they took (empty if none).

        Raises ``IllegalMoveError`` (one line, the game unchanged) for anything that is not
        a legal action now."""
        card, pile = self._check_action(action)
        player = self.current_player
        self.hands[player].remove(card)
        self.played.append(card)
        took: list[int] = []
        if self.pile_totals[pile] + VALUE_OF[card] > LIMIT:
            took = self.piles[pile]
            self.taken[player].extend(took)
            self.piles[pile] = [card]
            self.pile_totals[pile] = VALUE_OF[card]
        else:
            self.piles[pile].append(card)
            self.pile_totals[pile] += VALUE_OF[card]
        self._pass_turn()
        return took

    def _check_action(self, action: object) -> tuple[int, int]:
        if self.done:
            raise IllegalMoveError("the game is over: no action is legal")
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise IllegalMoveError(f"an action is an integer 0-{NUM_ACTIONS - 1}, got {action!r}")
        if not 0 <= action < NUM_ACTIONS:
            raise IllegalMoveError(f"action {action} is not an id 0-{NUM_ACTIONS - 1}")
        card, pile = split_action(int(action))
        player = self.current_player
        if card not in self.hands[player]:
            raise IllegalMoveError(
                f"action {action} ({action_name(int(action))}) is not legal: "
                f"player {player} does not hold card {card} ({card_name(card)})"
            )
        if pile not in piles_of(card):
            raise IllegalMoveError(
                f"action {action} ({action_name(int(action))}) is not legal: "
                "an omen card goes only on its own pile"
            )
        return card, pile

    def _pass_turn(self) -> None:
        """Clockwise to the next player who still holds a card (T4); the round ends when
        every hand is empty."""
        for step in range(1, self.players + 1):
            nxt = (self.current_player + step) % self.players
            if self.hands[nxt]:
                self.current_player = nxt
                return
        self._end_round()

    def _end_round(self) -> None:
        self.round_scores.append(round_points(self.taken))
        if self.round + 1 >= NUM_ROUNDS:
            self.done = True
            self.current_player = -1
            return
        self._start_round(self.round + 1)

    def _start_round(self, round_index: int) -> None:
        self.round = round_index
        self.hands, self.unused = deal(self.seed, round_index, self.players)
        self.piles = [[], [], []]
        self.pile_totals = [0, 0, 0]
        self.taken = [[] for _ in range(self.players)]
        self.played = []
        self.current_player = starter(round_index, self.players)

    def __repr__(self) -> str:
        state = "over" if self.done else f"round {self.round + 1}, player {self.current_player}"
        return f"Game13(players={self.players}, seed={self.seed}, {state}, scores={self.scores})"


def _check_scenario(game: Game13) -> None:
    """Raise ``SetupError`` naming the first thing that makes ``game`` impossible."""
    if not 0 <= game.round < NUM_ROUNDS:
        raise SetupError(f"round must be 0-{NUM_ROUNDS - 1}, got {game.round}")
    if len(game.round_scores) != game.round or any(
        len(row) != game.players for row in game.round_scores
    ):
        raise SetupError(
            f"round {game.round} needs {game.round} earlier rows of {game.players} scores"
        )
    if len(game.piles) != NUM_PILES:
        raise SetupError(f"there are {NUM_PILES} piles, got {len(game.piles)}")
    if len(game.taken) != game.players:
        raise SetupError(f"taken needs a stack per player ({game.players}), got {len(game.taken)}")
    if game.players != 3 and game.unused:
        raise SetupError("only a 3-player round has an unused hand")
    if not 0 <= game.current_player < game.players:
        raise SetupError(f"current_player must be 0-{game.players - 1}, got {game.current_player}")
    places = [*game.hands, *game.piles, *game.taken, game.unused]
    cards = [c for place in places for c in place]
    bad = [c for c in cards if not 0 <= c < NUM_CARDS]
    if bad:
        raise SetupError(f"card {bad[0]} is not a card id 0-{NUM_CARDS - 1}")
    twice = sorted({c for c in cards if cards.count(c) > 1})
    if twice:
        raise SetupError(f"card {twice[0]} ({card_name(twice[0])}) is in two places")
    for pile, cards_on in enumerate(game.piles):
        _check_pile(pile, cards_on)


def _check_pile(pile: int, cards_on: list[int]) -> None:
    for card in cards_on:
        if pile not in piles_of(card):
            raise SetupError(f"{card_name(card)} (card {card}) cannot lie on pile {pile}")
    if sum(VALUE_OF[c] for c in cards_on) > LIMIT:
        raise SetupError(f"pile {pile} totals more than {LIMIT}: it would have been taken")
