"""Game records: a whole game as options, seed (or position) and actions, replayed and verified.

A record is the smallest faithful account of a game: everything else follows from the
rules. In explicit-chance play the chance outcomes are actions too, so they are recorded
in sequence with the decisions.

A record also carries *claims* about what its actions lead to: how many there are, how
the game ended, and a digest of every state along the way. Replaying checks them, so a
record cut short, or with its seed or one decision changed to another legal one, is
refused, and the message names the first entry whose state is not the one recorded.
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import json
import math
import os
import re
import stat
import sys
import tempfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from importlib import resources
from types import MappingProxyType
from typing import Any, ClassVar

import attrs

from cardcrawl._version import __version__
from cardcrawl.core._codec import encode
from cardcrawl.core._notation import MAX_NOTATION
from cardcrawl.core._protocol import Outcome
from cardcrawl.core._registry import load
from cardcrawl.errors import CardcrawlError, RecordError, RecordFileError, SerializationError

__all__ = ["Agent", "Record", "RecordClaims"]


def _frozen_stack(stack: Mapping[str, Any] | None) -> Mapping[str, tuple[Any, ...]] | None:
    if stack is None:
        return None
    # A source may be given as card text ("KS 2S"), as initial_state accepts it.
    return MappingProxyType(
        {
            str(k): tuple(encode(v.replace(",", " ").split() if isinstance(v, str) else list(v)))
            for k, v in stack.items()
        }
    )


def _frozen_mapping(mapping: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(mapping))


# How deeply lists and objects may nest in a record's data. A real record nests a few
# levels (options holding a table, a stack of cells); the limit keeps hostile data from
# reaching the recursion limit in the code that reads it.
_MAX_DEPTH = 100


def _unreadable(exc: RecursionError | ValueError) -> str:
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


def _check_depth(data: Any) -> None:
    """Raise SerializationError if lists and dicts in ``data`` nest over _MAX_DEPTH."""
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
        if depth > _MAX_DEPTH:
            raise SerializationError(
                f"a record nests lists and objects at most {_MAX_DEPTH} levels deep; "
                "this one nests deeper"
            )
        pending.extend((child, depth + 1) for child in children)


# --------------------------------------------------------------------- claims
#: The record format of a record with claims and nothing else: format 2.
RECORD_FORMAT = 2
# Format 1 is a record without claims. It is still read, and replays unverified; a
# record built without claims is written in it, so that it reads back as what it is.
_UNCLAIMED_FORMAT = 1
# Hex digits kept of each state's digest in the trail: 64 bits tell a changed state
# from the recorded one as surely as the full 256 would (the final state keeps all
# 64 digits), at a quarter of the size.
_PREFIX = 16
_HEX_DIGITS = frozenset("0123456789abcdef")

Ending = tuple[str, tuple[float, ...]]


def _canonical_digest(data: Any) -> str:
    """The SHA-256, in hex, of ``data`` as canonical JSON (sorted keys, no spaces)."""
    try:
        text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    except (ValueError, TypeError, RecursionError) as exc:
        # An integer too long for text, or data nested too deep, cannot be a record's.
        raise RecordError(f"the record holds data that JSON text cannot: {_shown(exc)}") from None
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _state_data(game: Any, state: Any) -> tuple[int | None, Any]:
    """(the format of the game's saved states, the data of ``state`` that is digested)."""
    data = game.state_to_data(state)
    # The state alone, without the tags that name its game and versions: the record
    # holds those itself, and load_game() checks the rules version before replaying.
    fmt = data.get("format")
    return (fmt if type(fmt) is int else None), data.get("state", data)


def _ending(game: Any, state: Any) -> Ending | None:
    """(label, returns) of a finished game, or ``None`` while it goes on."""
    outcome = game.outcome(state)
    if outcome is None:
        return None
    return (outcome.label, tuple(float(r) for r in outcome.returns))


def _told(length: int, ending: Ending | None, digest: str) -> str:
    """A length, an ending and a final digest, in words."""
    actions = f"{length} action{'' if length == 1 else 's'}"
    if ending is None:
        over = "a game not over"
    else:
        over = f"a game ended {ending[0]!r} with returns {ending[1]}"
    return f"{actions}, {over} and a final state whose digest begins {digest[:_PREFIX]}"


def _listed(names: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _strings(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(values)


@attrs.frozen
class RecordClaims:
    """What a record says its actions lead to; replaying the record checks every claim.

    A state's digest is the SHA-256 of its data, ``game.state_to_data(state)["state"]``,
    as canonical JSON: ``json.dumps(data, sort_keys=True, separators=(",", ":"))``,
    encoded in UTF-8. The claims catch a record that was cut, edited or corrupted; they
    are no signature, since anyone can replay a record and write its claims afresh.

    Examples:
        >>> import cardcrawl
        >>> game = cardcrawl.load("mapless-house")
        >>> claims = cardcrawl.Record.of(game, seed=3, actions=["place 1,0"]).claims
        >>> claims.length, claims.ending, len(claims.digest), len(claims.trail[0])
        (1, None, 64, 16)
        >>> claims.trail[-1] == claims.digest[:16]
        True

    Attributes:
        length: how many actions the record holds.
        ending: the finished game's outcome as its label and returns, such as
            ``("escaped", (1.0,))``; ``None`` for a game not over.
        digest: the digest of the last state, 64 hex digits.
        start: the first 16 hex digits of the digest of the game's start: the record's
            options, seed, explicit chance and stack with the initial state's data,
            ``{"explicit_chance": ..., "options": ..., "seed": ..., "stack": ...,
            "state": ...}``, with ``"position": ...`` too for a record that starts from
            a position (its seed and stack ``null``).
        trail: for each action in turn, the first 16 hex digits of the digest of the
            state after it; ``trail[-1]`` is the start of ``digest``.
        state_format: the ``format`` of the game's saved states that the digests were
            made from (``None`` if its saved states name none).
    """

    length: int
    ending: Ending | None
    digest: str
    start: str
    trail: tuple[str, ...] = attrs.field(converter=_strings)
    state_format: int | None


def _claims_of(record: Record, game: Any, states: Sequence[Any]) -> RecordClaims:
    """The claims of ``record``, whose states (the initial one first) are ``states``."""
    saved = [_state_data(game, s) for s in states]
    digests = [_canonical_digest(data) for _, data in saved]
    return RecordClaims(
        length=len(states) - 1,
        ending=_ending(game, states[-1]),
        digest=digests[-1],
        start=record._start_digest(saved[0][1]),
        trail=tuple(d[:_PREFIX] for d in digests[1:]),
        state_format=saved[0][0],
    )


def _shown(value: Any) -> str:
    """``repr(value)``, short, for a message about data that may be hostile."""
    # Python refuses to write integers of over 4300 digits as text (ValueError), and
    # the repr of lists nested thousands deep reaches the recursion limit.
    if type(value) is int and value.bit_length() > 64:
        return f"an integer of about {int(value.bit_length() * 0.30103)} digits"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    shown = repr(value)
    return shown if len(shown) <= 40 else shown[:37] + "..."


def _is_count(value: Any) -> bool:
    return type(value) is int and value >= 0


def _is_hex(value: Any, digits: int) -> bool:
    return isinstance(value, str) and len(value) == digits and set(value) <= _HEX_DIGITS


def _is_ending(value: Any) -> bool:
    return value is None or (
        isinstance(value, dict)
        and set(value) == {"label", "returns"}
        and isinstance(value["label"], str)
        and isinstance(value["returns"], list)
        # An integer return must fit a float exactly; the claim holds returns as floats.
        and all(
            type(r) is float or (type(r) is int and r.bit_length() <= 53) for r in value["returns"]
        )
    )


def _claims_from_data(data: Any) -> RecordClaims:
    """The claims of a record's data, checked for shape."""
    keys = {"length", "ending", "digest", "start", "trail", "state_format"}
    if not isinstance(data, dict) or set(data) != keys:
        found = sorted(data) if isinstance(data, dict) else type(data).__name__
        raise SerializationError(
            f"a record's claims are an object with keys {sorted(keys)}; found {found}"
        )
    length = data["length"]
    trail = data["trail"]
    expected = {
        "length": ("a count of actions, an integer from 0", _is_count(length)),
        "ending": (
            'null, or an object {"label": text, "returns": [numbers]}',
            _is_ending(data["ending"]),
        ),
        "digest": ("64 hex digits (0-9, a-f)", _is_hex(data["digest"], 64)),
        "start": (f"{_PREFIX} hex digits (0-9, a-f)", _is_hex(data["start"], _PREFIX)),
        "trail": (
            f"a list of {_shown(length) if _is_count(length) else 'claims.length'} strings of "
            f"{_PREFIX} hex digits, one per action",
            isinstance(trail, list)
            and all(_is_hex(d, _PREFIX) for d in trail)
            and (not _is_count(length) or len(trail) == length),
        ),
        "state_format": (
            "an integer or null",
            data["state_format"] is None or type(data["state_format"]) is int,
        ),
    }
    bad = [f"claims.{name} (expected {what})" for name, (what, ok) in expected.items() if not ok]
    if bad:
        raise SerializationError(f"record has malformed {', '.join(bad)}")
    ending = data["ending"]
    return RecordClaims(
        length=length,
        ending=None if ending is None else (ending["label"], tuple(map(float, ending["returns"]))),
        digest=data["digest"],
        start=data["start"],
        trail=trail,
        state_format=data["state_format"],
    )


def _claims_to_data(claims: RecordClaims) -> dict[str, Any]:
    ending = claims.ending
    return {
        "length": claims.length,
        "ending": None if ending is None else {"label": ending[0], "returns": list(ending[1])},
        "digest": claims.digest,
        "state_format": claims.state_format,
        "start": claims.start,
        "trail": list(claims.trail),
    }


# --------------------------------------------------------------------- traces
#: The format of a *match trace*: format 2's keys (``claims`` optional) and the trace's;
#: and of a record that starts from a position (``position``, with ``seed`` null).
_TRACE_FORMAT = 3
# What a trace adds to a record: who played each seat, the result, when the game
# started, the seconds each action took and comments on actions.
_TRACE_KEYS = frozenset({"agents", "result", "started", "seconds", "comments"})

# Bounds on what a trace holds, so that a hostile record stays cheap to read and show.
# How many agents a record may name before its game is loaded; replaying then asks
# for exactly one per seat.
_MAX_AGENTS = 64
# Characters of an agent's name or version, a setting's name, or an ending's label.
_MAX_NAME = 100
_MAX_SETTINGS = 32
# Characters of a setting's text value.
_MAX_SETTING_TEXT = 200
_MAX_COMMENT = 2000
_KINDS = ("human", "bot", "engine")
# ISO 8601 in UTC, to the second or finer: 2026-12-02T07:20:43Z, 2026-12-02T07:20:43.5Z.
_STARTED = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,6})?Z")
# The decimal index of an action, as a key of the comments object.
_INDEX = re.compile(r"0|[1-9][0-9]{0,8}")

#: A setting's value: JSON text, number, true, false or null.
Setting = str | int | float | bool | None

# (the field that is malformed, what it should be), or None when nothing is.
Problem = tuple[str, str] | None


def _text_problem(value: Any, most: int) -> str | None:
    """Why ``value`` is not text of 1 to ``most`` characters, or ``None``."""
    if not isinstance(value, str):
        return f"text, not {_shown(value)}"
    if not value or len(value) > most:
        return f"text of 1 to {most} characters, not {len(value)}"
    return None


def _is_number(value: Any) -> bool:
    """A finite float, or an int a float holds exactly (JSON has one kind of number)."""
    if type(value) is float:
        return math.isfinite(value)
    return type(value) is int and value.bit_length() <= 53


def _setting_problem(value: Any) -> str | None:
    if value is None or type(value) is bool:
        return None
    if type(value) is int:
        return (
            None
            if value.bit_length() <= 64
            else f"an integer of at most 64 bits, not {_shown(value)}"
        )
    if type(value) is float:
        return None if math.isfinite(value) else f"a finite number, not {_shown(value)}"
    if isinstance(value, str):
        if len(value) > _MAX_SETTING_TEXT:
            return f"text of at most {_MAX_SETTING_TEXT} characters, not {len(value)}"
        return None
    return f"text, a number, true, false or null, not {_shown(value)}"


def _agent_problem(agent: Agent) -> Problem:
    """(field, what it should be) for a malformed agent, or ``None``."""
    if type(agent.seat) is not int or not 0 <= agent.seat < _MAX_AGENTS:
        return "seat", f"a seat number from 0 to {_MAX_AGENTS - 1}, not {_shown(agent.seat)}"
    why = _text_problem(agent.name, _MAX_NAME)
    if why is not None:
        return "name", why
    if agent.kind not in _KINDS:
        return "kind", f"one of {', '.join(map(repr, _KINDS))}, not {_shown(agent.kind)}"
    if agent.version is not None:
        why = _text_problem(agent.version, _MAX_NAME)
        if why is not None:
            return "version", f"null or {why}"
    if len(agent.settings) > _MAX_SETTINGS:
        return "settings", f"at most {_MAX_SETTINGS} settings, not {len(agent.settings)}"
    for key, value in agent.settings.items():
        why = _text_problem(key, _MAX_NAME)
        if why is not None:
            return "settings", f"names that are {why}"
        why = _setting_problem(value)
        if why is not None:
            return f"settings[{key!r}]", why
    return None


def _frozen_settings(settings: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(settings))


@attrs.frozen
class Agent:
    """Who played a seat of a recorded game: a person, a bot, or an engine program.

    A record's agents are what its recorder says; nothing in the game can check them
    (see :class:`Record`).

    Examples:
        >>> import cardcrawl
        >>> agent = cardcrawl.Agent.bot(0, "heuristic", {"depth": 2})
        >>> agent.kind, agent.version == cardcrawl.__version__, dict(agent.settings)
        ('bot', True, {'depth': 2})
        >>> cardcrawl.Agent(1, "Ada", kind="human").to_data()
        {'seat': 1, 'name': 'Ada', 'kind': 'human', 'version': None, 'settings': {}}
        >>> cardcrawl.Agent(0, "x" * 101)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cardcrawl.errors.RecordError: agent has malformed name (expected text of 1 to 100 ...)

    Attributes:
        seat: the seat played, from 0.
        name: the agent's name: a bot's registered name, a person's name or handle.
        kind: ``"human"``, ``"bot"`` or ``"engine"`` (a program speaking the engine
            protocol).
        version: the agent's version, or ``None``.
        settings: the agent's parameters by name (at most 32), each JSON text (at most
            200 characters), a number, a boolean or ``None``.

    Raises:
        RecordError: a field is malformed or out of bounds (names and versions hold 1 to
            100 characters); the message names it.
    """

    seat: int
    name: str
    kind: str = "bot"
    version: str | None = None
    settings: Mapping[str, Setting] = attrs.field(factory=dict, converter=_frozen_settings)

    def __attrs_post_init__(self) -> None:
        problem = _agent_problem(self)
        if problem is not None:
            raise RecordError(f"agent has malformed {problem[0]} (expected {problem[1]})")

    def __reduce__(self) -> tuple[Any, ...]:
        # The read-only view of the settings cannot be pickled: rebuilt from a dict.
        return (type(self), (self.seat, self.name, self.kind, self.version, dict(self.settings)))

    @classmethod
    def bot(
        cls,
        seat: int,
        name: str,
        settings: Mapping[str, Setting] | None = None,
        *,
        version: str | None = __version__,
    ) -> Agent:
        """A bot of seat ``seat``, by default of this library's version (its stock bots
        ship with it).

        Examples:
            >>> import cardcrawl
            >>> cardcrawl.Agent.bot(1, "random").name
            'random'
        """
        return cls(seat, name, "bot", version, settings or {})

    @classmethod
    def human(cls, seat: int, name: str = "person") -> Agent:
        """A person playing seat ``seat``.

        Examples:
            >>> import cardcrawl
            >>> cardcrawl.Agent.human(0).kind
            'human'
        """
        return cls(seat, name, "human")

    def to_data(self) -> dict[str, Any]:
        """The agent as JSON-compatible data (see :meth:`from_data`)."""
        return {
            "seat": self.seat,
            "name": self.name,
            "kind": self.kind,
            "version": self.version,
            "settings": dict(self.settings),
        }

    @classmethod
    def from_data(cls, data: Any) -> Agent:
        """An agent from :meth:`to_data` output.

        Raises:
            SerializationError: malformed data; the message names the field.

        Examples:
            >>> import cardcrawl
            >>> agent = cardcrawl.Agent.bot(0, "random")
            >>> cardcrawl.Agent.from_data(agent.to_data()) == agent
            True
        """
        keys = {"seat", "name", "kind", "version", "settings"}
        if not isinstance(data, dict) or set(data) != keys:
            found = sorted(data) if isinstance(data, dict) else type(data).__name__
            raise SerializationError(
                f"an agent is an object with keys {sorted(keys)}; found {found}"
            )
        if not isinstance(data["settings"], dict):
            raise SerializationError(
                f"agent has malformed settings (expected an object, not {_shown(data['settings'])})"
            )
        try:
            return cls(data["seat"], data["name"], data["kind"], data["version"], data["settings"])
        except RecordError as exc:
            raise SerializationError(str(exc)) from None


def _normal_result(outcome: Any) -> Any:
    """``outcome`` with its returns as floats and its fields as tuples, as a record holds it."""
    if not isinstance(outcome, Outcome):
        return outcome
    try:
        return Outcome(
            label=outcome.label,
            returns=tuple(float(r) for r in outcome.returns),
            scores=None if outcome.scores is None else tuple(outcome.scores),
            winners=tuple(outcome.winners),
        )
    except (TypeError, ValueError, OverflowError):
        return outcome  # left as it is, for _result_problem to name


def _result_problem(result: Any) -> str | None:
    if result is None:
        return None
    if not isinstance(result, Outcome):
        return f"an Outcome or None, not {_shown(result)}"
    if _text_problem(result.label, _MAX_NAME) is not None:
        return f"a label of 1 to {_MAX_NAME} characters"
    fields = (result.returns, result.winners, () if result.scores is None else result.scores)
    if not all(isinstance(f, tuple) and len(f) <= _MAX_AGENTS for f in fields):
        return f"returns, scores and winners of at most {_MAX_AGENTS} entries each"
    if not all(type(r) is float and math.isfinite(r) for r in result.returns):
        return "finite numbers as returns"
    if result.scores is not None and not all(
        type(s) is int and s.bit_length() <= 64 for s in result.scores
    ):
        return "integers of at most 64 bits as scores"
    if not all(type(w) is int and 0 <= w < _MAX_AGENTS for w in result.winners):
        return "seat numbers as winners"
    return None


def _result_of(game: Any, state: Any) -> Outcome | None:
    """The outcome of ``state`` as a record holds it, or ``None`` for a game not over."""
    outcome = game.outcome(state)
    return None if outcome is None else _normal_result(outcome)


def _result_told(result: Outcome | None) -> str:
    if result is None:
        return "a game not over"
    scores = "" if result.scores is None else f", scores {list(result.scores)}"
    return (
        f"the ending {result.label!r} with returns {list(result.returns)}{scores} "
        f"and winners {list(result.winners)}"
    )


def _result_to_data(result: Outcome) -> dict[str, Any]:
    return {
        "label": result.label,
        "returns": list(result.returns),
        "scores": None if result.scores is None else list(result.scores),
        "winners": list(result.winners),
    }


def _result_from_data(data: Any) -> Outcome | None:
    if data is None:
        return None
    keys = {"label", "returns", "scores", "winners"}
    ok = (
        isinstance(data, dict)
        and set(data) == keys
        and isinstance(data["label"], str)
        and isinstance(data["returns"], list)
        and all(_is_number(r) for r in data["returns"])
        and (
            data["scores"] is None
            or (
                isinstance(data["scores"], list)
                and all(type(s) is int and s.bit_length() <= 64 for s in data["scores"])
            )
        )
        and isinstance(data["winners"], list)
        and all(type(w) is int for w in data["winners"])
    )
    if not ok:
        raise SerializationError(
            'record has malformed result (expected null, or an object {"label": text, '
            '"returns": [numbers], "scores": [integers] or null, "winners": [seats]})'
        )
    scores = data["scores"]
    return Outcome(
        label=data["label"],
        returns=tuple(float(r) for r in data["returns"]),
        scores=None if scores is None else tuple(scores),
        winners=tuple(data["winners"]),
    )


def _started_text(value: Any) -> Any:
    """A start time as the record holds it: ISO 8601 text in UTC, ``...Z``."""
    if not isinstance(value, datetime.datetime):
        return value
    offset = value.utcoffset()
    if offset is None or offset:
        raise RecordError(
            f"a record's start time is in UTC; {value.isoformat()} is "
            f"{'a local time with no zone' if offset is None else 'in another zone'}: "
            "give datetime.now(datetime.timezone.utc), or convert it with "
            ".astimezone(datetime.timezone.utc)"
        )
    fraction = f".{value.microsecond:06d}" if value.microsecond else ""
    return f"{value.strftime('%Y-%m-%dT%H:%M:%S')}{fraction}Z"


def _started_problem(value: Any) -> str | None:
    if value is None:
        return None
    expected = "ISO 8601 text in UTC, such as '2026-12-02T07:20:43Z', or null"
    if not isinstance(value, str) or not _STARTED.fullmatch(value):
        return f"{expected}, not {_shown(value)}"
    try:
        # The pattern holds; this checks the month, day and hour are real ones (in a
        # way Python 3.10 reads too: its fromisoformat knows no "Z").
        datetime.datetime.strptime(value[:19], "%Y-%m-%dT%H:%M:%S")
    except ValueError:
        return f"{expected}: {value!r} is no such time"
    return None


def _seconds_problem(value: Any) -> str | None:
    """Why ``value`` is not the seconds an action took, or ``None``."""
    if value is None or (type(value) is float and math.isfinite(value) and value >= 0):
        return None
    return f"a number of seconds from 0 (finite) or null, not {_shown(value)}"


def _comment_problem(value: Any) -> str | None:
    """Why ``value`` is not a comment on an action, or ``None``."""
    return _text_problem(value, _MAX_COMMENT)


def _float_seconds(values: Iterable[Any]) -> tuple[Any, ...]:
    # An integer (from JSON, or typed as 2) counts as that many seconds.
    return tuple(float(v) if type(v) is int and v.bit_length() <= 53 else v for v in values)


def _agents(values: Iterable[Agent]) -> tuple[Agent, ...]:
    return tuple(values)


def _frozen_comments(comments: Mapping[int, str] | None) -> Mapping[int, str]:
    return MappingProxyType({} if comments is None else dict(sorted(comments.items(), key=_key)))


def _key(item: tuple[Any, Any]) -> tuple[bool, Any]:
    # Sorted by index; a key that is no index sorts last, for _trace_problem to name.
    index = item[0]
    return (type(index) is not int, index if type(index) is int else 0)


def _trace_problem(record: Record) -> Problem:
    """(field, what it should be) for a malformed trace field of ``record``, or ``None``."""
    agents = record.agents
    if len(agents) > _MAX_AGENTS:
        return "agents", f"at most {_MAX_AGENTS} agents, one per seat, not {len(agents)}"
    for i, agent in enumerate(agents):
        if not isinstance(agent, Agent) or agent.seat != i:
            return f"agents[{i}]", f"the Agent of seat {i} (agents are given seat by seat)"
    why = _result_problem(record.result)
    if why is not None:
        return "result", why
    why = _started_problem(record.started)
    if why is not None:
        return "started", why
    length = len(record.actions)
    if record.seconds and len(record.seconds) != length:
        return "seconds", f"one entry per action, {length}, not {len(record.seconds)}"
    for i, seconds in enumerate(record.seconds):
        why = _seconds_problem(seconds)
        if why is not None:
            return f"seconds[{i}]", why
    for index, comment in record.comments.items():
        if type(index) is not int or not 0 <= index < length:
            return "comments", f"the indices of actions, 0 to {length - 1}, not {_shown(index)}"
        why = _comment_problem(comment)
        if why is not None:
            return f"comments[{index}]", why
    return None


def _trace_from_data(data: dict[str, Any]) -> dict[str, Any]:
    """The trace fields of a record's data, as :class:`Record` takes them."""
    agents = data.get("agents", [])
    if not isinstance(agents, list) or len(agents) > _MAX_AGENTS:
        raise SerializationError(
            f"record has malformed agents (expected a list of at most {_MAX_AGENTS} agents)"
        )
    trace: dict[str, Any] = {}
    read = []
    for i, agent in enumerate(agents):
        try:
            read.append(Agent.from_data(agent))
        except SerializationError as exc:
            raise SerializationError(f"record has malformed agents[{i}]: {exc}") from None
    trace["agents"] = tuple(read)
    trace["result"] = _result_from_data(data.get("result"))
    trace["started"] = data.get("started")
    seconds = data.get("seconds", [])
    if not isinstance(seconds, list) or not all(s is None or _is_number(s) for s in seconds):
        raise SerializationError(
            "record has malformed seconds (expected a list of numbers or nulls, one per action)"
        )
    trace["seconds"] = seconds
    comments = data.get("comments", {})
    if not isinstance(comments, dict) or not all(
        isinstance(k, str) and _INDEX.fullmatch(k) for k in comments
    ):
        raise SerializationError(
            "record has malformed comments (expected an object whose keys are the indices "
            'of actions in decimal, "0", "1", ..., and whose values are text)'
        )
    trace["comments"] = {int(k): v for k, v in comments.items()}
    return trace


def _position_explicit(game: Any, position: str) -> bool:
    """Whether the position ``position`` of ``game`` plays with explicit chance."""
    try:
        return bool(game.position(position).explicit_chance)
    except CardcrawlError as exc:
        raise RecordError(f"record cannot start from its position: {exc}") from exc


def _start_problem(record: Record) -> Problem:
    """(field, what it should be) when ``record`` names no one start, or ``None``.

    A record starts from its seed (and stack), or from a position: the position's
    notation writes the generator and the stacked tops itself, so it takes neither.
    """
    position = record.position
    if position is None:
        if record.seed is None:
            return "seed", "an integer, or a position to start from instead"
        return None
    # Untrusted text: its length is bounded before any game reads it.
    if not isinstance(position, str):
        return "position", f"a position's notation as text, not {_shown(position)}"
    if not position or len(position) > MAX_NOTATION:
        return "position", f"text of 1 to {MAX_NOTATION} characters, not {len(position)}"
    if record.seed is not None:
        return "seed", "null in a record that starts from a position, which holds the generator"
    if record.stack is not None:
        return "stack", "null in a record that starts from a position, which holds the stacks"
    return None


# --------------------------------------------------------------------- record
@attrs.frozen
class Record:
    """A saved game: which game, its options, its seed, every action in order, and
    claims about where those actions lead.

    Records made by :meth:`of`, :meth:`cardcrawl.Match.to_record` and ``cardcrawl play
    --record`` carry :class:`RecordClaims`; replaying checks them, and refuses a record
    whose claims fail. A record without claims (one of format 1, or one built with
    ``Record(...)``) replays too, unchecked: :attr:`verified` is ``False`` for it.

    **The format** is a JSON object; :meth:`json_schema` gives its JSON Schema. Its keys:

    * ``format``: 2 for a record with claims; 1 for one without, which has no ``claims``
      key; 3 for a *match trace*, which may hold the trace's keys below (and ``claims``),
      or for a record that starts from a position;
    * ``game``, ``rules_version``: the game's registry name and rules version;
    * ``options``: the game's options as an object;
    * ``seed``: the generator seed, an integer from 0 to 2**64 - 1; ``null`` in a record
      that starts from a position;
    * ``position``: the position the game started from, in the game's position notation
      (see :meth:`~cardcrawl.GameBase.position`), at most 10,000 characters; optional,
      format 3 only. It holds the generator and the stacked tops, so such a record has
      no seed and no stack;
    * ``explicit_chance``: ``true`` when chance outcomes are recorded as actions;
    * ``actions``: each action's text form, in order;
    * ``stack``: the stacked chance outcomes by source name, or ``null`` (optional);
    * ``claims``: an object with ``length`` (the number of actions), ``ending``
      (``{"label": ..., "returns": [...]}`` for a finished game, else ``null``),
      ``digest`` (the last state's SHA-256, 64 hex digits), ``state_format`` (the
      format of the saved states digested), ``start`` (16 hex digits for the start of
      the game) and ``trail`` (16 hex digits for the state after each action). See
      :class:`RecordClaims`.

    A match trace says what the recorder saw besides the actions, each key optional:

    * ``agents``: who played, seat by seat, one per seat: ``{"seat", "name", "kind"
      ("human", "bot" or "engine"), "version", "settings"}`` (see :class:`Agent`);
    * ``result``: the outcome of a finished game, ``{"label", "returns", "scores",
      "winners"}``, as :meth:`~cardcrawl.Game.outcome` gives it;
    * ``started``: when the game started, ISO 8601 text in UTC
      (``"2026-12-02T07:20:43Z"``);
    * ``seconds``: for each action, the seconds taken to choose it, or ``null``;
    * ``comments``: comments (1 to 2,000 characters) by the index of their action,
      ``{"3": "a risky step"}``.

    Replaying checks the ``result`` (and that there is one agent per seat); the agents,
    the times and the comments are the recorder's word, unchecked.

    With the claims a record grows by about 250 bytes, and 23 more per action in
    :meth:`to_json`'s layout: a game of 35 actions takes some 1.8 kB instead of 0.8.

    Examples:
        >>> import cardcrawl
        >>> game = cardcrawl.load("mapless-house", max_turns=50)
        >>> state = game.initial_state(seed=5)
        >>> actions = []
        >>> while not game.is_terminal(state):
        ...     action = game.legal_actions(state)[-1]
        ...     actions.append(action)
        ...     state = game.step(state, action)
        >>> record = cardcrawl.Record.of(game, seed=5, actions=actions)
        >>> again = cardcrawl.Record.from_json(record.to_json())
        >>> again.replay() == state, again.verified, again.claims.ending
        (True, True, ('consumed', (0.0,)))

    Attributes:
        game: the registry name of the game or variant.
        options: the options as JSON-compatible data.
        seed: the generator seed; ``None`` for a record that starts from a position.
        actions: each action's text form, in order.
        rules_version: the game's rules version when the record was made.
        explicit_chance: the game was played with explicit chance (outcomes recorded).
        stack: the stacked chance outcomes the game started with, as JSON-compatible
            data by source name (see the game's ``initial_state``), or ``None``.
        claims: what the actions lead to, checked by :meth:`replay`; ``None`` for a
            record without claims.
        agents: who played each seat, in seat order; empty when not recorded.
        result: the outcome of the finished game, checked by :meth:`replay`; ``None``
            when not recorded or the game is not over.
        started: when the game started, ISO 8601 text in UTC, or ``None``.
        seconds: the seconds each action took to choose (``None`` for one not timed);
            empty when none was timed.
        comments: comments on actions, by the action's index.
        position: the notation of the position the game started from (see
            :meth:`~cardcrawl.GameBase.position`), or ``None`` for a game that started
            from its seed. Replaying starts from ``game.position(position)``.

    Raises:
        RecordError: a trace field is malformed or out of bounds, or the record names
            no one start (a seed, or a position without seed and stack); the message
            names the field.
    """

    #: The newest format, the one :meth:`to_data` writes for a match trace (3). A record
    #: is written in the oldest format that holds it: 2 with claims, 1 without.
    FORMAT: ClassVar[int] = _TRACE_FORMAT
    #: The keys a match trace may add to a record's data (see :meth:`to_data`).
    TRACE_KEYS: ClassVar[frozenset[str]] = _TRACE_KEYS

    game: str
    options: Mapping[str, Any] = attrs.field(converter=_frozen_mapping)
    seed: int | None
    actions: tuple[str, ...] = attrs.field(converter=tuple)
    rules_version: str
    explicit_chance: bool = False
    stack: Mapping[str, tuple[Any, ...]] | None = attrs.field(default=None, converter=_frozen_stack)
    claims: RecordClaims | None = None
    agents: tuple[Agent, ...] = attrs.field(default=(), converter=_agents)
    result: Outcome | None = attrs.field(default=None, converter=_normal_result)
    started: str | None = attrs.field(default=None, converter=_started_text)
    seconds: tuple[float | None, ...] = attrs.field(default=(), converter=_float_seconds)
    comments: Mapping[int, str] = attrs.field(factory=dict, converter=_frozen_comments)
    position: str | None = None

    def __attrs_post_init__(self) -> None:
        problem = _start_problem(self) or _trace_problem(self)
        if problem is not None:
            raise RecordError(f"record has malformed {problem[0]} (expected {problem[1]})")

    def __reduce__(self) -> tuple[Any, ...]:
        # The read-only views of options, stack and comments (MappingProxyType) cannot
        # be pickled or deep-copied: a record is rebuilt from plain dicts, which the
        # converters freeze again.
        stack = None if self.stack is None else dict(self.stack)
        fields = (self.game, dict(self.options), self.seed, self.actions, self.rules_version)
        trace = (self.agents, self.result, self.started, self.seconds, dict(self.comments))
        start = (self.explicit_chance, stack, self.claims)
        return (type(self), (*fields, *start, *trace, self.position))

    @property
    def is_trace(self) -> bool:
        """True when the record says more than the game: who played (:attr:`agents`),
        when it started, how long each action took or comments on actions.

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> record = cardcrawl.Record.of(game, seed=3, actions=["place 1,0"])
            >>> record.is_trace, record.to_data()["format"]
            (False, 2)
            >>> trace = cardcrawl.Record.of(
            ...     game, seed=3, actions=["place 1,0"], comments={0: "a safe start"})
            >>> trace.is_trace, trace.to_data()["format"], trace.to_data()["comments"]
            (True, 3, {'0': 'a safe start'})
        """
        return bool(self.agents or self.started is not None or self.seconds or self.comments) or (
            self.result is not None
        )

    @classmethod
    def of(
        cls,
        game: Any,
        seed: int | None = None,
        actions: Sequence[Any] = (),
        *,
        position: str | None = None,
        explicit_chance: bool | None = None,
        stack: Mapping[str, Sequence[Any]] | None = None,
        agents: Sequence[Agent] = (),
        started: str | datetime.datetime | None = None,
        seconds: Sequence[float | None] = (),
        comments: Mapping[int, str] | None = None,
    ) -> Record:
        """The record of a game played from ``game.initial_state(seed)``, or from
        ``game.position(position)``, with ``actions``.

        The actions are replayed, from their text form, to write the record's claims.
        Given any of ``agents``, ``started``, ``seconds`` or ``comments``, the record is
        a *match trace*: it names the result of a finished game too (:attr:`result`).

        Args:
            game: the game played (its name, options and rules version are recorded).
            seed: the seed the game started from; ``None`` with a ``position``.
            actions: the actions in order, as values or in their text form; in
                explicit-chance play, the chance outcomes too.
            position: the notation of the position the game started from, instead of
                a seed (it holds the generator, the stacked tops and explicit chance).
            explicit_chance: the game was played with explicit chance (default: as the
                position says, else ``False``).
            stack: the stacked chance outcomes the game started with, as given to
                ``initial_state``, or ``None``.
            agents: who played, one :class:`Agent` per seat in seat order.
            started: when the game started: an aware :class:`~datetime.datetime` in UTC,
                or ISO 8601 text such as ``"2026-12-02T07:20:43Z"``.
            seconds: for each action, the seconds it took to choose (``None`` for one
                not timed, such as a chance outcome); empty for none timed.
            comments: comments by the index of the action they are about.

        Returns:
            The record, with its claims.

        Raises:
            RecordError: the game cannot start from ``seed`` and ``stack`` or from
                ``position`` (the notation's error, naming its field, is the cause), an
                action does not replay (the message names the first that fails), or a
                field is malformed or out of bounds (the message names it).

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house", max_turns=50)
            >>> record = cardcrawl.Record.of(
            ...     game, seed=3, actions=["place 1,0"], stack={"mind": "2H"})
            >>> record.game, record.options["max_turns"], record.actions, dict(record.stack)
            ('mapless-house', 50, ('place 1,0',), {'mind': ('2H',)})
            >>> record.claims.length, record.verified
            (1, True)

            From a position (see the documentation's page *Position notation*):

            >>> text = "AD phase=place:KS player=0,0 rng=0000000000000001"
            >>> record = cardcrawl.Record.of(game, position=text, actions=["place 1,0"])
            >>> record.seed, record.to_data()["format"], record.replay().table[(1, 0)]
            (None, 3, Card.parse('KS'))
        """
        if explicit_chance is None:
            explicit_chance = position is not None and _position_explicit(game, position)
        record = cls(
            game=game.name,
            options=game.options.to_data(),
            seed=seed,
            actions=tuple(game.format_action(a) for a in actions),
            rules_version=game.rules_version,
            explicit_chance=explicit_chance,
            stack=stack,
            agents=agents,
            started=started,
            seconds=seconds,
            comments=comments,
            position=position,
        )
        return record._claimed(game, list(record._replay(game)))

    def _claimed(self, game: Any, states: Sequence[Any]) -> Record:
        """This record with the claims of ``states``, the states its actions make, and
        for a trace its result."""
        self._check_agents(game)
        result = _result_of(game, states[-1]) if self.is_trace else None
        return attrs.evolve(self, claims=_claims_of(self, game, states), result=result)

    @property
    def verified(self) -> bool:
        """True when the record carries claims, which replaying it checks.

        A record with claims that replays without a :class:`~cardcrawl.RecordError` is
        the game that was recorded: no entry cut off, added or changed. A record
        without claims (format 1) replays as well, but unverified: a cut or an edited
        action that stays legal would go unseen.

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> record = cardcrawl.Record.of(game, seed=3, actions=["place 1,0"])
            >>> data = record.to_data()
            >>> del data["claims"]
            >>> old = cardcrawl.Record.from_data({**data, "format": 1})
            >>> record.verified, old.verified, old.replay() == record.replay()
            (True, False, True)
        """
        return self.claims is not None

    def load_game(self) -> Any:
        """The game this record was played with.

        The name is looked up as :func:`~cardcrawl.load` looks it up, so the games and
        variants of installed plug-ins are found too (see :func:`~cardcrawl.load_plugins`).

        Returns:
            The game, loaded by name with the recorded options.

        Raises:
            RecordError: the game is unknown, its options are invalid, or the record was
                made under another rules version.

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house", max_turns=40)
            >>> cardcrawl.Record.of(game, seed=3, actions=[]).load_game() == game
            True
        """
        try:
            game = load(self.game, **self.options)
        except CardcrawlError as exc:
            # Chained: the command line tells an unknown game (hint: --import) apart.
            raise RecordError(f"record cannot load its game: {exc}") from exc
        if game.rules_version != self.rules_version:
            raise RecordError(
                f"record was made under rules version {self.rules_version!r} of {self.game}; "
                f"this library plays version {game.rules_version!r} and will not replay it wrongly"
            )
        return game

    def _start(self, game: Any) -> Any:
        """The initial state: from the seed and stack, or read from the position."""
        if self.position is None:
            try:
                return game.initial_state(
                    self.seed, explicit_chance=self.explicit_chance, stack=self.stack
                )
            except CardcrawlError as exc:
                raise RecordError(f"record cannot start its game: {exc}") from None
        try:
            state = game.position(self.position)
        except CardcrawlError as exc:
            # Chained: the NotationError names the field of the position at fault.
            raise RecordError(f"record cannot start from its position: {exc}") from exc
        if bool(state.explicit_chance) != self.explicit_chance:
            flag = "has" if state.explicit_chance else "lacks"
            raise RecordError(
                f"record's explicit_chance is {str(self.explicit_chance).lower()}, but its "
                f"position {flag} the explicit_chance flag: the two must agree"
            )
        return state

    def _replay(self, game: Any) -> Iterator[Any]:
        """The initial state, then the state after each action, each action checked."""
        state = self._start(game)
        yield state
        for i, text in enumerate(self.actions):
            try:
                action = game.parse_action(text)
                state = game.step(state, action)
            except CardcrawlError as exc:
                raise RecordError(f"record entry {i} ({text!r}) does not replay: {exc}") from None
            yield state

    def _check_agents(self, game: Any) -> None:
        if self.agents and len(self.agents) != game.num_players:
            raise RecordError(
                f"record's agents claim fails: it names {len(self.agents)} agents, one per "
                f"seat, for a game of {self.game} that seats {game.num_players}"
            )

    def _start_digest(self, initial: Any) -> str:
        """The claim ``start`` for this record, whose initial state's data is ``initial``."""
        start = {
            "explicit_chance": self.explicit_chance,
            "options": dict(self.options),
            "seed": self.seed,
            "stack": self._stack_data(),
            "state": initial,
        }
        if self.position is not None:
            # Only then: a record without a position digests as it always has.
            start["position"] = self.position
        return _canonical_digest(start)[:_PREFIX]

    def _check_start(self, game: Any, initial: Any, claims: RecordClaims) -> None:
        state_format, data = _state_data(game, initial)
        if state_format != claims.state_format:
            raise RecordError(
                f"record's digests were made from {self.game} states saved in format "
                f"{_shown(claims.state_format)}; this library saves them in format {state_format}, "
                "so it cannot check them"
            )
        found = self._start_digest(data)
        if found != claims.start and self.position is not None:
            raise RecordError(
                f"record's start claim fails: it claims a start with digest {claims.start}; "
                f"its position with its options and explicit_chance gives {found}. The "
                "position, an option or explicit_chance is not the one the game was played with"
            )
        if found != claims.start:
            raise RecordError(
                f"record's start claim fails: it claims a start with digest {claims.start}; "
                f"seed {self.seed} with its options, stack and explicit_chance gives {found}. "
                "The seed, an option, the stack or explicit_chance is not the one the game "
                "was played with"
            )

    def _check_entry(self, game: Any, i: int, state: Any, claims: RecordClaims) -> str:
        """The digest of ``state``, made by entry ``i``, checked against the trail."""
        digest = _canonical_digest(_state_data(game, state)[1])
        text = self.actions[i]
        if i >= len(claims.trail):
            raise RecordError(
                f"record entry {i} ({text!r}) was added: the record claims "
                f"{claims.length} actions, so this entry and any after it are not the game's"
            )
        if digest[:_PREFIX] != claims.trail[i]:
            raise RecordError(
                f"record entry {i} ({text!r}) is not the action recorded: the record claims "
                f"the state after it has digest {claims.trail[i]}; replaying gives "
                f"{digest[:_PREFIX]}. Every state before it is the one recorded, so this "
                "entry (or its claim in the trail) was changed"
            )
        return digest

    def _check_end(self, game: Any, last: Any, digest: str, claims: RecordClaims) -> None:
        length = len(self.actions)
        ending = _ending(game, last)
        checks = [
            ("length", length == claims.length),
            ("ending", ending == claims.ending),
            ("final digest", digest == claims.digest),
        ]
        failed = [name for name, ok in checks if not ok]
        if not failed:
            return
        if length < claims.length:
            missing = claims.length - length
            why = (
                f"the record was cut short: {missing} of its {claims.length} entries "
                f"{'is' if missing == 1 else 'are'} missing, after entry {length - 1}"
                if length
                else f"the record was cut short: all {claims.length} of its entries are missing"
            )
        else:
            why = "its states are the ones recorded, so the claims themselves were changed"
        raise RecordError(
            f"record fails its {_listed(failed)} claim{'s' if len(failed) > 1 else ''}: "
            f"the record claims {_told(claims.length, claims.ending, claims.digest)}; "
            f"replaying gives {_told(length, ending, digest)}. {why[0].upper()}{why[1:]}"
        )

    def states(self) -> Iterator[Any]:
        """Every state of the game, from the initial state to the last, verified.

        Each state is checked against the record's claims before it is given: the start
        first, then the state after each action against the trail. The claims about the
        end (length, ending, final digest) are checked after the last state is given,
        so reading every state, as :meth:`replay` does, checks them all.

        Yields:
            The initial state, then the state after each action in turn.

        Raises:
            RecordError: naming the first entry that is malformed, illegal, or makes a
                state other than the one recorded, or the claim that fails.

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> record = cardcrawl.Record.of(game, seed=3, actions=["place 1,0", "place 2,0"])
            >>> states = list(record.states())
            >>> len(states), states[0] == game.initial_state(seed=3)
            (3, True)
        """
        game = self.load_game()
        self._check_agents(game)
        claims = self.claims
        replayed = self._replay(game)
        last = next(replayed)
        if claims is not None:
            self._check_start(game, last, claims)
        yield last
        for i, state in enumerate(replayed):
            if claims is not None:
                self._check_entry(game, i, state, claims)
            yield state
            last = state
        if claims is not None:
            digest = _canonical_digest(_state_data(game, last)[1])
            self._check_end(game, last, digest, claims)
        if self.result is not None:
            found = _result_of(game, last)
            if found != self.result:
                raise RecordError(
                    f"record's result claim fails: it claims {_result_told(self.result)}; "
                    f"replaying gives {_result_told(found)}"
                )

    def replay(self) -> Any:
        """The final state, after verifying every entry and claim (see :meth:`states`).

        Raises:
            RecordError: naming the first entry that is malformed, illegal, or makes a
                state other than the one recorded, or the claim that fails.

        Examples:
            >>> import attrs, cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> record = cardcrawl.Record.of(game, seed=3, actions=["place 1,0", "place 2,0"])
            >>> attrs.evolve(record, seed=4).replay()  # doctest: +ELLIPSIS
            Traceback (most recent call last):
            ...
            cardcrawl.errors.RecordError: record's start claim fails: ...
            >>> attrs.evolve(record, actions=record.actions[:1]).replay()  # doctest: +ELLIPSIS
            Traceback (most recent call last):
            ...
            cardcrawl.errors.RecordError: record fails its length and final digest claims: ...
        """
        *_, last = self.states()
        return last

    @classmethod
    def json_schema(cls) -> dict[str, Any]:
        """The JSON Schema (draft 2020-12) of records, of formats 3, 2 and 1 (a record
        from a position is one of format 3).

        The schema is shipped in the package as ``cardcrawl/play/record.schema.json``.
        :meth:`from_data` checks a little more than it can say: that the trail holds
        one digest per action, that seconds and comments are about actions the record
        holds, that a start time is a real one, and that records nest at most 100
        levels deep.

        Examples:
            >>> import cardcrawl
            >>> schema = cardcrawl.Record.json_schema()
            >>> schema["properties"]["format"]["enum"], "claims" in schema["properties"]
            ([1, 2, 3], True)
        """
        text = resources.files(__package__).joinpath("record.schema.json").read_text("utf-8")
        schema: dict[str, Any] = json.loads(text)
        return schema

    def _stack_data(self) -> dict[str, list[Any]] | None:
        return None if self.stack is None else {k: list(v) for k, v in self.stack.items()}

    def to_data(self) -> dict[str, Any]:
        """The record as JSON-compatible data, in the oldest format that holds it: 3 for a
        match trace (:attr:`is_trace`) or a record from a position, else 2, or 1 for a
        record without claims.

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> data = cardcrawl.Record.of(game, seed=3, actions=["place 1,0"]).to_data()
            >>> data["format"], list(data)[-1], sorted(data["claims"])
            (2, 'claims', ['digest', 'ending', 'length', 'start', 'state_format', 'trail'])
        """
        if self.is_trace or self.position is not None:
            fmt = _TRACE_FORMAT
        else:
            fmt = _UNCLAIMED_FORMAT if self.claims is None else RECORD_FORMAT
        data: dict[str, Any] = {
            "format": fmt,
            "game": self.game,
            "rules_version": self.rules_version,
            "options": dict(self.options),
            "seed": self.seed,
        }
        if self.position is not None:
            data["position"] = self.position
        data["explicit_chance"] = self.explicit_chance
        # A trace's keys are written only when they say something: an old reader's
        # record stays as it was.
        if self.started is not None:
            data["started"] = self.started
        if self.agents:
            data["agents"] = [agent.to_data() for agent in self.agents]
        if self.result is not None:
            data["result"] = _result_to_data(self.result)
        data["actions"] = list(self.actions)
        if self.seconds:
            data["seconds"] = list(self.seconds)
        if self.comments:
            data["comments"] = {str(i): text for i, text in self.comments.items()}
        data["stack"] = self._stack_data()
        if self.claims is not None:
            data["claims"] = _claims_to_data(self.claims)
        return data

    @classmethod
    def from_data(cls, data: Any) -> Record:
        """A record from :meth:`to_data` output, checked for shape (not yet replayed).

        Records of format 2 (without a trace) and of format 1 (without claims either)
        are read too; a record without claims replays unverified (see :attr:`verified`).

        Args:
            data: the record as JSON-compatible data.

        Returns:
            The record.

        Raises:
            SerializationError: malformed data (the message names the field), a trace
                field out of bounds, or lists and objects nested more than 100 levels deep.

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> data = cardcrawl.Record.of(game, seed=3, actions=["place 1,0"]).to_data()
            >>> cardcrawl.Record.from_data(data).actions
            ('place 1,0',)
            >>> cardcrawl.Record.from_data({**data, "seed": "3"})
            Traceback (most recent call last):
            ...
            cardcrawl.errors.SerializationError: record has malformed seed
        """
        if not isinstance(data, dict):
            raise SerializationError(
                f"a record is an object with keys {sorted(_KEYS)}; found {type(data).__name__}"
            )
        fmt = data.get("format")
        # Compared as an int only: JSON true is no format, though True == 1 in Python.
        known = fmt if type(fmt) is int else None
        if known is not None and known not in _FORMATS:
            raise SerializationError(
                f"record format {_shown(fmt)} is not one this library reads: it reads format "
                f"{_TRACE_FORMAT}, a match trace, format {RECORD_FORMAT}, and format "
                f"{_UNCLAIMED_FORMAT}, which has no claims"
            )
        keys = _KEYS - {"claims"} if known == _UNCLAIMED_FORMAT else _KEYS
        # "stack" is optional: records of unstacked games may leave it out; and in a
        # trace, "claims", "position" and the trace's own keys.
        newest = _TRACE_KEYS | {"claims", "position"}
        optional = {"stack"} | (newest if known == _TRACE_FORMAT else set())
        if set(data) - optional != keys - optional:
            of = "" if known is None else f" of format {known}"
            expected = sorted(keys) if known != _TRACE_FORMAT else sorted(keys | newest)
            raise SerializationError(
                f"a record{of} is an object with keys {expected}; found {sorted(data)}"
            )
        if known is None:
            raise SerializationError(
                f"record format {_shown(fmt)} is not {_TRACE_FORMAT}, {RECORD_FORMAT} or "
                f"{_UNCLAIMED_FORMAT}, the ones this library reads"
            )
        position = data.get("position")
        checks = {
            "game": isinstance(data["game"], str),
            "rules_version": isinstance(data["rules_version"], str),
            "options": isinstance(data["options"], dict),
            "seed": (isinstance(data["seed"], int) and not isinstance(data["seed"], bool))
            or (data["seed"] is None and position is not None),
            # Untrusted text, bounded before any game reads it.
            "position": position is None
            or (isinstance(position, str) and 0 < len(position) <= MAX_NOTATION),
            "explicit_chance": isinstance(data["explicit_chance"], bool),
            "actions": isinstance(data["actions"], list)
            and all(isinstance(a, str) for a in data["actions"]),
            "stack": data.get("stack") is None
            or (
                isinstance(data["stack"], dict)
                and all(isinstance(v, list) for v in data["stack"].values())
            ),
        }
        bad = [k for k, ok in checks.items() if not ok]
        if bad:
            raise SerializationError(f"record has malformed {', '.join(bad)}")
        claims = None if "claims" not in data else _claims_from_data(data["claims"])
        _check_depth(data)
        trace = _trace_from_data(data)
        try:
            return cls(
                game=data["game"],
                options=data["options"],
                seed=data["seed"],
                actions=data["actions"],
                rules_version=data["rules_version"],
                explicit_chance=data["explicit_chance"],
                stack=data.get("stack"),
                claims=claims,
                position=position,
                **trace,
            )
        except RecordError as exc:
            # A trace field out of bounds, found by the record's own checks.
            raise SerializationError(str(exc)) from None

    def to_json(self) -> str:
        """The record as a JSON document.

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> record = cardcrawl.Record.of(game, seed=3, actions=["place 1,0"])
            >>> cardcrawl.Record.from_json(record.to_json()) == record
            True
        """
        return json.dumps(self.to_data(), indent=1)

    @classmethod
    def from_json(cls, text: str) -> Record:
        """A record from :meth:`to_json` output.

        Args:
            text: the JSON document.

        Returns:
            The record (not yet replayed: :meth:`replay` checks it).

        Raises:
            SerializationError: the text is not JSON, or not a record; JSON nested
                too deeply or with a number too long to read counts as not JSON.

        Examples:
            >>> import cardcrawl
            >>> cardcrawl.Record.from_json("[" * 100_000)  # doctest: +ELLIPSIS
            Traceback (most recent call last):
            ...
            cardcrawl.errors.SerializationError: a record is JSON text: it nests ... too deeply ...
        """
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, TypeError) as exc:
            raise SerializationError(f"a record is JSON text: {exc}") from None
        except (RecursionError, ValueError) as exc:
            raise SerializationError(f"a record is JSON text: {_unreadable(exc)}") from None
        return cls.from_data(data)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the record to the file ``path`` as its JSON document (:meth:`to_json`).

        The document is written in UTF-8 to a temporary file beside ``path``, which then
        replaces ``path`` in one step: a reader never finds half a record, and a failed
        save leaves any file that was there as it was.

        Args:
            path: where to write; the folder must exist.

        Raises:
            RecordFileError: the file cannot be written (no such folder, no permission).

        Examples:
            >>> import pathlib, tempfile, cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> record = cardcrawl.Record.of(game, seed=3, actions=["place 1,0"])
            >>> path = pathlib.Path(tempfile.mkdtemp()) / "game.json"
            >>> record.save(path)
            >>> cardcrawl.Record.load(path) == record
            True
        """
        text = self.to_json() + "\n"
        target = os.fspath(path)
        folder = os.path.dirname(os.path.abspath(target))
        try:
            handle, temporary = tempfile.mkstemp(
                prefix=f".{os.path.basename(target)}.", suffix=".tmp", dir=folder
            )
        except OSError as exc:
            raise RecordFileError(
                f"cannot write a record to {target!r}: {exc.strerror or exc}", path=target
            ) from None
        try:
            # mkstemp makes the file private (0o600); a record is as readable as any
            # file written in place, or keeps the mode of the file it replaces.
            try:
                mode = stat.S_IMODE(os.stat(target).st_mode)
            except OSError:
                mode = 0o644
            os.chmod(temporary, mode)
            with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
                stream.write(text)
                stream.flush()
                os.fsync(stream.fileno())
            os.replace(temporary, target)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise RecordFileError(
                f"cannot write a record to {target!r}: {exc.strerror or exc}", path=target
            ) from None
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Record:
        """The record in the file ``path``, as :meth:`save` writes it.

        The file is read as UTF-8 and checked as :meth:`from_json` checks text; like
        it, this does not replay the record (:meth:`replay` does).

        Args:
            path: the record file.

        Returns:
            The record.

        Raises:
            RecordFileError: there is no such file, or it cannot be read (a folder, no
                permission, not UTF-8 text).
            SerializationError: the file holds no record: not JSON, or JSON that is
                not a record (the message names the file).

        Examples:
            >>> import cardcrawl
            >>> cardcrawl.Record.load("no-such-record.json")
            Traceback (most recent call last):
            ...
            cardcrawl.errors.RecordFileError: no record file at 'no-such-record.json'
        """
        source = os.fspath(path)
        try:
            with open(source, encoding="utf-8") as stream:
                text = stream.read()
        except FileNotFoundError:
            raise RecordFileError(f"no record file at {source!r}", path=source) from None
        except UnicodeDecodeError as exc:
            raise RecordFileError(
                f"cannot read the record file {source!r}: it is not UTF-8 text ({exc.reason} "
                f"at byte {exc.start})",
                path=source,
            ) from None
        except OSError as exc:
            raise RecordFileError(
                f"cannot read the record file {source!r}: {exc.strerror or exc}", path=source
            ) from None
        try:
            return cls.from_json(text)
        except SerializationError as exc:
            raise SerializationError(f"{source}: {exc}") from None


# The keys of a record of format 2, "stack" aside (it may be left out).
_KEYS = frozenset(
    {"format", "game", "rules_version", "options", "seed", "explicit_chance", "actions", "claims"}
)
_FORMATS = (_UNCLAIMED_FORMAT, RECORD_FORMAT, _TRACE_FORMAT)


def _record_of_play(
    game: Any,
    seed: int | None,
    actions: Sequence[Any],
    states: Sequence[Any],
    *,
    explicit_chance: bool,
    stack: Mapping[str, Sequence[Any]] | None,
    position: str | None = None,
    agents: Sequence[Agent] = (),
    started: str | None = None,
    seconds: Sequence[float | None] = (),
    comments: Mapping[int, str] | None = None,
) -> Record:
    """The record of a game whose states (the initial one first) are already known.

    :meth:`Record.of` without replaying: for :class:`~cardcrawl.Match`, which holds
    every state its actions made.
    """
    record = Record(
        game=game.name,
        options=game.options.to_data(),
        seed=seed,
        actions=tuple(game.format_action(a) for a in actions),
        rules_version=game.rules_version,
        explicit_chance=explicit_chance,
        stack=stack,
        agents=agents,
        started=started,
        seconds=seconds,
        comments=comments,
        position=position,
    )
    return record._claimed(game, states)
