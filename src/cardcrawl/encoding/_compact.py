"""Compact observations: what a seat may know as a short row of bytes.

The flat encoding (:meth:`Encoding.encode_observation`) spreads an observation over
thousands of floats, mostly one-hot planes of zeros. A learner fed millions of steps
wants the same facts in far less room: a game's compact form writes them as small
integers, one byte each (cards by index, cells by coordinates, counts), into a slice of
a buffer the caller owns. A batch of environments then keeps one preallocated buffer
for all its rows and never builds an array per step.

A compact row is written from ``game.observe(state, seat)``, never from the state, so
it cannot hold more than the seat may know; each game's :meth:`CompactObservation.read`
reads the observation back from the row, which proves that it holds no less.
"""

from __future__ import annotations

import abc
from typing import Any

from cardcrawl.encoding._layout import LayoutBuilder, Segment, named_segment
from cardcrawl.errors import EncodingError

__all__ = ["CompactObservation", "RowWriter"]


class CompactObservation(abc.ABC):
    """One game's compact observation: a fixed layout of unsigned bytes.

    Obtain one with :meth:`cardcrawl.encoding.Encoding.compact`. Each game documents
    its layout segment by segment (``layout``); the values are integers from 0 to 255.

    Attributes:
        game: the game the layout was made for.
        layout: the named segments of a row, in order.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.encoding import encoding_for
        >>> game = cardcrawl.load("mapless-house", max_turns=200)
        >>> compact = encoding_for(game).compact()
        >>> seen = game.observe(game.initial_state(seed=1), 0)
        >>> row = compact.encode(seen)
        >>> len(row) == compact.size, compact.size < 200
        (True, True)
    """

    def __init__(self, game: Any, layout: LayoutBuilder) -> None:
        self.game = game
        self.layout: tuple[Segment, ...] = tuple(layout.segments)
        self.size: int = layout.size

    def __repr__(self) -> str:
        return f"<{type(self).__name__} for {self.game.name}: {self.size} bytes>"

    @abc.abstractmethod
    def write(self, observation: Any, out: bytearray | memoryview, offset: int = 0) -> None:
        """Write ``observation`` into ``out[offset : offset + size]``, every byte of it.

        Raises:
            EncodingError: ``observation`` is not one of this game's.
        """

    @abc.abstractmethod
    def read(self, row: bytes | bytearray | memoryview) -> Any:
        """The observation a row was written from, but for what the layout leaves out
        by design (each game says what: the last step's events, say)."""

    def segment(self, name: str) -> Segment:
        """The segment of the layout called ``name``.

        Raises:
            EncodingError: no segment has that name.
        """
        return named_segment(self.layout, name, "compact")

    def row_writer(self, working: Any, seat: int) -> RowWriter:
        """A writer of one row from the working positions of ``working`` (see
        :class:`RowWriter`), what ``seat`` may know of each.

        This one writes ``write(game.observe(working.freeze(position), seat))``; a game
        whose compact form can read its own working positions overrides it to write
        straight from the position, byte for byte the same row.

        Args:
            working: the :class:`~cardcrawl.Working` the positions come from.
            seat: the observing player.

        Returns:
            A new writer, for one row.
        """
        return RowWriter(self, working, seat)

    def encode(self, observation: Any) -> bytes:
        """``observation`` as a new row of :attr:`size` bytes."""
        row = bytearray(self.size)
        self.write(observation, row)
        return bytes(row)

    def _check_row(self, row: bytes | bytearray | memoryview) -> None:
        if len(row) != self.size:
            raise EncodingError(f"a compact row of {self.game.name} has {self.size} bytes")


class RowWriter:
    """Writes one compact row, again and again, from the working position of one game.

    A batch keeps one writer per row: a game's own writer may remember what it wrote
    last, and write only the cells that changed when it is given the same position
    again. This one, the default, writes the whole row from the frozen state's
    observation every time.

    Args:
        compact: the compact form.
        working: where the positions come from.
        seat: the observing player.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.encoding import encoding_for
        >>> game = cardcrawl.load("mapless-house", max_turns=30)
        >>> compact = encoding_for(game).compact()
        >>> working = cardcrawl.StateWorking(game)
        >>> position = working.begin(1)
        >>> row = bytearray(compact.size)
        >>> compact.row_writer(working, 0).write_position(position, row)
        >>> bytes(row) == compact.encode(game.observe(game.initial_state(1), 0))
        True
    """

    def __init__(self, compact: CompactObservation, working: Any, seat: int) -> None:
        self.compact = compact
        self.working = working
        self.seat = seat

    def write_position(self, position: Any, out: bytearray | memoryview, offset: int = 0) -> None:
        """Write what the seat may know of ``position`` into ``out`` at ``offset``.

        Raises:
            EncodingError: the observation needs more room than the row has.
        """
        state = self.working.freeze(position)
        self.compact.write(self.compact.game.observe(state, self.seat), out, offset)
