"""The compact observation of The Mapless House: 178 bytes, card by card.

Each of the 52 cards has one place at a time (M-2): face down in its deck, on the table,
in an Aside pile, refused, holding the player, drawn or turned. So the row says, for
each card by index, where it is and, on the table, on which cell; then the pieces and
counters. Every cell the game can use lies within 25 steps of the Entrance (see
:mod:`cardcrawl.mapless._encoding`), so a coordinate plus 25 fits a byte.

What the row leaves out: the order of the face-up piles (the Aside piles, the Refused
pile and the cards holding the player), which no rule reads (an Aside pile is shuffled
before it is drawn from, M-17, and a hold counts values, M-15), and the last step's
events, which narrate what the rest of the row shows.
"""

from __future__ import annotations

from typing import Any

from cardcrawl.encoding._compact import CompactObservation, RowWriter
from cardcrawl.encoding._layout import LayoutBuilder
from cardcrawl.errors import EncodingError
from cardcrawl.kit._cards import Card
from cardcrawl.kit._grid import Cell, Grid
from cardcrawl.mapless._position import Position
from cardcrawl.mapless._state import (
    BODY_CARDS,
    MIND_CARDS,
    NARRATIVE_CARDS,
    Ending,
    MaplessObservation,
    Phase,
)

__all__ = ["WHERE", "MaplessCompact", "MaplessRowWriter"]

#: The places a card may be, by their number in the ``where`` segment.
WHERE = (
    "deck",  # face down in its deck (the Stalkers, never in a deck, are 0 too)
    "table",
    "mind_aside",
    "body_aside",
    "refused",
    "held",
    "drawn",
    "mind_card",
)
_DECK, _TABLE, _MIND_ASIDE, _BODY_ASIDE, _REFUSED, _HELD, _DRAWN, _MIND_CARD = range(8)
_OFF = 25  # every usable coordinate is from -25 to 25
_PHASES = tuple(Phase)
_PHASE_NUMBER = {p: i for i, p in enumerate(_PHASES)}
_ENDINGS = tuple(Ending)
_ENDING_NUMBER = {e: i + 1 for i, e in enumerate(_ENDINGS)}
_CARDS = tuple(Card(i) for i in range(52))
_NARRATIVE = frozenset(c.index for c in NARRATIVE_CARDS)
_PIECES = ("last_room", "exit_cell", "spade", "club")


class MaplessCompact(CompactObservation):
    """The compact observation of The Mapless House (see the module's text).

    Segments: ``where`` (52: each card's place, numbered as :data:`WHERE`), ``x`` and
    ``y`` (52 each: a table card's cell plus 25, else 0), ``phase`` (1: the
    :class:`~cardcrawl.mapless.Phase` in declaration order), ``ending`` (1: 0 while
    playing, then 1 + the :class:`~cardcrawl.mapless.Ending` in declaration order),
    ``turn`` (4: big-endian), ``player`` (2: x and y plus 25), ``last_room``,
    ``exit_cell``, ``spade`` and ``club`` (3 each: 1 when present, x and y plus 25), and
    ``flags`` (2: the ♠A has left the Exit; a deck has run dry).

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.encoding import encoding_for
        >>> game = cardcrawl.load("mapless-house")
        >>> compact = encoding_for(game).compact()
        >>> seen = game.observe(game.initial_state(seed=1, stack={"narrative": ["KS"]}), 0)
        >>> row = compact.encode(seen)
        >>> row[Card.parse("KS").index], row[Card.parse("AD").index]  # drawn; on the table
        (6, 1)
        >>> compact.read(row).drawn
        Card.parse('KS')
    """

    def __init__(self, game: Any) -> None:
        layout = LayoutBuilder()
        self._where = layout.add("where", (52,), "each card's place (WHERE)")
        self._x = layout.add("x", (52,), "a table card's x plus 25")
        self._y = layout.add("y", (52,), "a table card's y plus 25")
        self._phase = layout.add("phase", (1,), "the phase")
        self._ending = layout.add("ending", (1,), "0, or 1 + the ending")
        self._turn = layout.add("turn", (4,), "turns of phase two begun, big-endian")
        self._player = layout.add("player", (2,), "the player's cell plus 25")
        self._pieces = tuple(
            layout.add(name, (3,), "1 when present, its cell plus 25") for name in _PIECES
        )
        self._flags = layout.add("flags", (2,), "the ♠A left the Exit; a deck ran dry")
        super().__init__(game, layout)

    def row_writer(self, working: Any, seat: int) -> RowWriter:
        """A writer of one row straight from the working positions of ``working``
        (:class:`MaplessRowWriter`), where they are this game's; else the default.

        Examples:
            >>> import cardcrawl
            >>> from cardcrawl.encoding import encoding_for
            >>> game = cardcrawl.load("mapless-house", max_turns=30)
            >>> compact = encoding_for(game).compact()
            >>> working = cardcrawl.working_for(game)
            >>> position, row = working.begin(1), bytearray(compact.size)
            >>> compact.row_writer(working, 0).write_position(position, row)
            >>> bytes(row) == compact.encode(game.observe(game.initial_state(1), 0))
            True
        """
        from cardcrawl.mapless._working import MaplessWorking

        if type(working) is MaplessWorking and seat == 0:
            return MaplessRowWriter(self, working, seat)
        return super().row_writer(working, seat)

    def write(self, observation: Any, out: bytearray | memoryview, offset: int = 0) -> None:
        """Write a :class:`~cardcrawl.mapless.MaplessObservation` into ``out`` at
        ``offset``.

        Raises:
            EncodingError: ``observation`` is not one of this game's.
        """
        if not isinstance(observation, MaplessObservation):
            raise EncodingError(f"expected a MaplessObservation, not {type(observation).__name__}")
        obs = observation
        out[offset : offset + self.size] = bytes(self.size)
        where, xs, ys = offset + self._where, offset + self._x, offset + self._y
        for cell, card in obs.table.cards.items():
            k = card.index
            out[where + k] = _TABLE
            out[xs + k] = cell[0] + _OFF
            out[ys + k] = cell[1] + _OFF
        for place, pile in (
            (_MIND_ASIDE, obs.mind_aside),
            (_BODY_ASIDE, obs.body_aside),
            (_REFUSED, obs.refused),
            (_HELD, obs.held),
        ):
            for card in pile:
                out[where + card.index] = place
        if obs.drawn is not None:
            out[where + obs.drawn.index] = _DRAWN
        if obs.mind_card is not None:
            out[where + obs.mind_card.index] = _MIND_CARD
        out[offset + self._phase] = _PHASE_NUMBER[obs.phase]
        out[offset + self._ending] = 0 if obs.ending is None else _ENDING_NUMBER[obs.ending]
        out[offset + self._turn : offset + self._turn + 4] = obs.turn.to_bytes(4, "big")
        out[offset + self._player] = obs.player[0] + _OFF
        out[offset + self._player + 1] = obs.player[1] + _OFF
        for at, name in zip(self._pieces, _PIECES, strict=True):
            piece: Cell | None = getattr(obs, name)
            if piece is not None:
                out[offset + at : offset + at + 3] = bytes((1, piece[0] + _OFF, piece[1] + _OFF))
        out[offset + self._flags] = obs.spade_left_exit
        out[offset + self._flags + 1] = obs.ran_dry

    def read(self, row: bytes | bytearray | memoryview) -> MaplessObservation:
        """The observation ``row`` was written from, with its face-up piles sorted and
        no events (what the row leaves out: see the module's text).

        Raises:
            EncodingError: ``row`` is not a row of this layout.
        """
        self._check_row(row)
        row = bytes(row)
        places: dict[int, list[Card]] = {p: [] for p in range(len(WHERE))}
        table: dict[Cell, Card] = {}
        for k, card in enumerate(_CARDS):
            place = row[self._where + k]
            if place not in places:
                raise EncodingError(f"card {card} has no place numbered {place}")
            if place == _TABLE:
                table[row[self._x + k] - _OFF, row[self._y + k] - _OFF] = card
            else:
                places[place].append(card)
        deck = places[_DECK]
        phase_number, ending_number = row[self._phase], row[self._ending]
        if phase_number >= len(_PHASES) or ending_number > len(_ENDINGS):
            raise EncodingError("the row's phase or ending is out of range")
        pieces: list[Cell | None] = []
        for at in self._pieces:
            present, x, y = tuple(row[at : at + 3])
            pieces.append((x - _OFF, y - _OFF) if present else None)
        last_room, exit_cell, spade, club = pieces
        return MaplessObservation(
            phase=_PHASES[phase_number],
            turn=int.from_bytes(row[self._turn : self._turn + 4], "big"),
            table=Grid(table),
            last_room=last_room,
            narrative_left=tuple(c for c in deck if c.index in _NARRATIVE),
            mind_left=tuple(c for c in deck if c in MIND_CARDS),
            body_left=tuple(c for c in deck if c in BODY_CARDS),
            mind_aside=tuple(places[_MIND_ASIDE]),
            body_aside=tuple(places[_BODY_ASIDE]),
            refused=tuple(places[_REFUSED]),
            held=tuple(places[_HELD]),
            drawn=_only(places[_DRAWN]),
            mind_card=_only(places[_MIND_CARD]),
            player=(row[self._player] - _OFF, row[self._player + 1] - _OFF),
            exit_cell=exit_cell,
            spade=spade,
            club=club,
            spade_left_exit=bool(row[self._flags]),
            ran_dry=bool(row[self._flags + 1]),
            ending=None if ending_number == 0 else _ENDINGS[ending_number - 1],
            events=(),
        )


_PILES = ("mind_aside", "body_aside", "refused", "held", "drawn", "mind_card")
_UNSET = object()  # no value written yet
_PLACES = (_MIND_ASIDE, _BODY_ASIDE, _REFUSED, _HELD, _DRAWN, _MIND_CARD)


class MaplessRowWriter(RowWriter):
    """One compact row of The Mapless House, written straight from a working position.

    It reads of the position only the fields the observation is made of (never the
    generator or a deck's order) and writes the bytes :meth:`MaplessCompact.write`
    writes from ``game.observe(freeze(position), 0)``. Given the same position again,
    into the same place, it rewrites the turn and flags, and of the rest only what the
    rules replaced since: the phase, ending, player and pieces, the cards laid on the
    table since (the rules only ever add cards to it), and the cards of a pile (only
    the new ones of a pile that grew). The place must then still hold the row it wrote
    (a batch's rows, which nobody else writes); given any other, it writes the whole
    row there.

    Args:
        compact: the compact form.
        working: the :class:`~cardcrawl.mapless._working.MaplessWorking` of its game.
        seat: the observing player (0).
    """

    def __init__(self, compact: MaplessCompact, working: Any, seat: int) -> None:
        super().__init__(compact, working, seat)
        # The layout's offsets, read once (the compiled build keeps them as C ints).
        self._size: int = compact.size
        self._where: int = compact._where
        self._x: int = compact._x
        self._y: int = compact._y
        self._phase: int = compact._phase
        self._ending: int = compact._ending
        self._turn: int = compact._turn
        self._player: int = compact._player
        self._flags: int = compact._flags
        self._pieces: list[int] = list(compact._pieces)
        self._zero = bytes(compact.size)
        self._out: Any = None  # where the last row went, and at which offset
        self._offset = -1
        self._pos: Any = None  # the position written last, and what it held then:
        self._table: Any = None
        self._laid = 0
        self._piles: list[Any] = [None] * len(_PILES)
        # The phase, ending, player and pieces written last (_UNSET: none yet).
        self._small: list[Any] = [_UNSET] * 8

    def write_position(self, position: Any, out: bytearray | memoryview, offset: int = 0) -> None:
        """Write what the player may know of ``position`` into ``out`` at ``offset``."""
        if out is not self._out or offset != self._offset:
            # Only what changed is written, into the row written last: anywhere else,
            # the whole row is written anew.
            self._pos = None
            self._out, self._offset = out, offset
        if type(out) is bytearray:
            self._write(position, out, offset)
        else:
            row = bytearray(out[offset : offset + self._size])
            self._write(position, row, 0)
            out[offset : offset + self._size] = row

    def _write(self, pos: Position, out: bytearray, offset: int) -> None:
        where, xs, ys = offset + self._where, offset + self._x, offset + self._y
        # The bytes written, as locals (C integers in the compiled build).
        off, in_deck, on_table = _OFF, _DECK, _TABLE
        if pos is not self._pos:
            out[offset : offset + self._size] = self._zero
            self._pos = pos
            self._table = None
            self._piles = [None] * len(_PILES)
            self._small = [_UNSET] * 8
        # The piles replaced since: their old cards leave first, for wherever they went,
        # but for a pile that only grew, whose old cards stay where they are.
        piles: list[Any] = [
            pos.mind_aside,
            pos.body_aside,
            pos.refused,
            pos.held,
            pos.drawn,
            pos.mind_card,
        ]
        kept = self._piles
        changed = False
        for k in range(6):
            old = kept[k]
            pile = piles[k]
            if pile is not old:
                changed = True
                if old is not None:
                    if k >= 4:
                        c = old.index
                        out[where + c] = in_deck
                    elif not _grew(old, pile):
                        for card in old:
                            c = card.index
                            out[where + c] = in_deck
        table = pos.table._cards
        laid = len(table)
        if table is not self._table or laid < self._laid:
            self._laid = 0
        new = laid - self._laid
        if new:
            # The cards laid since the last row: the last ones in the table's order.
            for cell, card in reversed(table.items()):
                k = card.index
                x = cell[0]
                y = cell[1]
                out[where + k] = on_table
                out[xs + k] = x + off
                out[ys + k] = y + off
                new -= 1
                if not new:
                    break
        self._table, self._laid = table, laid
        if changed:
            for k in range(6):
                pile = piles[k]
                old = kept[k]
                if pile is not old and pile is not None:
                    place = _PLACES[k]
                    if k >= 4:
                        c = pile.index
                        out[where + c] = place
                    else:
                        first = len(old) if old is not None and _grew(old, pile) else 0
                        for j in range(first, len(pile)):
                            c = pile[j].index
                            out[where + c] = place
                kept[k] = pile
        # The rest is rewritten only where the position holds another value than the
        # one written last (values the rules replace, never change).
        small = self._small
        phase = pos.phase
        if phase is not small[0]:
            out[offset + self._phase] = _PHASES.index(phase)
            small[0] = phase
        ending = pos.ending
        if ending is not small[1]:
            out[offset + self._ending] = 0 if ending is None else 1 + _ENDINGS.index(ending)
            small[1] = ending
        at = offset + self._turn
        turn = pos.turn
        if not 0 <= turn < 2**32:
            raise EncodingError(f"the turn is from 0 to 2**32 - 1 in a row, not {turn}")
        out[at] = turn >> 24 & 255
        out[at + 1] = turn >> 16 & 255
        out[at + 2] = turn >> 8 & 255
        out[at + 3] = turn & 255
        player = pos.player
        if player is not small[2]:
            x = player[0]
            y = player[1]
            out[offset + self._player] = x + off
            out[offset + self._player + 1] = y + off
            small[2] = player
        pieces = self._pieces
        for k, piece in enumerate((pos.last_room, pos.exit_cell, pos.spade, pos.club)):
            if piece is not small[3 + k]:
                _piece(out, offset + pieces[k], piece)
                small[3 + k] = piece
        out[offset + self._flags] = pos.spade_left_exit
        out[offset + self._flags + 1] = pos.ran_dry


def _grew(old: Any, pile: Any) -> bool:
    """Whether ``pile`` is ``old`` with cards added after them: the same card objects
    first (a pile made anew of equal cards counts as replaced, and is written whole)."""
    n = len(old)
    if len(pile) <= n:
        return False
    # A loop, not all() over a generator, which the compiled build would make as one.
    for j in range(n):  # noqa: SIM110
        if pile[j] is not old[j]:
            return False
    return True


def _piece(out: bytearray, at: int, piece: Cell | None) -> None:
    """A piece's three bytes: 1 when present, its cell plus 25."""
    if piece is None:
        out[at] = out[at + 1] = out[at + 2] = 0
    else:
        out[at] = 1
        out[at + 1] = piece[0] + _OFF
        out[at + 2] = piece[1] + _OFF


def _only(cards: list[Card]) -> Card | None:
    if len(cards) > 1:
        raise EncodingError(f"a row may hold one such card, not {len(cards)}")
    return cards[0] if cards else None
