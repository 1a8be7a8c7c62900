"""A record's claims: what its actions lead to, as digests of the states they make.

A state's digest is the SHA-256 of its saved data as canonical JSON. Replaying a record
checks the start, the state after each action (the trail) and the end against its
claims, so a record cut, edited or corrupted is refused with the first entry at fault.
"""

from __future__ import annotations

import hashlib
import json
import typing
from collections.abc import Iterable, Mapping, Sequence
from typing import Annotated, Any, NamedTuple

import attrs

from cardcrawl.core._codec import (
    _base,
    _hints,
    decode,
    encode,
    fields_just_read,
    saved_fields,
)
from cardcrawl.core._limits import Limits, untagged
from cardcrawl.errors import RecordError, SerializationError, UnsupportedTypeError, short_repr

__all__ = ["Ending", "RecordClaims", "canonical_digest", "check_fields", "ending_of", "state_data"]


def check_fields(value: Any, what: str) -> None:
    """Raise RecordError if a field of the attrs value ``value`` breaks its declared type.

    Each field is written as the codec writes it and read back by its type, so a value
    built in Python is held to the very bounds that saved data is. A value the codec is
    building from saved data has had its fields read by those types already.
    """
    if fields_just_read(type(value)):
        return
    hints = _hints(type(value))
    for field in saved_fields(type(value)):
        given = getattr(value, field.name)
        try:
            read = decode(hints[field.name], encode(given), field.name)
        except (SerializationError, UnsupportedTypeError) as exc:
            raise RecordError(f"{what} has malformed {exc}") from None
        if read != given:
            # Saved and read back, it is another value: a dict where an Agent belongs,
            # text where an action's index does.
            where, expected = _first_unlike(field.name, hints[field.name], given, read)
            raise RecordError(
                f"{what} has malformed {where}: expected {expected}, found {short_repr(given)}"
            )


def _first_unlike(name: str, tp: Any, given: Any, read: Any) -> tuple[str, str]:
    """(where, what belongs there) for the first item of ``given`` unlike its reading."""
    tp = _base(tp)
    items = typing.get_args(tp)
    if isinstance(given, tuple) and typing.get_origin(tp) is tuple and len(given) == len(read):
        for i, (one, other) in enumerate(zip(given, read, strict=True)):
            if one != other:
                return f"{name}[{i}]", _named(items[0])
    return name, _named(tp)


def _named(tp: Any) -> str:
    tp = _base(tp)
    if isinstance(tp, type):
        return f"{'an' if tp.__name__[0] in 'AEIOU' else 'a'} {tp.__name__}"
    if typing.get_origin(tp) is Mapping:
        key = _base(typing.get_args(tp)[0])
        return f"a mapping with keys of type {getattr(key, '__name__', key)}"
    return f"a value of type {tp}"


# Hex digits kept of each state's digest in the trail: 64 bits tell a changed state
# from the recorded one as surely as the full 256 would (the final state keeps all
# 64 digits), at a quarter of the size.
PREFIX = 16
Digest = Annotated[str, Limits(pattern="[0-9a-f]{64}")]
Prefix = Annotated[str, Limits(pattern=f"[0-9a-f]{{{PREFIX}}}")]


class Ending(NamedTuple):
    """How a recorded game ended, as its claims hold it: a tuple ``(label, returns)``.

    Examples:
        >>> import cardcrawl
        >>> game = cardcrawl.load("mapless-house", max_turns=50)
        >>> state, actions = game.initial_state(seed=5), []
        >>> while not game.is_terminal(state):
        ...     actions.append(game.legal_actions(state)[-1])
        ...     state = game.step(state, actions[-1])
        >>> ending = cardcrawl.Record.of(game, seed=5, actions=actions).claims.ending
        >>> ending == ("consumed", (0.0,)), ending.label
        (True, 'consumed')
    """

    label: str
    returns: tuple[Annotated[float, Limits()], ...]


def _strings(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(values)


def _ending(value: Any) -> Any:
    # Given as a plain pair, an ending is made an Ending (left as it is if it is none).
    if isinstance(value, tuple) and len(value) == 2 and not isinstance(value, Ending):
        return Ending(*value)
    return value


@untagged
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
        ending: the finished game's outcome as its label and returns, an
            :class:`Ending` such as ``("escaped", (1.0,))``; ``None`` for a game not over.
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

    Raises:
        RecordError: a field is malformed, or the trail does not hold one digest per
            action.
    """

    length: Annotated[int, Limits(minimum=0)]
    ending: Ending | None = attrs.field(converter=_ending)
    digest: Digest
    start: Prefix
    trail: tuple[Prefix, ...] = attrs.field(converter=_strings)
    state_format: int | None

    def __attrs_post_init__(self) -> None:
        check_fields(self, "claims")
        if len(self.trail) != self.length:
            raise RecordError(
                f"claims has malformed trail: expected {self.length} digests of {PREFIX} hex "
                f"digits, one per action, found {len(self.trail)}"
            )


def canonical_digest(data: Any) -> str:
    """The SHA-256, in hex, of ``data`` as canonical JSON (sorted keys, no spaces)."""
    try:
        text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    except (ValueError, TypeError, RecursionError) as exc:
        # An integer too long for text, or data nested too deep, cannot be a record's.
        raise RecordError(
            f"the record holds data that JSON text cannot: {short_repr(exc)}"
        ) from None
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def state_data(game: Any, state: Any) -> tuple[int | None, Any]:
    """(the format of the game's saved states, the data of ``state`` that is digested)."""
    data = game.state_to_data(state)
    # The state alone, without the tags that name its game and versions: the record
    # holds those itself, and load_game() checks the rules version before replaying.
    fmt = data.get("format")
    return (fmt if type(fmt) is int else None), data.get("state", data)


def ending_of(game: Any, state: Any) -> Ending | None:
    """The ending of a finished game, or ``None`` while it goes on."""
    outcome = game.outcome(state)
    if outcome is None:
        return None
    return Ending(outcome.label, tuple(float(r) for r in outcome.returns))


def told(length: int, ending: Ending | None, digest: str) -> str:
    """A length, an ending and a final digest, in words."""
    actions = f"{length} action{'' if length == 1 else 's'}"
    if ending is None:
        over = "a game not over"
    else:
        over = f"a game ended {ending[0]!r} with returns {ending[1]}"
    return f"{actions}, {over} and a final state whose digest begins {digest[:PREFIX]}"


def _listed(names: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def claims_of(start: str, game: Any, states: Sequence[Any]) -> RecordClaims:
    """The claims of a record whose start digest is ``start`` and whose states (the
    initial one first) are ``states``."""
    saved = [state_data(game, s) for s in states]
    digests = [canonical_digest(data) for _, data in saved]
    return RecordClaims(
        length=len(states) - 1,
        ending=ending_of(game, states[-1]),
        digest=digests[-1],
        start=start,
        trail=tuple(d[:PREFIX] for d in digests[1:]),
        state_format=saved[0][0],
    )


def check_state_format(game: Any, name: str, found: int | None, claims: RecordClaims) -> None:
    """Refuse claims made from states saved in another format than ``found``."""
    if found != claims.state_format:
        raise RecordError(
            f"record's digests were made from {name} states saved in format "
            f"{short_repr(claims.state_format)}; this library saves them in format {found}, "
            "so it cannot check them"
        )


def check_entry(game: Any, i: int, text: str, state: Any, claims: RecordClaims) -> str:
    """The digest of ``state``, made by entry ``i`` (``text``), checked against the trail."""
    digest = canonical_digest(state_data(game, state)[1])
    if i >= len(claims.trail):
        raise RecordError(
            f"record entry {i} ({text!r}) was added: the record claims "
            f"{claims.length} actions, so this entry and any after it are not the game's"
        )
    if digest[:PREFIX] != claims.trail[i]:
        raise RecordError(
            f"record entry {i} ({text!r}) is not the action recorded: the record claims "
            f"the state after it has digest {claims.trail[i]}; replaying gives "
            f"{digest[:PREFIX]}. Every state before it is the one recorded, so this "
            "entry (or its claim in the trail) was changed"
        )
    return digest


def check_end(game: Any, length: int, last: Any, digest: str, claims: RecordClaims) -> None:
    """Check the length, the ending and the final digest of a record of ``length``
    actions whose last state is ``last``."""
    ending = ending_of(game, last)
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
        f"the record claims {told(claims.length, claims.ending, claims.digest)}; "
        f"replaying gives {told(length, ending, digest)}. {why[0].upper()}{why[1:]}"
    )
