"""The Mapless House as a plain, mutable Python simulator: the yardstick for cardcrawl.

This is the simulator a user would write by hand instead of using cardcrawl: the whole
game (rulings M-1 to M-22 of RULINGS.md) in one function, lists, dicts and sets mutated
in place, an incremental frontier of open cells, and a uniform-random player drawing
every decision from its own ``random.Random(seed)``. It imports nothing from cardcrawl.
It is written the way a competent Python programmer would optimise it (local names,
nothing copied from step to step), and no further: no precomputed tables, no bit tricks.

It plays the same game as ``cardcrawl.load("mapless-house", max_turns=...)`` with a
uniform-random policy, in distribution (not draw for draw: the two use different
generators); ``benchmarks/check_plain.py`` compares them over thousands of games.

Usage::

    from plain_mapless import play
    result = play(seed=1, max_turns=200)  # result.ending, result.decisions...
"""

from __future__ import annotations

import random
from typing import NamedTuple

ESCAPED, CONSUMED, LOST = "escaped", "consumed", "lost"

# Cards are (rank, suit): rank 1 (ace) to 13 (king). Only the Narrative deck's suits
# matter (M-10); the Mind and Body decks are just values 2-13.
EXIT = (1, "H")
NARRATIVE = [(rank, suit) for suit in "SC" for rank in range(2, 14)] + [EXIT]
VALUES = list(range(2, 14))  # one Mind deck (hearts) or Body deck (diamonds): 2-K


class Result(NamedTuple):
    """How a game went."""

    ending: str  #: ``"escaped"``, ``"consumed"`` or ``"lost"`` (the turn limit, M-22)
    decisions: int  #: placements, an Exit cell chosen among several, moves
    score: int  #: the cards on the table (M-21)
    turns: int  #: turns of phase two begun (the opening Move is not one)
    refused: int  #: Narrative cards refused (M-8)
    exit_distance: int  #: the Exit's distance from the Entrance (M-11)
    club_out: bool  #: the ♣A came onto the table (M-17)
    encounters_lost: int  #: Encounters whose total fell short: the player held (M-16)


def play(seed: int, max_turns: int | None = 200) -> Result:
    """One game of The Mapless House, every decision uniformly random."""
    rng = random.Random(seed)
    choice, randrange = rng.choice, rng.randrange

    narrative = NARRATIVE[:]
    rng.shuffle(narrative)
    mind = VALUES[:]
    rng.shuffle(mind)
    body = VALUES[:]
    rng.shuffle(body)
    mind_aside: list[int] = []
    body_aside: list[int] = []
    left = {"S": 12, "C": 12}  # black cards still in the Narrative deck (M-10)

    # The table: cell -> rank (the Entrance and the Exit are aces, rank 1).
    table = {(0, 0): 1}
    # The frontier: each empty cell touching the table -> how many table cards it touches.
    frontier = {(-1, 0): 1, (1, 0): 1, (0, -1): 1, (0, 1): 1}
    # Empty cells touching a corridor that already touches two cards (M-6).
    closed: set[tuple[int, int]] = set()
    last_room: tuple[int, int] | None = None
    farthest = 0  # the greatest distance of a table card from the Entrance (M-11)
    decisions = refused = lost = 0

    def put(cell: tuple[int, int], rank: int) -> None:
        """Lay a card on ``cell``: update the frontier, and close the empty cells of
        every corridor that this card gives a second touching card (M-6)."""
        nonlocal farthest
        x, y = cell
        table[cell] = rank
        del frontier[cell]
        closed.discard(cell)
        for n in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
            r = table.get(n)
            if r is None:
                frontier[n] = frontier.get(n, 0) + 1
            elif 2 <= r <= 10:  # a corridor beside the new card
                nx, ny = n
                around = ((nx - 1, ny), (nx + 1, ny), (nx, ny - 1), (nx, ny + 1))
                empty = [m for m in around if m not in table]
                if len(empty) <= 2:  # it touches two cards or more now
                    closed.update(empty)
        d = abs(x) + abs(y)
        if d > farthest:
            farthest = d

    def degree(cell: tuple[int, int]) -> int:
        x, y = cell
        return (
            ((x - 1, y) in table)
            + ((x + 1, y) in table)
            + ((x, y - 1) in table)
            + ((x, y + 1) in table)
        )

    def expand(card: tuple[int, int]) -> None:
        """Place a drawn Narrative card (not the Exit): M-4 to M-8."""
        nonlocal last_room, decisions, refused
        rank = card[0]
        if rank <= 10:  # a corridor: touches exactly one card, never a closed cell
            if last_room is not None and degree(last_room) < 2:  # M-7: pulled to the room
                x, y = last_room
                cells = [
                    c
                    for c in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1))
                    if frontier.get(c) == 1 and c not in closed
                ]
            else:
                cells = [c for c, n in frontier.items() if n == 1 and c not in closed]
        else:  # a room: anywhere touching the house, but not on a closed cell
            cells = [c for c in frontier if c not in closed]
        if not cells:
            refused += 1  # M-8
            return
        cell = choice(cells)
        decisions += 1
        put(cell, rank)
        if rank >= 11:
            last_room = cell

    # Phase one (M-9): draw and place until the Exit is on the table.
    while True:
        card = narrative.pop()
        if card == EXIT:
            if left["S"] and left["C"]:  # M-10: too early, shuffled back
                narrative.insert(randrange(len(narrative) + 1), EXIT)
                continue
            # M-11: the empty cells one farther than the farthest card, touching the house.
            candidates = [c for c in frontier if abs(c[0]) + abs(c[1]) == farthest + 1]
            if len(candidates) > 1:
                decisions += 1
            exit_cell = choice(candidates)
            put(exit_cell, 1)  # the Exit may give a corridor a third card (M-6)
            break
        left[card[1]] -= 1
        expand(card)

    # Phase two (M-12): the opening Move on its own, then the turns.
    player = (0, 0)
    spade: tuple[int, int] | None = exit_cell  # the ♠A waits on the Exit
    club: tuple[int, int] | None = None
    spade_moved = False  # M-19: once off the Exit, never back on it
    ran_dry = False
    held_mind: list[int] = []  # the cards holding the player (M-16), by deck
    held_body: list[int] = []

    def move() -> str | None:
        """M-14: step to a touching card; the end of the game, if it ends."""
        nonlocal player, decisions
        x, y = player
        cells = [c for c in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)) if c in table]
        player = choice(cells)
        decisions += 1
        if player in (spade, club):
            return CONSUMED  # M-20
        if player == exit_cell:
            return ESCAPED
        return None

    ending = move()
    turn = 0
    while ending is None:
        turn += 1
        if narrative:  # 1 Expand (M-13)
            expand(narrative.pop())
        if not (held_mind or held_body):  # 2 Move (M-14), skipped while held (M-16)
            ending = move()
            if ending is not None:
                break
        # 3 Encounter (M-15, M-16); an empty deck takes its shuffled Aside pile (M-17)
        if not mind:
            mind, mind_aside = mind_aside, mind
            rng.shuffle(mind)
            ran_dry = True
        if mind:
            held_mind.append(mind.pop())
        if not body:
            body, body_aside = body_aside, body
            rng.shuffle(body)
            ran_dry = True
        if body:
            held_body.append(body.pop())
        threshold = table[player]
        if threshold == 1:
            threshold = 0  # the Entrance and the Exit: always met
        if sum(held_mind) + sum(held_body) >= threshold:  # nerve held: all to the Aside piles
            mind_aside += held_mind
            body_aside += held_body
            held_mind.clear()
            held_body.clear()
        else:
            lost += 1
        # 4 Stalkers (M-18, M-19, M-20)
        px, py = player
        if spade is not None:
            sx, sy = spade
            dx, dy = px - sx, py - sy
            if abs(dy) >= abs(dx):
                step = (sx, sy + (dy > 0) - (dy < 0))
                other = (sx + (dx > 0) - (dx < 0), sy) if dx else spade
            else:
                step = (sx + (dx > 0) - (dx < 0), sy)
                other = (sx, sy + (dy > 0) - (dy < 0)) if dy else spade
            if spade_moved and step == exit_cell:
                step = other
            if step != spade:
                spade, spade_moved = step, True
            if spade == player:
                ending = CONSUMED
                break
        if club is not None:
            cx, cy = club
            dx, dy = px - cx, py - cy
            if abs(dy) >= abs(dx):
                club = (cx, cy + (dy > 0) - (dy < 0))
            else:
                club = (cx + (dx > 0) - (dx < 0), cy)
            if club == player:
                ending = CONSUMED
                break
        elif ran_dry:  # M-17: the ♣A appears on the Entrance at the end of the turn
            club = (0, 0)
            if club == player:
                ending = CONSUMED
                break
        if max_turns is not None and turn >= max_turns:
            ending = LOST  # M-22
    exit_distance = abs(exit_cell[0]) + abs(exit_cell[1])
    return Result(
        ending, decisions, len(table), turn, refused, exit_distance, club is not None, lost
    )
