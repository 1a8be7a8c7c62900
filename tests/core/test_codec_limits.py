"""The codec's bounds and shapes for saved formats: ``Annotated[T, Limits(...)]``,
``Literal``, named tuples, int-keyed mappings, untagged classes and keys left out at
their default. Each is read by the codec and written into the JSON Schema from the one
type, so a value the schema takes is one the codec reads, and the reverse."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal, NamedTuple

import attrs
import jsonschema
import pytest

from cardcrawl.core._codec import decode, encode
from cardcrawl.core._limits import OMITTED_WHEN_DEFAULT, Limits, untagged
from cardcrawl.core._schema import type_schema
from cardcrawl.errors import SerializationError


class Pair(NamedTuple):
    label: str
    values: tuple[Annotated[float, Limits()], ...]


@untagged
@attrs.frozen
class Sample:
    name: Annotated[str, Limits(min_length=1, max_length=5)]
    count: Annotated[int, Limits(minimum=0, maximum=9)]
    kind: Literal["a", "b"] = "a"
    pair: Pair | None = attrs.field(default=None, metadata=OMITTED_WHEN_DEFAULT)
    notes: Mapping[int, Annotated[str, Limits(pattern="[a-z]+")]] = attrs.field(
        factory=dict, metadata=OMITTED_WHEN_DEFAULT
    )
    tags: Annotated[tuple[str, ...], Limits(max_length=2)] = ()


GOOD = Sample("ab", 3, "b", Pair("x", (1.0, 2.5)), {3: "ok"}, ("t",))
SCHEMA = type_schema(Sample)


def test_a_value_round_trips_untagged_with_its_named_tuple_and_int_keys() -> None:
    data = encode(GOOD)
    assert data == {
        "name": "ab",
        "count": 3,
        "kind": "b",
        "pair": {"label": "x", "values": [1.0, 2.5]},
        "notes": {"3": "ok"},
        "tags": ["t"],
    }
    assert decode(Sample, data) == GOOD
    jsonschema.validate(data, SCHEMA)


def test_keys_at_their_default_are_left_out_and_read_as_the_default() -> None:
    plain = Sample("ab", 3)
    assert encode(plain) == {"name": "ab", "count": 3, "kind": "a", "tags": []}
    assert decode(Sample, {"name": "ab", "count": 3, "kind": "a", "tags": []}) == plain
    with pytest.raises(SerializationError, match=r"missing keys \['tags'\]"):
        decode(Sample, {"name": "ab", "count": 3, "kind": "a"})


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"name": ""}, r"data\.name: expected text of 1 to 5 characters, found ''"),
        ({"name": "abcdef"}, "text of 1 to 5 characters"),
        ({"count": -1}, r"data\.count: expected an integer from 0 to 9, found -1"),
        ({"count": 10}, "an integer from 0 to 9"),
        ({"count": True}, "expected an integer"),
        ({"kind": "c"}, r"data\.kind: expected one of 'a', 'b', found 'c'"),
        (
            {"pair": {"label": "x"}},
            r"data\.pair: expected an object with keys \['label', 'values'\]",
        ),
        ({"pair": {"label": "x", "values": [10**400]}}, "a number a float holds exactly"),
        ({"pair": {"label": "x", "values": [float("nan")]}}, r"data\.pair\.values\[0\]"),
        ({"notes": {"x": "ok"}}, r"data\.notes key: expected an integer in decimal"),
        ({"notes": {"01": "ok"}}, r"data\.notes key"),
        ({"notes": {"3": "OK"}}, r"data\.notes\.3: expected text matching \[a-z\]\+"),
        ({"tags": ["a", "b", "c"]}, r"data\.tags: expected a list of at most 2 items"),
        ({"type": "Sample"}, r"unknown keys \['type'\]"),
    ],
)
def test_data_out_of_bounds_is_refused_by_the_codec_and_the_schema(
    change: dict[str, Any], message: str
) -> None:
    data = {**encode(GOOD), **change}
    with pytest.raises(SerializationError, match=message):
        decode(Sample, data)
    # JSON has no NaN and says nothing of a float's precision: those two are the
    # codec's alone.
    if "values" not in str(change):
        assert not jsonschema.Draft202012Validator(SCHEMA).is_valid(data), data


def test_the_schema_states_the_bounds() -> None:
    props = SCHEMA["$defs"]["Sample"]["properties"]
    assert props["name"] == {"type": "string", "minLength": 1, "maxLength": 5}
    assert props["count"] == {"type": "integer", "minimum": 0, "maximum": 9}
    assert props["kind"] == {"enum": ["a", "b"]}
    assert props["tags"]["maxItems"] == 2
    assert "type" not in props
    assert SCHEMA["$defs"]["Sample"]["required"] == ["name", "count", "kind", "tags"]
