"""Escape from Haydes's rulings as a table: ruling, position, action, position after.

Each row is one step of the game written in the position notation
(docs/explanation/notation.md): ``game.position(start)``, then ``game.step`` with the
action, then ``game.notation`` of the state reached, which must be the expected text.
The rows take the rulings at moments that ``test_haydes_positions.py`` leaves out (an
overcome creature's card as plain ground, a correct "higher", an equal "lower", the
escape from an ace, "lower" onto the Red Joker from the Black Joker, Endurance at 0,
the cards under two figures kept at the end of a turn).

The board is the small Haydes of ``test_haydes_positions.py``: two decks, 9 cells
across (x from -4 to 4) and 6 down, so six short rows, of which only y = 1 and y = 0
ever change: ``*`` a face-down card of the Build pool, ``1*`` one of the Replacement
deck, ``!`` after a code an overcome creature, ``~`` a cell of the Red Joker's mix.
Every card turned comes off a stacked top (``unseen=9C|...``), so the generator
(``rng=1``) never moves; a die roll is played with ``explicit_chance`` and the roll as
the action. The expected texts were worked out from the rulings by hand, each
reasoning in its row's comment; only the order in which a list of cards seen is
written (``all-5S,9D,3C``) was taken from the notation's writer.
"""

from __future__ import annotations

import pytest

import cardcrawl
from cardcrawl.haydes import EscapeFromHaydes

SMALL_LAYOUT = [(x, y) for x in range(-4, 5) for y in range(-2, 4)]
SOLO_GAME: EscapeFromHaydes = cardcrawl.load(
    "escape-from-haydes", deck_count=2, layout=SMALL_LAYOUT
)
DUO: EscapeFromHaydes = cardcrawl.load(
    "escape-from-haydes", players=2, deck_count=2, layout=SMALL_LAYOUT
)
RNG = "rng=0000000000000001"
DOWN = "*********"  # a row of nine face-down Build cards
SOLO = "round=1 current=0 first=0"
NEXT_ROUND = "round=2 current=0 first=0"
CHANCE = f"{RNG} explicit_chance"


def board(y1: str, y0: str) -> str:
    """The board with rows y = 1 and y = 0 as given, every other row face down."""
    return "/".join([DOWN, DOWN, y1, y0, DOWN, DOWN])


#: (ruling, players, position, action, the position after the step).
RULINGS = [
    # H-6, H-8, H-12: the Q♥ at (2, 0) was overcome: its card is plain ground. Stepping
    # onto it from the 5♠ is a move onto a face-up card: no guess, no encounter, and
    # the turn ends. The 5♠, left without a figure, is discarded and replaced from the
    # Replacement deck; the Q♥ keeps its figure and stays.
    (
        "H-6",
        1,
        f"{board(DOWN, '****BJ5SQH!**')} phase=turn {SOLO} seats=7/8@1,0 shown=1,0;2,0 "
        f"unseen=all-5S,QH/all {RNG}",
        "step 2,0",
        f"{board(DOWN, '****BJ1*QH!**')} phase=turn {NEXT_ROUND} seats=7/8@2,0 shown=2,0 "
        f"discard=5S unseen=all-5S,QH/all {RNG}",
    ),
    # H-7: "higher" from the 5♠ onto a 9♣ is correct (9 > 5): the figure moves onto it
    # and the turn goes on, the player to move again or end it.
    (
        "H-7 higher",
        1,
        f"{board(DOWN, '****BJ5S***')} phase=turn {SOLO} seats=8/8@1,0 shown=1,0 "
        f"unseen=9C|all-5S,9C/all {RNG}",
        "higher 2,0",
        f"{board(DOWN, '****BJ5S9C**')} phase=turn {SOLO} seats=8/8@2,0 shown=1,0;2,0 "
        f"unseen=all-5S,9C/all {RNG}",
    ),
    # H-7, H-12: "lower" from the 5♠ onto a 5♣ is not strictly lower: wrong, the turn
    # ends with the figure on the 5♣, and the 5♠ is replaced.
    (
        "H-7 equal",
        1,
        f"{board(DOWN, '****BJ5S***')} phase=turn {SOLO} seats=8/8@1,0 shown=1,0 "
        f"unseen=5C|all-5S,5C/all {RNG}",
        "lower 2,0",
        f"{board(DOWN, '****BJ1*5C**')} phase=turn {NEXT_ROUND} seats=8/8@2,0 shown=2,0 "
        f"discard=5S unseen=all-5S,5C/all {RNG}",
    ),
    # H-8, H-1: the overcome Q♥ keeps its value, 12, as plain ground: "lower" from it onto
    # a 4♣ is correct, and the player moves on.
    (
        "H-8",
        1,
        f"{board(DOWN, '****BJ5SQH!**')} phase=turn {SOLO} seats=7/8@2,0 shown=1,0;2,0 "
        f"unseen=4C|all-5S,QH,4C/all {RNG}",
        "lower 3,0",
        f"{board(DOWN, '****BJ5SQH!4C*')} phase=turn {SOLO} seats=7/8@3,0 "
        f"shown=1,0;2,0;3,0 unseen=all-5S,QH,4C/all {RNG}",
    ),
    # H-9, H-1: "lower" from an ace (value 1) onto the Red Joker (0) is correct: the
    # player escapes and wins at once.
    (
        "H-9",
        1,
        f"{board(DOWN, '****BJAC***')} phase=turn {SOLO} seats=8/8@1,0 shown=1,0 "
        f"unseen=RJ|all-AC,RJ/all {RNG}",
        "lower 2,0",
        f"{board(DOWN, '****BJACRJ**')} phase=over:escaped:0 {SOLO} seats=8/8@2,0 "
        f"shown=1,0;2,0 unseen=all-AC,RJ/all {RNG}",
    ),
    # H-10, H-9, H-1: from the Black Joker (0) no card is lower, so "lower" onto the Red
    # Joker is not an escape (H-9 asks a card of value 1 or more): the move fails, the
    # figure stays on the Black Joker and the turn ends. No other card is face up, so
    # the joker is shuffled in among no new card: face down on its own cell, a mix of
    # one cell holding it alone (``:0.0``).
    (
        "H-10",
        1,
        f"{board(DOWN, '****BJ****')} phase=turn {SOLO} seats=8/8@0,0 unseen=RJ|all-RJ/all {RNG}",
        "lower 1,0",
        f"{board(DOWN, '****BJ~***')} phase=turn {NEXT_ROUND} seats=8/8@0,0 mixes=RJ "
        f"unseen=all-RJ/all:0.0 {RNG}",
    ),
    # H-11, H-8, H-12: seat 0, Endurance 1, rolls 12 against it: not overcome, Endurance
    # drops to 0, and seat 0 is out, its figure removed, its turn over. The Q♥ it faced,
    # not overcome and with no figure left on it, is discarded and replaced; the 5♠
    # keeps seat 1's figure. Play passes to seat 1.
    (
        "H-11",
        2,
        f"{board(DOWN, '****BJ5SQH**')} phase=roll:endurance round=1 current=0 first=0 "
        f"seats=8/1@2,0;8/8@1,0 shown=1,0;2,0 unseen=all-5S,QH/all {CHANCE}",
        "roll 12",
        f"{board(DOWN, '****BJ5S1***')} phase=turn round=1 current=1 first=0 "
        f"seats=8/0@-;8/8@1,0 shown=1,0 discard=QH unseen=all-5S,QH/all {CHANCE}",
    ),
    # H-12, H-5: seat 0 ends its turn on the 5♠; seat 1 stands on the 9♦ at (1, 1). Only
    # the 3♣ at (2, 0) has no figure: it alone is discarded and replaced. Play passes
    # to seat 1, in the same round.
    (
        "H-12",
        2,
        f"{board('*****9D***', '****BJ5S3C**')} phase=turn round=1 current=0 first=0 "
        f"seats=8/8@1,0;8/8@1,1 shown=1,1;2,0;1,0 unseen=all-5S,9D,3C/all {RNG}",
        "end",
        f"{board('*****9D***', '****BJ5S1***')} phase=turn round=1 current=1 first=0 "
        f"seats=8/8@1,0;8/8@1,1 shown=1,1;1,0 discard=3C unseen=all-5S,9D,3C/all {RNG}",
    ),
]


@pytest.mark.parametrize(
    ("ruling", "players", "start", "action", "expected"),
    RULINGS,
    ids=[row[0] for row in RULINGS],
)
def test_the_ruling_takes_the_position_to_the_next(
    ruling: str, players: int, start: str, action: str, expected: str
) -> None:
    game = SOLO_GAME if players == 1 else DUO
    state = game.position(start)
    assert game.notation(state) == start, "the start is written as the notation writes it"
    after = game.step(state, game.parse_action(action))
    assert game.notation(after) == expected
    assert game.position(expected) is not None


def test_the_table_covers_six_rulings_or_more() -> None:
    assert len({row[0].split()[0] for row in RULINGS}) >= 6
