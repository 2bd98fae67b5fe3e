"""``friday thirteen play``: a game of *Friday the 13th* in the terminal against agents."""

from __future__ import annotations

from friday_agents.thirteen.heuristic import distinct_moves
from friday_agents.thirteen.players import make_agent
from friday_env.thirteen.cards import action_name
from friday_env.thirteen.game import Game13
from friday_env.thirteen.text import describe


def ask(game: Game13) -> int:
    """The human's move: a number from the listed distinct moves (q quits)."""
    moves = distinct_moves(game)
    for number, action in enumerate(moves, 1):
        print(f"  {number:2}. {action_name(action)}")
    while True:
        text = input("your move (number, q to quit): ").strip()
        if text == "q":
            raise KeyboardInterrupt
        if text.isdigit() and 1 <= int(text) <= len(moves):
            return moves[int(text) - 1]
        print(f"type a number 1-{len(moves)}")


def play_in_terminal(players: int, seat: int, opponents: str, seed: int) -> int:
    game = Game13.new(players, seed)
    agents = {p: make_agent(opponents) for p in range(players) if p != seat}
    for p, agent in agents.items():
        agent.reset(seed * 8 + p)
    rounds = 0
    while not game.done:
        if game.current_player == seat:
            print(describe(game, hand_of=seat))
            action = ask(game)
        else:
            action = agents[game.current_player].act(game)
        mover = game.current_player
        took = game.apply(action)
        taking = f", takes {len(took)} cards" if took else ""
        print(f"player {mover}: {action_name(action)}{taking}")
        if len(game.round_scores) > rounds:
            rounds = len(game.round_scores)
            print(f"round {rounds} scored: {game.round_scores[-1]} (totals {game.scores})")
    print(describe(game))
    return 0
