"""The record formats: the one written, the older ones read, and the record's JSON Schema.

Records are written in format 3 only. Formats 1 and 2 hold a subset of its keys (1: no
claims, 2: no match trace and no position), so reading one refuses the keys it cannot
hold and then reads it as format 3: that is the whole upgrade. The shape of format 3 is
the types of :class:`~cardcrawl.Record`'s fields; the codec reads it by them and the
JSON Schema is generated from them.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from cardcrawl.core._schema import type_schema
from cardcrawl.errors import SerializationError, short_repr

__all__ = ["FORMAT", "TRACE_KEYS", "check_depth", "schema_of", "unreadable", "upgraded"]

#: The format of every record written.
FORMAT = 3
#: What a match trace adds to a record: who played each seat, the result, when the game
#: started, the seconds each action took and comments on actions.
TRACE_KEYS = frozenset({"agents", "result", "started", "seconds", "comments"})
#: The keys of format 3 that each older format cannot hold.
OLDER = {
    1: frozenset({"claims", "position"} | TRACE_KEYS),
    2: frozenset({"position"} | TRACE_KEYS),
}
#: The keys that each older format must hold beyond those of format 3: a record of
#: format 2 always had claims, so one without them was cut.
REQUIRED = {2: frozenset({"claims"})}
# How deeply lists and objects may nest in a record's data. A real record nests a few
# levels (options holding a table, a stack of cells); the limit keeps hostile data from
# reaching the recursion limit in the code that reads it.
MAX_DEPTH = 100


def upgraded(data: Any) -> dict[str, Any]:
    """The data of a record of any format read, as format 3, without its ``format`` key.

    Raises:
        SerializationError: ``data`` is not an object, names no format this library
            reads, or holds a key its format cannot hold.

    Examples:
        >>> upgraded({"format": 1, "game": "mapless-house"})
        {'game': 'mapless-house'}
        >>> upgraded({"format": 2, "agents": []})
        Traceback (most recent call last):
        ...
        cardcrawl.errors.SerializationError: a record of format 2 holds no key 'agents' \
(format 3 does: write the record again to upgrade it)
    """
    if not isinstance(data, dict):
        raise SerializationError(f"a record is a JSON object, not {short_repr(data)}")
    if "format" not in data:
        raise SerializationError(
            f"a record names its format under the key 'format'; found the keys {sorted(data)}"
        )
    fmt = data["format"]
    # Compared as an int only: JSON true is no format, though True == 1 in Python.
    if type(fmt) is not int or (fmt != FORMAT and fmt not in OLDER):
        read = ", ".join(map(str, [FORMAT, *sorted(OLDER, reverse=True)]))
        raise SerializationError(
            f"record format {short_repr(fmt)} is not one this library reads: it writes "
            f"format {FORMAT} and reads formats {read}"
        )
    extra = sorted(set(data) & OLDER.get(fmt, frozenset()))
    if extra:
        raise SerializationError(
            f"a record of format {fmt} holds no key {extra[0]!r} "
            f"(format {FORMAT} does: write the record again to upgrade it)"
        )
    lacking = sorted(k for k in REQUIRED.get(fmt, frozenset()) if data.get(k) is None)
    if lacking:
        raise SerializationError(
            f"a record of format {fmt} holds the key {lacking[0]!r}; this one has none"
        )
    return {k: v for k, v in data.items() if k != "format"}


def check_depth(data: Any) -> None:
    """Raise SerializationError if lists and dicts in ``data`` nest over MAX_DEPTH."""
    # Iterative, so that checking deep data cannot itself exceed the recursion limit.
    pending: list[tuple[Any, int]] = [(data, 1)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, dict):
            children: Any = value.values()
        elif isinstance(value, (list, tuple)):
            children = value
        else:
            continue
        if depth > MAX_DEPTH:
            raise SerializationError(
                f"a record nests lists and objects at most {MAX_DEPTH} levels deep; "
                "this one nests deeper"
            )
        pending.extend((child, depth + 1) for child in children)


def unreadable(exc: RecursionError | ValueError) -> str:
    """Why ``json.loads`` refused text that is JSON, but not JSON Python can hold."""
    # The decoder recurses once per level of nesting, so hostile text ("[" * 10**5)
    # reaches the recursion limit; and Python refuses to read integers of more than
    # sys.get_int_max_str_digits() digits, with a plain ValueError.
    if isinstance(exc, RecursionError):
        return "it nests lists or objects too deeply to read"
    limit = getattr(sys, "get_int_max_str_digits", lambda: 0)()
    if limit and "integer string conversion" in str(exc):
        return f"it holds an integer of more than {limit} digits, which Python does not read"
    return str(exc)


_DESCRIPTION = (
    "A whole game as its game, options, seed (or position) and actions, with claims about "
    "what the actions lead to, checked on replay; a match trace also names its agents, "
    "result, start time, and the seconds and comments of its actions. Format 3 is written; "
    "formats 2 (no trace, no position) and 1 (no claims either) are read. Record.from_data "
    "also checks that claims.trail holds claims.length digests, that a record from a "
    "position has no seed and no stack, that seconds holds one entry per action and "
    "comments name actions the record holds, that agents are given seat by seat, that "
    "started is a real time, and that the data nests at most 100 levels deep; replaying "
    "checks that there is one agent per seat and that the result is the game's."
)


def schema_of(record_class: type) -> dict[str, Any]:
    """The JSON Schema of records: the types of ``record_class``'s fields, the ``format``
    key, and the keys each older format cannot hold."""
    made = type_schema(record_class, title="cardcrawl game record", description=_DESCRIPTION)
    defs = made.pop("$defs")
    body = defs.pop(made.pop("$ref").rsplit("/", 1)[1])
    body.pop("description", None)
    formats = {
        "description": f"{FORMAT}, the format written; {', '.join(map(str, OLDER))} are read."
    }
    body["properties"] = {
        "format": {**formats, "enum": [*sorted(OLDER), FORMAT]},
        **body["properties"],
    }
    body["required"] = ["format", *body["required"]]
    body["allOf"] = [
        {
            "if": {"properties": {"format": {"const": fmt}}, "required": ["format"]},
            "then": {
                "not": {"anyOf": [{"required": [key]} for key in sorted(keys)]},
                "required": sorted(REQUIRED.get(fmt, ())),
                "properties": {key: {"type": "object"} for key in sorted(REQUIRED.get(fmt, ()))},
            },
        }
        for fmt, keys in sorted(OLDER.items())
    ]
    return {**made, **body, "$defs": defs}


def schema_text(record_class: type) -> str:
    """The JSON Schema of records as the text shipped in ``record.schema.json``."""
    return json.dumps(schema_of(record_class), indent=1) + "\n"
