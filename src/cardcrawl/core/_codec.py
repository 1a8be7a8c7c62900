"""One type-directed codec between cardcrawl's frozen values and JSON-compatible data.

Encoding walks attrs classes field by field; decoding is driven by the field types, so
every game's states, actions, events and options serialize with no per-game code. Any
mismatch raises :class:`~cardcrawl.SerializationError` naming the path of the bad value
(``state.table[3]``) and what was expected there, never a ``KeyError`` or ``TypeError``.
A value, or a declared field type, that the codec has no rule for raises
:class:`~cardcrawl.errors.UnsupportedTypeError` (a ``TypeError``).

Supported field types: ``int``, ``bool``, ``str``, ``float``, :class:`~cardcrawl.Card`,
cells (``tuple[int, int]``), ``tuple[X, ...]``, fixed tuples, ``X | None``, unions of
attrs classes, enums, :class:`~cardcrawl.Grid`, :class:`~cardcrawl.Deck`, nested attrs
classes, ``Mapping[str, X]`` and ``Mapping[int, X]`` (keys written in decimal), named
tuples (saved as objects), ``Literal[...]`` of strings, and ``Annotated[X, Limits(...)]``,
whose bounds (see :class:`~cardcrawl.core._limits.Limits`) are checked on reading.
"""

from __future__ import annotations

import enum
import math
import re
import types
import typing
from collections.abc import Mapping
from typing import Any, TypeVar

import attrs

from cardcrawl.core._limits import Limits, is_omitted_when_default, is_untagged
from cardcrawl.errors import ParseError, SerializationError, UnsupportedTypeError, short_repr
from cardcrawl.kit._cards import Card
from cardcrawl.kit._deck import Deck
from cardcrawl.kit._grid import Grid

__all__ = ["decode", "encode"]

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


def _decode_int(data: Any, path: str) -> int:
    if not isinstance(data, int) or isinstance(data, bool):
        raise _fail(path, "an integer", data)
    if data.bit_length() > MAX_INT_BITS:
        raise _fail(path, "an integer that JSON text can hold", data)
    return data


def _decode(tp: Any, data: Any, path: str) -> Any:
    origin = typing.get_origin(tp)
    if tp is Any:
        return data
    if origin is typing.Annotated:
        base, *extras = typing.get_args(tp)
        limits = [e for e in extras if isinstance(e, Limits)]
        for limit in limits:
            _check_shape(base, limit, data, path)
        value = _decode(base, data, path)
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        for limit in limits:
            if number and not (math.isfinite(value) and limit.in_range(value)):
                raise _fail(path, limit.told(_NOUNS.get(base, "a number")), data)
        return value
    if origin is typing.Literal:
        choices = typing.get_args(tp)
        if not any(type(data) is type(c) and data == c for c in choices):
            raise _fail(path, f"one of {', '.join(map(repr, choices))}", data)
        return data
    if tp is int:
        return _decode_int(data, path)
    if tp is bool:
        if not isinstance(data, bool):
            raise _fail(path, "true or false", data)
        return data
    if tp is str:
        if not isinstance(data, str):
            raise _fail(path, "a string", data)
        return data
    if tp is float:
        if not isinstance(data, (int, float)) or isinstance(data, bool):
            raise _fail(path, "a number", data)
        if isinstance(data, int) and data.bit_length() > 53:
            # A float holds no more bits exactly, and none over 1024 at all.
            raise _fail(path, "a number a float holds exactly", data)
        return float(data)
    if tp is type(None):
        if data is not None:
            raise _fail(path, "null", data)
        return None
    if tp is Card:
        if not isinstance(data, str):
            raise _fail(path, "a card code such as 'QS'", data)
        try:
            return Card.parse(data)
        except ParseError as exc:
            raise SerializationError(f"{path}: {exc}") from None
    if tp is Grid:
        if not isinstance(data, list):
            raise _fail(path, "a list of [x, y, card]", data)
        cells: dict[tuple[int, int], Card] = {}
        for i, item in enumerate(data):
            if not isinstance(item, list) or len(item) != 3:
                raise _fail(f"{path}[{i}]", "[x, y, card]", item)
            x = _decode_int(item[0], f"{path}[{i}][0]")
            y = _decode_int(item[1], f"{path}[{i}][1]")
            if (x, y) in cells:
                raise SerializationError(f"{path}[{i}]: cell {(x, y)} appears twice")
            cells[(x, y)] = _decode(Card, item[2], f"{path}[{i}][2]")
        return Grid(cells)
    if tp is Deck:
        if not isinstance(data, dict) or set(data) != {"stacked", "rest"}:
            raise _fail(path, "an object with keys 'stacked' and 'rest'", data)
        stacked = _decode(tuple[Card, ...], data["stacked"], f"{path}.stacked")
        rest = _decode(tuple[Card, ...], data["rest"], f"{path}.rest")
        return Deck(stacked, rest)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        # Only a value of a member value's own type is looked up: Enum's own error
        # message reprs whatever it was given, which a list nested thousands deep does
        # not survive, and JSON true would pass as the member 1.
        if type(data) in {type(m.value) for m in tp}:
            try:
                return tp(data)
            except ValueError:
                pass
        allowed = ", ".join(repr(m.value) for m in tp)
        raise _fail(path, f"one of {allowed}", data)
    if _is_named_tuple(tp):
        return _decode_named_tuple(tp, data, path)
    if origin is tuple:
        args = typing.get_args(tp)
        if not isinstance(data, list):
            raise _fail(path, "a list", data)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], v, f"{path}[{i}]") for i, v in enumerate(data))
        if len(data) != len(args):
            raise _fail(path, f"a list of {len(args)} items", data)
        return tuple(
            _decode(a, v, f"{path}[{i}]") for i, (a, v) in enumerate(zip(args, data, strict=True))
        )
    if origin is frozenset:
        (item_type,) = typing.get_args(tp)
        if not isinstance(data, list):
            raise _fail(path, "a list", data)
        items = [_decode(item_type, v, f"{path}[{i}]") for i, v in enumerate(data)]
        if len(set(items)) != len(items):
            raise SerializationError(f"{path}: an item appears twice")
        return frozenset(items)
    if origin in (typing.Union, types.UnionType):
        return _decode_union(typing.get_args(tp), data, path)
    if origin is Mapping or origin is dict:
        key_type, value_type = typing.get_args(tp)
        if key_type is int:
            return _decode_int_keys(value_type, data, path)
        if not isinstance(data, dict) or _base(key_type) is not str:
            raise _fail(path, "an object", data)
        return {
            _decode(key_type, k, f"{path} key"): _decode(value_type, v, f"{path}.{k}")
            for k, v in data.items()
        }
    if isinstance(tp, type) and attrs.has(tp):
        return _decode_attrs(tp, data, path)
    # A bug in the class that declares the field, not in the data: so decode() lets it
    # through rather than calling it bad data.
    raise UnsupportedTypeError(
        f"{path}: cannot read a field declared as {tp!r}; the codec reads fields of {_READS}"
    )


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


def _decode_int_keys(value_type: Any, data: Any, path: str) -> dict[int, Any]:
    if not isinstance(data, dict):
        raise _fail(path, "an object", data)
    read: dict[int, Any] = {}
    for key, item in data.items():
        if not isinstance(key, str) or not _INT_KEY.fullmatch(key):
            raise _fail(f"{path} key", 'an integer in decimal, such as "3"', key)
        read[int(key)] = _decode(value_type, item, f"{path}.{key}")
    return read


def _decode_named_tuple(tp: Any, data: Any, path: str) -> Any:
    names = tp._fields
    if not isinstance(data, dict) or set(data) != set(names):
        raise _fail(path, f"an object with keys {list(names)}", data)
    hints = typing.get_type_hints(tp, include_extras=True)
    return tp(*(_decode(hints[n], data[n], f"{path}.{n}") for n in names))


def _decode_union(args: tuple[Any, ...], data: Any, path: str) -> Any:
    if data is None and type(None) in args:
        return None
    rest = [a for a in args if a is not type(None)]
    if len(rest) == 1:
        return _decode(rest[0], data, path)
    if all(isinstance(a, type) and attrs.has(a) for a in rest):
        names = {a.__name__: a for a in rest}
        if not isinstance(data, dict) or data.get("type") not in names:
            raise _fail(path, f"an object whose 'type' is one of {', '.join(sorted(names))}", data)
        return _decode_attrs(names[data["type"]], data, path)
    errors = []
    for a in rest:
        try:
            return _decode(a, data, path)
        except SerializationError as exc:
            errors.append(str(exc))
    raise SerializationError(f"{path}: fits none of the allowed types ({'; '.join(errors)})")


def _decode_attrs(cls: type[T], data: Any, path: str) -> T:
    if not isinstance(data, dict):
        raise _fail(path, f"an object ({cls.__name__})", data)
    tagged = not is_untagged(cls)
    if tagged and data.get("type", cls.__name__) != cls.__name__:
        raise _fail(f"{path}.type", repr(cls.__name__), data.get("type"))
    fields = saved_fields(cls)
    names = {f.name for f in fields}
    unknown = sorted(set(data) - names - ({"type"} if tagged else set()))
    if unknown:
        raise SerializationError(f"{path}: unknown keys {unknown}; allowed: {sorted(names)}")
    missing = sorted(
        f.name for f in fields if f.name not in data and not is_omitted_when_default(f)
    )
    if missing:
        raise SerializationError(f"{path}: missing keys {missing}")
    hints = _hints(cls)
    kwargs = {
        f.name: _decode(hints[f.name], data[f.name], f"{path}.{f.name}")
        for f in fields
        if f.name in data
    }
    try:
        return cls(**kwargs)
    except (ValueError, TypeError) as exc:
        raise SerializationError(f"{path}: {exc}") from exc
