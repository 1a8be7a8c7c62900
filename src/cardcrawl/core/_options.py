"""Game options: frozen, validated, serializable values.

Each game defines its options as an attrs class deriving from :class:`OptionsBase`; its
validators raise :class:`~cardcrawl.OptionsError` saying what is allowed.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from typing import Any, TypeVar

import attrs

from cardcrawl.core._codec import decode, encode, saved_fields
from cardcrawl.errors import OptionsError, SerializationError, short_repr

__all__ = ["OptionsBase", "optional_positive_int"]

T = TypeVar("T", bound="OptionsBase")


class OptionsBase:
    """Shared behaviour of every game's options class (an ``attrs.frozen`` class).

    A game's options are a frozen value: read them from data with :meth:`from_data`,
    write them with :meth:`to_data`, and change one with :meth:`replace`, each validated.

    Examples:
        >>> import cardcrawl
        >>> options = cardcrawl.load("mapless-house", max_turns=100).options
        >>> isinstance(options, cardcrawl.OptionsBase), options.to_data()
        (True, {'max_turns': 100, 'dread_lines': None})
        >>> options.replace(max_turns=20).max_turns
        20
        >>> type(options).from_data({"colour": "red"})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cardcrawl.errors.OptionsError: MaplessOptions has no option 'colour'; the options are: ...
    """

    @classmethod
    def from_data(cls: type[T], data: Mapping[str, Any]) -> T:
        """Options from a mapping of names to JSON-compatible values.

        Missing names take their defaults.

        Args:
            data: option values by name, as JSON-compatible data.

        Returns:
            The options, validated.

        Raises:
            OptionsError: an unknown name, or a value of the wrong type or range.
        """
        if not isinstance(data, Mapping):
            raise OptionsError(f"options are a mapping of names to values, not {data!r}")
        fields = {f.name: f for f in saved_fields(cls)}
        unknown = sorted(set(data) - set(fields))
        if unknown:
            raise OptionsError(
                f"{cls.__name__} has no option {', '.join(map(repr, unknown))}; "
                f"the options are: {', '.join(sorted(fields))}"
            )
        data = {k: v for k, v in data.items() if k != "type"}
        hints = typing.get_type_hints(cls)
        kwargs = {}
        for name, value in data.items():
            try:
                kwargs[name] = decode(hints[name], encode(value), name)
            except (SerializationError, TypeError) as exc:
                raise OptionsError(f"option {exc}") from None
        return cls(**kwargs)

    def to_data(self) -> dict[str, Any]:
        """The options as a JSON-compatible mapping of names to values."""
        return {f.name: encode(getattr(self, f.name)) for f in saved_fields(type(self))}

    def replace(self: T, **changes: Any) -> T:
        """A copy with some options changed, validated again.

        Raises:
            OptionsError: a changed option is unknown or invalid.
        """
        return type(self).from_data({**self.to_data(), **changes})


def optional_positive_int(instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    """An attrs validator: ``None`` or an integer of at least 1."""
    if value is None:
        return
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise OptionsError(
            f"{attribute.name} is None (no limit) or an integer >= 1, not {short_repr(value)}"
        )
