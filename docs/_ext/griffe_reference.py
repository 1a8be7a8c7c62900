"""A Griffe extension that keeps the reference about the public API, not its code.

mkdocstrings shows an attribute as ``name = value`` with the value's source text. That
serves a short constant (``CHANCE = -1``), but not:

* a long value, such as a table of 26 lines (``STANDARD_DREAD_LINES``) or a long union
  of classes: it would fill a screen. The constant's docstring says in a line what it
  holds and links to where it is explained;
* an implementation detail, such as an attrs field definition
  (``index = attrs.field(validator=_check_index)``), a factory call or a reference to a
  private name: it says nothing a user can rely on.

This extension drops those values (the attribute stays, with its docstring and type),
in memory, as the package is loaded. The docs build alone uses it (``mkdocs.yml``).
"""

from __future__ import annotations

import re
from typing import Any

import griffe

#: The longest value shown, in characters: one short line.
MAX_VALUE = 40
# attrs.field(...), attr.ib(...), field(...), dataclasses.field(...), Factory(...).
_FIELD = re.compile(r"^(?:attrs?\.|dataclasses\.)?(?:field|ib|Factory|attrib)\(")
_PRIVATE = re.compile(r"(?<![\w.])_[A-Za-z]\w*|\._[A-Za-z]")


def value_is_shown(value: str) -> bool:
    """Whether the reference shows an attribute's value text ``value``.

    Examples:
        >>> value_is_shown("-1"), value_is_shown("attrs.field(validator=_check_index)")
        (True, False)
        >>> value_is_shown("MappingProxyType({" + "'x': 1, " * 20 + "})")
        False
    """
    text = value.strip()
    if len(text) > MAX_VALUE or "\n" in text:
        return False
    return not (_FIELD.match(text) or _PRIVATE.search(text))


class ShortValues(griffe.Extension):
    """Drop the values of attributes that are long or show implementation details."""

    def on_attribute_instance(self, *, attr: griffe.Attribute, **kwargs: Any) -> None:
        if attr.value is not None and not value_is_shown(str(attr.value)):
            attr.value = None
