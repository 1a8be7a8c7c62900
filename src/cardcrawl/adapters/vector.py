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

* **games** are played in place: each environment keeps its game's working position
  (:func:`cardcrawl.working_for`), which the game's own rules change, hooks and
  variants included, and a state is frozen only when :attr:`~CardcrawlVectorEnv.game_states`
  asks for it;

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

The returned arrays are copies unless ``copy=False``, which hands out read-only views
of the batch's own arrays: faster, and overwritten by the next call.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from numpy.typing import NDArray

from cardcrawl.adapters._batch import Batch
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
        copy: return copies of the batch's arrays (the default) or the arrays themselves
            (read-only views, overwritten by the next call).
        events: whether :attr:`game_states` carry the last step's events, as a single
            environment's states do (``False``, the default, lets the rules skip them).
        **options: the game's options (``max_turns=200``...).

    Raises:
        OptionsError: a multi-player game, ``num_envs`` below 1, a bad ``events``, or
            bad options.
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
        events: bool = False,
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
        if type(events) is not bool:
            raise OptionsError(f"events is True or False, not {events!r}")
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
        writers: list[Any] | None = None
        if self.compact is not None:
            single: spaces.Box = spaces.Box(0, 255, (self.compact.size,), np.uint8)
        else:
            self._flat = np.zeros((n, *encoding.observation_shape), dtype=np.float32)
            single = spaces.Box(0.0, 1.0, encoding.observation_shape, np.float32)
            writers = [_FlatWriter(encoding, self._flat[i]) for i in range(n)]
        self._generators: list[np.random.Generator | None] = [None] * n
        self._batch = Batch(
            loaded,
            n,
            encoding,
            self.compact,
            writers,
            events=events,
            illegal_raise=illegal_action == "raise",
            illegal_reward=self.illegal_reward,
            next_seed=self._next_seed,
        )
        batch = self._batch
        if writers is not None:
            for writer in writers:
                writer.working = batch.working
        self.single_observation_space = single
        self.single_action_space = spaces.Discrete(actions)
        self.observation_space = spaces.Box(
            np.broadcast_to(single.low, (n, *single.shape)),
            np.broadcast_to(single.high, (n, *single.shape)),
            dtype=single.dtype,
        )
        self.action_space = spaces.MultiDiscrete(np.full(n, actions))
        # Views of the batch's own buffers: written in place by the batch, never copied,
        # and read-only to whoever is handed them (copy=False), since the batch writes
        # only what changed in a row.
        if self.compact is not None:
            self._obs = _view(np.frombuffer(batch.obs, dtype=np.uint8).reshape(n, -1))
        else:
            self._obs = _view(self._flat)
        self._mask = _view(np.frombuffer(batch.mask, dtype=np.int8).reshape(n, actions))
        self._rewards = _view(np.frombuffer(batch.rewards, dtype=np.float64))
        self._terminated = _view(np.frombuffer(batch.terminated, dtype=np.bool_))
        self._truncated = _view(np.frombuffer(batch.truncated, dtype=np.bool_))
        self._illegal = _view(np.frombuffer(batch.illegal, dtype=np.bool_))
        self._every = _view(np.ones(n, dtype=np.bool_))  # every env has a mask
        self._started = False

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
        batch = self._batch
        for i, one in enumerate(seeds):
            if one is not None or self._generators[i] is None:
                self._generators[i] = seeding.np_random(one)[0]
            batch.start(i, self._next_seed(i), stack)
        for flags in (batch.terminated, batch.truncated, batch.illegal):
            flags[:] = bytes(self.num_envs)
        batch.rewards[:] = array("d", bytes(8 * self.num_envs))
        self._started = True
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
        if not self._started:
            raise IllegalActionError(None, actions, "a reset", (), "call reset() first")
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,) or chosen.dtype.kind not in "iu":
            raise EncodingError(
                f"actions are {self.num_envs} integers, one per environment, not {actions!r}"
            )
        numbers = chosen.tolist()
        if chosen.dtype.kind == "u" and max(numbers) >= 2**63:
            # The batch takes machine-sized numbers: one this large is no action, as the
            # encoding says in "raise" mode, and an illegal one otherwise.
            if self.illegal_action == "raise":
                self.encoding.decode_action(max(numbers))
            numbers = [-1 if k >= 2**63 else k for k in numbers]
        self._batch.step(numbers)
        return (
            self._out(self._obs),
            self._out(self._rewards),
            self._out(self._terminated),
            self._out(self._truncated),
            self._info(),
        )

    def action_masks(self) -> NDArray[np.bool_]:
        """The legal actions of every environment now, ``(num_envs, num_actions)`` bools."""
        return self._mask.astype(np.bool_)

    @property
    def game_states(self) -> tuple[Any, ...]:
        """The current cardcrawl state of each environment, frozen from its working
        position when asked for (with the last step's events if ``events=True``, else
        none)."""
        batch = self._batch
        return tuple(batch.freeze(i) for i in range(self.num_envs)) if self._started else ()

    def render(self) -> tuple[Any, ...] | None:
        """Each game's text picture in ``"ansi"`` mode, else ``None``."""
        if self.render_mode != "ansi" or not self._started:
            return None
        return tuple(self.game.render(state) for state in self.game_states)

    # ------------------------------------------------------------ helpers
    def _next_seed(self, i: int) -> int:
        """The seed of environment ``i``'s next game, drawn from its own generator as
        ``CardcrawlEnv`` draws it."""
        generator = self._generators[i]
        if generator is None:  # an environment reset by autoreset before any reset
            generator = self._generators[i] = seeding.np_random(None)[0]
        return int(generator.integers(0, 2**63))

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {
            "action_mask": self._out(self._mask),
            "_action_mask": self._out(self._every),
        }
        if 1 in self._batch.illegal:  # a scan of the bytes, cheaper than numpy's any()
            info["illegal_action"] = self._out(self._illegal)
            info["_illegal_action"] = self._illegal.copy()
        return info

    def _out(self, array: NDArray[Any]) -> NDArray[Any]:
        return array.copy() if self.copy else array


def _view(array: NDArray[Any]) -> NDArray[Any]:
    """A read-only view of ``array``."""
    view: NDArray[Any] = array.view()
    view.flags.writeable = False
    return view


class _FlatWriter:
    """Writes one row of the flat ``float32`` encoding, from the frozen state's
    observation, clearing only the entries it set last."""

    def __init__(self, encoding: Encoding, row: NDArray[np.float32]) -> None:
        self.encoding = encoding
        self.row = row
        self.working: Any = None
        self._set: list[int] = []

    def write_position(self, position: Any, out: Any, offset: int = 0) -> None:
        row = self.row
        row[self._set] = 0.0
        state = self.working.freeze(position)
        entries = self.encoding.observation_entries(self.encoding.game.observe(state, 0))
        indices = list(entries)
        row[indices] = list(entries.values())
        self._set = indices
