"""Record.save and Record.load: a record in a file, written atomically in UTF-8 and read
back with the checks of Record.from_json, every failure a typed error."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

import cardcrawl
from cardcrawl import Record, SerializationError
from cardcrawl.errors import RecordFileError


@pytest.fixture(scope="module")
def record() -> Record:
    game = cardcrawl.load("mapless-house", max_turns=30)
    return Record.of(game, seed=3, actions=["place 1,0", "place 2,0"], stack={"mind": "2H"})


def test_a_saved_record_loads_equal_and_replays(record: Record, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    record.save(path)
    again = Record.load(path)
    assert again == record
    assert again.replay() == record.replay()
    # The file is the record's JSON document, in UTF-8, ending with a newline.
    raw = path.read_bytes()
    assert raw.decode("utf-8") == record.to_json() + "\n"
    assert Record.from_json(raw.decode("utf-8")) == record
    # A path may be given as text too.
    assert Record.load(str(path)) == record


def test_save_replaces_a_file_and_leaves_nothing_beside_it(record: Record, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text("old", encoding="utf-8")
    record.save(path)
    assert Record.load(path) == record
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


def test_a_record_with_text_beyond_ascii_round_trips(tmp_path: Path) -> None:
    lines = {
        card.code: f"Dread {card} — «{card.code}»" for card in cardcrawl.mapless.PLACEABLE_CARDS
    }
    game = cardcrawl.load("mapless-house", max_turns=30, dread_lines=lines)
    record = Record.of(game, seed=3, actions=["place 1,0"])
    path = tmp_path / "dread.json"
    record.save(path)
    assert Record.load(path) == record
    assert dict(Record.load(path).options)["dread_lines"] == lines


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file modes")
def test_a_saved_record_is_readable_like_any_file(record: Record, tmp_path: Path) -> None:
    # The temporary file a save starts from is private; the record is not.
    path = tmp_path / "game.json"
    record.save(path)
    assert path.stat().st_mode & 0o777 == 0o644
    path.chmod(0o600)
    record.save(path)
    assert path.stat().st_mode & 0o777 == 0o600


def test_a_failed_save_keeps_the_old_file(
    record: Record, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.json"
    path.write_text("the old record", encoding="utf-8")

    def refuse(src: str, dst: str) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(RecordFileError, match=r"cannot write a record to .*Permission denied") as e:
        record.save(path)
    assert e.value.path == str(path)
    assert path.read_text(encoding="utf-8") == "the old record"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


def test_saving_into_a_missing_folder_is_a_typed_error(record: Record, tmp_path: Path) -> None:
    path = tmp_path / "missing" / "game.json"
    with pytest.raises(RecordFileError, match="cannot write a record to") as caught:
        record.save(path)
    assert isinstance(caught.value, OSError)
    assert not path.parent.exists()


def test_loading_a_missing_file_is_a_typed_error(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.json"
    with pytest.raises(RecordFileError, match=r"^no record file at ") as caught:
        Record.load(path)
    assert caught.value.path == str(path)
    assert isinstance(caught.value, SerializationError)


def test_loading_a_folder_is_a_typed_error(tmp_path: Path) -> None:
    with pytest.raises(RecordFileError, match="cannot read the record file"):
        Record.load(tmp_path)


def test_loading_a_file_that_is_not_utf8_is_a_typed_error(tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes('{"game": "caf\u00e9"}'.encode("latin-1"))
    with pytest.raises(RecordFileError, match="not UTF-8 text"):
        Record.load(path)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "a record is JSON text"),
        ("[" * 100_000, "too deeply"),
        ("[1, 2]", "a record is a JSON object"),
        ('{"format": 2}', "a record of format 2 holds the key 'claims'"),
    ],
    ids=["bad-json", "deep", "a-list", "missing-keys"],
)
def test_loading_a_file_without_a_record_names_the_file(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SerializationError, match=message) as caught:
        Record.load(path)
    assert not isinstance(caught.value, RecordFileError)
    assert str(caught.value).startswith(f"{path}: ")


def test_loading_checks_what_from_json_checks(record: Record, tmp_path: Path) -> None:
    data = record.to_data()
    data["seed"] = "3"
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SerializationError, match=r"record\.seed: expected an integer"):
        Record.load(path)
    with pytest.raises(SerializationError, match=r"record\.seed: expected an integer"):
        Record.from_json(json.dumps(data))
