"""A whole game of The Mapless House in twenty lines.

Shows the core loop every program built on cardcrawl uses: load a game by name, deal
it from a seed, ask for the legal actions, step, and read the outcome. The choices
here are random (seeded), and the story of the game is printed as it is played.

Run it from the repository root (any seed gives a game; the same seed, the same game):

    python examples/game_in_twenty_lines.py
    python examples/game_in_twenty_lines.py --seed 7 --quiet
"""

import argparse
import random

import cardcrawl

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--seed", type=int, default=2024, help="the game's seed (2024)")
parser.add_argument("--quiet", action="store_true", help="print only the ending")
args = parser.parse_args()

game = cardcrawl.load("mapless-house", max_turns=200)  # the turn limit is ruling M-22
state = game.initial_state(seed=args.seed)
choose = random.Random(args.seed).choice
steps = 0
while not game.is_terminal(state):
    for event in state.events if not args.quiet else ():
        print(event)
    state = game.step(state, choose(game.legal_actions(state)))
    steps += 1
print(*state.events, sep="\n")
print(game.render(state))
print(f"{steps} decisions, outcome: {game.outcome(state)}")
