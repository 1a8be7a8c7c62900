"""Records of every format cardcrawl has written (saved examples under records/) are
read as the one format written now, replay to the states they replayed to when they
were saved, and write back as that format with nothing lost."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import cardcrawl
from cardcrawl import Record
from cardcrawl.errors import SerializationError

HERE = Path(__file__).parent / "records"
EXPECTED: dict[str, Any] = json.loads((HERE / "expected.json").read_text("utf-8"))
NAMES = sorted(EXPECTED)


def _digest(data: Any) -> str:
    return hashlib.sha256(
        json.dumps(data, sort_keys=True, separators=(",", ":")).encode()
    ).hexdigest()


def test_there_is_a_saved_example_of_each_older_format() -> None:
    assert {EXPECTED[n]["format"] for n in NAMES} == {1, 2, 3}


@pytest.mark.parametrize("name", NAMES)
def test_an_old_record_replays_to_the_state_it_was_saved_with(name: str) -> None:
    record = Record.load(HERE / name)
    final = record.replay()
    game = record.load_game()
    assert _digest(game.state_to_data(final)) == EXPECTED[name]["final_state_sha256"]
    assert record.verified is EXPECTED[name]["verified"]
    assert record.is_trace is EXPECTED[name]["is_trace"]


@pytest.mark.parametrize("name", NAMES)
def test_an_old_record_is_written_again_as_format_3_with_every_key_kept(name: str) -> None:
    saved = json.loads((HERE / name).read_text("utf-8"))
    written = Record.load(HERE / name).to_data()
    assert written["format"] == Record.FORMAT == 3
    # Nothing is lost: the same keys and values, a null stack aside (now left out).
    kept = {k: v for k, v in saved.items() if k != "format" and not (k == "stack" and v is None)}
    assert {k: v for k, v in written.items() if k != "format"} == kept
    assert Record.from_data(written) == Record.load(HERE / name)


@pytest.mark.parametrize("name", NAMES)
def test_old_and_new_records_meet_the_schema(name: str) -> None:
    schema = Record.json_schema()
    saved = json.loads((HERE / name).read_text("utf-8"))
    jsonschema.validate(saved, schema)
    jsonschema.validate(Record.load(HERE / name).to_data(), schema)


@pytest.mark.parametrize(
    ("fmt", "key"), [(1, "claims"), (1, "agents"), (2, "position"), (2, "comments")]
)
def test_an_older_format_with_a_key_it_cannot_hold_is_refused(fmt: int, key: str) -> None:
    saved = json.loads((HERE / "format-3-mapless-trace.json").read_text("utf-8"))
    plain = {k: v for k, v in saved.items() if k not in Record.TRACE_KEYS | {"claims"}}
    data = {**plain, "format": fmt, key: saved.get(key, "x")}
    with pytest.raises(SerializationError, match=f"record of format {fmt} holds no key '{key}'"):
        Record.from_data(data)
    # And the schema says so too.
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, Record.json_schema())


@pytest.mark.parametrize("fmt", [0, 4, True, "3", None, 3.0])
def test_a_format_not_read_is_refused(fmt: Any) -> None:
    data = json.loads((HERE / "format-2-mapless.json").read_text("utf-8"))
    with pytest.raises(SerializationError, match="is not one this library reads"):
        Record.from_data({**data, "format": fmt})


def test_the_shipped_schema_is_the_one_made_from_the_types() -> None:
    """``record.schema.json`` is generated; it must not drift from the field types."""
    shipped = Path(cardcrawl.play.__file__).parent / "record.schema.json"
    assert json.loads(shipped.read_text("utf-8")) == Record.json_schema()


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(Record.json_schema())
