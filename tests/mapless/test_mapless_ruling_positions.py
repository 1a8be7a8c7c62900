"""The Mapless House's rulings as a table: ruling, position, action, position after.

Each row is one step of the game written in the position notation
(docs/explanation/notation.md): ``game.position(start)``, then ``game.step`` with the
action, then ``game.notation`` of the state reached, which must be the expected text.
The rows take the rulings at moments that ``test_mapless_positions.py`` leaves out (the
Exit's own exemption from M-6, a black suit exhausted half on the table, the ♣A on the
Exit, a held player held again, a Stalker's step along y, the ♠A's sidestep along y).

Every draw a step makes comes off a stacked deck top (``narrative=``, ``mind=``,
``body=``), so the generator (``rng=1``) never moves; where a chance event has no
stack to pin it (the Exit shuffled back, a draw from a shuffled deck), the position
is played with ``explicit_chance`` and the step stops there. The expected texts were
worked out from the rulings by hand, each reasoning in its row's comment.

The house of the hunt, ``8S4.QCJC/AD5S6SKS7SAH/9S``, is the one of
``test_mapless_positions.py``: along y = 0 the Entrance, the corridors 5♠ and 6♠, the
room ♠K (threshold 13), the corridor 7♠ and the Exit at (5, 0); the rooms ♣Q and ♣J at
(5, 1) and (6, 1), the 8♠ at (0, 1) and the 9♠ at (0, -1).
"""

from __future__ import annotations

import pytest

import cardcrawl
from cardcrawl.mapless import MaplessHouse

GAME: MaplessHouse = cardcrawl.load("mapless-house")
RNG = "rng=0000000000000001"
HOUSE = "8S4.QCJC/AD5S6SKS7SAH/9S"
SPADES_BUT_5_6 = "2S,3S,4S,7S,8S,9S,10S,JS,QS,KS"
CLUBS_BUT_K = "2C,3C,4C,5C,6C,7C,8C,9C,10C,JC,QC"

#: (ruling, position, action, the position after the step).
RULINGS = [
    # M-6, M-11: the table ♣Q at (0, 1), 5♠ at (1, 1), Entrance, 6♠ at (1, 0). D = 2
    # (the 5♠); the candidates at distance 3 touching a card are (1, 2) and (2, 1),
    # both beside the 5♠, a corridor that touches two cards already (the 6♠ and the
    # ♣Q): no Narrative card may go there (M-6), but the Exit is exempt. It goes on
    # (2, 1), the ♠A on it, and the hunt opens with its Move.
    (
        "M-6",
        f"QC5S/AD6S phase=place-exit player=0,0 last_room=0,1 refused={SPADES_BUT_5_6} {RNG}",
        "exit 2,1",
        f"QC5SAH/AD6S phase=move player=0,0 spade=2,1 last_room=0,1 refused={SPADES_BUT_5_6} {RNG}",
    ),
    # M-10: the ♣K is on the table and the other eleven clubs refused: every club has
    # left the Narrative deck, placed or refused, so the clubs are exhausted and the
    # ♥A drawn is kept. The ♣K at (0, 1) is the farthest card (D = 1): three candidate
    # cells at distance 2, so the player chooses (M-11).
    (
        "M-10",
        f"KC/AD phase=draw player=0,0 last_room=0,1 refused={CLUBS_BUT_K} {RNG} explicit_chance",
        "draw AH",
        f"KC/AD phase=place-exit player=0,0 last_room=0,1 refused={CLUBS_BUT_K} {RNG} "
        "explicit_chance",
    ),
    # M-14, M-20: the ♣A stands on the Exit (the ♠A has left it). Moving onto the Exit
    # escapes only when no Stalker is on it: onto the ♣A, the player is consumed. No
    # Encounter: the stacked Mind and Body cards stay.
    (
        "M-14",
        f"{HOUSE} phase=move turn=4 player=4,0 spade=3,1 club=5,0 mind=2H body=2D ran_dry "
        f"spade_left_exit {RNG}",
        "move 5,0",
        f"{HOUSE} phase=over:consumed turn=4 player=5,0 spade=3,1 club=5,0 mind=2H body=2D "
        f"ran_dry spade_left_exit {RNG}",
    ),
    # M-16, M-15: held on the ♠K (threshold 13) by 3♥ and 2♦, the player skips the Move;
    # after the Expand's 9♣ goes above the 8♠, the Encounter turns 2♥ and 3♦: 2 + 3 +
    # 3 + 2 = 10 < 13, so the new cards join the holding ones. The ♠A at (6, 1) steps
    # along x (|dx| = 3 > |dy| = 1) to (5, 1), and turn 3 opens with the 10♣.
    (
        "M-16",
        f"{HOUSE} phase=place:9C turn=2 player=3,0 spade=6,1 held=3H,2D narrative=10C "
        f"mind=2H body=3D spade_left_exit {RNG}",
        "place 0,2",
        f"9C/{HOUSE} phase=place:10C turn=3 player=3,0 spade=5,1 held=3H,2D,2H,3D "
        f"spade_left_exit {RNG}",
    ),
    # M-17: a deck ran dry this turn (the flag set, no ♣A yet). The 2♦ completes the
    # Encounter on the 6♠ (7 + 2 = 9 >= 6), the ♠A steps off the Exit to (4, 0), and
    # then the ♣A appears on the Entrance, away from the player. Turn 3 opens with an
    # Expand whose draw, unstacked, waits for its outcome.
    (
        "M-17",
        f"{HOUSE} phase=draw-body:7H turn=2 player=2,0 spade=5,0 ran_dry {RNG} explicit_chance",
        "draw 2D",
        f"{HOUSE} phase=draw turn=3 player=2,0 spade=4,0 club=0,0 mind_aside=7H body_aside=2D "
        f"ran_dry spade_left_exit {RNG} explicit_chance",
    ),
    # M-18: the player moves up onto the 8♠ and holds their nerve (K♥ + 2♦ = 15 >= 8).
    # The ♠A at (1, -1), in empty space, has dx = -1 and dy = 2: |dy| >= |dx|, so it
    # steps along y, up to (1, 0). (A Stalker never leaves the table's bounds: it
    # starts on a card and only ever steps toward the player, who stands on one.)
    (
        "M-18",
        f"{HOUSE} phase=move turn=3 player=0,0 spade=1,-1 narrative=9C mind=KH body=2D "
        f"spade_left_exit {RNG}",
        "move 0,1",
        f"{HOUSE} phase=place:9C turn=4 player=0,1 spade=1,0 mind_aside=KH body_aside=2D "
        f"spade_left_exit {RNG}",
    ),
    # M-19: the player moves up onto the 8♠ (threshold 8; K♥ + 2♦ = 15). The ♠A at
    # (6, 0), east of the Exit, has dx = -6 and dy = 1, so its step is along x, onto the
    # Exit at (5, 0); having left the Exit it may not return, so it steps along the
    # other axis toward the player instead: up, to (6, 1).
    (
        "M-19",
        f"{HOUSE} phase=move turn=3 player=0,0 spade=6,0 narrative=9C mind=KH body=2D "
        f"spade_left_exit {RNG}",
        "move 0,1",
        f"{HOUSE} phase=place:9C turn=4 player=0,1 spade=6,1 mind_aside=KH body_aside=2D "
        f"spade_left_exit {RNG}",
    ),
    # M-20, M-18: two Stalkers may share a cell. The ♠A at (4, 1) and the ♣A at (4, -1)
    # both step toward the player, who moved to (3, 0) on the ♠K and held their nerve
    # (K♥ + 2♦ = 15 >= 13): each has |dy| = 1 >= |dx| = 1 and steps along y, onto
    # (4, 0), the 7♠, both at once.
    (
        "M-20",
        f"{HOUSE} phase=move turn=3 player=2,0 spade=4,1 club=4,-1 narrative=9C mind=KH "
        f"body=2D ran_dry spade_left_exit {RNG}",
        "move 3,0",
        f"{HOUSE} phase=place:9C turn=4 player=3,0 spade=4,0 club=4,0 mind_aside=KH "
        f"body_aside=2D ran_dry spade_left_exit {RNG}",
    ),
]


@pytest.mark.parametrize(
    ("ruling", "start", "action", "expected"), RULINGS, ids=[row[0] for row in RULINGS]
)
def test_the_ruling_takes_the_position_to_the_next(
    ruling: str, start: str, action: str, expected: str
) -> None:
    state = GAME.position(start)
    assert GAME.notation(state) == start, "the start is written as the notation writes it"
    after = GAME.step(state, GAME.parse_action(action))
    assert GAME.notation(after) == expected
    assert GAME.position(expected) is not None


def test_the_table_covers_six_rulings_or_more() -> None:
    assert len({row[0] for row in RULINGS}) >= 6
