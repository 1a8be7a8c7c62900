"""Play over the protocol, for any game: a match with fair undo, records, HTML replays.

- :class:`Match`, ``MatchEntry``, :class:`~cardcrawl.errors.UndoError`: a game in
  progress that remembers its history, with undo and redo that never reach back across
  revealed chance unless asked to;
- :class:`Record`: a whole game as data (game, options, seed, actions) that replays and
  verifies itself, and as a match trace names its :class:`Agent` per seat, its result,
  its start time, and the seconds and comments of its actions;
- :func:`replay_html`: a self-contained HTML page stepping through a record.

The names are also re-exported by :mod:`cardcrawl`.

Examples:
    >>> import cardcrawl
    >>> from cardcrawl.play import Match
    >>> match = Match.start(cardcrawl.load("mapless-house", max_turns=20), seed=1)
    >>> match.state == match.game.initial_state(seed=1)
    True
"""

from typing import TYPE_CHECKING

from cardcrawl.core._deprecation import moved_names
from cardcrawl.play._html import replay_html
from cardcrawl.play._match import Match
from cardcrawl.play._record import Agent, Record

__all__ = ["Agent", "Match", "Record", "replay_html"]

# The names this package no longer promises, each with where it lives now: they still
# answer, with a DeprecationWarning, for one release. Type checkers are not shown this
# __getattr__: with it, they would accept any name of the package.
if not TYPE_CHECKING:
    __getattr__ = moved_names(
        __name__,
        {
            "MatchEntry": "cardcrawl.play._match",
            "RecordClaims": "cardcrawl.play._record",
        },
    )
