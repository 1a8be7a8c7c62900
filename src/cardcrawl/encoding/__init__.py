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
  whose named parts are listed in ``layout``.

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

from cardcrawl.encoding._base import Encoding, EncodingError, Segment
from cardcrawl.encoding._haydes import HaydesEncoding
from cardcrawl.encoding._mapless import MAPLESS_RADIUS, MAPLESS_SIDE, MaplessEncoding
from cardcrawl.haydes._game import EscapeFromHaydes
from cardcrawl.mapless._game import MaplessHouse

__all__ = [
    "MAPLESS_RADIUS",
    "MAPLESS_SIDE",
    "Encoding",
    "EncodingError",
    "HaydesEncoding",
    "MaplessEncoding",
    "Segment",
    "encoding_for",
]


def encoding_for(game: Any) -> Encoding:
    """The encoding of ``game``, a game loaded with :func:`cardcrawl.load` (any built-in
    game, variant or options; a variant's own game class must derive from a built-in one).

    Args:
        game: the game, bound to its options.

    Returns:
        A new :class:`Encoding` bound to ``game``.

    Raises:
        EncodingError: ``game`` is not one of the built-in games.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.encoding import encoding_for
        >>> enc = encoding_for(cardcrawl.load("mapless-house", max_turns=200))
        >>> enc.version, enc.num_actions, enc.num_chance_outcomes, enc.observation_shape
        ('1', 7803, 52, (21290,))
        >>> encoding_for("chess")
        Traceback (most recent call last):
        ...
        cardcrawl.encoding._base.EncodingError: no encoding for 'chess': ...
    """
    if isinstance(game, MaplessHouse):
        return MaplessEncoding(game)
    if isinstance(game, EscapeFromHaydes):
        return HaydesEncoding(game)
    raise EncodingError(
        f"no encoding for {game!r}: encodings exist for the built-in games "
        "(mapless-house, escape-from-haydes and their variants)"
    )
