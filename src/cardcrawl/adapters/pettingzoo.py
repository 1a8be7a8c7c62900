"""PettingZoo AEC environments for every built-in game: Haydes with 1-4 agents, The Mapless
House with one.

Install with ``pip install "cardcrawl[pettingzoo]"``. Build an environment with
:func:`env` (wrapped in PettingZoo's order-enforcing wrapper) or :class:`CardcrawlAECEnv`
(unwrapped), from a game name and its options, or from a loaded game.

The environment, in short, following PettingZoo's classic games:

* **agents** ``"player_0"`` ... one per seat, in seat order;
* **actions**: ``Discrete(num_actions)`` numbered by :func:`cardcrawl.encoding.encoding_for`;
* **observations**: a dict ``{"observation": Box(0, 1, (n,), float32), "action_mask":
  Box(0, 1, (num_actions,), int8)}``. The vector is the encoding of
  ``game.observe(state, seat)``, so an agent sees only what its player may know, written
  from its own seat; the mask is all zeros unless the agent is the one to act;
* **chance** (the first player, cards turned, dice) is sampled inside :meth:`step` from the
  game's own generator, seeded by ``reset(seed=...)``;
* **rewards**: 0 until the game ends, then each agent's return (1.0 for the player who
  escapes, 0.0 for the others); a player out of the game before it ends, as the
  game's tools say (``GameTools.players_out``: in Escape from Haydes, a trapped player,
  H-11), is terminated at once with reward 0, since it can no longer win;
* **termination** when the game ends by its rules, **truncation** for every agent when it
  ends by its ``max_turns`` / ``max_rounds`` option;
* **illegal actions** end the game for everyone, the offender receiving
  ``illegal_reward`` (-1.0) and ``info["illegal_action"] = True``, as PettingZoo's
  ``TerminateIllegalWrapper`` does; ``illegal_action="raise"`` raises
  :class:`~cardcrawl.IllegalActionError` instead.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from numpy.typing import NDArray

# PettingZoo ships no type information: its classes are Any to mypy.
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from cardcrawl.adapters._env import (
    IllegalActionMode,
    action_mask,
    check_settings,
    load_game,
    observation_vector,
)
from cardcrawl.core._registry import tools_for
from cardcrawl.encoding import Encoding, EncodingError, encoding_for
from cardcrawl.errors import IllegalActionError

__all__ = ["CardcrawlAECEnv", "env", "raw_env"]

Observation = dict[str, NDArray[Any]]


class CardcrawlAECEnv(AECEnv[str, Observation, int]):  # type: ignore[misc]
    """A cardcrawl game as a PettingZoo AEC environment, one agent per seat.

    Args:
        game: a registered game name (``"escape-from-haydes"``...) or a loaded game.
        render_mode: ``None`` or ``"ansi"`` (``render()`` returns the game's text picture).
        illegal_action: ``"terminate"`` (the default) or ``"raise"``; see the module
            docstring.
        illegal_reward: the offender's reward for an illegal action in ``"terminate"``
            mode.
        **options: the game's options, with a game name (``players=3``, ``max_rounds=50``...).

    Raises:
        OptionsError: bad options or settings.
        EncodingError: the game has no encoding (not a built-in game).

    Examples:
        >>> from cardcrawl.adapters.pettingzoo import CardcrawlAECEnv
        >>> env = CardcrawlAECEnv("escape-from-haydes", players=2, max_rounds=20)
        >>> env.reset(seed=7)
        >>> env.possible_agents
        ['player_0', 'player_1']
        >>> obs, reward, terminated, truncated, info = env.last()
        >>> sorted(obs), int(obs["action_mask"].sum()) > 0
        (['action_mask', 'observation'], True)
    """

    metadata: dict[str, Any] = {  # noqa: RUF012
        "render_modes": ["ansi"],
        "name": "cardcrawl_v0",
        "is_parallelizable": False,
        "render_fps": 4,
    }

    def __init__(
        self,
        game: Any,
        *,
        render_mode: str | None = None,
        illegal_action: IllegalActionMode = "terminate",
        illegal_reward: float = -1.0,
        **options: Any,
    ) -> None:
        super().__init__()
        loaded = load_game(game, options)
        encoding = encoding_for(loaded)
        check_settings(render_mode, illegal_action)
        self.game: Any = loaded
        self.encoding: Encoding = encoding
        self.render_mode = render_mode
        self.illegal_action: IllegalActionMode = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.possible_agents = [f"player_{p}" for p in range(loaded.num_players)]
        self._seat = {agent: p for p, agent in enumerate(self.possible_agents)}
        # Who is out before the end, as the game's tools say (no one, if they are silent).
        self._players_out = tools_for(loaded).players_out
        self._action_spaces = {
            a: spaces.Discrete(encoding.num_actions) for a in self.possible_agents
        }
        self._observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(
                        0.0, 1.0, shape=encoding.observation_shape, dtype=np.float32
                    ),
                    "action_mask": spaces.Box(0, 1, shape=(encoding.num_actions,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self._np_random: np.random.Generator | None = None
        self._state: Any = None
        self._over = True
        self.agents: list[str] = []
        self.agent_selection = self.possible_agents[0]

    @property
    def game_state(self) -> Any:
        """The current cardcrawl state (``None`` before the first reset)."""
        return self._state

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same object every call)."""
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent`` (the same object every call)."""
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game.

        Args:
            seed: seeds the environment's generator, which seeds the game; without it the
                generator goes on (or is seeded from the operating system the first time).
            options: ``{"stack": {...}}`` passes a stacked deck to the game's
                ``initial_state``; other keys are ignored.
        """
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        game_seed = int(self._np_random.integers(0, 2**63))
        stack = (options or {}).get("stack")
        self._state = self.game.initial_state(game_seed, stack=stack)
        self._over = False
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._after_play(self.possible_agents[0])

    def observe(self, agent: str) -> Observation:
        """What ``agent`` may know now, and its action mask."""
        seat = self._seat[agent]
        if agent == self.agent_selection and not self._is_out(agent):
            mask = self._mask()
        else:
            mask = np.zeros(self.encoding.num_actions, dtype=np.int8)
        return {"observation": self._vector(seat), "action_mask": mask}

    def step(self, action: Any) -> None:
        """Play the selected agent's decision numbered ``action`` (``None`` for an agent
        that is terminated or truncated), then any chance events that follow.

        Raises:
            IllegalActionError: in ``"raise"`` mode, the action is not legal now.
            EncodingError: in ``"raise"`` mode, ``action`` is outside the action space.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        try:
            move = self.encoding.decode_action(cast(int, action))  # numpy ints welcome
            state = self.game.step(self._state, move)
        except (EncodingError, IllegalActionError):
            if self.illegal_action == "raise":
                raise
            self._over = True
            self.rewards[agent] = self.illegal_reward
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos[agent]["illegal_action"] = True
            self._accumulate_rewards()
            return
        self._state = state
        self._after_play(agent)

    def render(self) -> str | None:
        """The game's text picture of the state in ``"ansi"`` mode, else ``None``."""
        if self.render_mode != "ansi" or self._state is None:
            return None
        text: str = self.game.render(self._state)
        return text

    def close(self) -> None:
        """Nothing to release."""

    # ------------------------------------------------------------ helpers
    def _vector(self, seat: int) -> NDArray[np.float32]:
        return observation_vector(self.encoding, self._state, seat)

    def _mask(self) -> NDArray[np.int8]:
        return action_mask(self.encoding, self._state, over=self._over)

    def _is_out(self, agent: str) -> bool:
        players_out = self._players_out
        return players_out is not None and self._seat[agent] in players_out(self.game, self._state)

    def _after_play(self, agent: str) -> None:
        """Update rewards, ends and the selected agent after the game moved on."""
        game, state = self.game, self._state
        if game.is_terminal(state):
            self._over = True
            returns = game.returns(state)
            label = game.outcome(state).label
            truncated = self.encoding.ended_by_limit(state)
            for a in self.agents:
                self.rewards[a] = float(returns[self._seat[a]])
                self.infos[a]["outcome"] = label
                if truncated:
                    self.truncations[a] = True
                else:
                    self.terminations[a] = True
            self.agent_selection = agent
            self._accumulate_rewards()
            return
        self.agent_selection = self.possible_agents[game.current_player(state)]
        # A player out for good (the game's players_out) ends its episode now, with
        # nothing won.
        newly_out = [a for a in self.agents if not self.terminations[a] and self._is_out(a)]
        for a in newly_out:
            self.terminations[a] = True
        self._accumulate_rewards()
        if newly_out:
            self._deads_step_first()


#: PettingZoo's name for the unwrapped environment class.
raw_env = CardcrawlAECEnv


def env(game: Any, **kwargs: Any) -> AECEnv[str, Observation, int]:
    """A :class:`CardcrawlAECEnv` in PettingZoo's order-enforcing wrapper.

    Args:
        game: a registered game name or a loaded game.
        **kwargs: the game's options and the environment's settings (``render_mode``,
            ``illegal_action``, ``illegal_reward``).

    Returns:
        The wrapped environment; ``.unwrapped`` is the :class:`CardcrawlAECEnv`.

    Examples:
        >>> from cardcrawl.adapters import pettingzoo as cz
        >>> e = cz.env("mapless-house", max_turns=30)
        >>> e.reset(seed=0)
        >>> e.agents
        ['player_0']
    """
    wrapped: AECEnv[str, Observation, int] = wrappers.OrderEnforcingWrapper(
        CardcrawlAECEnv(game, **kwargs)
    )
    return wrapped
