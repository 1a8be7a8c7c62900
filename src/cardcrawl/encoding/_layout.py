"""The layout of an observation: named segments laid out one after the other."""

from __future__ import annotations

import math
from collections.abc import Iterable

import attrs

from cardcrawl.errors import EncodingError

__all__ = ["LayoutBuilder", "Segment", "named_segment"]


@attrs.frozen
class Segment:
    """One named part of the flat observation vector.

    Attributes:
        name: what the part holds, such as ``"player"`` or ``"narrative_left"``.
        start: the index of its first value in the flat vector.
        shape: its shape once cut out (``(51, 51)`` for a plane over the grid).
        description: what a value there means, in words.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.encoding import encoding_for
        >>> segment = encoding_for(cardcrawl.load("escape-from-haydes")).layout[0]
        >>> segment.name, segment.start, segment.stop
        ('face_down', 0, 106)
    """

    name: str
    start: int
    shape: tuple[int, ...]
    description: str

    @property
    def size(self) -> int:
        """How many values the part holds."""
        return math.prod(self.shape)

    @property
    def stop(self) -> int:
        """The index just past its last value."""
        return self.start + self.size


def named_segment(layout: Iterable[Segment], name: str, kind: str) -> Segment:
    """The segment of ``layout`` called ``name``; ``kind`` names the layout in the error.

    Raises:
        EncodingError: no segment has that name; the message lists the known ones.

    Examples:
        >>> layout = (
        ...     Segment("turn", 0, (1,), "the turn"),
        ...     Segment("cards", 1, (52,), "1 where the card is held"),
        ... )
        >>> named_segment(layout, "cards", "observation").stop
        53
        >>> named_segment(layout, "deck", "observation")
        Traceback (most recent call last):
        ...
        cardcrawl.errors.EncodingError: no observation segment is named 'deck'; known: turn, cards
    """
    for segment in layout:
        if segment.name == name:
            return segment
    known = ", ".join(s.name for s in layout)
    raise EncodingError(f"no {kind} segment is named {name!r}; known: {known}")


class LayoutBuilder:
    """Lays an observation's segments out one after the other, for a game's encoding.

    Attributes:
        segments: the segments added so far, in order.
        size: the length of the vector so far.

    Examples:
        >>> from cardcrawl.encoding import LayoutBuilder
        >>> layout = LayoutBuilder()
        >>> layout.add("board", (3, 3), "one per cell"), layout.add("turn", (1,), "the turn")
        (0, 9)
        >>> layout.size, [s.name for s in layout.segments]
        (10, ['board', 'turn'])
    """

    def __init__(self) -> None:
        self.segments: list[Segment] = []
        self.size = 0

    def add(self, name: str, shape: tuple[int, ...], description: str) -> int:
        """Add a segment of ``shape`` after the others; return where it starts."""
        segment = Segment(name, self.size, shape, description)
        self.segments.append(segment)
        self.size = segment.stop
        return segment.start
