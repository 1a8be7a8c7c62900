"""A text picture of an Escape from Haydes state: the layout, the figures and the piles."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from cardcrawl.errors import InvalidStateError
from cardcrawl.haydes._creatures import STANDARD_CREATURES, Creature, creature_for
from cardcrawl.haydes._state import MIXED, Ending, HaydesState, Phase
from cardcrawl.kit._cards import Card
from cardcrawl.kit._grid import Cell, bounds, cell_text
from cardcrawl.kit._textmap import crop_note, text_map

__all__ = ["holder", "render", "render_terminal", "stock_creature"]


#: A game's ``creature`` hook (H-1, H-8): the creature a card is, or ``None``.
CreatureHook = Callable[[Card], "Creature | None"]


def stock_creature(card: Card) -> Creature | None:
    """The standard game's ``creature`` hook, for a picture drawn without its game."""
    return creature_for(STANDARD_CREATURES, card)


def _card_text(card: Card) -> str:
    return card.code if card.is_joker else card.symbol


def holder(state: HaydesState, cell: Cell, creature: CreatureHook) -> Card | None:
    """The card whose creature holds a figure standing on ``cell``, if any (H-8): a
    face-up card that the game's ``creature`` hook makes a creature, not yet overcome."""
    card = state.card_at(cell)
    if card is None or cell in state.overcome or creature(card) is None:
        return None
    return card


def render(state: HaydesState, creature: CreatureHook | None = None) -> str:
    """The state as a map, north (larger y) at the top, then the players and the piles.

    Each cell shows its card: ``##`` face down, ``??`` face down in the mix the Red Joker
    was shuffled into (H-10), or the face-up card (``BJ`` the Black Joker, ``RJ`` the Red
    Joker); a ``'`` after a creature's card means it is overcome (H-8). Then the seat
    numbers of the figures standing there. A ``*`` marks the player to move; a player
    on a creature not overcome is *held by* it.

    Args:
        state: a state of Escape from Haydes.
        creature: the game's ``creature`` hook (``game.render`` gives its own); ``None``:
            the standard game's.

    Raises:
        InvalidStateError: ``state`` is not a state of Escape from Haydes.

    Examples:
        >>> import cardcrawl
        >>> game = cardcrawl.load("escape-from-haydes", players=2)
        >>> state = game.initial_state(seed=3, stack={"first_player": [1]})
        >>> print("\\n".join(game.render(state).splitlines()[5:8]))
          1   ##     ##     ##     ##     ##     ##     ##     ##     ##     ##     ##
          0   ##     ##     ##     ##     ##     BJ 01  ##     ##     ##     ##     ##
         -1   ##     ##     ##     ##     ##     ##     ##     ##     ##     ##     ##
        >>> print("\\n".join(game.render(state).splitlines()[-3:]))
          Player 0: Charisma 8 · Endurance 8 · at (0, 0)
        * Player 1: Charisma 8 · Endurance 8 · at (0, 0)
        Round 1 · Replacement deck 104 · discard 0 · removed 0
    """
    if not isinstance(state, HaydesState):
        # Another game's state has none of these fields: say so rather than fail inside.
        raise InvalidStateError(
            f"a state of Escape from Haydes is a HaydesState, not {type(state).__name__}"
        )
    layout = state.layout
    marks: dict[tuple[int, int], str] = {}
    for seat, figure in enumerate(state.seats):
        if figure.cell is not None:
            marks[figure.cell] = marks.get(figure.cell, "") + str(seat)
    width = max((len(m) for m in marks.values()), default=0)
    min_x, min_y, max_x, max_y = bounds(layout)
    cells = dict(zip(layout, range(len(layout)), strict=True))
    joker_mix = next((m for m in state.mixes if Card.RED_JOKER in m.known), None)
    lines = ["    " + "".join(f"{x:>4}".ljust(4 + width + 1) for x in range(min_x, max_x + 1))]
    lines[0] = lines[0].rstrip()
    for y in range(max_y, min_y - 1, -1):
        row = [f"{y:>3} "]
        for x in range(min_x, max_x + 1):
            i = cells.get((x, y))
            if i is None:
                row.append(" " * (5 + width))
                continue
            card = state.face_up[i]
            if card is None:
                in_joker_mix = (
                    state.pool_of[i] == MIXED
                    and joker_mix is not None
                    and (x, y) in joker_mix.cells
                )
                text = " ?? " if in_joker_mix else " ## "
            else:
                overcome = "'" if (x, y) in state.overcome else " "
                text = _card_text(card).rjust(3) + overcome
            row.append(" " + text + marks.get((x, y), "").ljust(width))
        lines.append("".join(row).rstrip())
    lines.append(_status(state))
    for seat, figure in enumerate(state.seats):
        pointer = "*" if seat == state.current and state.phase is not Phase.OVER else " "
        where = "out" if figure.cell is None else f"at {cell_text(figure.cell)}"
        if state.winner == seat:
            where = "escaped"
        elif figure.cell is not None:
            card = holder(state, figure.cell, creature or stock_creature)
            if card is not None:
                where += f" · held by {_card_text(card)}"
        lines.append(
            f"{pointer} Player {seat}: Charisma {figure.charisma} · "
            f"Endurance {figure.endurance} · {where}"
        )
    lines.append(
        f"Round {state.round} · Replacement deck {state.replacement_left} · "
        f"discard {len(state.discard)} · removed {len(state.removed)}"
    )
    return "\n".join(lines)


def render_terminal(
    state: HaydesState,
    legal: Sequence[Any] = (),
    *,
    width: int | None = 80,
    focus: Cell | None = None,
    creature: CreatureHook | None = None,
) -> str:
    """The state for a terminal: :func:`render` with the choices numbered on the map.

    Each cell that one of the ``legal`` actions names shows the numbers of those
    actions in brackets (the first action is ``(1)``): ``(1/2)`` in place of a
    face-down card's ``##`` is *higher* and *lower* onto it, and a number after a
    face-up card steps there. When the map is wider than ``width`` it is cropped to the
    columns around the player to move and the numbered cells (or around ``focus``), and
    a line says what was left out.

    Args:
        state: a state of Escape from Haydes.
        legal: the actions to number, in order (the game's legal actions).
        width: the most characters a line of the map may have; ``None``: the whole map.
        focus: a cell to centre the map on instead.
        creature: the game's ``creature`` hook; ``None``: the standard game's.

    Returns:
        The map, a line on what its numbers mean, and the lines :func:`render` ends with.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.haydes._render import render_terminal
        >>> game = cardcrawl.load("escape-from-haydes", players=2)
        >>> state = game.initial_state(seed=3, stack={"first_player": [1]})
        >>> lines = render_terminal(state, game.legal_actions(state)).splitlines()
        >>> print("\\n".join(lines[5:8] + lines[11:13]))
          1   ##    ##    ##    ##    ##    (5/6)    ##     ##    ##    ##    ##
          0   ##    ##    ##    ##   (1/2)   BJ 01  (7/8)   ##    ##    ##    ##
         -1   ##    ##    ##    ##    ##    (3/4)    ##     ##    ##    ##    ##
        (N/M): choice N announces higher and M lower, moving onto that face-down card.
        The Red Joker is somewhere under the build cards (##)
    """
    layout = state.layout
    marks: dict[Cell, str] = {}
    for seat, figure in enumerate(state.seats):
        if figure.cell is not None:
            marks[figure.cell] = marks.get(figure.cell, "") + str(seat)
    numbers: dict[Cell, list[int]] = {}
    for number, action in enumerate(legal, 1):
        cell = getattr(action, "cell", None)
        if cell is not None:
            numbers.setdefault(cell, []).append(number)
    cells = dict(zip(layout, range(len(layout)), strict=True))
    joker_mix = next((m for m in state.mixes if Card.RED_JOKER in m.known), None)
    contents: dict[Cell, str] = {}
    for cell, i in cells.items():
        card = state.face_up[i]
        label = "(" + "/".join(str(n) for n in numbers.get(cell, ())) + ")"
        if card is None:
            in_joker_mix = (
                state.pool_of[i] == MIXED and joker_mix is not None and cell in joker_mix.cells
            )
            if cell in numbers and not in_joker_mix:
                text = label.rjust(4)
            else:
                text = (" ?? " if in_joker_mix else " ## ") + (label if cell in numbers else "")
        else:
            overcome = "'" if cell in state.overcome else " "
            text = _card_text(card).rjust(3) + overcome
            if cell in numbers:
                text += label
        contents[cell] = " " + text + marks.get(cell, "")
    current = state.seats[state.current].cell if state.phase is not Phase.OVER else None
    around = [c for c in (current, *numbers) if c is not None] if focus is None else [focus]
    area = bounds(layout)
    lines, shown = text_map(
        contents, area, width=width, focus=around, pin=focus is not None, slot=4, min_cell=6
    )
    hidden = sorted(n for cell, ns in numbers.items() if cell[0] not in shown for n in ns)
    note = crop_note(shown, area, hidden)
    if note:
        lines.append(note)
    if any(len(ns) > 1 for ns in numbers.values()):
        lines.append(
            "(N/M): choice N announces higher and M lower, moving onto that face-down card."
        )
    if any(state.face_up[cells[c]] is not None for c in numbers):
        lines.append("(N) after a face-up card: choice N steps onto it.")
    rest = render(state, creature).splitlines()
    lines.extend(rest[len(rest) - len(state.seats) - 2 :])
    return "\n".join(lines)


def _status(state: HaydesState) -> str:
    if state.ending is Ending.ESCAPED:
        return f"Game over: Player {state.winner} escaped"
    if state.ending is not None:
        return f"Game over: {state.ending.value}, nobody escaped"
    joker = next((m.cells for m in state.mixes if Card.RED_JOKER in m.known), None)
    if joker is None:
        return "The Red Joker is somewhere under the build cards (##)"
    if len(joker) == 1:
        return "Almost there: the Red Joker lies under the cell marked ??"
    return f"Almost there: the Red Joker lies under one of the {len(joker)} cells marked ??"
