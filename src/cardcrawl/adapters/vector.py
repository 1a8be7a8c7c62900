"""A native Gymnasium vector environment: N games of one single-player game per call.

Install with ``pip install "cardcrawl[gymnasium]"``. Every environment id that
:mod:`cardcrawl.adapters.gymnasium` registers declares this class as its
``vector_entry_point``, so that::

    envs = gymnasium.make_vec("cardcrawl/MaplessHouse-v0", num_envs=64,
                              vectorization_mode="vector_entry_point")

returns a :class:`CardcrawlVectorEnv`. It plays the very games that Gymnasium's
``SyncVectorEnv`` over :class:`~cardcrawl.adapters.gymnasium.CardcrawlEnv` plays (the
same seeds, actions, rewards, terminations, truncations and action masks), without an
environment object, a wrapper or a new array per game per step:

* **observations** are written into one preallocated array for the whole batch. With
  ``observation="compact"`` (the default, where the game has one) each row is the game's
  compact observation (:class:`cardcrawl.encoding.CompactObservation`: 178 bytes for
  The Mapless House, 1,820 for solo Escape from Haydes, ``uint8``); with
  ``observation="vector"``, or for a game without one, it is the flat ``float32``
  encoding that ``CardcrawlEnv`` returns, row for row the same;
* **action masks** (``info["action_mask"]``, ``int8``, shape ``(num_envs, num_actions)``)
  live in one preallocated array too;
* **autoreset** follows Gymnasium's default, ``AutoresetMode.NEXT_STEP``: the step after
  a game ends resets that environment and ignores its action;
* **seeds**: ``reset(seed=s)`` seeds environment ``i`` with ``s + i`` (or give a list),
  and each game's seed is drawn from that environment's own generator, as
  ``CardcrawlEnv`` draws it, so every game can be replayed alone.

The returned arrays are copies unless ``copy=False``, which hands out the batch's own
arrays: faster, and overwritten by the next call.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from numpy.typing import NDArray

from cardcrawl.adapters._env import IllegalActionMode, check_settings, load_game
from cardcrawl.encoding import Encoding, EncodingError, encoding_for
from cardcrawl.errors import IllegalActionError, OptionsError

__all__ = ["CardcrawlVectorEnv"]

_OBSERVATIONS = ("compact", "vector")


class CardcrawlVectorEnv(VectorEnv[NDArray[Any], NDArray[np.int64], NDArray[Any]]):
    """``num_envs`` games of a single-player cardcrawl game, stepped together.

    Args:
        game: a registered game name (``"mapless-house"``...) or a loaded game.
        num_envs: how many games are played side by side.
        observation: ``"compact"`` (the game's compact rows, ``uint8``) or ``"vector"``
            (the flat ``float32`` encoding of ``CardcrawlEnv``). A game without a
            compact form gives ``"vector"`` rows either way.
        illegal_action: ``"terminate"`` ends that environment's episode with
            ``illegal_reward`` (``info["illegal_action"]`` marks it); ``"raise"`` raises.
        illegal_reward: the reward of an illegal action in ``"terminate"`` mode.
        copy: return copies of the batch's arrays (the default) or the arrays themselves.
        **options: the game's options (``max_turns=200``...).

    Raises:
        OptionsError: a multi-player game, ``num_envs`` below 1, or bad options.
        EncodingError: the game has no encoding.

    Examples:
        >>> import numpy as np
        >>> from cardcrawl.adapters.vector import CardcrawlVectorEnv
        >>> envs = CardcrawlVectorEnv("mapless-house", num_envs=4, max_turns=50)
        >>> obs, info = envs.reset(seed=1)
        >>> obs.shape, obs.dtype, info["action_mask"].shape[0]
        ((4, 178), dtype('uint8'), 4)
        >>> actions = info["action_mask"].argmax(axis=1)  # the first legal action of each
        >>> obs, rewards, terminated, truncated, info = envs.step(actions)
        >>> rewards.tolist(), terminated.any()
        ([0.0, 0.0, 0.0, 0.0], np.False_)
    """

    metadata: dict[str, Any] = {  # noqa: RUF012
        "autoreset_mode": AutoresetMode.NEXT_STEP,
        "render_modes": ["ansi"],
    }

    def __init__(
        self,
        game: Any,
        num_envs: int = 1,
        *,
        observation: str = "compact",
        illegal_action: IllegalActionMode = "terminate",
        illegal_reward: float = -1.0,
        copy: bool = True,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        loaded = load_game(game, options)
        if loaded.num_players != 1:
            raise OptionsError(
                f"the vector environment plays single-player games; {loaded.name} has "
                f"{loaded.num_players} players here"
            )
        if type(num_envs) is not int or num_envs < 1:
            raise OptionsError(f"num_envs is an integer of at least 1, not {num_envs!r}")
        if observation not in _OBSERVATIONS:
            raise OptionsError(f"observation is 'compact' or 'vector', not {observation!r}")
        check_settings(render_mode, illegal_action)
        encoding = encoding_for(loaded)
        self.game: Any = loaded
        self.encoding: Encoding = encoding
        self.num_envs = num_envs
        self.render_mode = render_mode
        self.illegal_action: IllegalActionMode = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.copy = copy
        self.compact = encoding.compact() if observation == "compact" else None
        n, actions = num_envs, encoding.num_actions
        if self.compact is not None:
            # One buffer for the whole batch; the array is a view of it, so a row is
            # written in place by the game's compact form.
            self._buffer = bytearray(n * self.compact.size)
            self._obs: NDArray[Any] = np.frombuffer(self._buffer, dtype=np.uint8).reshape(
                n, self.compact.size
            )
            single: spaces.Box = spaces.Box(0, 255, (self.compact.size,), np.uint8)
        else:
            self._obs = np.zeros((n, *encoding.observation_shape), dtype=np.float32)
            single = spaces.Box(0.0, 1.0, encoding.observation_shape, np.float32)
        self.single_observation_space = single
        self.single_action_space = spaces.Discrete(actions)
        self.observation_space = spaces.Box(
            np.broadcast_to(single.low, (n, *single.shape)),
            np.broadcast_to(single.high, (n, *single.shape)),
            dtype=single.dtype,
        )
        self.action_space = spaces.MultiDiscrete(np.full(n, actions))
        self._mask = np.zeros((n, actions), dtype=np.int8)
        self._rewards = np.zeros(n, dtype=np.float64)
        self._terminated = np.zeros(n, dtype=np.bool_)
        self._truncated = np.zeros(n, dtype=np.bool_)
        self._illegal = np.zeros(n, dtype=np.bool_)
        self._states: list[Any] = [None] * n
        self._generators: list[np.random.Generator | None] = [None] * n
        # The indices set in each row, so that a row is cleared by what it holds.
        self._set_mask: list[list[int]] = [[] for _ in range(n)]
        self._set_obs: list[list[int]] = [[] for _ in range(n)]
        self._ended = np.zeros(n, dtype=np.bool_)
        self._index: dict[Any, int] = {}  # action to its integer: actions are values

    # ---------------------------------------------------------------- the API
    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[NDArray[Any], dict[str, Any]]:
        """Start a new game in every environment.

        Args:
            seed: ``None``, an integer ``s`` (environment ``i`` gets ``s + i``), or one
                seed (or ``None``) per environment.
            options: ``{"stack": {...}}`` for every game, as ``CardcrawlEnv.reset``.

        Returns:
            The observations and ``info`` with the action masks.

        Raises:
            OptionsError: a list of seeds whose length is not ``num_envs``.
        """
        if seed is None or isinstance(seed, int):
            seeds: list[int | None] = [
                None if seed is None else seed + i for i in range(self.num_envs)
            ]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise OptionsError(f"give one seed per environment: {self.num_envs}")
        stack = (options or {}).get("stack")
        for i, one in enumerate(seeds):
            if one is not None or self._generators[i] is None:
                self._generators[i] = seeding.np_random(one)[0]
            self._start(i, stack)
        self._rewards[:] = 0.0
        self._terminated[:] = False
        self._truncated[:] = False
        self._illegal[:] = False
        return self._out(self._obs), self._info()

    def step(
        self, actions: Any
    ) -> tuple[
        NDArray[Any], NDArray[np.float64], NDArray[np.bool_], NDArray[np.bool_], dict[str, Any]
    ]:
        """Play one decision in every environment (a reset where the last step ended
        a game).

        Args:
            actions: one action integer per environment.

        Returns:
            ``(observations, rewards, terminated, truncated, info)``.

        Raises:
            IllegalActionError: ``reset`` was never called; or, in ``"raise"`` mode, an
                illegal action.
            EncodingError: ``actions`` is not one integer per environment, or, in
                ``"raise"`` mode, an integer outside the action space.
        """
        if self._states[0] is None:
            raise IllegalActionError(None, actions, "a reset", (), "call reset() first")
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,) or chosen.dtype.kind not in "iu":
            raise EncodingError(
                f"actions are {self.num_envs} integers, one per environment, not {actions!r}"
            )
        game = self.game
        decode = self.encoding.decode_action
        is_terminal = game.is_terminal
        rewards, terminated, truncated = self._rewards, self._terminated, self._truncated
        self._illegal[:] = False
        for i, index in enumerate(chosen.tolist()):
            if self._ended[i]:
                self._start(i, None)
                rewards[i] = 0.0
                terminated[i] = truncated[i] = False
                continue
            rewards[i] = 0.0
            try:
                state = game.step(self._states[i], decode(index))
            except (EncodingError, IllegalActionError):
                if self.illegal_action == "raise":
                    raise
                self._ended[i] = self._illegal[i] = True
                rewards[i] = self.illegal_reward
                terminated[i], truncated[i] = True, False
                self._write(i, self._states[i], over=True)
                continue
            if is_terminal(state):
                self._ended[i] = True
                rewards[i] = float(game.returns(state)[0])
                truncated[i] = self.encoding.ended_by_limit(state)
                terminated[i] = not truncated[i]
            self._states[i] = state
            self._write(i, state, over=self._ended[i])
        return (
            self._out(self._obs),
            self._out(rewards),
            self._out(terminated),
            self._out(truncated),
            self._info(),
        )

    def action_masks(self) -> NDArray[np.bool_]:
        """The legal actions of every environment now, ``(num_envs, num_actions)`` bools."""
        return self._mask.astype(np.bool_)

    @property
    def game_states(self) -> tuple[Any, ...]:
        """The current cardcrawl state of each environment."""
        return tuple(self._states)

    def render(self) -> tuple[Any, ...] | None:
        """Each game's text picture in ``"ansi"`` mode, else ``None``."""
        if self.render_mode != "ansi" or self._states[0] is None:
            return None
        return tuple(self.game.render(state) for state in self._states)

    # ------------------------------------------------------------ helpers
    def _start(self, i: int, stack: Any) -> None:
        generator = self._generators[i]
        if generator is None:  # an environment reset by autoreset before any reset
            generator = self._generators[i] = seeding.np_random(None)[0]
        state = self.game.initial_state(int(generator.integers(0, 2**63)), stack=stack)
        self._states[i] = state
        self._ended[i] = self.game.is_terminal(state)
        self._write(i, state, over=bool(self._ended[i]))

    def _write(self, i: int, state: Any, *, over: bool) -> None:
        """Row ``i`` of the observations and of the action masks, for ``state``."""
        observation = self.game.observe(state, 0)
        if self.compact is not None:
            self.compact.write(observation, self._buffer, i * self.compact.size)
        else:
            row = self._obs[i]
            row[self._set_obs[i]] = 0.0
            entries = self.encoding.observation_entries(observation)
            indices = list(entries)
            row[indices] = list(entries.values())
            self._set_obs[i] = indices
        mask = self._mask[i]
        mask[self._set_mask[i]] = 0
        legal: list[int] = []
        if not over:
            index, encode = self._index, self.encoding.encode_action
            for action in self.game.legal_actions(state):
                number = index.get(action)
                if number is None:
                    number = index[action] = encode(action)
                legal.append(number)
            mask[legal] = 1
        self._set_mask[i] = legal

    def _info(self) -> dict[str, Any]:
        n = self.num_envs
        info: dict[str, Any] = {
            "action_mask": self._out(self._mask),
            "_action_mask": np.ones(n, dtype=np.bool_),
        }
        if self._illegal.any():
            info["illegal_action"] = self._out(self._illegal)
            info["_illegal_action"] = self._illegal.copy()
        return info

    def _out(self, array: NDArray[Any]) -> NDArray[Any]:
        return array.copy() if self.copy else array
