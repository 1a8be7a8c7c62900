"""A stacked-deck tutorial: set up a known position in The Mapless House and play it.

Shows how to choose the top cards of the decks with ``initial_state(seed, stack=...)``
(or ``Match.start(..., stack=...)``): the stacked cards come first, in the order given,
and everything after them is shuffled by the seed as usual. Here the Narrative deck is
stacked so that the house is a straight corridor of spades with the Exit at its far end,
and the Mind and Body decks so that the first two Encounters are known. The script then
plays the opening of the hunt, shows where the seed takes over, checks that a stacked
draw is certain in explicit-chance play, and saves and replays the game as a record.

Run it from the repository root:

    python examples/stacked_deck.py
    python examples/stacked_deck.py --seed 5     # the same stacked part, other cards after

Whatever the seed, everything up to the first unstacked card is the same.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import cardcrawl
from cardcrawl.mapless import CardDrawn, Encounter

SPADES = [f"{rank}S" for rank in (*"23456789", "10", "J", "Q", "K")]
# The Exit (the A♥) can only be placed once a black suit has left the Narrative deck
# (ruling M-10): after the twelve spades it opens at once, as far out as the house goes.
STACK = {"narrative": [*SPADES, "AH"], "mind": "QH 2H", "body": "KD 2D"}


def section(title: str) -> None:
    """Print a heading."""
    print(f"\n== {title}")


def encounters(match: cardcrawl.Match) -> list[Encounter]:
    """Every Encounter of the match so far."""
    return [e for s in match.states for e in s.events if isinstance(e, Encounter)]


def main(argv: Sequence[str] | None = None) -> None:
    """Play the stacked opening and print what happens."""
    parser = argparse.ArgumentParser(description="Play a game from a stacked deck.")
    parser.add_argument("--seed", type=int, default=1, help="shuffles the unstacked cards (1)")
    args = parser.parse_args(argv)
    game = cardcrawl.load("mapless-house", max_turns=30)

    section("1. A stacked Narrative deck builds a corridor of spades")
    for source, cards in STACK.items():
        print(f"stack[{source!r}] = {cards!r}")
    match = cardcrawl.Match.start(game, seed=args.seed, stack=STACK)
    while not match.state.is_hunting:
        # The last legal cell, in the canonical sorted order, is the one furthest east.
        match.play(game.legal_actions(match.state)[-1])
    print(game.render(match.state))

    section("2. Stacked Mind and Body cards decide the first Encounters")
    while len(encounters(match)) < 2:
        legal = game.legal_actions(match.state)
        # Move east toward the Exit; place drawn cards anywhere (the last cell will do).
        match.play(legal[-1])
        for event in match.state.events:
            print("  ", event)

    section("3. After the stack, the seed decides")
    drawn = [e.card.symbol for s in match.states for e in s.events if isinstance(e, CardDrawn)]
    stacked = len(STACK["narrative"])
    print("stacked, the same for every seed:", " ".join(drawn[:stacked]))
    print(f"shuffled by seed {args.seed}:", " ".join(drawn[stacked:]))

    section("4. In explicit-chance play a stacked draw is certain")
    explicit = game.initial_state(args.seed, explicit_chance=True, stack={"narrative": ["KS"]})
    print("the K♠ was drawn without stopping:", explicit.events[0])
    after = game.step(explicit, game.legal_actions(explicit)[0])
    outcomes = game.chance_outcomes(after)
    print(
        f"the next draw is open: {len(outcomes)} outcomes, each with probability {outcomes[0][1]}"
    )

    section("5. The stack is part of the game's record")
    record = match.to_record()
    again = cardcrawl.Record.from_json(record.to_json())
    print("recorded stack:", dict(again.stack or {}))
    print("the record replays to the same state:", again.replay() == match.state)


if __name__ == "__main__":
    main()
