"""The Mapless House's numbering of legal decisions (``MaplessNumbering``) gives every cell
of the encoded square the number the encoding gives its action, and refuses a cell
outside; its row writer rewrites a pile whole when the pile is made anew of equal cards."""

from __future__ import annotations

import pytest

import cardcrawl
from cardcrawl.encoding import EncodingError, encoding_for
from cardcrawl.kit._cards import Card
from cardcrawl.mapless import Phase
from cardcrawl.mapless._actions import Move, Place, PlaceExit
from cardcrawl.mapless._encoding import MAPLESS_RADIUS
from cardcrawl.mapless._working import MaplessWorking

_SQUARE = [
    (x, y)
    for x in range(-MAPLESS_RADIUS, MAPLESS_RADIUS + 1)
    for y in range(-MAPLESS_RADIUS, MAPLESS_RADIUS + 1)
]


@pytest.mark.parametrize(
    ("phase", "kind"), [(Phase.PLACE, Place), (Phase.PLACE_EXIT, PlaceExit), (Phase.MOVE, Move)]
)
def test_every_cell_is_numbered_as_the_encoding_numbers_its_action(
    phase: Phase, kind: type
) -> None:
    game = cardcrawl.load("mapless-house", max_turns=30)
    encoding = encoding_for(game)
    working = MaplessWorking(game)
    numbering = working.numbering(encoding)
    assert numbering is not None
    position = working.begin(3)
    position.phase = phase
    position.choices = list(reversed(_SQUARE))
    numbers, cells = numbering.numbers(position)
    assert numbers == [encoding.encode_action(kind(cell)) for cell in position.choices]
    assert [cells[k] for k in numbers] == position.choices


@pytest.mark.parametrize(
    "cell",
    [(MAPLESS_RADIUS + 1, 0), (0, -MAPLESS_RADIUS - 1), (-MAPLESS_RADIUS - 1, MAPLESS_RADIUS)],
)
def test_a_cell_outside_the_square_is_refused(cell: tuple[int, int]) -> None:
    game = cardcrawl.load("mapless-house", max_turns=30)
    working = MaplessWorking(game)
    numbering = working.numbering(encoding_for(game))
    assert numbering is not None
    position = working.begin(3)
    position.choices = [(0, 1), cell]
    with pytest.raises(EncodingError, match="outside the square"):
        numbering.numbers(position)


def test_a_pile_made_anew_of_equal_cards_is_written_whole() -> None:
    game = cardcrawl.load("mapless-house", max_turns=30)
    compact = encoding_for(game).compact()
    assert compact is not None
    working = MaplessWorking(game)
    position = working.begin(5)
    writer = compact.row_writer(working, 0)
    row = bytearray(compact.size)
    first, second = Card.parse("2H"), Card.parse("3H")
    position.held = (first,)
    writer.write_position(position, row)
    # Equal cards, other objects: the writer may not take the pile for the old one grown.
    position.held = (Card(second.index), Card(first.index))
    writer.write_position(position, row)
    assert bytes(row) == compact.encode(game.observe(working.freeze(position), 0))
