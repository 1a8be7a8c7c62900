"""An arm of a comparison named as text: a registered game or variant, with options."""

from __future__ import annotations

import json
import re
from typing import Any

from cardcrawl.core._registry import load
from cardcrawl.errors import OptionsError

__all__ = ["load_arm", "split_arm"]

_SPEC = re.compile(r"^\s*(?P<name>[^\s()]+)\s*(?:\((?P<options>.*)\))?\s*$", re.DOTALL)


def _top_level_commas(text: str) -> list[str]:
    """``text`` cut at the commas outside brackets, quotes and parentheses."""
    parts, depth, quote, start = [], 0, "", 0
    for i, char in enumerate(text):
        if quote:
            if char == quote and text[i - 1] != "\\":
                quote = ""
        elif char in "\"'":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p for p in (part.strip() for part in parts) if p]


def _value(raw: str) -> Any:
    # JSON where it reads, else the text itself (as -o NAME=VALUE reads a value); a
    # tuple written with parentheses reads as the list JSON would make of it.
    text = raw.strip()
    for attempt in (text, text.replace("(", "[").replace(")", "]")):
        try:
            return json.loads(attempt)
        except (ValueError, RecursionError):
            # Not JSON (or JSON nested past Python's reach): the options' own check
            # refuses what is not a value of the option.
            continue
    return text


def split_arm(text: str) -> tuple[str, dict[str, Any]]:
    """A game's name and options from ``NAME`` or ``NAME(OPTION=VALUE, ...)``.

    The form is OpenSpiel's ``load_game("name(p=v)")``. Values are read as JSON where
    they can be (``max_turns=30``, ``splits=[[10, 6]]``; parentheses count as brackets),
    else kept as text.

    Args:
        text: the arm as written.

    Returns:
        The name and the options.

    Raises:
        OptionsError: the text is not of that form, or an option is not ``NAME=VALUE``
            or is given twice.

    Examples:
        >>> from cardcrawl.compare import split_arm
        >>> split_arm("mapless-house(max_turns=30)")
        ('mapless-house', {'max_turns': 30})
        >>> split_arm("escape-from-haydes(players=2, splits=[(8, 8), (9, 7)])")
        ('escape-from-haydes', {'players': 2, 'splits': [[8, 8], [9, 7]]})
        >>> split_arm("mapless-house(30)")
        Traceback (most recent call last):
        ...
        cardcrawl.errors.OptionsError: an option of 'mapless-house(30)' is NAME=VALUE, not '30'
    """
    if not isinstance(text, str):
        raise OptionsError(f"a game to compare is a name or NAME(OPTION=VALUE, ...), not {text!r}")
    match = _SPEC.match(text)
    if match is None:
        raise OptionsError(
            f"{text!r} is not a game to compare: give a registered name, or "
            "NAME(OPTION=VALUE, ...) such as mapless-house(max_turns=30)"
        )
    options: dict[str, Any] = {}
    for part in _top_level_commas(match.group("options") or ""):
        name, sep, raw = part.partition("=")
        name = name.strip()
        if not sep or not name.isidentifier():
            raise OptionsError(f"an option of {text!r} is NAME=VALUE, not {part!r}")
        if name in options:
            raise OptionsError(f"option {name!r} is given twice in {text!r}")
        options[name] = _value(raw)
    return match.group("name"), options


def load_arm(text: str, **common: Any) -> Any:
    """The game ``text`` names (see :func:`split_arm`), with ``common`` options under
    its own.

    Args:
        text: ``NAME`` or ``NAME(OPTION=VALUE, ...)``.
        **common: options for every arm, which the arm's own override.

    Returns:
        The loaded game.

    Raises:
        OptionsError: the text is malformed, or an option is not one of the game's.
        UnknownGameError: no game or variant has that name.

    Examples:
        >>> from cardcrawl.compare import load_arm
        >>> load_arm("mapless-house(max_turns=30)", max_turns=200).options.max_turns
        30
    """
    name, options = split_arm(text)
    return load(name, **{**common, **options})
