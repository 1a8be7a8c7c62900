"""One type-directed codec between cardcrawl's frozen values and JSON-compatible data.

Encoding walks attrs classes field by field; decoding is driven by the field types, so
every game's states, actions, events and options serialize with no per-game code. Each
declared type is read by a small reader of its kind, built the first time a value of
the type is read and kept. Any mismatch raises :class:`~cardcrawl.SerializationError`
naming the path of the bad value (``state.table[3]``) and what was expected there, never
a ``KeyError`` or ``TypeError``. A value, or a declared field type, that the codec has
no rule for raises :class:`~cardcrawl.errors.UnsupportedTypeError` (a ``TypeError``).

Supported field types: ``int``, ``bool``, ``str``, ``float``, :class:`~cardcrawl.Card`,
cells (``tuple[int, int]``), ``tuple[X, ...]``, fixed tuples, ``X | None``, unions of
attrs classes, enums, :class:`~cardcrawl.Grid`, :class:`~cardcrawl.Deck`, nested attrs
classes, ``Mapping[str, X]`` and ``Mapping[int, X]`` (keys written in decimal), named
tuples (saved as objects), ``Literal[...]`` of strings, and ``Annotated[X, Limits(...)]``,
whose bounds (see :class:`~cardcrawl.core._limits.Limits`) are checked on reading.
"""

from __future__ import annotations

import contextvars
import enum
import math
import re
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import attrs

from cardcrawl.core._limits import Limits, is_omitted_when_default, is_untagged
from cardcrawl.errors import ParseError, SerializationError, UnsupportedTypeError, short_repr
from cardcrawl.kit._cards import Card
from cardcrawl.kit._deck import Deck
from cardcrawl.kit._grid import Grid

__all__ = ["decode", "encode", "fields_just_read"]

T = TypeVar("T")

# What the codec knows, for the messages that name a type it does not.
_SAVES = (
    "None, booleans, integers, floats, strings, cards, enums, tuples, named tuples, lists, "
    "frozensets, grids, decks, mappings and attrs classes of those"
)
_READS = (
    "int, bool, str, float, None, Card, enums, tuple[X, ...], fixed tuples, frozenset[X], "
    "unions, Grid, Deck, Mapping[str, X], Mapping[int, X], named tuples, Literal, "
    "Annotated and attrs classes"
)


def encode(value: Any) -> Any:
    """``value`` as JSON-compatible data (dicts, lists, strings, numbers, booleans, None).

    Raises:
        UnsupportedTypeError: ``value`` is, or holds, a value of a type the codec has no
            rule for.

    Examples:
        >>> from cardcrawl import Card
        >>> from cardcrawl.core._codec import encode
        >>> encode((Card.parse("QS"), (1, -2), None))
        ['QS', [1, -2], None]
    """
    if value is None or isinstance(value, (bool, int, str, float)):
        return value
    if isinstance(value, Card):
        return value.code
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple) and _is_named_tuple(type(value)):
        names: tuple[str, ...] = value._fields  # type: ignore[attr-defined]
        return {name: encode(v) for name, v in zip(names, value, strict=True)}
    if isinstance(value, (tuple, list)):
        return [encode(v) for v in value]
    if isinstance(value, frozenset):
        return [encode(v) for v in sorted(value)]
    if isinstance(value, Grid):
        return [[x, y, card.code] for (x, y), card in sorted(value.items())]
    if isinstance(value, Deck):
        return {"stacked": [c.code for c in value.stacked], "rest": [c.code for c in value.rest]}
    if attrs.has(type(value)):
        cls = type(value)
        data: dict[str, Any] = {} if is_untagged(cls) else {"type": cls.__name__}
        for field in saved_fields(cls):
            item = getattr(value, field.name)
            if is_omitted_when_default(field) and item == _default(field):
                continue
            data[field.name] = encode(item)
        return data
    if isinstance(value, Mapping):
        return {str(k): encode(v) for k, v in value.items()}
    raise UnsupportedTypeError(
        f"cannot save a value of type {type(value).__name__}: the codec saves {_SAVES}"
    )


def decode(tp: Any, data: Any, path: str = "data") -> Any:
    """The value of type ``tp`` saved by :func:`encode`, validated all the way down.

    Raises:
        SerializationError: ``data`` does not fit ``tp``; the message names the path.
        UnsupportedTypeError: ``tp``, or a type inside it, is one the codec cannot read.
    """
    try:
        return _decode(tp, data, path)
    except (SerializationError, UnsupportedTypeError):
        raise
    except (ParseError, ValueError, TypeError) as exc:
        raise SerializationError(f"{path}: {exc}") from exc


def _fail(path: str, expected: str, data: Any) -> SerializationError:
    return SerializationError(f"{path}: expected {expected}, found {short_repr(data)}")


_FIELDS: dict[type, tuple[attrs.Attribute[Any], ...]] = {}
_HINTS: dict[type, dict[str, Any]] = {}


def saved_fields(cls: type) -> tuple[attrs.Attribute[Any], ...]:
    """The saved fields of an attrs class: those set by ``__init__``, private ones left out."""
    if cls not in _FIELDS:
        _FIELDS[cls] = tuple(f for f in attrs.fields(cls) if f.init and not f.name.startswith("_"))
    return _FIELDS[cls]


def _hints(cls: type) -> dict[str, Any]:
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls, include_extras=True)
    return _HINTS[cls]


def _default(field: attrs.Attribute[Any]) -> Any:
    default: Any = field.default
    factory = getattr(default, "factory", None) if hasattr(default, "takes_self") else None
    return default if factory is None else factory()


def _is_named_tuple(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, tuple) and hasattr(tp, "_fields")


#: An integer key of a mapping, as its decimal text (at most 18 digits, so within 64 bits).
_INT_KEY = re.compile(r"0|-?[1-9][0-9]{0,17}")


#: The most bits a saved integer may have: about 4,200 digits, within the 4,300 that
#: Python writes as text, so that whatever loads saves again as JSON text.
MAX_INT_BITS = 14_000


#: A reader of one declared type: the value that the data at the path holds.
Reader = Callable[[Any, str], Any]

#: Each declared type's reader, built once, the first time a value of the type is read.
_READERS: dict[Any, Reader] = {}


def _decode(tp: Any, data: Any, path: str) -> Any:
    return _reader(tp)(data, path)


def _reader(tp: Any) -> Reader:
    """The reader of the declared type ``tp``, built on first use and kept."""
    try:
        return _READERS[tp]
    except KeyError:
        reader = _READERS[tp] = _build_reader(tp)
        return reader
    except TypeError:
        return _build_reader(tp)  # a type with an unhashable part is read, not kept


def _build_reader(tp: Any) -> Reader:
    origin = typing.get_origin(tp)
    if origin is not None:
        build = _BY_ORIGIN.get(origin)
        return _unsupported(tp) if build is None else build(tp)
    try:
        plain = _PLAIN.get(tp)
    except TypeError:  # not a type, and unhashable: nothing the codec reads
        plain = None
    if plain is not None:
        return plain
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return _enum_reader(tp)
    if _is_named_tuple(tp):
        return _named_tuple_reader(tp)
    if isinstance(tp, type) and attrs.has(tp):
        return _attrs_reader(tp)
    return _unsupported(tp)


def _unsupported(tp: Any) -> Reader:
    def read(data: Any, path: str) -> Any:
        # A bug in the class that declares the field, not in the data: so decode() lets
        # it through rather than calling it bad data.
        raise UnsupportedTypeError(
            f"{path}: cannot read a field declared as {tp!r}; the codec reads fields of {_READS}"
        )

    return read


def _read_any(data: Any, path: str) -> Any:
    return data


def _read_int(data: Any, path: str) -> int:
    if not isinstance(data, int) or isinstance(data, bool):
        raise _fail(path, "an integer", data)
    if data.bit_length() > MAX_INT_BITS:
        raise _fail(path, "an integer that JSON text can hold", data)
    return data


def _read_bool(data: Any, path: str) -> bool:
    if not isinstance(data, bool):
        raise _fail(path, "true or false", data)
    return data


def _read_str(data: Any, path: str) -> str:
    if not isinstance(data, str):
        raise _fail(path, "a string", data)
    return data


def _read_float(data: Any, path: str) -> float:
    if not isinstance(data, (int, float)) or isinstance(data, bool):
        raise _fail(path, "a number", data)
    if isinstance(data, int) and data.bit_length() > 53:
        # A float holds no more bits exactly, and none over 1024 at all.
        raise _fail(path, "a number a float holds exactly", data)
    return float(data)


def _read_none(data: Any, path: str) -> None:
    if data is not None:
        raise _fail(path, "null", data)


def _read_card(data: Any, path: str) -> Card:
    if not isinstance(data, str):
        raise _fail(path, "a card code such as 'QS'", data)
    try:
        return Card.parse(data)
    except ParseError as exc:
        raise SerializationError(f"{path}: {exc}") from None


def _read_grid(data: Any, path: str) -> Grid:
    if not isinstance(data, list):
        raise _fail(path, "a list of [x, y, card]", data)
    cells: dict[tuple[int, int], Card] = {}
    for i, item in enumerate(data):
        if not isinstance(item, list) or len(item) != 3:
            raise _fail(f"{path}[{i}]", "[x, y, card]", item)
        x = _read_int(item[0], f"{path}[{i}][0]")
        y = _read_int(item[1], f"{path}[{i}][1]")
        if (x, y) in cells:
            raise SerializationError(f"{path}[{i}]: cell {(x, y)} appears twice")
        cells[(x, y)] = _read_card(item[2], f"{path}[{i}][2]")
    return Grid(cells)


def _read_deck(data: Any, path: str) -> Deck:
    if not isinstance(data, dict) or set(data) != {"stacked", "rest"}:
        raise _fail(path, "an object with keys 'stacked' and 'rest'", data)
    cards = _reader(tuple[Card, ...])
    return Deck(cards(data["stacked"], f"{path}.stacked"), cards(data["rest"], f"{path}.rest"))


# The readers of the plain types, each a type of its own (no arguments, no origin).
_PLAIN: dict[Any, Reader] = {
    Any: _read_any,
    int: _read_int,
    bool: _read_bool,
    str: _read_str,
    float: _read_float,
    type(None): _read_none,
    Card: _read_card,
    Grid: _read_grid,
    Deck: _read_deck,
}


def _annotated_reader(tp: Any) -> Reader:
    base, *extras = typing.get_args(tp)
    limits = tuple(e for e in extras if isinstance(e, Limits))
    read_base = _reader(base)

    def read(data: Any, path: str) -> Any:
        if not isinstance(data, (int, float)):  # a number has no length or pattern
            for limit in limits:
                _check_shape(base, limit, data, path)
        value = read_base(data, path)
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        for limit in limits:
            if number and not (math.isfinite(value) and limit.in_range(value)):
                raise _fail(path, limit.told(_NOUNS.get(base, "a number")), data)
        return value

    return read


def _literal_reader(tp: Any) -> Reader:
    choices = typing.get_args(tp)
    expected = f"one of {', '.join(map(repr, choices))}"

    def read(data: Any, path: str) -> Any:
        if not any(type(data) is type(c) and data == c for c in choices):
            raise _fail(path, expected, data)
        return data

    return read


def _enum_reader(tp: type[enum.Enum]) -> Reader:
    kinds = {type(m.value) for m in tp}
    expected = f"one of {', '.join(repr(m.value) for m in tp)}"

    def read(data: Any, path: str) -> Any:
        # Only a value of a member value's own type is looked up: Enum's own error
        # message reprs whatever it was given, which a list nested thousands deep does
        # not survive, and JSON true would pass as the member 1.
        if type(data) in kinds:
            try:
                return tp(data)
            except ValueError:
                pass
        raise _fail(path, expected, data)

    return read


def _tuple_reader(tp: Any) -> Reader:
    args = typing.get_args(tp)
    if len(args) == 2 and args[1] is Ellipsis:
        item = _reader(args[0])

        def read_all(data: Any, path: str) -> tuple[Any, ...]:
            if not isinstance(data, list):
                raise _fail(path, "a list", data)
            return tuple([item(v, f"{path}[{i}]") for i, v in enumerate(data)])

        return read_all
    items = tuple(_reader(a) for a in args)

    def read_fixed(data: Any, path: str) -> tuple[Any, ...]:
        if not isinstance(data, list):
            raise _fail(path, "a list", data)
        if len(data) != len(items):
            raise _fail(path, f"a list of {len(items)} items", data)
        return tuple(
            [r(v, f"{path}[{i}]") for i, (r, v) in enumerate(zip(items, data, strict=True))]
        )

    return read_fixed


def _frozenset_reader(tp: Any) -> Reader:
    (item_type,) = typing.get_args(tp)
    item = _reader(item_type)

    def read(data: Any, path: str) -> frozenset[Any]:
        if not isinstance(data, list):
            raise _fail(path, "a list", data)
        items = [item(v, f"{path}[{i}]") for i, v in enumerate(data)]
        if len(set(items)) != len(items):
            raise SerializationError(f"{path}: an item appears twice")
        return frozenset(items)

    return read


def _union_reader(tp: Any) -> Reader:
    args = typing.get_args(tp)
    nullable = type(None) in args
    rest = [a for a in args if a is not type(None)]
    if len(rest) == 1:
        return _optional_reader(nullable, _reader(rest[0]))
    if all(isinstance(a, type) and attrs.has(a) for a in rest):
        return _tagged_reader(nullable, {a.__name__: a for a in rest})
    return _first_fit_reader(nullable, tuple(_reader(a) for a in rest))


def _optional_reader(nullable: bool, one: Reader) -> Reader:
    def read(data: Any, path: str) -> Any:
        if data is None and nullable:
            return None
        return one(data, path)

    return read


def _tagged_reader(nullable: bool, classes: dict[str, type]) -> Reader:
    """The reader of a union of attrs classes, told apart by the ``"type"`` key."""
    expected = f"an object whose 'type' is one of {', '.join(sorted(classes))}"
    readers = {name: _reader(cls) for name, cls in classes.items()}

    def read(data: Any, path: str) -> Any:
        if data is None and nullable:
            return None
        if not isinstance(data, dict) or data.get("type") not in readers:
            raise _fail(path, expected, data)
        return readers[data["type"]](data, path)

    return read


def _first_fit_reader(nullable: bool, readers: tuple[Reader, ...]) -> Reader:
    """The reader of a union of other types: the first that reads the data."""

    def read(data: Any, path: str) -> Any:
        if data is None and nullable:
            return None
        errors = []
        for one in readers:
            try:
                return one(data, path)
            except SerializationError as exc:
                errors.append(str(exc))
        raise SerializationError(f"{path}: fits none of the allowed types ({'; '.join(errors)})")

    return read


def _mapping_reader(tp: Any) -> Reader:
    key_type, value_type = typing.get_args(tp)
    value = _reader(value_type)
    if key_type is int:
        return _int_keys_reader(value)
    text_keys = _base(key_type) is str
    key = _reader(key_type)

    def read(data: Any, path: str) -> dict[Any, Any]:
        if not isinstance(data, dict) or not text_keys:
            raise _fail(path, "an object", data)
        return {key(k, f"{path} key"): value(v, f"{path}.{k}") for k, v in data.items()}

    return read


def _int_keys_reader(value: Reader) -> Reader:
    def read(data: Any, path: str) -> dict[int, Any]:
        if not isinstance(data, dict):
            raise _fail(path, "an object", data)
        found: dict[int, Any] = {}
        for key, item in data.items():
            if not isinstance(key, str) or not _INT_KEY.fullmatch(key):
                raise _fail(f"{path} key", 'an integer in decimal, such as "3"', key)
            found[int(key)] = value(item, f"{path}.{key}")
        return found

    return read


def _named_tuple_reader(tp: Any) -> Reader:
    names = tp._fields
    expected = f"an object with keys {list(names)}"
    fields: list[tuple[str, Reader]] = []

    def read(data: Any, path: str) -> Any:
        if not isinstance(data, dict) or set(data) != set(names):
            raise _fail(path, expected, data)
        if len(fields) != len(names):
            hints = typing.get_type_hints(tp, include_extras=True)
            fields[:] = [(n, _reader(hints[n])) for n in names]
        return tp(*(r(data[n], f"{path}.{n}") for n, r in fields))

    return read


#: The attrs class whose instance the codec is building, from fields it has just read.
_BUILDING: contextvars.ContextVar[type | None] = contextvars.ContextVar(
    "cardcrawl_codec_building", default=None
)


def fields_just_read(cls: type) -> bool:
    """Whether the codec is building an instance of ``cls`` from data it has just read:
    each field then already holds to its declared type and bounds, and a class that
    checks its fields by saving and reading them again (as records do) would only read
    the same data twice.

    Examples:
        >>> import attrs
        >>> @attrs.frozen
        ... class Seen:
        ...     count: int
        ...     def __attrs_post_init__(self) -> None:
        ...         print("just read" if fields_just_read(Seen) else "built in Python")
        >>> decode(Seen, {"type": "Seen", "count": 3})
        just read
        Seen(count=3)
        >>> Seen(3)
        built in Python
        Seen(count=3)
    """
    return _BUILDING.get() is cls


def _attrs_reader(cls: type) -> Reader:
    """The reader of an attrs class; its fields' readers are built on its first read,
    so that a class may hold itself."""
    tagged = not is_untagged(cls)
    fields = saved_fields(cls)
    names = {f.name for f in fields}
    allowed = names | {"type"} if tagged else names
    required = sorted(f.name for f in fields if not is_omitted_when_default(f))
    readers: list[tuple[str, Reader]] = []

    def read(data: Any, path: str) -> Any:
        if not isinstance(data, dict):
            raise _fail(path, f"an object ({cls.__name__})", data)
        if tagged and data.get("type", cls.__name__) != cls.__name__:
            raise _fail(f"{path}.type", repr(cls.__name__), data.get("type"))
        unknown = sorted(set(data) - allowed)
        if unknown:
            raise SerializationError(f"{path}: unknown keys {unknown}; allowed: {sorted(names)}")
        missing = [name for name in required if name not in data]
        if missing:
            raise SerializationError(f"{path}: missing keys {missing}")
        if len(readers) != len(fields):
            hints = _hints(cls)
            readers[:] = [(f.name, _reader(hints[f.name])) for f in fields]
        kwargs = {n: r(data[n], f"{path}.{n}") for n, r in readers if n in data}
        building = _BUILDING.set(cls)
        try:
            return cls(**kwargs)
        except (ValueError, TypeError) as exc:
            raise SerializationError(f"{path}: {exc}") from exc
        finally:
            _BUILDING.reset(building)

    return read


# The readers of the generic types, by their origin.
_BY_ORIGIN: dict[Any, Callable[[Any], Reader]] = {
    typing.Annotated: _annotated_reader,
    typing.Literal: _literal_reader,
    tuple: _tuple_reader,
    frozenset: _frozenset_reader,
    typing.Union: _union_reader,
    types.UnionType: _union_reader,
    Mapping: _mapping_reader,
    dict: _mapping_reader,
}


# What a value of a type under limits is called in messages.
_NOUNS = {int: "an integer", float: "a number", str: "text"}


def _base(tp: Any) -> Any:
    """``tp`` without its ``Annotated`` extras."""
    return typing.get_args(tp)[0] if typing.get_origin(tp) is typing.Annotated else tp


def _check_shape(base: Any, limit: Limits, data: Any, path: str) -> None:
    """Check the length and pattern that ``limit`` sets, on the data before it is read."""
    if isinstance(data, str) and base is str:
        if not (limit.fits_length(len(data)) and limit.matches(data)):
            raise _fail(path, limit.told("text", "characters"), data)
    elif isinstance(data, (list, dict)) and not limit.fits_length(len(data)):
        noun = "an object" if isinstance(data, dict) else "a list"
        raise _fail(path, limit.told(noun, "keys" if isinstance(data, dict) else "items"), data)
