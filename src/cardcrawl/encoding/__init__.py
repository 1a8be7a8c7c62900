"""Action and observation encodings: each game's actions as integers, its observations as
flat vectors of numbers.

Learning libraries want a fixed, numbered action space and a fixed-size observation. An
:class:`Encoding` gives both for one game and its options, once, for every adapter
(OpenSpiel, PettingZoo, Gymnasium) and for your own code:

* ``encode_action`` / ``decode_action`` map decisions to ``0 .. num_actions - 1`` and back;
  the mapping never depends on the state, so an integer always means the same action;
* ``encode_chance`` / ``decode_chance`` do the same for chance outcomes (explicit-chance
  play), numbered separately;
* ``action_mask(state)`` marks the legal decisions;
* ``encode_observation(game.observe(state, player))`` is a flat tuple of floats in [0, 1],
  whose named parts are listed in ``layout``;
* ``compact()``, where a game has one, writes the same facts as a short row of bytes into
  a buffer the caller owns (:class:`CompactObservation`), for batches of games.

This module is pure Python (no numpy); the adapters turn its tuples into arrays. The
mapping and the layout carry a ``version``, bumped whenever either changes. See the
encodings page of the documentation for the layouts in full.

Examples:
    >>> import cardcrawl
    >>> from cardcrawl.encoding import encoding_for
    >>> game = cardcrawl.load("escape-from-haydes")
    >>> enc = encoding_for(game)
    >>> state = game.initial_state(seed=3)
    >>> legal = [enc.decode_action(i) for i, m in enumerate(enc.action_mask(state)) if m]
    >>> set(legal) == set(game.legal_actions(state))
    True
    >>> len(enc.encode_observation(game.observe(state, 0))) == enc.observation_shape[0]
    True
"""

from __future__ import annotations

from typing import Any

from cardcrawl.core._registry import tools_for
from cardcrawl.encoding._base import Encoding, EncodingError, LayoutBuilder, Segment
from cardcrawl.encoding._compact import CompactObservation, RowWriter

__all__ = [
    "CompactObservation",
    "Encoding",
    "EncodingError",
    "LayoutBuilder",
    "RowWriter",
    "Segment",
    "encoding_for",
]


def encoding_for(game: Any) -> Encoding:
    """The encoding of ``game``: the one its game declared when it registered (see
    :class:`cardcrawl.GameTools`), for any of its variants and options.

    Each game keeps its encoding in its own package
    (:class:`cardcrawl.mapless.MaplessEncoding`, :class:`cardcrawl.haydes.HaydesEncoding`).

    Args:
        game: the game, bound to its options.

    Returns:
        A new :class:`Encoding` bound to ``game``.

    Raises:
        EncodingError: ``game`` declared no encoding (or is not a registered game).

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.encoding import encoding_for
        >>> enc = encoding_for(cardcrawl.load("mapless-house", max_turns=200))
        >>> enc.version, enc.num_actions, enc.num_chance_outcomes, enc.observation_shape
        ('1', 7803, 52, (21290,))
        >>> encoding_for("chess")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cardcrawl.errors.EncodingError: no encoding for 'chess': ...
    """
    build = tools_for(game).encoding if not isinstance(game, str) else None
    if build is None:
        raise EncodingError(
            f"no encoding for {game!r}: a game declares its encoding when it registers "
            "(cardcrawl.register_game(..., tools=cardcrawl.GameTools(encoding=...)))"
        )
    encoding: Encoding = build(game)
    return encoding
