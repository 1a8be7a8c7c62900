"""What a game's position notation is made of: the protocol, the shared pieces, and the
game's methods that read and write it (:class:`NotationMixin`, mixed into ``GameBase``).

A *position notation* writes a state as one line of text a person can read and write,
as FEN does for chess; :meth:`~cardcrawl.GameBase.notation` writes it and
:meth:`~cardcrawl.GameBase.position` reads it back. A game declares one by setting its
class attribute ``notation_format`` to an object of the :class:`NotationFormat`
protocol, kept in a module of the game's own (``cardcrawl/mapless/_notation.py``).

The pieces here are shared so that every game's notation reads alike: a first token,
then ``key=value`` fields and bare flag words, separated by single spaces; cards by
their codes (``KS``, ``10H``), joined by commas; cells as ``x,y``; ``-`` for nothing.
Every error is a :class:`~cardcrawl.errors.NotationError` naming the field at fault.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar

from cardcrawl.core._validation import CENSUS_PROBLEM
from cardcrawl.errors import InvalidStateError, NotationError, ParseError, short_repr
from cardcrawl.kit._cards import Card, parse_cards
from cardcrawl.kit._grid import Cell, cell_code, parse_cell_code

__all__ = [
    "MAX_COUNT",
    "NotationFormat",
    "NotationMixin",
    "card_part",
    "cards_part",
    "cards_text",
    "cell_part",
    "check_parts",
    "fail",
    "parse_cards_field",
    "parse_cell_field",
    "parse_fields",
    "parse_int_field",
    "parse_rng_field",
    "rng_text",
    "validated",
]

S = TypeVar("S")
O = TypeVar("O")  # noqa: E741

# The longest notation read: far beyond any real position (a few hundred characters),
# short enough that hostile text costs nothing to refuse.
MAX_NOTATION = 10_000
#: The largest count a notation writes (nine digits): a state's round or turn beyond it
#: could be played but never written down, so ``validate`` refuses it.
MAX_COUNT = 999_999_999


class NotationFormat(Protocol):
    """How one game writes its states and observations as text, and reads them back.

    ``read`` need not validate the state it builds against the rules:
    :meth:`~cardcrawl.GameBase.position` runs it through ``game.validate`` and names the
    field that :meth:`field_of` gives for the first problem found.
    """

    def write(self, game: Any, state: Any) -> str:
        """The notation of ``state``."""

    def read(self, game: Any, text: str) -> Any:
        """The state ``text`` writes, its fields of the right types (not yet validated)."""

    def write_observation(self, game: Any, observation: Any) -> str:
        """The redacted notation of an observation: only what its seat may know."""

    def read_observation(self, game: Any, text: str) -> Any:
        """The observation ``text`` writes, checked as a position is."""

    def field_of(self, problem: str) -> str:
        """The notation field a problem of ``game.state_problems`` is about, or ``""``."""

    def compose(self, game: Any, parts: Mapping[str, Any]) -> str:
        """The notation of the position ``parts`` describe, for ``game.build(**parts)``."""


def fail(field: str, message: str) -> NotationError:
    """The :class:`~cardcrawl.errors.NotationError` for ``field``, its message led by the
    field's name.

    Examples:
        >>> from cardcrawl.core._notation import fail
        >>> error = fail("player", "'x' is not a cell")
        >>> str(error), error.field
        ("player: 'x' is not a cell", 'player')
    """
    return NotationError(f"{field}: {message}" if field else message, field=field)


def parse_fields(
    text: Any, keys: Iterable[str], flags: Iterable[str], *, what: str, first: str = ""
) -> tuple[str, dict[str, str], set[str]]:
    """Split a notation into its first token, its ``key=value`` fields and its flags.

    Args:
        text: the notation, from anyone.
        keys: the names of the fields a ``key=value`` token may give.
        flags: the bare words that may appear.
        what: what the notation is of, for messages (``"a position of The Mapless
            House"``).
        first: the name of the field the first token writes (``"table"``), named by a
            refusal of an empty notation or of a blank before the first field.

    Returns:
        The first token, the fields by key and the set of flags.

    Raises:
        NotationError: not text, empty, too long, a token neither a field nor a flag, a
            field given twice.

    Examples:
        >>> from cardcrawl.core._notation import parse_fields
        >>> parse_fields("AD turn=3 ran_dry", ["turn"], ["ran_dry"], what="a position")
        ('AD', {'turn': '3'}, {'ran_dry'})
        >>> parse_fields("AD turns=3", ["turn"], [], what="a position")
        Traceback (most recent call last):
        ...
        cardcrawl.errors.NotationError: turns: not a field of a position; its fields are turn

        A blank token (two spaces, or one at either end) is blamed on the field beside it:

        >>> parse_fields("AD  turn=3", ["turn"], [], what="a position")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cardcrawl.errors.NotationError: turn: a position is tokens separated by single spaces, ...
    """
    if not isinstance(text, str):
        raise fail("", f"{what} is written as text, not {type(text).__name__}")
    if len(text) > MAX_NOTATION:
        raise fail("", f"{what} is at most {MAX_NOTATION} characters long; this is {len(text)}")
    tokens = text.split(" ")
    known, words = tuple(keys), frozenset(flags)
    if not text or any(not token for token in tokens):
        raise fail(
            _beside_blank(tokens, first, words),
            f"{what} is tokens separated by single spaces, with none empty",
        )
    fields: dict[str, str] = {}
    seen: set[str] = set()
    for token in tokens[1:]:
        key, equals, value = token.partition("=")
        if not equals:
            if key not in words:
                listed = ", ".join(sorted(words)) or "none"
                raise fail(key, f"not a flag of {what}; its flags are {listed}")
            if key in seen:
                raise fail(key, "given twice")
            seen.add(key)
            continue
        if key not in known:
            raise fail(key, f"not a field of {what}; its fields are {', '.join(known)}")
        if key in fields:
            raise fail(key, "given twice")
        fields[key] = value
    return tokens[0], fields, seen


def _beside_blank(tokens: list[str], first: str, flags: frozenset[str]) -> str:
    # The field whose token follows the first blank one, else the one before it: a
    # field's key, a flag, or else the first token, which writes ``first``.
    blank = tokens.index("")
    for at in (blank + 1, blank - 1):
        if 0 <= at < len(tokens) and tokens[at]:
            key, equals, _ = tokens[at].partition("=")
            return key if equals or key in flags else first
    return first


def cards_text(cards: Iterable[Card]) -> str:
    """Cards as their codes joined by commas, ``-`` for none.

    Examples:
        >>> from cardcrawl import parse_cards
        >>> from cardcrawl.core._notation import cards_text
        >>> cards_text(parse_cards("10H 2D")), cards_text(())
        ('10H,2D', '-')
    """
    return ",".join(card.code for card in cards) or "-"


def parse_cards_field(field: str, text: str) -> tuple[Card, ...]:
    """The cards ``text`` names, codes joined by commas (``-`` for none)."""
    if text == "-":
        return ()
    cards = []
    for code in text.split(","):
        try:
            cards.append(Card.parse(code))
        except ParseError:
            raise fail(field, f"{code!r} is not a card code (such as KS, 10H or AD)") from None
    return tuple(cards)


def parse_cell_field(field: str, text: str) -> Cell:
    """The cell ``text`` writes as ``x,y``."""
    cell = parse_cell_code(text)
    if cell is None:
        raise fail(field, f"{text!r} is not a cell, written x,y (such as 1,-2)")
    return cell


def cell_or_none(cell: Cell | None) -> str:
    """A cell as ``x,y``, or ``-``."""
    return "-" if cell is None else cell_code(cell)


def parse_optional_cell(field: str, text: str) -> Cell | None:
    """The cell ``text`` writes, or ``None`` for ``-``."""
    return None if text == "-" else parse_cell_field(field, text)


_DECIMAL = re.compile(r"0|[1-9][0-9]{0,8}")
_HEX = re.compile(r"[0-9a-f]{16}")


def parse_int_field(field: str, text: str) -> int:
    """A count: ``0`` or a decimal number without leading zeros, at most :data:`MAX_COUNT`."""
    if not _DECIMAL.fullmatch(text):
        raise fail(field, f"{text!r} is not a count (0, 1, 2, ...)")
    return int(text)


def rng_text(rng: int) -> str:
    """A generator state as 16 lowercase hex digits.

    Examples:
        >>> from cardcrawl.core._notation import rng_text
        >>> rng_text(255)
        '00000000000000ff'
    """
    return f"{rng:016x}"


def parse_rng_field(field: str, text: str) -> int:
    """A generator state written as 16 lowercase hex digits."""
    if not _HEX.fullmatch(text):
        raise fail(field, f"{text!r} is not a generator state: 16 hex digits (0-9, a-f)")
    return int(text, 16)


# The parts of ``game.build(**parts)`` are values, not text: each kind of part is read
# here, once for every game, and refused with the field it was given as.
def cell_part(field: str, value: Any) -> Cell:
    """A cell given as a part: a tuple of two integers.

    Raises:
        NotationError: naming ``field``, for anything else.

    Examples:
        >>> from cardcrawl.core._notation import cell_part
        >>> cell_part("held", (1, -2))
        (1, -2)
        >>> cell_part("held", [1, -2])
        Traceback (most recent call last):
        ...
        cardcrawl.errors.NotationError: held: a cell (x, y) of two integers, not [1, -2]
    """
    if (
        isinstance(value, tuple)
        and len(value) == 2
        and all(type(v) is int and abs(v) < 10**9 for v in value)
    ):
        return value
    raise fail(field, f"a cell (x, y) of two integers, not {short_repr(value)}")


def card_part(field: str, value: Any, *, example: str) -> Card:
    """A card given as a part: a :class:`~cardcrawl.Card` or its code.

    Args:
        field: the part's name, for the error.
        value: what was given.
        example: a card code the game's message shows (such as ``QH``).

    Raises:
        NotationError: naming ``field``, for anything else.

    Examples:
        >>> from cardcrawl.core._notation import card_part
        >>> card_part("drawn", "KS", example="QH")
        Card.parse('KS')
        >>> card_part("drawn", 13, example="QH")
        Traceback (most recent call last):
        ...
        cardcrawl.errors.NotationError: drawn: a card or its code (such as QH), not 13
    """
    if isinstance(value, Card):
        return value
    if isinstance(value, str):
        try:
            return Card.parse(value)
        except ParseError:
            pass
    raise fail(field, f"a card or its code (such as {example}), not {short_repr(value)}")


def cards_part(field: str, value: Any, *, example: str) -> tuple[Card, ...]:
    """Cards given as a part: cards, their codes, or one text of codes.

    Args:
        field: the part's name, for the error.
        value: what was given.
        example: a text of card codes the game's message shows (such as ``QH 5S``).

    Raises:
        NotationError: naming ``field``, for anything else.

    Examples:
        >>> from cardcrawl.core._notation import cards_part
        >>> cards_part("mind", "QH 5S", example="QH 5S")
        (Card.parse('QH'), Card.parse('5S'))
        >>> cards_part("mind", 5, example="QH 5S")
        Traceback (most recent call last):
        ...
        cardcrawl.errors.NotationError: mind: cards, or their codes ("QH 5S"), not 5
    """
    try:
        return parse_cards(value)
    except (ParseError, TypeError, AttributeError):
        raise fail(field, f'cards, or their codes ("{example}"), not {short_repr(value)}') from None


def check_parts(game: Any, parts: Mapping[str, Any], known: Sequence[str]) -> None:
    """Refuse a part of ``game.build(**parts)`` that is none of ``known``, naming it."""
    unknown = sorted(set(parts) - set(known))
    if unknown:
        raise fail(
            unknown[0],
            f"not a part of a position of {game.title}; its parts are {', '.join(known)}",
        )


def field_by_words(problem: str, words: Mapping[str, str]) -> str:
    """The field of the first of ``words`` (phrase to field) that ``problem`` contains."""
    for phrase, field in words.items():
        if phrase in problem:
            return field
    return ""


def validated(game: Any, state: Any, field_of: Callable[[str], str]) -> Any:
    """``state`` once ``game.validate`` passes it; else the NotationError that names the
    field the first problem is about (``field_of`` maps a problem to its field)."""
    try:
        game.validate(state)
    except InvalidStateError as exc:
        problems = game.state_problems(state)
        # The first problem that a field of the notation is to blame for names it; a
        # card missing or extra (the census) last, as another problem usually names the
        # field that lost or gained it.
        ranked = sorted(problems, key=lambda problem: problem.startswith(CENSUS_PROBLEM))
        field = next(filter(None, map(field_of, ranked)), "")
        shown = "; ".join(problems) if problems else str(exc)
        raise fail(field, f"not a legal position: {shown}") from None
    return state


class NotationMixin(Generic[S, O]):
    """The position notation's methods of :class:`~cardcrawl.GameBase` (see there):
    ``notation`` and ``position``, ``build``, and the same for observations, each
    asking the game's ``notation_format``.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.core._notation import NotationMixin
        >>> game = cardcrawl.load("mapless-house")
        >>> isinstance(game, NotationMixin), game.notation(game.initial_state(seed=1))[:2]
        (True, 'AD')
    """

    if TYPE_CHECKING:
        # What the notation asks of the game it is mixed into (GameBase has them all).
        name: str
        title: ClassVar[str]

    #: How the game writes positions as text (a :class:`~cardcrawl.core._notation.
    #: NotationFormat`, kept in the game's own module); ``None``: it has no notation.
    notation_format: ClassVar[Any] = None

    def _notation_format(self) -> Any:
        fmt = self.notation_format
        if fmt is None:
            raise NotationError(f"{self.title or self.name} has no position notation")
        return fmt

    def notation(self, state: S) -> str:
        """The state as one line of text, its *position notation*, which :meth:`position`
        reads back (see the documentation's page *Position notation*).

        The notation holds everything that decides the game from this state on,
        generator included; not the events of the step that made it.

        Args:
            state: a state of this game.

        Returns:
            The notation.

        Raises:
            NotationError: the game has no notation.

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> state = game.initial_state(seed=1, stack={"narrative": ["KS"]})
            >>> game.notation(state)
            'AD phase=place:KS player=0,0 rng=0000000000000001'
            >>> state
            <MaplessState 'AD phase=place:KS player=0,0 rng=0000000000000001'>

            Read back, it is the same state but for the events of the step before:

            >>> import attrs
            >>> game.position(game.notation(state)) == attrs.evolve(state, events=())
            True
        """
        text: str = self._notation_format().write(self, state)
        return text

    def position(self, text: str) -> S:
        """The state that ``text``, a position notation, writes; checked by :meth:`validate`.

        Args:
            text: a notation, as :meth:`notation` writes it.

        Returns:
            The state, with no events.

        Raises:
            NotationError: the text is malformed, or writes a state the rules cannot
                reach (``field`` names the field at fault, when one is), or the game has
                no notation.

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> game.position("AD phase=draw player=1,0 rng=0000000000000001")  # doctest: +ELLIPSIS
            Traceback (most recent call last):
            ...
            cardcrawl.errors.NotationError: player: not a legal position: the player is not on ...
            >>> try:
            ...     game.position("AD phase=draw player=1,0 rng=0000000000000001")
            ... except cardcrawl.errors.NotationError as error:
            ...     print(error.field)
            player
        """
        fmt = self._notation_format()
        state: S = validated(self, fmt.read(self, text), fmt.field_of)
        return state

    def build(self, **parts: Any) -> S:
        """A position built from its parts, such as the cards on the table, where the
        player stands and what each deck holds; checked by :meth:`validate`.

        Each game names its parts (The Mapless House: see the documentation's page
        *Position notation*); a part left out takes its value at the start of a game.
        The state is the one :meth:`position` reads from the same parts written as
        notation, so a part at fault is named as a field of the notation is.

        Args:
            parts: the game's parts, by name.

        Returns:
            The state, with no events.

        Raises:
            NotationError: a part is unknown or malformed, or the parts make a state
                the rules cannot reach (``field`` names the part at fault); or the game
                has no notation.

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> state = game.build(table={(1, 0): "KS"}, drawn="5C", narrative=["9S"], rng=3)
            >>> state
            <MaplessState 'ADKS phase=place:5C player=0,0 narrative=9S rng=0000000000000003'>
            >>> game.legal_actions(state)[:2]
            (Place(cell=(-1, 0)), Place(cell=(0, -1)))
        """
        compose = getattr(self._notation_format(), "compose", None)
        if compose is None:
            raise NotationError(f"{self.title or self.name} has no position builder")
        return self.position(compose(self, parts))

    def observation_notation(self, observation: O) -> str:
        """An observation as one line of text: the notation of what its seat may know,
        which :meth:`observation_position` reads back.

        Args:
            observation: what :meth:`observe` gave.

        Returns:
            The redacted notation: the position's, without what the seat cannot know.

        Raises:
            NotationError: the game has no notation.

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> state = game.initial_state(seed=1, stack={"narrative": ["KS"]})
            >>> game.observation_notation(game.observe(state, 0))
            'AD phase=place:KS player=0,0'
        """
        text: str = self._notation_format().write_observation(self, observation)
        return text

    def observation_position(self, text: str) -> O:
        """The observation that ``text``, an observation's notation, writes.

        Args:
            text: a notation, as :meth:`observation_notation` writes it.

        Returns:
            The observation, with no events; checked as :meth:`position` checks a state.

        Raises:
            NotationError: as for :meth:`position`.
        """
        observation: O = self._notation_format().read_observation(self, text)
        return observation
