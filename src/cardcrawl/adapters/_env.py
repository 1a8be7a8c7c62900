"""What the Gymnasium and PettingZoo environments share.

Both take a game the same way (a name with options, or a loaded game), accept the
same settings, and show an agent the same two things built from
:mod:`cardcrawl.encoding`: a seat's observation vector and the mask of legal actions.
Needs numpy, so only the adapters import it.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

import cardcrawl
from cardcrawl.encoding import Encoding
from cardcrawl.errors import OptionsError

#: What an environment does with an illegal action: end the episode with a penalty,
#: or raise :class:`~cardcrawl.IllegalActionError`.
IllegalActionMode = Literal["terminate", "raise"]


def load_game(game: Any, options: dict[str, Any]) -> Any:
    """The game named ``game`` loaded with ``options``, or ``game`` itself when loaded.

    Args:
        game: a registered game name, or a game already loaded.
        options: the game's options; only with a name.

    Returns:
        The loaded game.

    Raises:
        OptionsError: options given together with an already loaded game, or bad options.

    Examples:
        >>> load_game("mapless-house", {"max_turns": 50}).options.max_turns
        50
        >>> load_game(cardcrawl.load("mapless-house"), {"max_turns": 50})
        Traceback (most recent call last):
        ...
        cardcrawl.errors.OptionsError: options (max_turns) go with a game name; ...
    """
    if isinstance(game, str):
        return cardcrawl.load(game, **options)
    if options:
        raise OptionsError(
            f"options ({', '.join(sorted(options))}) go with a game name; "
            f"{game!r} is loaded already"
        )
    return game


def check_settings(render_mode: Any, illegal_action: Any) -> None:
    """Refuse a render mode other than ``None``/``"ansi"`` or an unknown illegal-action mode.

    Args:
        render_mode: the environment's render mode.
        illegal_action: what to do with an illegal action.

    Raises:
        OptionsError: saying which setting is wrong and what it may be.

    Examples:
        >>> check_settings("ansi", "raise")
        >>> check_settings("human", "raise")
        Traceback (most recent call last):
        ...
        cardcrawl.errors.OptionsError: render_mode is None or 'ansi', not 'human'
    """
    if render_mode is not None and render_mode != "ansi":
        raise OptionsError(f"render_mode is None or 'ansi', not {render_mode!r}")
    if illegal_action not in ("terminate", "raise"):
        raise OptionsError(f"illegal_action is 'terminate' or 'raise', not {illegal_action!r}")


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
