"""Gymnasium environments for the single-player games: The Mapless House and solo Haydes.

Install with ``pip install "cardcrawl[gymnasium]"``. Importing this module registers the
environments below with Gymnasium, so that ``gymnasium.make("cardcrawl/MaplessHouse-v0")``
works; or build :class:`CardcrawlEnv` directly for any single-player game and options.

* ``cardcrawl/MaplessHouse-v0``: ``mapless-house`` with ``max_turns=200``;
* ``cardcrawl/EscapeFromHaydes-v0``: ``escape-from-haydes`` with ``max_rounds=100``;
* ``cardcrawl/EscapeFromHaydesSoloTimer-v0``: ``escape-from-haydes-solo-timer`` (30 rounds);
* ``cardcrawl/EscapeFromHaydesTuybe-v0``: ``escape-from-haydes-tuybe`` with ``max_rounds=100``;
* ``cardcrawl/EscapeFromHaydesDenizens-v0``: ``escape-from-haydes-denizens`` with
  ``max_rounds=100``.

Each id also declares a native vector environment
(:class:`cardcrawl.adapters.vector.CardcrawlVectorEnv`) as its ``vector_entry_point``:
``gymnasium.make_vec(id, num_envs=64, vectorization_mode="vector_entry_point")``.

Keyword arguments of ``gymnasium.make`` override these options (``max_turns=None`` plays
the standard rules, without a limit).

The environment, in short:

* **actions**: ``Discrete(num_actions)`` numbered by :func:`cardcrawl.encoding.encoding_for`;
  only some are legal at each step, given by the mask ``info["action_mask"]`` (an int8
  array) and by :meth:`CardcrawlEnv.action_masks` (a bool array, as sb3-contrib's
  ``MaskablePPO`` expects);
* **observations**: ``Box(0, 1, (n,), float32)``, the encoding of
  ``game.observe(state, 0)``: only what the player may know;
* **chance** is sampled inside :meth:`~CardcrawlEnv.step` from the game's own generator,
  seeded by ``reset(seed=...)``: the same seed and actions give the same episode;
* **reward**: 0 on every step but the last, which pays the game's return (1.0 for an
  escape, 0.0 otherwise);
* **termination**: the game ended by its rules (``terminated``); **truncation**: it
  ended because its ``max_turns`` / ``max_rounds`` option ran out (``truncated``);
* **illegal actions** end the episode with ``illegal_reward`` (-1.0) and
  ``info["illegal_action"] = True``, as PettingZoo's classic games do; pass
  ``illegal_action="raise"`` to get :class:`~cardcrawl.IllegalActionError` instead.
"""

from __future__ import annotations

from typing import Any, cast

import gymnasium
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

import cardcrawl
from cardcrawl.adapters._env import (
    IllegalActionMode,
    action_mask,
    check_settings,
    load_game,
    observation_vector,
)
from cardcrawl.encoding import Encoding, EncodingError, encoding_for
from cardcrawl.errors import IllegalActionError, OptionsError

__all__ = ["ENV_IDS", "CardcrawlEnv", "register_envs"]

#: The environments registered with Gymnasium: id to ``CardcrawlEnv`` keyword arguments,
#: as each game declares them in its ``GameTools.gymnasium`` (see :func:`register_envs`).
ENV_IDS: dict[str, dict[str, Any]] = {}


class CardcrawlEnv(gymnasium.Env[NDArray[np.float32], np.int64]):
    """A single-player cardcrawl game as a Gymnasium environment.

    Args:
        game: a registered game name (``"mapless-house"``...) or a loaded game.
        render_mode: ``None`` or ``"ansi"`` (``render()`` returns the game's text picture).
        illegal_action: ``"terminate"`` (the default) ends the episode on an illegal
            action with ``illegal_reward``; ``"raise"`` raises
            :class:`~cardcrawl.IllegalActionError` (an index outside the action space
            raises :class:`~cardcrawl.encoding.EncodingError`).
        illegal_reward: the reward of an illegal action in ``"terminate"`` mode.
        **options: the game's options, with a game name (``max_turns=200``...).

    Raises:
        OptionsError: the game has more than one player (use the PettingZoo adapter), or
            bad options.
        EncodingError: the game has no encoding (not a built-in game).

    Examples:
        >>> from cardcrawl.adapters.gymnasium import CardcrawlEnv
        >>> env = CardcrawlEnv("mapless-house", max_turns=50)
        >>> obs, info = env.reset(seed=1)
        >>> obs.shape == env.observation_space.shape, int(info["action_mask"].sum()) > 0
        (True, True)
        >>> action = int(info["action_mask"].argmax())  # the first legal action
        >>> obs, reward, terminated, truncated, info = env.step(action)
        >>> reward, terminated, truncated
        (0.0, False, False)
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        game: Any,
        *,
        render_mode: str | None = None,
        illegal_action: IllegalActionMode = "terminate",
        illegal_reward: float = -1.0,
        **options: Any,
    ) -> None:
        loaded = load_game(game, options)
        encoding = encoding_for(loaded)
        if loaded.num_players != 1:
            raise OptionsError(
                f"the Gymnasium adapter plays single-player games; {loaded.name} has "
                f"{loaded.num_players} players here (use cardcrawl.adapters.pettingzoo)"
            )
        check_settings(render_mode, illegal_action)
        self.game: Any = loaded
        self.encoding: Encoding = encoding
        self.render_mode = render_mode
        self.illegal_action: IllegalActionMode = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.action_space = spaces.Discrete(encoding.num_actions)
        self.observation_space = spaces.Box(
            low=0.0, high=1.0, shape=encoding.observation_shape, dtype=np.float32
        )
        self._state: Any = None
        self._over = True

    @property
    def game_state(self) -> Any:
        """The current cardcrawl state (``None`` before the first reset)."""
        return self._state

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[np.float32], dict[str, Any]]:
        """Start a new game.

        Args:
            seed: seeds the environment's generator, which seeds the game.
            options: ``{"stack": {...}}`` passes a stacked deck to the game's
                ``initial_state`` (see the game's documentation for the sources).

        Returns:
            The first observation and ``info`` with the ``action_mask``.
        """
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**63))
        stack = (options or {}).get("stack")
        self._state = self.game.initial_state(game_seed, stack=stack)
        self._over = self.game.is_terminal(self._state)
        return self._observation(), self._info()

    def step(
        self, action: np.int64 | int
    ) -> tuple[NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        """Play the decision numbered ``action``, then any chance events that follow.

        Returns:
            ``(observation, reward, terminated, truncated, info)``.

        Raises:
            IllegalActionError: the game is over (reset first), or, in ``"raise"`` mode,
                the action is not legal now.
            EncodingError: in ``"raise"`` mode, ``action`` is outside the action space.
        """
        game = self.game
        if self._state is None or self._over:
            raise IllegalActionError(
                self._state, action, "a reset", (), "the episode is over: call reset()"
            )
        try:
            move = self.encoding.decode_action(cast(int, action))  # numpy ints welcome
            state = game.step(self._state, move)
        except (EncodingError, IllegalActionError):
            if self.illegal_action == "raise":
                raise
            self._over = True
            info = self._info()
            info["illegal_action"] = True
            return self._observation(), self.illegal_reward, True, False, info
        self._state = state
        reward, terminated, truncated = 0.0, False, False
        if game.is_terminal(state):
            self._over = True
            reward = float(game.returns(state)[0])
            truncated = self.encoding.ended_by_limit(state)
            terminated = not truncated
        return self._observation(), reward, terminated, truncated, self._info()

    def action_masks(self) -> NDArray[np.bool_]:
        """The legal actions now, as a bool array (all False once the game is over)."""
        return self._mask().astype(np.bool_)

    def render(self) -> str | None:
        """The game's text picture of the state in ``"ansi"`` mode, else ``None``."""
        if self.render_mode != "ansi" or self._state is None:
            return None
        text: str = self.game.render(self._state)
        return text

    # ------------------------------------------------------------ helpers
    def _vector(self, seat: int) -> NDArray[np.float32]:
        return observation_vector(self.encoding, self._state, seat)

    def _mask(self) -> NDArray[np.int8]:
        return action_mask(self.encoding, self._state, over=self._over)

    def _observation(self) -> NDArray[np.float32]:
        return self._vector(0)

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self._mask()}
        outcome = self.game.outcome(self._state)
        if outcome is not None:
            info["outcome"] = outcome.label
            if outcome.scores is not None:
                info["score"] = outcome.scores[0]
        return info


def register_envs() -> tuple[str, ...]:
    """Register with Gymnasium the environments every registered game declares.

    Called when this module is imported; call it again after registering a game of your
    own (or loading plug-ins) whose ``GameTools.gymnasium`` names environments.

    Returns:
        The ids registered by this call.

    Examples:
        >>> import gymnasium
        >>> from cardcrawl.adapters.gymnasium import ENV_IDS, register_envs
        >>> added = register_envs()  # only what is new: the built-in games' came on import
        >>> "cardcrawl/MaplessHouse-v0" in added, "cardcrawl/MaplessHouse-v0" in gymnasium.registry
        (False, True)
        >>> ENV_IDS["cardcrawl/MaplessHouse-v0"]
        {'game': 'mapless-house', 'max_turns': 200}
    """
    added = []
    for name in cardcrawl.game_names():
        spec = cardcrawl.get_spec(name)
        if spec.base is not None:
            continue  # a variant's environments are declared by the game it varies
        for env_id, kwargs in spec.tools.gymnasium.items():
            ENV_IDS[env_id] = dict(kwargs)
            if env_id not in gymnasium.registry:
                gymnasium.register(
                    id=env_id,
                    entry_point="cardcrawl.adapters.gymnasium:CardcrawlEnv",
                    vector_entry_point="cardcrawl.adapters.vector:CardcrawlVectorEnv",
                    kwargs=dict(kwargs),
                )
                added.append(env_id)
    return tuple(added)


register_envs()
