"""Reading a person's answer at the keyboard: lenient about spelling, strict about
meaning.

Records and :meth:`~cardcrawl.Game.parse_action` read only the exact text form of an
action. At the keyboard a person may also type an action as the events print its cell
(``place (0, 1)``, ``place 0, 1``), only the cell when a single legal action goes there
(``0,1``), or the action's number. This module matches such answers against the legal
actions' own text forms, so it works for every game without knowing any.

Examples:
    >>> import cardcrawl
    >>> from cardcrawl.cli._input import match_answer
    >>> game = cardcrawl.load("mapless-house")
    >>> legal = game.legal_actions(game.initial_state(seed=1))
    >>> [str(a) for a in legal]
    ['place -1,0', 'place 0,-1', 'place 0,1', 'place 1,0']
    >>> for answer in ("place 0, 1", "Place (0, 1)", "0,1", "(0, 1)", "3"):
    ...     print(answer, "->", match_answer(game, legal, answer).action)
    place 0, 1 -> place 0,1
    Place (0, 1) -> place 0,1
    0,1 -> place 0,1
    (0, 1) -> place 0,1
    3 -> place 0,1
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import attrs

from cardcrawl.errors import CardcrawlError

__all__ = ["Answer", "columns", "match_answer", "normalize"]

_CELL = re.compile(r"-?[0-9]+,-?[0-9]+")


def normalize(text: str) -> str:
    """``text`` in lower case, without brackets, with single spaces and none around
    commas: the spelling answers and action texts are compared in.

    Examples:
        >>> from cardcrawl.cli._input import normalize
        >>> normalize("  Place ( 0 ,  -1 ) ")
        'place 0,-1'
    """
    text = re.sub(r"[()\[\]]", " ", text.lower())
    text = " ".join(text.split())
    return re.sub(r" ?, ?", ",", text)


@attrs.frozen
class Answer:
    """What an answer names: one legal action, or why it names none.

    Attributes:
        action: the legal action the answer names, or ``None``.
        problem: when ``action`` is ``None``, a sentence saying why (empty when the
            answer is unclear altogether).
    """

    action: Any = None
    problem: str = ""


def match_answer(game: Any, legal: Sequence[Any], answer: str) -> Answer:
    """The legal action ``answer`` names, read leniently (see the module).

    Tried in order: the number of a choice (ASCII digits, 1 to ``len(legal)``); a
    legal action's text in another spelling (:func:`normalize`); a cell alone, when
    exactly one legal action's text ends with it; the game's own ``parse_action``.

    Args:
        game: the game being played.
        legal: the legal actions, in the order they are numbered.
        answer: what the person typed.

    Returns:
        The action, or the problem with the answer.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.cli._input import match_answer
        >>> game = cardcrawl.load("escape-from-haydes")
        >>> legal = game.legal_actions(game.initial_state(seed=3))
        >>> match_answer(game, legal, "HIGHER 0, 1").action
        Move(cell=(0, 1), guess=Guess.HIGHER)
        >>> match_answer(game, legal, "0,1").problem
        '0,1 could be 5) higher 0,1 or 6) lower 0,1: type one of them.'
        >>> match_answer(game, legal, "lower 5,5").problem
        'lower 5,5 is not legal now.'
    """
    key = normalize(answer)
    if key.isascii() and key.isdigit():
        number = int(key)
        if 1 <= number <= len(legal):
            return Answer(legal[number - 1])
        return Answer()
    texts = [normalize(game.format_action(a)) for a in legal]
    for text, action in zip(texts, legal, strict=True):
        if text == key:
            return Answer(action)
    if _CELL.fullmatch(key):
        going = [
            (i, a)
            for i, (t, a) in enumerate(zip(texts, legal, strict=True))
            if t.endswith(f" {key}")
        ]
        if len(going) == 1:
            return Answer(going[0][1])
        if going:
            named = [f"{i + 1}) {game.format_action(a)}" for i, a in going]
            listed = ", ".join(named[:-1]) + " or " + named[-1]
            return Answer(problem=f"{key} could be {listed}: type one of them.")
        return Answer(problem=f"No choice goes to {key}.")
    for text in (answer.strip(), key):
        try:
            action = game.parse_action(text)
            break
        except CardcrawlError:
            continue
    else:
        return Answer()
    if action in legal:
        return Answer(action)
    return Answer(problem=f"{game.format_action(action)} is not legal now.")


def columns(items: Sequence[str], width: int = 80) -> list[str]:
    """``items`` laid out in as many columns as fit in ``width``, read down each column.

    Examples:
        >>> from cardcrawl.cli._input import columns
        >>> columns(["1) a", "2) bb", "3) c"], width=14)
        ['1) a    3) c', '2) bb']
    """
    if not items:
        return []
    cell = max(len(item) for item in items) + 3
    count = max(1, (width + 3) // cell)
    rows = -(-len(items) // count)
    lines = []
    for row in range(rows):
        line = "".join(items[i].ljust(cell) for i in range(row, len(items), rows))
        lines.append(line.rstrip())
    return lines
