"""Bounds a field type carries for the codec and its JSON Schema: ``Annotated[T, Limits(...)]``.

A bound is written once, on the type of the field it bounds; the codec checks it when
it reads a value (:func:`~cardcrawl.core._codec.decode`) and the schema builder writes it
as the matching JSON Schema keywords (:func:`~cardcrawl.core._schema.type_schema`).

Fields whose key may be left out of the saved data carry :data:`OMITTED_WHEN_DEFAULT` in
their attrs metadata: the codec writes no key for the field's default value and reads a
missing key as the default.
"""

from __future__ import annotations

import re
from typing import TypeVar

import attrs

__all__ = ["OMITTED_WHEN_DEFAULT", "Limits", "untagged"]

T = TypeVar("T", bound=type)

_UNTAGGED: set[type] = set()


def untagged(cls: T) -> T:
    """Mark the attrs class ``cls`` as saved without the ``"type"`` key.

    The codec writes the class name under ``"type"`` so that it can tell the classes of
    a union apart; a class that is never one of several in a union, such as a record's,
    is saved as its fields alone.
    """
    _UNTAGGED.add(cls)
    return cls


def is_untagged(cls: type) -> bool:
    """Whether ``cls`` is saved without the ``"type"`` key (see :func:`untagged`)."""
    return cls in _UNTAGGED


#: attrs metadata of a field whose key is left out of the saved data at its default.
OMITTED_WHEN_DEFAULT = {"cardcrawl.omitted_when_default": True}


def is_omitted_when_default(field: attrs.Attribute[object]) -> bool:
    """Whether the key of ``field`` is left out at its default (see
    :data:`OMITTED_WHEN_DEFAULT`)."""
    return bool(field.metadata.get("cardcrawl.omitted_when_default"))


def _compiled(pattern: str | None) -> re.Pattern[str] | None:
    return None if pattern is None else re.compile(pattern)


@attrs.frozen
class Limits:
    """Bounds on a value: its range (numbers), its length (text, lists, objects) and the
    pattern its text matches in full. A number under limits is finite.

    Examples:
        >>> from typing import Annotated
        >>> from cardcrawl.core._codec import decode
        >>> Name = Annotated[str, Limits(min_length=1, max_length=3)]
        >>> decode(Name, "Ada")
        'Ada'
        >>> decode(Name, "Grace")
        Traceback (most recent call last):
        ...
        cardcrawl.errors.SerializationError: data: expected text of 1 to 3 characters, found 'Grace'
        >>> Limits(minimum=0).told("an integer")
        'an integer from 0'
    """

    minimum: int | float | None = None
    maximum: int | float | None = None
    min_length: int | None = None
    max_length: int | None = None
    pattern: str | None = None
    _regex: re.Pattern[str] | None = attrs.field(
        init=False,
        repr=False,
        eq=False,
        default=attrs.Factory(lambda s: _compiled(s.pattern), True),
    )

    def matches(self, text: str) -> bool:
        """Whether ``text`` matches :attr:`pattern` in full (any text, without one)."""
        return self._regex is None or self._regex.fullmatch(text) is not None

    def in_range(self, number: float) -> bool:
        """Whether ``number`` lies within :attr:`minimum` and :attr:`maximum`."""
        return (self.minimum is None or number >= self.minimum) and (
            self.maximum is None or number <= self.maximum
        )

    def fits_length(self, length: int) -> bool:
        """Whether ``length`` lies within :attr:`min_length` and :attr:`max_length`."""
        return (self.min_length is None or length >= self.min_length) and (
            self.max_length is None or length <= self.max_length
        )

    def told(self, noun: str, unit: str = "") -> str:
        """What a value under these limits is, in words: ``noun`` (``"an integer"``)
        followed by its bounds, its lengths counted in ``unit`` (``"characters"``)."""
        words = noun
        if self.minimum is not None and self.maximum is not None:
            words += f" from {self.minimum} to {self.maximum}"
        elif self.minimum is not None:
            words += f" from {self.minimum}"
        elif self.maximum is not None:
            words += f" of at most {self.maximum}"
        low, high = self.min_length, self.max_length
        if low is not None and high is not None:
            words += f" of {low} to {high} {unit}" if low != high else f" of {low} {unit}"
        elif high is not None:
            words += f" of at most {high} {unit}"
        elif low:
            words += f" of at least {low} {unit}"
        if self.pattern is not None:
            words += f" matching {self.pattern}"
        return words.rstrip()
