"""Play over the protocol, for any game: a match with fair undo, records, HTML replays.

- :class:`Match`, :class:`MatchEntry`, :class:`~cardcrawl.errors.UndoError`: a game in
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

from cardcrawl.play._html import replay_html
from cardcrawl.play._match import Match, MatchEntry
from cardcrawl.play._record import Agent, Record, RecordClaims

__all__ = ["Agent", "Match", "MatchEntry", "Record", "RecordClaims", "replay_html"]
