"""The working interface of The Mapless House (see :class:`cardcrawl.Working`).

A position is the rules' own :class:`~cardcrawl.mapless._position.Position`, begun as
``initial_state`` begins it (``_setup``, then the chance draws of ``_resolve``) and
played by the rule methods ``step`` and the rollout kernel call for a decision
(``_decide``, then ``_resolve``), with the game's hooks bound in them (a variant's
included). The legal decisions are the cells the rules asked the hooks for
(``choices``), and a state is made by the game's own freeze.

Examples:
    >>> import cardcrawl
    >>> game = cardcrawl.load("mapless-house", max_turns=30)
    >>> working = MaplessWorking(game)
    >>> position = working.begin(4)
    >>> while not working.is_over(position):
    ...     working.advance(position, working.legal(position)[0])
    >>> working.outcome(position).label
    'consumed'
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping, Sequence
from typing import Any

from cardcrawl.core._protocol import Outcome
from cardcrawl.core._random import rng_from_seed
from cardcrawl.core._working import refuse
from cardcrawl.errors import EncodingError
from cardcrawl.kit._grid import Cell
from cardcrawl.mapless._actions import Action, Move, Place, PlaceExit
from cardcrawl.mapless._events import MaplessEvent
from cardcrawl.mapless._game import _MOVES, _PLACES
from cardcrawl.mapless._position import Position, thaw
from cardcrawl.mapless._state import MaplessState, Phase

__all__ = ["MaplessNumbering", "MaplessWorking", "working"]

_PLACE, _PLACE_EXIT, _MOVE, _OVER = Phase.PLACE, Phase.PLACE_EXIT, Phase.MOVE, Phase.OVER


def working(game: Any, events: bool) -> MaplessWorking:
    """``GameTools.working`` of The Mapless House: the working interface of ``game``,
    any variant."""
    return MaplessWorking(game, events)


class MaplessWorking:
    """The Mapless House played in place on working positions (see the module's text).

    Args:
        game: a game of The Mapless House or a variant of it.
        events: whether :meth:`freeze` gives the last decision's events.
    """

    __slots__ = ("_events", "events", "game")

    def __init__(self, game: Any, events: bool = False) -> None:
        self.game = game
        self.events = events
        # The last decision's events of each position, when kept.
        self._events: weakref.WeakKeyDictionary[Position, list[MaplessEvent]] = (
            weakref.WeakKeyDictionary()
        )

    def begin(self, seed: int, stack: Mapping[str, Sequence[Any]] | None = None) -> Position:
        """The position ``initial_state(seed, stack=stack)`` freezes.

        Raises:
            OptionsError: the seed is not an integer from 0 to 2**64 - 1.
            StackError: a bad stack.
        """
        game = self.game
        if stack:
            # A stack is checked and dealt by the public path, then thawed.
            state: MaplessState = game.initial_state(seed, stack=stack)
            pos = thaw(state)
            events = list(state.events)
        else:
            pos = game._setup(rng_from_seed(seed), False, {})
            events = []
            game._resolve(pos, events if self.events else None)
        if pos.choices is None and pos.phase is not _OVER:
            pos.choices = game._decision_cells(pos)
        if self.events:
            self._events[pos] = events
        return pos

    def legal(self, pos: Position) -> tuple[Action, ...]:
        """The legal decisions of ``pos``, as ``legal_actions`` lists them."""
        cells = pos.choices
        if not cells:
            return ()
        phase = pos.phase
        if phase is _PLACE:
            # The actions made once per cell that legal_actions gives too.
            return tuple(map(_PLACES.__getitem__, cells))
        if phase is _MOVE:
            return tuple(map(_MOVES.__getitem__, cells))
        return tuple([PlaceExit(c) for c in cells])

    def advance(self, pos: Position, action: Any) -> None:
        """Play the legal decision ``action`` on ``pos`` and the chance that follows.

        Raises:
            IllegalActionError: ``action`` is not legal here; ``pos`` is unchanged.
        """
        phase = pos.phase
        kind = type(action)
        cells = pos.choices
        if cells and (
            (kind is Place and phase is _PLACE)
            or (kind is Move and phase is _MOVE)
            or (kind is PlaceExit and phase is _PLACE_EXIT)
        ):
            cell = action.cell
            if cell in cells:
                game = self.game
                if self.events:
                    events: list[MaplessEvent] = []
                    game._decide(pos, cell, events)
                    game._resolve(pos, events)
                    self._events[pos] = events
                else:
                    game._decide(pos, cell, None)
                    game._resolve(pos, None)
                return
        refuse(self, pos, action)

    def numbering(self, encoding: Any) -> MaplessNumbering | None:
        """The legal decisions of a position as ``encoding``'s action numbers, each
        beside its cell (see :class:`MaplessNumbering`); ``None`` for an encoding that
        is not the game's own."""
        from cardcrawl.mapless._encoding import MaplessEncoding

        if type(encoding) is not MaplessEncoding:
            return None
        return MaplessNumbering(self, encoding)

    def is_over(self, pos: Position) -> bool:
        """True once the game is over."""
        return pos.phase is _OVER

    def outcome(self, pos: Position) -> Outcome | None:
        """The game's ``outcome`` of the state of ``pos``."""
        if pos.phase is not _OVER:
            return None
        outcome: Outcome | None = self.game.outcome(self.freeze(pos))
        return outcome

    def freeze(self, pos: Position) -> MaplessState:
        """The state of ``pos``, which plays on without changing it."""
        events = self._events.get(pos, []) if self.events else []
        state: MaplessState = self.game._frozen(pos, events)
        return state


class MaplessNumbering:
    """Numbers a position's legal decisions as the game's encoding does, from the cells.

    The encoding numbers a decision by its kind (place, place the Exit, move: the
    phase's) and its cell, through a fixed table, so the cells the rules asked the hooks
    for (``choices``) give the numbers without an action object, and a number gives the
    cell to play back through the same table.

    Args:
        working: the working interface whose positions are numbered.
        encoding: the game's :class:`~cardcrawl.mapless.MaplessEncoding`.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.encoding import encoding_for
        >>> game = cardcrawl.load("mapless-house", max_turns=30)
        >>> working, encoding = MaplessWorking(game), encoding_for(game)
        >>> numbering, position = working.numbering(encoding), working.begin(4)
        >>> numbers, cells = numbering.numbers(position)
        >>> numbers == [encoding.encode_action(a) for a in working.legal(position)]
        True
        >>> [cells[k] for k in numbers] == position.choices
        True
    """

    def __init__(self, working: MaplessWorking, encoding: Any) -> None:
        from cardcrawl.mapless._encoding import (
            _CELLS,
            _KIND_INDEX,
            MAPLESS_RADIUS,
            MAPLESS_SIDE,
            number_cell,
        )

        self._working = working
        self._game = working.game
        # The first number of each kind of decision.
        self._place = _KIND_INDEX[Place] * _CELLS
        self._exit = _KIND_INDEX[PlaceExit] * _CELLS
        self._move = _KIND_INDEX[Move] * _CELLS
        self._radius: int = MAPLESS_RADIUS
        self._side: int = MAPLESS_SIDE
        # Every action number, made once: numbering a cell picks its number here rather
        # than making a new int (the compiled build's C arithmetic would).
        self._numbers: list[int] = list(range(len(_KIND_INDEX) * _CELLS))
        #: The cell of each action number.
        self.cells: tuple[Cell, ...] = tuple(number_cell(k) for k in range(_CELLS)) * len(
            _KIND_INDEX
        )

    def numbers(self, pos: Position) -> tuple[list[int], tuple[Cell, ...]]:
        """The action numbers of the legal decisions of ``pos``, in the order of
        ``legal_actions``, and the cell of each number.

        Raises:
            EncodingError: a cell outside the encoded square (no game reaches one).
        """
        cells = pos.choices
        if not cells:
            return [], self.cells
        # Phases compared by identity (hashing an enum member is a Python-level call).
        phase = pos.phase
        first = self._place if phase is _PLACE else self._move if phase is _MOVE else self._exit
        r, side, every = self._radius, self._side, self._numbers
        numbers: list[int] = []
        for cell in cells:
            x = cell[0]
            y = cell[1]
            if not (-r <= x <= r and -r <= y <= r):
                raise EncodingError(
                    f"the cell {cell!r} lies outside the square the encoding numbers"
                )
            # The encoding's cell_number, over the cell's ints.
            numbers.append(every[first + (x + r) * side + (y + r)])
        return numbers, self.cells

    def play(self, pos: Position, cell: Cell) -> None:
        """Play the legal decision on ``cell`` (of :meth:`numbers`) on ``pos``, and the
        chance draws that follow."""
        game = self._game
        if self._working.events:
            events: list[MaplessEvent] = []
            game._decide(pos, cell, events)
            game._resolve(pos, events)
            self._working._events[pos] = events
        else:
            game._decide(pos, cell, None)
            game._resolve(pos, None)
