"""JSON Schemas generated from the field types, by the same rules as the codec, and the
versioned observation format built on it.

:func:`type_schema` walks a type exactly as :func:`~cardcrawl.core._codec.decode` does
and writes down, as JSON Schema (draft 2020-12), what :func:`~cardcrawl.core._codec.encode`
writes for it: so the schema of any game's states or observations is made from its attrs
classes and never drifts from the code. Each attrs class becomes one entry of ``$defs``.

The schema describes the data the library writes, which is also what it reads. A few
checks of the codec have no JSON Schema form and are left to it: a cell named twice in a
grid, an item twice in a frozenset, integers longer than :data:`MAX_INT_BITS` bits, and a
class's own validators; the codec also reads card codes in lower case.
"""

from __future__ import annotations

import enum
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from cardcrawl.core._codec import (
    _INT_KEY,
    _base,
    _hints,
    _is_named_tuple,
    decode,
    encode,
    saved_fields,
)
from cardcrawl.core._limits import Limits, is_omitted_when_default, is_untagged
from cardcrawl.core._saving import FORMAT_VERSION, checked_body
from cardcrawl.errors import SerializationError, UnsupportedTypeError
from cardcrawl.kit._cards import Card
from cardcrawl.kit._deck import Deck
from cardcrawl.kit._grid import Grid

__all__ = [
    "OBSERVATION_FORMAT",
    "observation_from_data",
    "observation_schema",
    "observation_to_data",
    "state_schema",
    "type_schema",
]

#: The version of the observation layout written by ``observation_to_data``.
OBSERVATION_FORMAT = 1

DRAFT = "https://json-schema.org/draft/2020-12/schema"

#: Every card code the codec writes, in card order.
CARD_CODES = tuple(Card(i).code for i in range(54))


class _Builder:
    """Collects the ``$defs`` of one schema while types are walked."""

    def __init__(self) -> None:
        self.defs: dict[str, Any] = {}
        self._names: dict[type, str] = {}

    def ref(self, name: str) -> dict[str, Any]:
        return {"$ref": f"#/$defs/{name}"}

    def card(self) -> dict[str, Any]:
        if "Card" not in self.defs:
            self.defs["Card"] = {
                "description": "A card code: rank (A, 2-10, J, Q, K) and suit (S, H, D, C), "
                "or BJ / RJ for a joker.",
                "enum": list(CARD_CODES),
            }
        return self.ref("Card")

    def schema(self, tp: Any) -> dict[str, Any]:
        origin = typing.get_origin(tp)
        if origin is not None:
            by_origin = _BY_ORIGIN.get(origin)
            found = None if by_origin is None else by_origin(self, tp)
        elif tp is Any:
            found = {}
        else:
            found = self._plain(tp)
        if found is None:
            raise UnsupportedTypeError(f"no JSON Schema for a field declared as {tp!r}")
        return found

    def _plain(self, tp: Any) -> dict[str, Any] | None:
        """The schema of a type with no arguments, or ``None`` for one the codec does not
        read."""
        try:
            simple = _SIMPLE.get(tp)
        except TypeError:  # not a type, and unhashable
            return None
        if simple is not None:
            return dict(simple)
        if _is_named_tuple(tp):
            return self._named_tuple(tp)
        if tp is Card:
            return self.card()
        if tp is Grid:
            return self._grid()
        if tp is Deck:
            return self._deck()
        if isinstance(tp, type) and issubclass(tp, enum.Enum):
            return {"enum": [m.value for m in tp]}
        if isinstance(tp, type) and attrs.has(tp):
            return self.ref(self.attrs_class(tp))
        return None

    def _annotated(self, tp: Any) -> dict[str, Any]:
        base, *extras = typing.get_args(tp)
        schema = self.schema(base)
        for limit in extras:
            if isinstance(limit, Limits):
                schema = {**schema, **_limits_schema(schema, limit)}
        return schema

    def _literal(self, tp: Any) -> dict[str, Any]:
        return {"enum": list(typing.get_args(tp))}

    def _named_tuple(self, tp: Any) -> dict[str, Any]:
        hints = typing.get_type_hints(tp, include_extras=True)
        return {
            "type": "object",
            "properties": {name: self.schema(hints[name]) for name in tp._fields},
            "required": list(tp._fields),
            "additionalProperties": False,
        }

    def _grid(self) -> dict[str, Any]:
        cell = {
            "type": "array",
            "prefixItems": [{"type": "integer"}, {"type": "integer"}, self.card()],
            "items": False,
            "minItems": 3,
        }
        return {"description": "Cells as [x, y, card], sorted.", "type": "array", "items": cell}

    def _deck(self) -> dict[str, Any]:
        cards = {"type": "array", "items": self.card()}
        return {
            "type": "object",
            "properties": {"stacked": cards, "rest": cards},
            "required": ["stacked", "rest"],
            "additionalProperties": False,
        }

    def _tuple(self, tp: Any) -> dict[str, Any]:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return {"type": "array", "items": self.schema(args[0])}
        return {
            "type": "array",
            "prefixItems": [self.schema(a) for a in args],
            "items": False,
            "minItems": len(args),
        }

    def _frozenset(self, tp: Any) -> dict[str, Any]:
        (item,) = typing.get_args(tp)
        return {"type": "array", "items": self.schema(item), "uniqueItems": True}

    def _union_type(self, tp: Any) -> dict[str, Any]:
        return self._union(typing.get_args(tp))

    def _mapping(self, tp: Any) -> dict[str, Any] | None:
        key, value = typing.get_args(tp)
        if key is int:
            names = {"pattern": f"^({_INT_KEY.pattern})$"}
            return {
                "type": "object",
                "propertyNames": names,
                "additionalProperties": self.schema(value),
            }
        if _base(key) is not str:
            return None
        mapping: dict[str, Any] = {"type": "object"}
        if key is not str:
            mapping["propertyNames"] = self.schema(key)
        mapping["additionalProperties"] = self.schema(value)
        return mapping

    def _union(self, args: tuple[Any, ...]) -> dict[str, Any]:
        rest = [a for a in args if a is not type(None)]
        options: list[dict[str, Any]]
        if len(rest) > 1 and all(isinstance(a, type) and attrs.has(a) for a in rest):
            # The codec tells the classes apart by their "type", so it is required here.
            options = [{**self.schema(a), "required": ["type"]} for a in rest]
        else:
            options = [self.schema(a) for a in rest]
        if len(rest) < len(args):
            options.append({"type": "null"})
        return options[0] if len(options) == 1 else {"anyOf": options}

    def attrs_class(self, cls: type) -> str:
        name = self._names.get(cls)
        if name is not None:
            return name
        name = cls.__name__
        if name in self.defs or name in self._names.values():
            name = f"{cls.__module__}.{cls.__qualname__}"
        self._names[cls] = name
        self.defs[name] = {}  # reserved first: a class may hold itself
        hints = _hints(cls)
        fields = saved_fields(cls)
        properties: dict[str, Any] = {} if is_untagged(cls) else {"type": {"const": cls.__name__}}
        for field in fields:
            properties[field.name] = self.schema(hints[field.name])
        definition: dict[str, Any] = {
            "type": "object",
            "properties": properties,
            "required": [f.name for f in fields if not is_omitted_when_default(f)],
            "additionalProperties": False,
        }
        doc = (cls.__doc__ or "").strip().split("\n", 1)[0]
        if doc:
            definition["description"] = doc
        self.defs[name] = definition
        return name


# The schemas of the types that are one JSON type each.
_SIMPLE: dict[Any, dict[str, Any]] = {
    bool: {"type": "boolean"},
    int: {"type": "integer"},
    str: {"type": "string"},
    float: {"type": "number"},
    type(None): {"type": "null"},
}

# The schema of a generic type, by its origin.
_BY_ORIGIN: dict[Any, Callable[[_Builder, Any], dict[str, Any] | None]] = {
    typing.Annotated: _Builder._annotated,
    typing.Literal: _Builder._literal,
    tuple: _Builder._tuple,
    frozenset: _Builder._frozenset,
    typing.Union: _Builder._union_type,
    types.UnionType: _Builder._union_type,
    Mapping: _Builder._mapping,
    dict: _Builder._mapping,
}


def _limits_schema(schema: dict[str, Any], limit: Limits) -> dict[str, Any]:
    """The JSON Schema keywords of ``limit`` on a value whose schema is ``schema``."""
    kind = schema.get("type")
    words: dict[str, Any] = {}
    if limit.minimum is not None:
        words["minimum"] = limit.minimum
    if limit.maximum is not None:
        words["maximum"] = limit.maximum
    size = {"string": "Length", "array": "Items", "object": "Properties"}.get(str(kind))
    if size is not None and limit.min_length is not None:
        words[f"min{size}"] = limit.min_length
    if size is not None and limit.max_length is not None:
        words[f"max{size}"] = limit.max_length
    if limit.pattern is not None:
        # JSON Schema finds a pattern anywhere in the text; the codec matches it in full.
        words["pattern"] = f"^({limit.pattern})$"
    return words


def type_schema(tp: Any, *, title: str = "", description: str = "") -> dict[str, Any]:
    """A JSON Schema (draft 2020-12) of what :func:`~cardcrawl.core._codec.encode` writes
    for a value of type ``tp``.

    Args:
        tp: a type the codec reads: an attrs class, a tuple type, a union and so on.
        title: the schema's title, if any.
        description: the schema's description, if any.

    Returns:
        The schema, with one ``$defs`` entry per attrs class met.

    Raises:
        UnsupportedTypeError: ``tp`` holds a type the codec cannot read.

    Examples:
        >>> from cardcrawl import Card
        >>> from cardcrawl.core._schema import type_schema
        >>> schema = type_schema(tuple[Card | None, ...])
        >>> schema["items"]
        {'anyOf': [{'$ref': '#/$defs/Card'}, {'type': 'null'}]}
        >>> schema["$defs"]["Card"]["enum"][:3]
        ['AS', '2S', '3S']
    """
    builder = _Builder()
    body = builder.schema(tp)
    schema: dict[str, Any] = {"$schema": DRAFT}
    if title:
        schema["title"] = title
    if description:
        schema["description"] = description
    schema.update(body)
    if builder.defs:
        schema["$defs"] = builder.defs
    return schema


def _header_schema(game: Any, extra: Mapping[str, Any], payload: str, tp: Any) -> dict[str, Any]:
    builder = _Builder()
    body = builder.schema(tp)
    properties = {
        **extra,
        "game": {"description": "The registry name of the game or variant.", "const": game.name},
        "rules_version": {"description": "The game's rules version.", "const": game.rules_version},
        payload: body,
    }
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
        "$defs": builder.defs,
    }


def observation_schema(game: Any) -> dict[str, Any]:
    """The JSON Schema of ``game.observation_to_data(observation)`` for ``game``.

    Args:
        game: a :class:`~cardcrawl.GameBase` game.

    Returns:
        A draft 2020-12 schema, generated from the game's observation class.
    """
    extra = {
        "format": {"description": "The observation format.", "const": OBSERVATION_FORMAT},
        "kind": {"const": "observation"},
    }
    body = _header_schema(game, extra, "observation", game.observation_type)
    title = f"cardcrawl observation of {game.name}"
    return {"$schema": DRAFT, "title": title, **body}


def state_schema(game: Any) -> dict[str, Any]:
    """The JSON Schema of ``game.state_to_data(state)`` for ``game``.

    Args:
        game: a :class:`~cardcrawl.GameBase` game.

    Returns:
        A draft 2020-12 schema, generated from the game's state class.
    """
    extra = {"format": {"description": "The saved-state format.", "const": FORMAT_VERSION}}
    body = _header_schema(game, extra, "state", game.state_type)
    return {"$schema": DRAFT, "title": f"cardcrawl saved state of {game.name}", **body}


# ------------------------------------------------------------- observations
_OBSERVATION_TYPES: dict[type, type] = {}


def observation_type_of(game: Any) -> type:
    """The class of ``game``'s observations: the game's ``observation_type`` if it sets
    one, else the third type argument of its ``GameBase[S, A, O]`` base when that is a
    class, else the type of an observation of its setup (seed 0, seat 0)."""
    declared = getattr(type(game), "observation_type", None)
    if isinstance(declared, type):
        return declared
    cls = type(game)
    found = _OBSERVATION_TYPES.get(cls)
    if found is not None:
        return found
    from cardcrawl.core._engine import GameBase

    for klass in cls.__mro__:
        for base in getattr(klass, "__orig_bases__", ()):
            if typing.get_origin(base) is GameBase:
                args = typing.get_args(base)
                if len(args) == 3 and isinstance(args[2], type) and attrs.has(args[2]):
                    found = args[2]
                    break
        if found is not None:
            break
    if found is None:
        found = type(game.observe(game.initial_state(0), 0))
    _OBSERVATION_TYPES[cls] = found
    return found


def observation_to_data(game: Any, observation: Any) -> dict[str, Any]:
    """``observation`` as versioned JSON-compatible data (see ``GameBase``)."""
    expected = game.observation_type
    if type(observation) is not expected:
        raise SerializationError(
            f"an observation of {game.name} is a {expected.__name__}, "
            f"not {type(observation).__name__}"
        )
    return {
        "format": OBSERVATION_FORMAT,
        "kind": "observation",
        "game": game.name,
        "rules_version": game.rules_version,
        "observation": encode(observation),
    }


def observation_from_data(game: Any, data: Any, renamed: Any = None) -> Any:
    """The observation written by :func:`observation_to_data`, validated field by field."""
    expected = {
        "format": OBSERVATION_FORMAT,
        "kind": "observation",
        "game": game.name,
        "rules_version": game.rules_version,
    }
    saved = checked_body(data, expected, "observation", ("an observation", "observation"))
    if renamed is not None:
        saved = renamed(saved)
    return decode(game.observation_type, saved, "observation")
