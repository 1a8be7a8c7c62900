"""The numpy arrays the Gymnasium and PettingZoo environments hand to agents.

Both environments show an agent the same two things, built the same way from
:mod:`cardcrawl.encoding`: a seat's observation vector and the mask of legal actions.
Needs numpy, so only the adapters import it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from cardcrawl.encoding import Encoding


def observation_vector(encoding: Encoding, state: Any, seat: int) -> NDArray[np.float32]:
    """What ``seat`` may know of ``state``, as the encoding's flat float32 vector.

    Args:
        encoding: the game's encoding.
        state: a state of ``encoding.game``.
        seat: the player observing.

    Returns:
        A new array of ``encoding.observation_shape``.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.encoding import encoding_for
        >>> encoding = encoding_for(cardcrawl.load("mapless-house"))
        >>> state = encoding.game.initial_state(seed=1)
        >>> vector = observation_vector(encoding, state, 0)
        >>> vector.shape == encoding.observation_shape, vector.dtype
        (True, dtype('float32'))
    """
    # Filled from the nonzero entries: converting the whole tuple costs far more.
    indices, values = encoding.encode_observation_sparse(encoding.game.observe(state, seat))
    vector = np.zeros(encoding.observation_shape, dtype=np.float32)
    vector[list(indices)] = values
    return vector


def action_mask(encoding: Encoding, state: Any, *, over: bool = False) -> NDArray[np.int8]:
    """1 for each action legal in ``state``, 0 elsewhere (all 0 once ``over``).

    Args:
        encoding: the game's encoding.
        state: a state of ``encoding.game``.
        over: the agent's episode has ended, so nothing is legal for it.

    Returns:
        A new int8 array of ``encoding.num_actions`` entries.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.encoding import encoding_for
        >>> encoding = encoding_for(cardcrawl.load("mapless-house"))
        >>> state = encoding.game.initial_state(seed=1)
        >>> mask = action_mask(encoding, state)
        >>> int(mask.sum()) == len(encoding.game.legal_actions(state))
        True
        >>> int(action_mask(encoding, state, over=True).sum())
        0
    """
    mask = np.zeros(encoding.num_actions, dtype=np.int8)
    if not over:
        mask[list(encoding.legal_indices(state))] = 1
    return mask
