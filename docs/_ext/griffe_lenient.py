"""A stop-gap Griffe extension so that the reference renders the current docstrings well.

The source docstrings are Google style but use two habits that Griffe's Google parser
does not understand:

* the singular section title ``Example:`` (Griffe only knows ``Examples:``), which would
  otherwise render the doctests as nested block quotes instead of code;
* Sphinx roles such as ``:class:`~cardcrawl.Game``` and ``:meth:`step```, which would
  otherwise show up literally;
* Sphinx-style ``#:`` comments documenting constants and enum members (``CHANCE``,
  ``Phase.DRAW``), which Griffe does not read.

This extension rewrites both, in memory only, as the docstrings are loaded. Once the
docstrings use ``Examples:`` and Markdown cross-references, delete this file and its
line in ``mkdocs.yml``.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_EXAMPLE = re.compile(r"^(\s*)Example:\s*$", re.MULTILINE)
_ROLE = re.compile(r":(?:class|meth|func|data|mod|attr|exc|obj):`(~?)([^`]+)`")


def _role(match: re.Match[str]) -> str:
    tilde, target = match.groups()
    return f"`{target.rsplit('.', 1)[-1] if tilde else target}`"


class LenientDocstrings(griffe.Extension):
    """Normalize ``Example:`` sections and Sphinx roles in every loaded docstring."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        docstring = obj.docstring
        if docstring is not None:
            value = _EXAMPLE.sub(r"\1Examples:", docstring.value)
            docstring.value = _ROLE.sub(_role, value)

    def on_attribute_instance(self, *, attr: griffe.Attribute, **kwargs: Any) -> None:
        if attr.docstring is not None or attr.lineno is None:
            return
        if attr.filepath not in attr.lines_collection:
            return
        lines = attr.lines_collection[attr.filepath]
        if not lines:
            return
        comments: list[str] = []
        i = attr.lineno - 2  # the line above the assignment (lineno is 1-based)
        while i >= 0 and lines[i].lstrip().startswith("#:"):
            comments.insert(0, lines[i].lstrip()[2:].strip())
            i -= 1
        if comments:
            text = _ROLE.sub(_role, " ".join(comments))
            attr.docstring = griffe.Docstring(text, parent=attr)
